/**
 * What the graph shows on each transient: its storage (the tint) and what the chosen mode does with it (the
 * ring colour and tag), plus its bytes for the memory badges of collapsed elements. Built from the
 * `transient-lab/analysis@1` document the AnalysisView carries; pure.
 */
import { aliasText, type AnalysisView } from '../../../electron/engine/view/public.js';
import type { ModeName } from '../theme/index.js';

export interface TransientMark {
  /** Effective storage (`CPU_Heap`, `GPU_Global`, `Register`, …): the fill tint. */
  storage: string;
  /** What the shown mode does with it: the ring colour; null = nothing is allocated (views, stack data). */
  fate: ModeName | null;
  /** A few letters drawn on the node: `EXT`, `PERS`, `POOL`, `SCOPED`, `P+E`, `stack`, … */
  tag: string;
  /** Footprint in bytes; null when it depends on unknown symbols. A view's or reference's extent, never summed. */
  bytes: number | null;
  /** A view or reference: it names another container's bytes and owns none (badges and roll-ups skip it). */
  alias: boolean;
  /** One line for the tooltip: why it is (not) eligible. */
  note: string;
}

export type TransientMarks = ReadonlyMap<string, TransientMark>;

/** The subset of an analysis@1 transient this module reads. */
interface AnalysisTransient {
  id: string;
  storage?: string;
  effectiveStorage?: string;
  bytes?: number | string | null;
  eligible?: { PERSISTENT?: boolean; EXTERNAL?: boolean };
  reason?: string | null;
  allocation?: { kind?: string; why?: string } | undefined;
  /** Present on views and references only (analysis@1 `viewOf`). */
  viewOf?: string | null;
  type?: string;
}

const TAG: Record<ModeName, string> = { SCOPED: 'SCOPED', PERSISTENT: 'PERS', POOL: 'POOL', EXTERNAL: 'EXT' };

function toBytes(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** The transients of an AnalysisView's columnar table, as the rows `marksOf` reads. */
function* tableRows(view: AnalysisView): Generator<AnalysisTransient> {
  const t = view.table;
  for (let i = 0; i < t.count; i++) {
    const reason = t.reason[i]!;
    yield {
      id: t.id[i]!,
      storage: t.dict.storage[t.storage[i]!],
      effectiveStorage: t.dict.storage[t.effectiveStorage[i]!],
      bytes: t.bytes[i],
      eligible: { PERSISTENT: (t.eligible[i]! & 1) !== 0, EXTERNAL: (t.eligible[i]! & 2) !== 0 },
      reason: reason < 0 ? null : t.dict.reason[reason]!,
      allocation: t.dict.allocation[t.allocation[i]!],
      ...(t.alias[i]! >= 0 ? { viewOf: t.dict.alias[t.alias[i]!]!.viewOf, type: t.dict.type[t.type[i]!]! } : {}),
    };
  }
}

/**
 * Marks for one mode, or for `ALL` (the fate is the best the transient can get: EXTERNAL, else PERSISTENT,
 * else SCOPED, and the tag says which modes take it). Takes the AnalysisView the contract's `analyze`
 * returns, or an `analysis@1` document.
 */
export function transientMarks(
  analysis: AnalysisView | { transients?: unknown; target?: unknown } | null | undefined,
  mode: ModeName | 'ALL',
): Map<string, TransientMark> {
  if (analysis && 'table' in analysis && analysis.table) return marksOf(tableRows(analysis), analysis.analysis.target === 'gpu', mode);
  const doc = analysis as { transients?: unknown; target?: unknown } | null | undefined;
  const list = Array.isArray(doc?.transients) ? (doc.transients as AnalysisTransient[]) : [];
  return marksOf(list, doc?.target === 'gpu', mode);
}

function marksOf(list: Iterable<AnalysisTransient>, gpu: boolean, mode: ModeName | 'ALL'): Map<string, TransientMark> {
  const out = new Map<string, TransientMark>();
  for (const t of list) {
    if (typeof t?.id !== 'string') continue;
    const storage = t.effectiveStorage ?? t.storage ?? 'Default';
    const bytes = toBytes(t.bytes);
    const site = t.allocation?.kind ?? 'sdfg';
    const p = t.eligible?.PERSISTENT === true;
    const e = t.eligible?.EXTERNAL === true;
    const note =
      t.viewOf !== undefined
        ? `${aliasText(t.type ?? '', t.viewOf)}: owns no bytes`
        : (t.reason ?? (p && e ? 'eligible for PERSISTENT and EXTERNAL' : ''));
    let fate: ModeName | null;
    let tag: string;
    const alias = t.viewOf !== undefined;
    if (alias) {
      fate = null;
      tag = /Reference/.test(t.type ?? '') ? 'ref' : 'view';
    } else if (site === 'none') {
      fate = null;
      tag = storage === 'Register' || storage === 'GPU_Shared' ? 'stack' : 'no alloc';
    } else if (site === 'init') {
      fate = 'PERSISTENT';
      tag = 'PERS (file)';
    } else if (site === 'external') {
      fate = 'EXTERNAL';
      tag = 'EXT (file)';
    } else if (mode === 'ALL') {
      fate = e ? 'EXTERNAL' : p ? 'PERSISTENT' : 'SCOPED';
      tag = p && e ? 'P+E' : e ? 'E only' : p ? 'P only' : 'scoped';
    } else if (mode === 'PERSISTENT') {
      fate = p ? 'PERSISTENT' : 'SCOPED';
      tag = TAG[fate];
    } else if (mode === 'EXTERNAL') {
      fate = e ? 'EXTERNAL' : 'SCOPED';
      tag = TAG[fate];
    } else if (mode === 'POOL') {
      // The stream-ordered pool serves GPU global arrays; on CPU, POOL is SCOPED.
      fate = gpu && storage === 'GPU_Global' ? 'POOL' : 'SCOPED';
      tag = TAG[fate];
    } else {
      fate = 'SCOPED';
      tag = TAG.SCOPED;
    }
    out.set(t.id, { storage, fate, tag, bytes, note, alias });
  }
  return out;
}

/**
 * Bytes per fate of a set of transients, for a badge's stacked bar and every roll-up; `unknown` counts sizes that
 * are symbolic. Views and references own no bytes: they are counted in `aliases`, never added.
 */
export function fateBytes(
  ids: readonly string[],
  marks: TransientMarks,
): { total: number; unknown: number; aliases: number; byFate: Partial<Record<ModeName, number>> } {
  let total = 0;
  let unknown = 0;
  let aliases = 0;
  const byFate: Partial<Record<ModeName, number>> = {};
  for (const id of ids) {
    const m = marks.get(id);
    if (!m) continue;
    if (m.alias) {
      aliases++;
      continue;
    }
    if (m.bytes === null) {
      unknown++;
      continue;
    }
    total += m.bytes;
    if (m.fate) byFate[m.fate] = (byFate[m.fate] ?? 0) + m.bytes;
  }
  return { total, unknown, aliases, byFate };
}
