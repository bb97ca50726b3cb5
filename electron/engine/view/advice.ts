/**
 * The advisor panel's model (docs/advise.md, "In the window and the report"): the advisor's figures as plain
 * JSON, the recommendation of the storage with the largest workspace first, the blockers capped (a file with
 * thousands of blocked transients must not ship them all to a panel), and one sentence on what backs the advice.
 */
import type { Advice } from '../advise/index.js';
import type { PerStorage } from '../advise/figures.js';
import { MODES, type Mode } from '../analysis/types.js';
import { jsonInteger, type JsonInteger } from '../json.js';
import type { AdviceView, BytesByStorage } from './workload-types.js';

/** Blockers listed in the panel and the report; the rest are counted. */
export const BLOCKER_LIMIT = 200;

const big = (r: PerStorage): BytesByStorage => Object.fromEntries(Object.entries(r).map(([s, v]) => [s, jsonInteger(v)]));

export function buildAdviceView(a: Advice): AdviceView {
  const ws = (s: string): number => {
    const v = a.footprint.EXTERNAL[s];
    return v === null || v === undefined ? -1 : Number(v);
  };
  const recommendations = [...a.recommendations]
    .sort((x, y) => ws(y.storage) - ws(x.storage) || (x.storage < y.storage ? -1 : 1))
    // "No timing backs this" is said once, in `basisNote`, not under every storage.
    .map((r) => ({
      ...r,
      workspaceBytes: jsonInteger(r.workspaceBytes),
      reasons: r.reasons.filter((w) => !/^no timing backs this/.test(w)),
    }));
  const blockedBytes: Record<string, bigint | null> = {};
  for (const b of a.blockers) {
    const prev = blockedBytes[b.storage];
    blockedBytes[b.storage] = prev === null || b.bytes === null ? null : (prev ?? 0n) + b.bytes;
  }
  const basisNote =
    a.basis === 'measured'
      ? 'Measured: the profile result chose the mode where its difference is significant.'
      : `No timing backs this: it comes from the footprints and the allocations per ${a.subject.kind === 'workload' ? 'step' : 'call'} of the analysis. Profile to measure it.`;
  return {
    subject: { kind: a.subject.kind, name: a.subject.name, programs: a.subject.programs, calls: a.subject.calls },
    target: a.target,
    layout: a.layout,
    basis: a.basis,
    basisNote,
    recommendations,
    footprint: Object.fromEntries(MODES.map((m) => [m, big(a.footprint[m])])) as Record<Mode, BytesByStorage>,
    allocations: Object.fromEntries(MODES.map((m) => [m, jsonInteger(a.allocations[m])])) as Record<Mode, JsonInteger | null>,
    allocationUnit: a.subject.kind === 'workload' ? 'step' : 'call',
    hazards: a.hazards.map((h) => ({
      storage: h.storage,
      program: h.program,
      position: h.position,
      configuredBytes: jsonInteger(h.configuredBytes),
      neededBytes: jsonInteger(h.neededBytes),
    })),
    blockers: a.blockers.slice(0, BLOCKER_LIMIT).map((b) => ({
      program: b.program,
      id: b.id,
      name: b.id.slice(b.id.indexOf(':') + 1),
      storage: b.storage,
      bytes: jsonInteger(b.bytes),
      bytesExpr: b.bytesExpr,
      reason: b.reason,
      change: b.change,
      jsonPath: b.jsonPath,
    })),
    blockersLeft: Math.max(0, a.blockers.length - BLOCKER_LIMIT),
    blockedBytes: big(blockedBytes),
    sweep: a.sweep
      ? {
          symbol: a.sweep.symbol,
          values: a.sweep.values.map((v) => jsonInteger(v)),
          storages: Object.entries(a.sweep.storages).map(([storage, s]) => ({
            storage,
            packed: { bytes: s.packed.bytes.map((b) => jsonInteger(b)), closedForm: s.packed.closedForm },
            dace: { bytes: s.dace.bytes.map((b) => jsonInteger(b)), closedForm: s.dace.closedForm },
          })),
        }
      : null,
  };
}
