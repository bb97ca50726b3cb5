import { describe, expect, it } from 'vitest';
import { TlabError } from '../../../electron/engine/errors.js';
import { BUILD_SCHEMA, parseManifest, toolVersion } from '../../../electron/engine/profile/manifest.js';

const sha = 'a'.repeat(64);

/** A manifest as these tests break it: loosely typed where they write values of the wrong type on purpose. */
interface ManifestJson {
  [key: string]: unknown;
  schema: string;
  target: string;
  symbols: Record<string, unknown>;
  sdfg: Record<string, unknown>;
  variants: Array<Record<string, unknown>>;
}

function manifest(): ManifestJson {
  return {
    schema: BUILD_SCHEMA,
    tool: { name: 'transient-lab', version: toolVersion() },
    sdfg: { name: 'p', file: 'p.sdfg', sha256: sha, original: '/x/p.sdfg' },
    target: 'cpu',
    symbols: { N: 8, BIG: '9007199254740993' },
    createdAt: '2026-01-01T00:00:00Z',
    variants: [
      {
        mode: 'EXTERNAL',
        layout: 'packed',
        label: 'EXTERNAL (packed)',
        target: 'cpu',
        library: 'EXTERNAL-packed.so',
        source: 'EXTERNAL-packed.cpp',
        librarySha256: sha,
        sourceSha256: sha,
        workspaceBytes: { CPU_Heap: 256 },
        compiler: { name: 'g++', version: '12', versionLine: 'g++ 12' },
        flags: ['-O2'],
        cxxflags: ['-O2'],
        openmp: false,
      },
    ],
  };
}

function errorOf(doc: unknown): TlabError {
  try {
    parseManifest(typeof doc === 'string' ? doc : JSON.stringify(doc), '/d/manifest.json');
  } catch (e) {
    expect(e).toBeInstanceOf(TlabError);
    return e as TlabError;
  }
  throw new Error('no error');
}

describe('transient-lab/build@1 manifest', () => {
  it('reads a valid manifest, big integers as strings', () => {
    const m = parseManifest(JSON.stringify(manifest()), 'm.json');
    expect(m.symbols.BIG).toBe('9007199254740993');
    expect(m.variants[0]!.workspaceBytes).toEqual({ CPU_Heap: 256 });
  });

  it.each<[string, (m: ManifestJson) => void, string, RegExp]>([
    ['schema', (m) => (m.schema = 'transient-lab/build@2'), '$.schema', /another version of Transient Lab/],
    ['target', (m) => (m.target = 'tpu'), '$.target', /expected 'cpu' or 'gpu'/],
    ['symbol', (m) => (m.symbols.N = 1.5), '$.symbols.N', /expected an integer/],
    ['variants', (m) => (m.variants = []), '$.variants', /non-empty array/],
    ['mode', (m) => (m.variants[0]!.mode = 'HEAP'), '$.variants[0].mode', /expected one of SCOPED/],
    ['layout', (m) => (m.variants[0]!.layout = null), '$.variants[0].layout', /expected 'dace' or 'packed'/],
    ['escape', (m) => (m.variants[0]!.library = '../../etc/x.so'), '$.variants[0].library', /inside the build folder/],
    ['absolute', (m) => (m.sdfg.file = '/etc/p.sdfg'), '$.sdfg.file', /inside the build folder/],
    ['hash', (m) => (m.variants[0]!.sourceSha256 = 'xyz'), '$.variants[0].sourceSha256', /sha256 in hex/],
    ['missing', (m) => delete m.variants[0]!.compiler, '$.variants[0].compiler', /missing/],
    ['target mix', (m) => (m.variants[0]!.target = 'gpu'), '$.variants[0].target', /the manifest's target/],
    ['twice', (m) => m.variants.push(m.variants[0]!), '$.variants[1]', /appears twice/],
  ])('%s', (_name, mutate, path, message) => {
    const m = manifest();
    mutate(m);
    const e = errorOf(m);
    expect(e.kind).toBe('input');
    expect(e.file).toBe('/d/manifest.json');
    expect(e.jsonPath).toBe(path);
    expect(e.message).toMatch(message);
  });

  it('names the file when it is not JSON', () => {
    const e = errorOf('{ nope');
    expect(e.file).toBe('/d/manifest.json');
    expect(e.message).toMatch(/not valid JSON/);
  });
});
