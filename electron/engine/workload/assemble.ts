/**
 * Assembling `transient-lab/workload-result@1` (result.ts) from the plan, the verification child's findings and
 * every timing process's steps: footprints per mode and storage, per-program figures, per-step and per-program
 * call summaries, and the noise-aware verdict (verdict.ts).
 */
import { jsonInteger } from '../json.js';
import { sortedOf } from '../profile/noise.js';
import { quantile } from '../profile/stats.js';
import { formatBytes } from '../view/format.js';
import type { WorkloadPlan } from './plan.js';
import {
  WORKLOAD_RESULT_SCHEMA,
  type BytesPerStorage,
  type StepSummary,
  type WorkloadProgramEntry,
  type WorkloadResult,
  type WorkloadVariant,
} from './result.js';
import type { WorkloadTiming, WorkloadVerifyResult } from './runner-host.js';
import { workloadVerdict } from './verdict.js';

/** Where transients live on the CPU: what PERSISTENT's init and SCOPED's calls allocate. */
const HOST_STORAGE = 'CPU_Heap';

export interface AssembleWorkloadInput {
  plan: WorkloadPlan;
  verification: WorkloadVerifyResult;
  /** label → each timing process's measurements. */
  timings: Record<string, WorkloadTiming[]>;
  settings: { steps: number; warmupSteps: number; timedSteps: number; processes: number };
  machine: WorkloadResult['machine'];
}

function summarise(
  times: ArrayLike<number>,
  sums: { allocs: number; frees: number; allocFreeNs: number; allocBytes: number },
  n: number,
): StepSummary {
  const sorted = sortedOf(times);
  return {
    samples: n,
    medianNs: quantile(sorted, 0.5),
    p10Ns: quantile(sorted, 0.1),
    p90Ns: quantile(sorted, 0.9),
    allocs: n ? sums.allocs / n : 0,
    frees: n ? sums.frees / n : 0,
    allocFreeNs: n ? sums.allocFreeNs / n : 0,
    allocBytes: n ? sums.allocBytes / n : 0,
  };
}

function sumRows(
  t: WorkloadTiming,
  rows: (i: number) => boolean,
): { allocs: number; frees: number; allocFreeNs: number; allocBytes: number; times: number[] } {
  const out = { allocs: 0, frees: 0, allocFreeNs: 0, allocBytes: 0, times: [] as number[] };
  for (let i = 0; i < t.callNs.length; i++) {
    if (!rows(i)) continue;
    out.allocs += t.allocs[i]!;
    out.frees += t.frees[i]!;
    out.allocFreeNs += t.allocFreeNs[i]!;
    out.allocBytes += t.allocBytes[i]!;
    out.times.push(t.callNs[i]!);
  }
  return out;
}

const maxInto = (into: BytesPerStorage, storage: string, bytes: number): void => {
  into[storage] = Math.max(into[storage] ?? 0, bytes);
};

/**
 * A DaCe-built program whose calls the hooks saw no allocation or free in, although its SDFG says it allocates:
 * its library reaches the allocator some other way (statically linked), so its figures are unknown.
 */
function bypassedInterposition(plan: WorkloadPlan, label: string, key: string, intercepted: number): string | null {
  if (intercepted > 0) return null;
  const expected = plan.instances
    .filter((i) => i.program === key)
    .map((i) => i.dace?.get(label)?.expectedAllocationsPerCall ?? null)
    .filter((n): n is number => n !== null && n > 0);
  if (!expected.length) return null;
  return `interposition intercepted no allocation call of the DaCe-built program ${key} although it allocates (${Math.max(...expected)} per call): the library is statically linked to its allocator or bypasses interposition`;
}

