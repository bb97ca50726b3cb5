/**
 * Reading an `AnalysisView`'s columns back: one transient as `analysis@1` writes it, the whole document,
 * and exact-enough numbers for plotting. Imports types only, so the renderer and reports use it as is.
 */
import type { JsonInteger } from '../json.js';
import type { AliasJson, AnalysisDoc, AnalysisView, TransientJson, TransientTable } from './types.js';
import type { SdfgSummary } from './types.js';

/** A byte count as a plot coordinate: exact below 2^53, nearest double above; NaN for null (symbolic). */
export function num(v: JsonInteger | null | undefined): number {
  if (v === null || v === undefined) return NaN;
  return typeof v === 'number' ? v : Number(v);
}

/** Row `i` of the table as the `analysis@1` transient object (same keys, same order). */
export function transientJson(table: TransientTable, i: number, sdfgs: readonly SdfgSummary[]): TransientJson {
  const path = table.jsonPath[i]!;
  const first = table.first[i]!;
  const alias = aliasOf(table, i);
  const out: TransientJson = {
    id: table.id[i]!,
    sdfg: table.sdfg[i]!,
    name: table.name[i]!,
    type: table.dict.type[table.type[i]!]!,
    dtype: table.dict.dtype[table.dtype[i]!]!,
    shape: table.shape[i]!,
    storage: table.dict.storage[table.storage[i]!]!,
    effectiveStorage: table.dict.storage[table.effectiveStorage[i]!]!,
    lifetime: table.dict.lifetime[table.lifetime[i]!]!,
    bytes: table.bytes[i]!,
    bytesExpr: table.bytesExpr[i]!,
    eligible: { PERSISTENT: (table.eligible[i]! & 1) !== 0, EXTERNAL: (table.eligible[i]! & 2) !== 0 },
    reason: table.reason[i]! < 0 ? null : table.dict.reason[table.reason[i]!]!,
    live: first < 0 ? null : { first, last: table.last[i]! },
    liveSegments: first < 0 ? null : segmentsOf(table.holes[i] ?? null, first, table.last[i]!),
    allocation: table.dict.allocation[table.allocation[i]!]!,
    executionsPerCall: table.executionsPerCall[i]!,
    jsonPath:
      path === ''
        ? `${sdfgs[table.sdfg[i]!]!.jsonPath}.attributes._arrays.${table.name[i]}`
        : path.startsWith('~')
          ? `${sdfgs[table.sdfg[i]!]!.jsonPath}${path.slice(1)}`
          : path,
  };
  if (alias) {
    out.viewOf = alias.viewOf;
    if (alias.viewOf === null) out.viewOfReason = alias.reason ?? '';
  }
  const from = table.expandedFrom[i] ?? -1;
  if (from >= 0) out.expandedFrom = table.dict.expandedFrom[from]!;
  const inside = table.insideStructure[i] ?? -1;
  if (inside >= 0) out.insideStructure = table.dict.insideStructure[inside]!;
  return out;
}

/** What row `i` aliases when it is a view or reference; null for a container that owns its bytes. */
export function aliasOf(table: TransientTable, i: number): AliasJson | null {
  const k = table.alias[i] ?? -1;
  return k < 0 ? null : table.dict.alias[k]!;
}

/**
 * The bytes row `i` owns, as every sum must add them: 0 for a view or reference (it aliases another
 * container's bytes), NaN when the size is symbolic.
 */
export function ownedBytes(table: TransientTable, i: number): number {
  return (table.alias[i] ?? -1) >= 0 ? 0 : num(table.bytes[i]);
}

function segmentsOf(holes: number[] | null, first: number, last: number): Array<{ first: number; last: number }> {
  if (!holes) return [{ first, last }];
  const out: Array<{ first: number; last: number }> = [];
  for (let k = 0; k + 1 < holes.length; k += 2) out.push({ first: holes[k]!, last: holes[k + 1]! });
  return out;
}

/** The `analysis@1` document the view was built from, as `analyze --json` writes it. */
export function analysisDocument(view: AnalysisView): AnalysisDoc {
  const a = view.analysis;
  const transients = new Array<TransientJson>(view.table.count);
  for (let i = 0; i < view.table.count; i++) transients[i] = transientJson(view.table, i, view.sdfgs);
  return {
    schema: a.schema,
    sdfg: a.sdfg,
    sdfgs: view.sdfgs,
    target: a.target,
    targetReason: a.targetReason,
    symbols: a.symbols,
    unresolvedSymbols: a.unresolvedSymbols,
    steps: a.steps,
    transients,
    modes: a.modes,
    layouts: a.layouts,
    peakLiveBytes: a.peakLiveBytes,
    warnings: a.warnings,
    ...(a.libraryNodes ? { libraryNodes: a.libraryNodes } : {}),
  };
}
