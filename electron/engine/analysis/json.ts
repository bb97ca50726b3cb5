/**
 * The versioned JSON form of an analysis (`transient-lab/analysis@1`, docs/analysis-schema.md).
 * Byte counts are exact bigints internally; in JSON they are numbers up to Number.MAX_SAFE_INTEGER and
 * decimal strings beyond, so that no consumer silently loses precision.
 */
import { jsonInteger, type JsonInteger } from '../json.js';
import { sdfgSummaries } from '../model/sdfgs.js';
import type { AllocationJson, AnalysisDoc, ModePlanJson, TransientJson } from '../view/types.js';
import type { Analysis, AllocationSite, Mode, ModePlan, TransientInfo } from './types.js';
import { MODES } from './types.js';

const ANALYSIS_SCHEMA = 'transient-lab/analysis@1';

const intRecord = (r: Record<string, bigint | null>): Record<string, JsonInteger | null> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, jsonInteger(v)]));

function allocationJson(site: AllocationSite): AllocationJson {
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

function transientJson(t: TransientInfo): TransientJson {
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
    bytes: jsonInteger(t.bytes),
    bytesExpr: t.bytesExpr,
    eligible: t.eligible,
    reason: t.reason,
    live: t.live,
    liveSegments: t.liveSegments,
    allocation: allocationJson(t.allocation),
    executionsPerCall: jsonInteger(t.executionsPerCall),
    jsonPath: t.jsonPath,
    // Views and references only (additive): what they alias, and why not when that is not known statically.
    ...(t.alias ? { viewOf: t.alias.viewOf, ...(t.alias.viewOf === null ? { viewOfReason: t.alias.reason ?? '' } : {}) } : {}),
    // Transients a library expansion created (additive): the library node's label.
    ...(t.expandedFrom === undefined ? {} : { expandedFrom: t.expandedFrom }),
    // Members of a structure (additive): the structure's path.
    ...(t.insideStructure === undefined ? {} : { insideStructure: t.insideStructure }),
  };
}

function modeJson(m: ModePlan): ModePlanJson {
  return {
    perCall: { allocs: jsonInteger(m.perCall.allocs), frees: jsonInteger(m.perCall.frees), bytes: jsonInteger(m.perCall.bytes) },
    init: { allocs: m.init.allocs, bytes: jsonInteger(m.init.bytes) },
    workspace: intRecord(m.workspace),
    stillAllocating: m.stillAllocating,
    pooled: m.pooled,
    notes: m.notes,
  };
}

export function toAnalysisJson(a: Analysis): AnalysisDoc {
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
    symbols: Object.fromEntries([...a.symbols].map(([k, v]) => [k, { value: jsonInteger(v.value), source: v.source }])),
    unresolvedSymbols: a.unresolvedSymbols,
    steps: a.steps.map((s) => ({ index: s.index, label: s.label })),
    transients: a.transients.map(transientJson),
    modes: Object.fromEntries(MODES.map((m) => [m, modeJson(a.modes[m])])) as Record<Mode, ModePlanJson>,
    layouts: {
      dace: Object.fromEntries(
        Object.entries(a.layouts.dace).map(([storage, l]) => [
          storage,
          {
            bytes: jsonInteger(l.bytes),
            bytesExpr: l.bytesExpr,
            offsets: Object.fromEntries(
              l.order.map((id) => {
                const off = l.offsets.get(id)!;
                return [id, typeof off === 'bigint' ? jsonInteger(off) : off];
              }),
            ),
          },
        ]),
      ),
      packed: Object.fromEntries(
        Object.entries(a.layouts.packed).map(([storage, l]) => [
          storage,
          l === null
            ? null
            : {
                bytes: jsonInteger(l.bytes),
                alignment: l.alignment,
                offsets: Object.fromEntries([...l.offsets].map(([id, off]) => [id, jsonInteger(off)])),
                lowerBound: jsonInteger(l.lowerBound),
                alignedSum: jsonInteger(l.alignedSum),
              },
        ]),
      ),
    },
    peakLiveBytes: intRecord(a.peakLiveBytes),
    warnings: a.warnings,
    ...(a.libraryExpansions.length ? { libraryNodes: a.libraryExpansions.map((e) => ({ ...e })) } : {}),
  };
}