export function assembleWorkloadResult(input: AssembleWorkloadInput): WorkloadResult {
  const { plan, verification: ver, timings } = input;
  // The EXTERNAL layout the per-program workspace is given in: the first EXTERNAL variant timed (packed first).
  const externals = plan.variants
    .filter((v) => v.mode === 'EXTERNAL')
    .sort((a, b) => (a.layout === 'packed' ? -1 : b.layout === 'packed' ? 1 : 0));
  const persistent = plan.variants.find((v) => v.mode === 'PERSISTENT');

  const programs: WorkloadProgramEntry[] = [];
  for (const key of plan.workload.programs.keys()) {
    const insts = plan.instances.map((inst, k) => ({ inst, k })).filter(({ inst }) => inst.program === key);
    if (!insts.length) continue;
    const workspace: BytesPerStorage = {};
    const held: BytesPerStorage = {};
    for (const { inst } of insts) {
      const ext = externals[0] ? inst.programs.get(externals[0].label)! : null;
      // A DaCe-built program's need is what its own size function said in the runner.
      const measured = inst.dace && externals[0] ? ver.instanceWorkspace[externals[0].label]?.[inst.id] : undefined;
      if (measured) for (const [storage, bytes] of Object.entries(measured)) maxInto(workspace, storage, bytes);
      else for (const e of ext?.externals ?? []) maxInto(workspace, e.storage, Number(e.bytes));
      if (persistent) maxInto(held, HOST_STORAGE, ver.initBytes[persistent.label]?.[inst.id] ?? 0);
    }
    programs.push({
      key,
      source: plan.workload.programs.get(key)!.sdfg ?? plan.workload.programs.get(key)!.prebuilt!,
      sdfgName: plan.sdfgNames[key] ?? key,
      positions: plan.sequence.flatMap((c, i) => (c.program === key ? [i] : [])),
      workspace,
      persistent: held,
    });
  }

  const footprint: Record<string, BytesPerStorage> = {};
  for (const v of plan.variants) {
    if (v.mode === 'EXTERNAL') footprint[v.label] = { ...(ver.workspace[v.label] ?? {}) };
    else if (v.mode === 'PERSISTENT') {
      footprint[v.label] = { [HOST_STORAGE]: Object.values(ver.initBytes[v.label] ?? {}).reduce((s, b) => s + b, 0) };
    } else if (v.mode === 'POOL') {
      // On the CPU the pool is the allocator itself: what the steps added to the resident set, at their peak.
      const rss = (timings[v.label] ?? []).map((t) => t.rssDeltaBytes).filter((b): b is number => b !== null);
      footprint[v.label] = rss.length ? { [HOST_STORAGE]: Math.max(...rss) } : { [HOST_STORAGE]: ver.callPeakBytes[v.label] ?? 0 };
    } else footprint[v.label] = { [HOST_STORAGE]: ver.callPeakBytes[v.label] ?? 0 };
  }

  const findings: string[] = [];
  const perStep: WorkloadResult['perStep'] = {};
  const perCallByProgram: WorkloadResult['perCallByProgram'] = {};
  for (const label of plan.timed) {
    const runs = timings[label] ?? [];
    const stepTimes = runs.flatMap((t) => [...t.stepNs]);
    const all = runs.map((t) => sumRows(t, () => true));
    const total = (f: 'allocs' | 'frees' | 'allocFreeNs' | 'allocBytes') => all.reduce((s, x) => s + x[f], 0);
    perStep[label] = summarise(
      stepTimes,
      { allocs: total('allocs'), frees: total('frees'), allocFreeNs: total('allocFreeNs'), allocBytes: total('allocBytes') },
      stepTimes.length,
    );
    const unmeasured = runs.find((t) => t.allocationsUnmeasured)?.allocationsUnmeasured ?? ver.allocationsUnmeasured[label];
    if (unmeasured) perStep[label].allocationsUnmeasured = unmeasured;
    perCallByProgram[label] = {};
    for (const key of plan.workload.programs.keys()) {
      const positions = new Set(plan.sequence.flatMap((c, i) => (c.program === key ? [i] : [])));
      if (!positions.size) continue;
      const parts = runs.map((t) => sumRows(t, (i) => positions.has(i % t.positions)));
      const times = parts.flatMap((p) => p.times);
      const sum = (f: 'allocs' | 'frees' | 'allocFreeNs' | 'allocBytes') => parts.reduce((s, x) => s + x[f], 0);
      perCallByProgram[label][key] = summarise(
        times,
        { allocs: sum('allocs'), frees: sum('frees'), allocFreeNs: sum('allocFreeNs'), allocBytes: sum('allocBytes') },
        times.length,
      );
      const bypassed = unmeasured ? null : bypassedInterposition(plan, label, key, sum('allocs') + sum('frees'));
      if (bypassed) {
        findings.push(`${label}: ${bypassed}; its allocation figures, and the step's, are not measured (n/m), not 0`);
        perStep[label].allocationsUnmeasured ??= bypassed;
      }
      const why = unmeasured ?? bypassed;
      if (why) perCallByProgram[label][key].allocationsUnmeasured = why;
    }
  }

  for (const [label, checks] of Object.entries(ver.checks)) {
    const stale = new Map<string, number[]>();
    for (const c of checks) if (c.staleWorkspace && c.step === 0) stale.set(c.program, [...(stale.get(c.program) ?? []), c.position]);
    for (const [program, positions] of stale) {
      findings.push(
        `${label}: program ${program} (position ${positions.join(', ')}) reads workspace bytes it did not write: its outputs change with what the shared workspace holds when it starts, i.e. with what the program before it left behind`,
      );
    }
    const first = checks.find((c) => !c.ok && c.mismatches.length);
    if (first) {
      const m = first.mismatches[0]!;
      const bad = checks.filter((c) => c.mismatches.length).length;
      findings.push(
        `${label} differs from SCOPED first at program ${first.program}, position ${first.position} of step ${first.step + 1}: array ${m.array} (argument ${m.argument}) at element ${m.firstIndex}: ${m.actual} instead of ${m.expected} (${bad} of ${checks.length} calls differ)`,
      );
    }
  }
  for (const [label, why] of Object.entries(ver.allocationsUnmeasured)) {
    findings.push(`${label}: allocations not measured (n/m): ${why}`);
  }
  for (const h of ver.guardHits) {
    findings.push(
      `${h.label}: program ${h.program} at position ${h.position} of step ${h.step + 1} wrote past the end of the shared ${h.storage} workspace`,
    );
  }
  for (const o of ver.overruns) {
    findings.push(
      `${o.variant} as gt4py runs it (workspace configured at each program's first call): ${o.program} at position ${o.position} needs ${formatBytes(o.neededBytes)} of ${o.storage}, but its first call configured ${formatBytes(o.configuredBytes)}${o.guardWritten ? ': the guard bytes after the workspace were written' : ''}; set the workspace again whenever symbol values change`,
    );
  }

  const perStepSamples = Object.fromEntries(plan.timed.map((label) => [label, { runs: (timings[label] ?? []).map((t) => t.stepNs) }]));
  const verdict = workloadVerdict({ perStep, footprint, samples: perStepSamples, labels: plan.timed });
  findings.push(...verdict.noise);
  for (const w of plan.warnings) findings.push(w);

  return {
    schema: WORKLOAD_RESULT_SCHEMA,
    workload: plan.workload.path,
    name: plan.workload.name,
    createdAt: new Date().toISOString(),
    machine: input.machine,
    settings: { ...input.settings, target: 'cpu' },
    sequence: plan.sequence.map((c) => ({
      program: c.program,
      symbols: Object.fromEntries(Object.entries(c.symbols).map(([k, v]) => [k, jsonInteger(v)])),
    })),
    programs,
    variants: plan.variants.map((v): WorkloadVariant => ({ mode: v.mode, layout: v.layout, label: v.label })),
    footprint,
    perProgram: Object.fromEntries(programs.map((p) => [p.key, { workspace: p.workspace, persistent: p.persistent }])),
    perStep,
    perCallByProgram,
    verification: ver.checks,
    overruns: ver.overruns,
    verdict: verdict.text,
    findings,
  };
}
