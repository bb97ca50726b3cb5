/**
 * The `transient-lab/build@1` manifest that `transient-lab build` writes beside its libraries and
 * `profile --prebuilt` reads back (docs/build.md). Reading is strict: every field is checked, and a bad one is
 * a TlabError naming the manifest file and the JSON path of the field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODES, type Mode, type Target } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { packageRoot } from '../paths.js';
import type { JsonInteger } from './result.js';
import { parseLibraryImpl } from '../sdfg/expand/impl.js';

export const BUILD_SCHEMA = 'transient-lab/build@1';
export const MANIFEST_FILE = 'manifest.json';

export interface ManifestVariant {
  mode: Mode;
  layout: Layout | null;
  label: string;
  target: Target;
  /** Library and source, relative to the manifest's folder. */
  library: string;
  source: string;
  librarySha256: string;
  sourceSha256: string;
  /** EXTERNAL: bytes per storage the library's get function returns; {} for other modes. */
  workspaceBytes: Record<string, JsonInteger>;
  compiler: { name: string; version: string; versionLine: string };
  /** Every compiler flag, and the optimisation flags among them (DaCe's defaults or --cxxflags). */
  flags: string[];
  cxxflags: string[];
  openmp: boolean;
}

export interface BuildManifest {
  schema: typeof BUILD_SCHEMA;
  tool: { name: 'transient-lab'; version: string };
  /** The SDFG, copied into the folder (`file`) so that the folder alone can be profiled elsewhere. */
  sdfg: { name: string; file: string; sha256: string; original: string };
  target: Target;
  /** Every symbol value the libraries were specialised for. */
  symbols: Record<string, JsonInteger>;
  createdAt: string;
  /** GPU folders only: the pool release threshold the libraries set in init (decimal; `build
   * --pool-release-threshold`, default UINT64_MAX). Absent on CPU folders. */
  poolReleaseThreshold?: string;
  /** `build --library-impl` as given (`blas`, `blas,gemm=pure`); absent: pure everywhere. */
  libraryImpl?: string;
  variants: ManifestVariant[];
}

let cachedVersion: string | null = null;

/** The installed Transient Lab's version (package.json). */
export function toolVersion(): string {
  if (cachedVersion) return cachedVersion;
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  return cachedVersion;
}

type Json = unknown;

class Reader {
  constructor(private readonly file: string) {}

  fail(path: string, message: string): never {
    throw new TlabError('input', message, { file: this.file, jsonPath: path });
  }

  object(v: Json, path: string): Record<string, Json> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, `expected an object, got ${describe(v)}`);
    return v as Record<string, Json>;
  }

  string(o: Record<string, Json>, key: string, path: string): string {
    const v = o[key];
    if (typeof v !== 'string' || !v) this.fail(`${path}.${key}`, `expected a non-empty string, got ${describe(v)}`);
    return v;
  }

  boolean(o: Record<string, Json>, key: string, path: string): boolean {
    const v = o[key];
    if (typeof v !== 'boolean') this.fail(`${path}.${key}`, `expected true or false, got ${describe(v)}`);
    return v;
  }

  integerMap(o: Record<string, Json>, key: string, path: string): Record<string, JsonInteger> {
    const m = this.object(o[key], `${path}.${key}`);
    for (const [k, v] of Object.entries(m)) {
      const ok = (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v));
      if (!ok) this.fail(`${path}.${key}.${k}`, `expected an integer (a number, or a decimal string beyond 2^53), got ${describe(v)}`);
    }
    return m as Record<string, JsonInteger>;
  }

  relativeFile(o: Record<string, Json>, key: string, path: string): string {
    const v = this.string(o, key, path);
    // The folder must stay self-contained: no absolute paths, nothing outside it.
    if (v.startsWith('/') || v.split(/[\\/]/).includes('..'))
      this.fail(`${path}.${key}`, `expected a file name inside the build folder, got '${v}'`);
    return v;
  }

  sha256(o: Record<string, Json>, key: string, path: string): string {
    const v = this.string(o, key, path);
    if (!/^[0-9a-f]{64}$/.test(v)) this.fail(`${path}.${key}`, `expected a sha256 in hex, got '${v}'`);
    return v;
  }
}

function describe(v: Json): string {
  if (v === undefined) return 'nothing (the field is missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  // Parsed JSON holds no other kind of value.
  return typeof v;
}

const TARGETS: readonly Target[] = ['cpu', 'gpu'];

