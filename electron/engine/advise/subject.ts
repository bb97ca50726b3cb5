/**
 * What `advise` and `check` look at: one SDFG file (one call), or a workload (every call of its sequence,
 * each with the symbol values it runs with). Each distinct (program, symbols) pair is analysed once.
 */
import { daceFolderSdfg } from '../dace/folder.js';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyze } from '../analysis/index.js';
import type { Analysis, Target } from '../analysis/types.js';
import { TlabError } from '../errors.js';
import { withFileErrors } from '../io/fs-errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { MANIFEST_FILE, parseManifest } from '../profile/manifest.js';
import { readSdfgFile } from '../sdfg/index.js';
import { callSymbols, parseWorkload, sniffWorkload, type Workload } from '../workload/schema.js';

interface SubjectCall {
  /** Position in the sequence (0 for a single SDFG). */
  position: number;
  /** Program key in the workload; the SDFG's name for a single file. */
  program: string;
  file: SdfgFile;
  symbols: Map<string, bigint>;
  /** Where the call is written in the workload file; null for a single SDFG. */
  jsonPath: string | null;
}

export interface Subject {
  kind: 'sdfg' | 'workload';
  path: string;
  name: string;
  workload: Workload | null;
  calls: SubjectCall[];
}

export interface SubjectOptions {
  /** `--symbols`: override the workload's shared symbols (a single SDFG: its symbol values). */
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  target: Target | null;
}

/** Reads a workload (sniffed from its first bytes) or an SDFG file. */
export async function loadSubject(path: string, opts: SubjectOptions): Promise<Subject> {
  const head = await withFileErrors('input', 'read', path, async () => {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  });
  if (!sniffWorkload(head)) {
    return sdfgSubject(path, await readSdfgFile(path), opts.symbols);
  }
  const text = await withFileErrors('input', 'read', path, () => readFile(path, 'utf8'));
  const workload = parseWorkload(text, path);
  for (const [k, v] of opts.symbols) workload.symbols.set(k, v);
  const files = new Map<string, SdfgFile>();
  for (const p of workload.programs.values()) files.set(p.key, await programFile(p.sdfg, p.prebuilt, path, p.jsonPath));
  return workloadSubject(workload, files);
}

/** A workload whose programs' SDFGs are already read (the service reads them through its model cache). */
export function workloadSubject(workload: Workload, files: Map<string, SdfgFile>): Subject {
  const calls = workload.sequence.map((c, position) => ({
    position,
    program: c.program,
    file: files.get(c.program)!,
    symbols: callSymbols(workload, c),
    jsonPath: c.jsonPath,
  }));
  return { kind: 'workload', path: workload.path, name: workload.name, workload, calls };
}

/** One SDFG as the advisor's subject: one call with `symbols`. */
export function sdfgSubject(path: string, file: SdfgFile, symbols: Map<string, bigint>): Subject {
  return {
    kind: 'sdfg',
    path,
    name: file.root.name,
    workload: null,
    calls: [{ position: 0, program: file.root.name, file, symbols, jsonPath: null }],
  };
}

async function programFile(sdfg: string | null, prebuilt: string | null, workloadPath: string, jsonPath: string): Promise<SdfgFile> {
  const wrap = async (work: () => Promise<SdfgFile>): Promise<SdfgFile> => {
    try {
      return await work();
    } catch (err) {
      // The program's own error, said from the workload's point of view: which entry named the bad file.
      if (err instanceof TlabError && err.file !== workloadPath) {
        throw new TlabError(err.kind, `program at ${jsonPath}: ${err.describe()}`, { file: workloadPath, jsonPath });
      }
      throw err;
    }
  };
  if (sdfg !== null) return wrap(() => readSdfgFile(sdfg));
  const folder = prebuilt!;
  return wrap(async () => {
    // A DaCe build folder (docs/dace-folders.md): the SDFG DaCe saved with the build, its lifetimes applied.
    const dace = await daceFolderSdfg(folder);
    if (dace) return readSdfgFile(dace);
    const manifestPath = join(folder, MANIFEST_FILE);
    const text = await withFileErrors('input', 'read', manifestPath, () => readFile(manifestPath, 'utf8'));
    const manifest = parseManifest(text, manifestPath);
    return readSdfgFile(join(folder, manifest.sdfg.file));
  });
}

/** One analysis per call (shared between calls of the same program with the same symbols). */
export function analyseCalls(subject: Subject, opts: SubjectOptions, override: Map<string, bigint> = new Map()): Analysis[] {
  const cache = new Map<string, Analysis>();
  return subject.calls.map((c) => {
    const symbols = new Map([...c.symbols, ...override]);
    const key = `${c.program}\u0000${[...symbols].map(([k, v]) => `${k}=${v}`).join(',')}`;
    let a = cache.get(key);
    if (!a) {
      a = analyze(c.file, { symbols, defaultSymbol: opts.defaultSymbol, target: opts.target });
      cache.set(key, a);
    }
    return a;
  });
}
