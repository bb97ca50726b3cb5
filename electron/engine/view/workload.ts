/**
 * The Workload view's model (docs/memory-views.md, "Workload view"): the sequence of program calls, and under it
 * what each mode holds over that timeline — PERSISTENT's blocks stacked (every program holds its own), EXTERNAL's
 * one shared band with each call's use inside it (the band is the largest need), POOL's high-water line (the
 * running maximum of the calls' peaks) — and each program's workspace need, the largest marked.
 *
 * Built from the advisor's static figures (`Advice`, engine/advise/), from a measured `workload-result@1`, or
 * both: the static figures then draw the pictures and the result adds its times, footprints and findings.
 */
import { basename } from 'node:path';
import type { Advice } from '../advise/index.js';
import type { PerStorage } from '../advise/figures.js';
import { MODES, type Mode } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import { jsonInteger, type JsonInteger } from '../json.js';
import type { StepSummary, WorkloadResult } from '../workload/result.js';
import type {
  BytesByStorage,
  StorageTimeline,
  WorkloadCallView,
  WorkloadMeasured,
  WorkloadProgramView,
  WorkloadView,
} from './workload-types.js';

export interface WorkloadViewSource {
  /** The advisor's figures of the workload (or of one SDFG: one call). */
  advice: Advice | null;
  /** What `profile workload.json` measured. */
  result: WorkloadResult | null;
  /** Program key → its SDFG file (for the file names shown); default: the result's `programs[].source`. */
  files?: Record<string, string>;
  /** Steps the workload file asks for (default: the result's, else 1). */
  steps?: number;
}

const big = (r: PerStorage): BytesByStorage => Object.fromEntries(Object.entries(r).map(([s, v]) => [s, jsonInteger(v)]));
const fromNumbers = (r: Record<string, number>): BytesByStorage => ({ ...r });

/** Bytes as a bigint for exact sums and maxima; null stays null (symbolic). */
const exact = (v: JsonInteger | null | undefined): bigint | null => (v === null ? null : v === undefined ? 0n : BigInt(v));

function sumOf(xs: Array<JsonInteger | null>): JsonInteger | null {
  let acc = 0n;
  for (const x of xs) {
    const v = exact(x);
    if (v === null) return null;
    acc += v;
  }
  return jsonInteger(acc);
}

/** Running maximum; once a value is symbolic, everything after it is too. */
function runningMax(xs: Array<JsonInteger | null>): Array<JsonInteger | null> {
  let acc: bigint | null = 0n;
  return xs.map((x) => {
    const v = exact(x);
    acc = acc === null || v === null ? null : v > acc ? v : acc;
    return jsonInteger(acc);
  });
}

/** The label of the variant a result timed for `mode` (EXTERNAL: the layout asked for, else any). */
function labelFor(result: WorkloadResult, mode: Mode, layout: Layout): string | null {
  const vs = result.variants.filter((v) => v.mode === mode);
  return (vs.find((v) => v.layout === layout) ?? vs[0])?.label ?? null;
}

function measuredPart(result: WorkloadResult): WorkloadMeasured {
  const verification: WorkloadMeasured['verification'] = {};
  for (const [label, checks] of Object.entries(result.verification)) {
    verification[label] = { checked: checks.length, failed: checks.filter((c) => !c.ok).length };
  }
  return {
    variants: result.variants.map((v) => v.label),
    footprint: result.footprint,
    perStep: result.perStep,
    verdict: result.verdict,
    findings: result.findings,
    verification,
    overruns: result.overruns.map(({ variant, program, position, storage, neededBytes, configuredBytes }) => ({
      variant,
      program,
      position,
      storage,
      neededBytes,
      configuredBytes,
    })),
    timedSteps: result.settings.timedSteps,
    processes: result.settings.processes,
  };
}

function perProgramMeasured(result: WorkloadResult | null, key: string): Record<string, StepSummary> | null {
  if (!result) return null;
  const out: Record<string, StepSummary> = {};
  for (const [label, byProgram] of Object.entries(result.perCallByProgram)) {
    const s = byProgram[key];
    if (s) out[label] = s;
  }
  return Object.keys(out).length ? out : null;
}