/** Parses and checks a manifest's text; `file` names it in errors. */
export function parseManifest(text: string, file: string): BuildManifest {
  const r = new Reader(file);
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new TlabError('input', `not valid JSON: ${(cause as Error).message}`, { file, cause });
  }
  const root = r.object(json, '$');
  const schema = root.schema;
  if (schema !== BUILD_SCHEMA) {
    const hint =
      typeof schema === 'string' && schema.startsWith('transient-lab/build@')
        ? ` (written by another version of Transient Lab: rebuild the folder with this one)`
        : '';
    r.fail('$.schema', `expected '${BUILD_SCHEMA}', got ${describe(schema)}${hint}`);
  }
  const tool = r.object(root.tool, '$.tool');
  if (tool.name !== 'transient-lab') r.fail('$.tool.name', `expected 'transient-lab', got ${describe(tool.name)}`);
  const version = r.string(tool, 'version', '$.tool');
  const sdfg = r.object(root.sdfg, '$.sdfg');
  const target = root.target;
  if (!TARGETS.includes(target as Target)) r.fail('$.target', `expected 'cpu' or 'gpu', got ${describe(target)}`);
  const symbols = r.integerMap(root, 'symbols', '$');
  const variantsJson = root.variants;
  if (!Array.isArray(variantsJson) || variantsJson.length === 0)
    r.fail('$.variants', `expected a non-empty array of variants, got ${describe(variantsJson)}`);
  const variants: ManifestVariant[] = (variantsJson as Json[]).map((item, i) => {
    const p = `$.variants[${i}]`;
    const v = r.object(item, p);
    const mode = v.mode;
    if (!(MODES as readonly Json[]).includes(mode)) r.fail(`${p}.mode`, `expected one of ${MODES.join(', ')}, got ${describe(mode)}`);
    const layout = v.layout;
    if (mode === 'EXTERNAL' ? layout !== 'dace' && layout !== 'packed' : layout !== null) {
      r.fail(
        `${p}.layout`,
        mode === 'EXTERNAL'
          ? `expected 'dace' or 'packed', got ${describe(layout)}`
          : `expected null for ${String(mode)}, got ${describe(layout)}`,
      );
    }
    const vt = v.target;
    if (vt !== target) r.fail(`${p}.target`, `expected '${String(target)}' (the manifest's target), got ${describe(vt)}`);
    const compiler = r.object(v.compiler, `${p}.compiler`);
    const flags = v.flags;
    if (!Array.isArray(flags) || !flags.every((f) => typeof f === 'string'))
      r.fail(`${p}.flags`, `expected an array of strings, got ${describe(flags)}`);
    const cxxflags = v.cxxflags;
    if (!Array.isArray(cxxflags) || !cxxflags.every((f) => typeof f === 'string'))
      r.fail(`${p}.cxxflags`, `expected an array of strings, got ${describe(cxxflags)}`);
    return {
      mode: mode as Mode,
      layout: layout as Layout | null,
      label: r.string(v, 'label', p),
      target: vt as Target,
      library: r.relativeFile(v, 'library', p),
      source: r.relativeFile(v, 'source', p),
      librarySha256: r.sha256(v, 'librarySha256', p),
      sourceSha256: r.sha256(v, 'sourceSha256', p),
      workspaceBytes: r.integerMap(v, 'workspaceBytes', p),
      compiler: {
        name: r.string(compiler, 'name', `${p}.compiler`),
        version:
          typeof compiler.version === 'string'
            ? compiler.version
            : r.fail(`${p}.compiler.version`, `expected a string, got ${describe(compiler.version)}`),
        versionLine: r.string(compiler, 'versionLine', `${p}.compiler`),
      },
      flags: flags as string[],
      cxxflags: cxxflags as string[],
      openmp: r.boolean(v, 'openmp', p),
    };
  });
  const seen = new Set<string>();
  for (const [i, v] of variants.entries()) {
    const key = `${v.mode}/${v.layout ?? ''}`;
    if (seen.has(key)) r.fail(`$.variants[${i}]`, `${v.label} appears twice`);
    seen.add(key);
  }
  return {
    schema: BUILD_SCHEMA,
    tool: { name: 'transient-lab', version },
    sdfg: {
      name: r.string(sdfg, 'name', '$.sdfg'),
      file: r.relativeFile(sdfg, 'file', '$.sdfg'),
      sha256: r.sha256(sdfg, 'sha256', '$.sdfg'),
      original: r.string(sdfg, 'original', '$.sdfg'),
    },
    target: target as Target,
    symbols,
    createdAt: typeof root.createdAt === 'string' ? root.createdAt : '',
    ...(root.poolReleaseThreshold === undefined
      ? {}
      : { poolReleaseThreshold: decimal(r, root.poolReleaseThreshold, '$.poolReleaseThreshold') }),
    ...(root.libraryImpl === undefined ? {} : { libraryImpl: libraryImplField(r, root.libraryImpl) }),
    variants,
  };
}

function libraryImplField(r: Reader, v: Json): string {
  if (typeof v !== 'string') r.fail('$.libraryImpl', `expected a string such as "blas", got ${describe(v)}`);
  try {
    parseLibraryImpl(v, 'libraryImpl');
  } catch (err) {
    r.fail('$.libraryImpl', err instanceof Error ? err.message : String(err));
  }
  return v;
}

/** A non-negative integer below 2^64 written as a decimal string. */
function decimal(r: Reader, v: Json, path: string): string {
  if (typeof v !== 'string' || !/^(0|[1-9]\d*)$/.test(v) || BigInt(v) >= 2n ** 64n)
    r.fail(path, `expected a decimal string of an unsigned 64-bit integer, got ${describe(v)}`);
  return v;
}
