/**
 * The versioned JSON form of an analysis (`transient-lab/analysis@1`, docs/analysis-schema.md).
 * Byte counts are exact bigints internally; in JSON they are numbers up to Number.MAX_SAFE_INTEGER and
 * decimal strings beyond, so that no consumer silently loses precision.
 */
import { sdfgSummaries } from '../model/sdfgs.js';
import type { Analysis, AllocationSite, ModePlan, TransientInfo } from './types.js';
import { MODES } from './types.js';

export const ANALYSIS_SCHEMA = 'transient-lab/analysis@1';

export type JsonInt = number | string;

export function jsonInt(v: bigint): JsonInt;
export function jsonInt(v: bigint | null): JsonInt | null;
export function jsonInt(v: bigint | null): JsonInt | null {
  if (v === null) return null;
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

const intRecord = (r: Record<string, bigint | null>): Record<string, JsonInt | null> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, jsonInt(v)]));

function allocationJson(site: AllocationSite): object {
  switch (site.kind) {
    case 'sdfg':
      return { kind: site.kind, sdfg: site.sdfg };
    case 'state':
      return { kind: site.kind, sdfg: site.sdfg, state: site.stateJsonPath };
    case 'scope':
      return { kind: site.kind, sdfg: site.sdfg, state: site.stateJsonPath, mapEntry: site.mapEntryId };
    case 'blocks':
      return { kind: site.kind, sdfg: site.sdfg, region: site.regionJsonPath, first: site.firstJsonPath, last: site.lastJsonPath };
    case 'none':
      return { kind: site.kind, why: site.why };
    default:
      return { kind: site.kind };
  }
}

function transientJson(t: TransientInfo): object {
  return {
    id: t.id,
    sdfg: t.sdfg,
    name: t.name,
    type: t.type,
    dtype: t.dtype,
    shape: t.shape,
    storage: t.storage,
    effectiveStorage: t.effectiveStorage,
    lifetime: t.lifetime,
    bytes: jsonInt(t.bytes),
    bytesExpr: t.bytesExpr,
    eligible: t.eligible,
    reason: t.reason,
    live: t.live,
    liveSegments: t.liveSegments,
    allocation: allocationJson(t.allocation),
    executionsPerCall: jsonInt(t.executionsPerCall),
    jsonPath: t.jsonPath,
    // Views and references only (additive): what they alias, and why not when that is not known statically.
    ...(t.alias ? { viewOf: t.alias.viewOf, ...(t.alias.viewOf === null ? { viewOfReason: t.alias.reason ?? '' } : {}) } : {}),
  };
}

function modeJson(m: ModePlan): object {
  return {
    perCall: { allocs: jsonInt(m.perCall.allocs), frees: jsonInt(m.perCall.frees), bytes: jsonInt(m.perCall.bytes) },
    init: { allocs: m.init.allocs, bytes: jsonInt(m.init.bytes) },
    workspace: intRecord(m.workspace),
    stillAllocating: m.stillAllocating,
    pooled: m.pooled,
    notes: m.notes,
  };
}

export function toAnalysisJson(a: Analysis): object {
  const f = a.file;
  return {
    schema: ANALYSIS_SCHEMA,
    sdfg: {
      name: f.root.name,
      daceVersion: f.daceVersion,
      sdfgs: f.stats.sdfgs,
      states: f.stats.states,
      nodes: f.stats.nodes,
      edges: f.stats.edges,
      file: f.path,
      generation: f.generation,
      grammar: f.grammar,
    },
    // Names every SDFG index that transients[].sdfg and steps use (added in analysis@1, additive).
    sdfgs: sdfgSummaries(f),
    target: a.target,
    targetReason: a.targetReason,
    symbols: Object.fromEntries([...a.symbols].map(([k, v]) => [k, { value: jsonInt(v.value), source: v.source }])),
    unresolvedSymbols: a.unresolvedSymbols,
    steps: a.steps.map((s) => ({ index: s.index, label: s.label })),
    transients: a.transients.map(transientJson),
    modes: Object.fromEntries(MODES.map((m) => [m, modeJson(a.modes[m])])),
    layouts: {
      dace: Object.fromEntries(
        Object.entries(a.layouts.dace).map(([storage, l]) => [
          storage,
          {
            bytes: jsonInt(l.bytes),
            bytesExpr: l.bytesExpr,
            offsets: Object.fromEntries(l.order.map((id) => {
              const off = l.offsets.get(id)!;
              return [id, typeof off === 'bigint' ? jsonInt(off) : off];
            })),
          },
        ]),
      ),
      packed: Object.fromEntries(
        Object.entries(a.layouts.packed).map(([storage, l]) => [
          storage,
          l === null
            ? null
            : {
                bytes: jsonInt(l.bytes),
                alignment: l.alignment,
                offsets: Object.fromEntries([...l.offsets].map(([id, off]) => [id, jsonInt(off)])),
                lowerBound: jsonInt(l.lowerBound),
                alignedSum: jsonInt(l.alignedSum),
              },
        ]),
      ),
    },
    peakLiveBytes: intRecord(a.peakLiveBytes),
    warnings: a.warnings,
  };
}