export function buildWorkloadView(src: WorkloadViewSource): WorkloadView {
  const { advice, result } = src;
  if (!advice && !result) throw new Error('buildWorkloadView needs the advice, a result, or both');
  const layout: Layout = advice?.layout ?? result?.variants.find((v) => v.mode === 'EXTERNAL')?.layout ?? 'packed';
  const files: Record<string, string> = { ...Object.fromEntries((result?.programs ?? []).map((p) => [p.key, p.source])), ...src.files };
  const fileName = (key: string): string => (files[key] ? basename(files[key]) : key);
  const notes: string[] = [];

  let programs: WorkloadProgramView[];
  let calls: WorkloadCallView[];
  let footprint: Record<Mode, BytesByStorage>;
  if (advice) {
    const order = [...new Set(advice.calls.map((c) => c.program))];
    programs = order.map((key) => ({
      key,
      file: fileName(key),
      positions: advice.calls.filter((c) => c.program === key).map((c) => c.position),
      workspace: big(advice.perProgram[key]!.workspace),
      persistent: big(advice.perProgram[key]!.persistent),
      measured: perProgramMeasured(result, key),
    }));
    calls = advice.calls.map((c) => ({
      position: c.position,
      program: c.program,
      symbols: Object.fromEntries(Object.entries(c.symbols).map(([k, v]) => [k, v === null ? '?' : String(v)])),
      workspace: big(c.workspace[layout]),
      peak: big(c.peak),
    }));
    footprint = Object.fromEntries(MODES.map((m) => [m, big(advice.footprint[m])])) as Record<Mode, BytesByStorage>;
  } else {
    const r = result!;
    programs = r.programs.map((p) => ({
      key: p.key,
      file: fileName(p.key),
      positions: p.positions,
      workspace: fromNumbers(p.workspace),
      persistent: fromNumbers(p.persistent),
      measured: perProgramMeasured(r, p.key),
    }));
    const byKey = new Map(programs.map((p) => [p.key, p]));
    calls = r.sequence.map((c, position) => ({
      position,
      program: c.program,
      symbols: Object.fromEntries(Object.entries(c.symbols).map(([k, v]) => [k, String(v)])),
      workspace: byKey.get(c.program)?.workspace ?? {},
      peak: {},
    }));
    footprint = Object.fromEntries(
      MODES.map((m) => {
        const label = labelFor(r, m, layout);
        return [m, label ? fromNumbers(r.footprint[label] ?? {}) : {}];
      }),
    ) as Record<Mode, BytesByStorage>;
    notes.push("Each call's workspace use is its program's need at its largest call: the result records needs per program, not per call.");
    if (calls.every((c) => Object.keys(c.peak).length === 0))
      notes.push('POOL: only the measured high-water mark is known (no per-call peaks).');
  }

  const poolLabel = result ? labelFor(result, 'POOL', layout) : null;
  const storageSet = new Set(MODES.flatMap((m) => Object.keys(footprint[m])));
  for (const p of programs) for (const s of [...Object.keys(p.workspace), ...Object.keys(p.persistent)]) storageSet.add(s);
  const size = (v: JsonInteger | null | undefined): number => (v === null || v === undefined ? -1 : Number(v));
  const storages = [...storageSet].sort((a, b) => size(footprint.EXTERNAL[b]) - size(footprint.EXTERNAL[a]) || (a < b ? -1 : 1));

  const timelines: StorageTimeline[] = storages.map((storage) => {
    const blocks = programs.map((p) => ({ program: p.key, bytes: p.persistent[storage] ?? 0 }));
    const use = calls.map((c) => c.workspace[storage] ?? 0);
    const band = footprint.EXTERNAL[storage] ?? null;
    const bandExact = exact(band);
    const sizing = bandExact === null || bandExact === 0n ? -1 : use.findIndex((u) => exact(u) === bandExact);
    const peaks = calls.map((c) => (Object.keys(c.peak).length ? (c.peak[storage] ?? 0) : null));
    const measuredPool = poolLabel ? (result!.footprint[poolLabel]?.[storage] ?? null) : null;
    return {
      storage,
      persistent: { blocks, total: sumOf(blocks.map((b) => b.bytes)) },
      external: { band, use, sizedBy: sizing < 0 ? null : calls[sizing]!.program },
      pool: { highWater: runningMax(peaks), peak: footprint.POOL[storage] ?? null, measured: measuredPool },
    };
  });

  return {
    kind: advice?.subject.kind ?? 'workload',
    name: advice?.subject.name ?? result!.name,
    path: advice?.subject.path ?? result!.workload,
    target: advice?.target ?? result!.settings.target,
    layout,
    basis: result ? 'measured' : 'static',
    steps: src.steps ?? result?.settings.steps ?? 1,
    programs,
    calls,
    footprint,
    storages,
    timelines,
    measured: result ? measuredPart(result) : null,
    notes,
  };
}
