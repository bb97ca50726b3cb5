/**
 * Workload documents in the window (docs/workload.md, "In the window"): a `transient-lab/workload@1` file opened
 * like an SDFG, its programs read through the model cache, the advisor's figures computed for the Workload view
 * and the advisor panel. Every program's file goes through the host's FileAccess, exactly as if it had been
 * opened itself (a workload inside the roots cannot name a file outside them); a bundled example's programs are
 * the host's own files.
 */
import { daceFolderSdfg } from '../engine/dace/folder.js';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { advise, type Advice, type SweepSpec } from '../engine/advise/index.js';
import { sdfgSubject, workloadSubject, type Subject } from '../engine/advise/subject.js';
import type { Layout } from '../engine/codegen/types.js';
import { TlabError } from '../engine/errors.js';
import { withFileErrors } from '../engine/io/fs-errors.js';
import type { SdfgFile } from '../engine/model/sdfg.js';
import { MANIFEST_FILE, parseManifest } from '../engine/profile/manifest.js';
import type { DocInfo } from '../engine/view/types.js';
import { parseWorkload, sniffWorkload, type Workload } from '../engine/workload/schema.js';
import type { FileAccess } from '../host-kit/file-access.js';
import type { SymbolValues } from '../ipc/contract.js';
import { ContractFailure } from '../ipc/errors.js';
import type { ModelCache } from './models.js';
import { fileSource, loadSource, readSourceBytes, type DocSource } from './sources.js';

export interface WorkloadDoc {
  workload: Workload;
  /** Program key → where its SDFG's bytes are. */
  programs: Map<string, DocSource>;
  /** The last advice computed, by its options (the Workload view and the advisor panel ask for the same). */
  memo: { key: string; advice: Advice } | null;
}

/** True when the file at `source` is a workload (its first bytes name the schema). */
export async function isWorkloadSource(source: DocSource): Promise<boolean> {
  if (!/\.json$/i.test(source.display) || source.size > 16 * 2 ** 20) return false;
  return sniffWorkload((await readSourceBytes(source)).subarray(0, 4096).toString('utf8'));
}

/**
 * Reads a workload and checks that every program's SDFG may be read (`files`: the host's policy; null for the
 * host's own examples). Errors name the workload file and the program's JSON path.
 */
export async function readWorkloadDoc(source: DocSource, files: FileAccess | null): Promise<WorkloadDoc> {
  if (source.upload !== null) {
    throw new TlabError(
      'unsupported',
      'a workload names its programs by path, so it cannot be opened as an upload: open it by path (Open dialog, ?open=, or `serve FILE`)',
      { file: source.display },
    );
  }
  const text = (await readSourceBytes(source)).toString('utf8');
  const workload = parseWorkload(text, source.readPath);
  const programs = new Map<string, DocSource>();
  for (const p of workload.programs.values()) {
    const at = p.sdfg !== null ? `${p.jsonPath}.sdfg` : `${p.jsonPath}.prebuilt`;
    try {
      let path = p.sdfg;
      // A DaCe build folder (docs/dace-folders.md) contributes the SDFG DaCe saved in it; the folder passes the
      // policy first, so nothing is learnt about folders outside it.
      const folder = path === null && files ? await files.resolveRead(p.prebuilt!, 'folder').catch(() => null) : p.prebuilt;
      const dace = path === null && folder ? await daceFolderSdfg(folder) : null;
      if (dace) path = dace;
      else if (path === null) {
        const manifestPath = join(p.prebuilt!, MANIFEST_FILE);
        const allowed = files ? await files.resolveRead(manifestPath, 'input') : manifestPath;
        const manifest = parseManifest(await withFileErrors('input', 'read', allowed, () => readFile(allowed, 'utf8')), allowed);
        path = join(p.prebuilt!, manifest.sdfg.file);
      }
      programs.set(p.key, await fileSource(files ? await files.resolveRead(path, 'sdfg') : path));
    } catch (err) {
      const why = err instanceof TlabError ? err.describe() : (err as Error).message;
      throw new TlabError('input', `program '${p.key}': ${why}`, { file: source.display, jsonPath: at });
    }
  }
  return { workload, programs, memo: null };
}

export function workloadDocInfo(w: WorkloadDoc, doc: string, name: string, source: DocSource, parseMs: number): DocInfo {
  return {
    doc,
    name,
    path: source.shownPath,
    fileBytes: source.size,
    jsonBytes: source.size,
    compressed: false,
    generation: 'workload@1',
    daceVersion: null,
    stats: { sdfgs: w.programs.size, states: 0, nodes: 0, edges: 0, transients: 0 },
    sdfgs: [],
    symbols: [],
    target: 'cpu',
    targetReason: 'a workload: each program has its own target',
    warnings: [],
    parseMs,
    workload: {
      name: w.workload.name,
      programs: [...w.workload.programs.keys()].map((key) => ({ key, file: basename(w.programs.get(key)!.readPath) })),
      sequence: w.workload.sequence.map((c) => c.program),
      steps: w.workload.steps,
    },
  };
}

export interface AdviseInput {
  symbols: SymbolValues;
  defaultSymbol: string | null;
  target: 'cpu' | 'gpu' | null;
  layout: Layout;
  sweep: { symbol: string; values: string[] } | null;
}

/** The subject of an open document: a workload (programs read through the cache), or one SDFG. */
async function subjectOf(
  models: ModelCache,
  doc: { workload: WorkloadDoc | null; source: DocSource; model: () => Promise<SdfgFile> },
  symbols: Map<string, bigint>,
): Promise<Subject> {
  const w = doc.workload;
  if (!w) return sdfgSubject(doc.source.display, await doc.model(), symbols);
  const files = new Map<string, SdfgFile>();
  for (const [key, source] of w.programs) files.set(key, await models.get(source.key, () => loadSource(source)));
  // The request's symbols override the workload's shared ones, as `advise --symbols` does; the parsed workload stays as read.
  const merged: Workload = { ...w.workload, symbols: new Map([...w.workload.symbols, ...symbols]) };
  return workloadSubject(merged, files);
}

export async function adviceOf(
  models: ModelCache,
  doc: { workload: WorkloadDoc | null; source: DocSource; model: () => Promise<SdfgFile> },
  input: AdviseInput,
): Promise<Advice> {
  const key = JSON.stringify([input.symbols, input.defaultSymbol, input.target, input.layout, input.sweep]);
  if (doc.workload?.memo?.key === key) return doc.workload.memo.advice;
  const symbols = new Map(Object.entries(input.symbols).map(([k, v]) => [k, BigInt(v)]));
  const subject = await subjectOf(models, doc, symbols);
  let sweep: SweepSpec | null = null;
  if (input.sweep) {
    const values = input.sweep.values.map((v) => BigInt(v));
    if (new Set(values).size !== values.length)
      throw new ContractFailure('usage', 'a sweep value is listed twice', { jsonPath: '$.sweep.values' });
    sweep = { symbol: input.sweep.symbol, values };
  }
  const advice = advise(subject, {
    symbols,
    defaultSymbol: input.defaultSymbol === null ? null : BigInt(input.defaultSymbol),
    target: input.target,
    layout: input.layout,
    sweep,
  });
  if (doc.workload) doc.workload.memo = { key, advice };
  return advice;
}
