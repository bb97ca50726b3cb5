/**
 * The sentences a profile result is summed up by: the headline "EXTERNAL vs POOL: 1.37× faster per call
 * (p < 0.001), 18 fewer allocations per call, 96.0 MiB workspace", the comparison of several results per
 * mode, and the verification badge. Every number comes from the result; whether two modes differ in time
 * is the profiler's own Mann–Whitney verdict at its own threshold (profile/format.ts), never two medians
 * read side by side. Pure: the renderer, the HTML/PDF reports and the CLI share it.
 *
 * GPU results (profile@1's GPU additions) carry two times per call: the host's (`calls.totalNs`, the device
 * synchronised before the clock stops) and the device's (`gpu.deviceNs`, CUDA events). The headline's verdict
 * is on host time — what the calling program waits for per call, including the host-side cost of
 * cudaMallocAsync/cudaFreeAsync that POOL pays and EXTERNAL does not — and the device-time verdict stands
 * beside it (`device`), so that neither hides the other. CPU results have `basis: null` and read as before.
 */
import { SIGNIFICANCE } from '../profile/format.js';
import type { ModeResult, ProfileResult } from '../profile/result.js';
import { mannWhitney } from '../profile/stats.js';
import { formatBytes, formatCount, formatNs, formatP, formatRatio } from './format.js';

export type TimeVerdict = 'faster' | 'slower' | 'no-difference' | 'too-few-calls';

/** Whether `subject` differs in time per call from `baseline`, and by how much. */
export interface TimeComparison {
  verdict: TimeVerdict;
  /** Median of the baseline / median of the subject: > 1 when the subject is faster. */
  ratio: number;
  medians: { subject: number; baseline: number };
  /** Two-sided Mann–Whitney p-value over every timed call; NaN with fewer than two calls a side. */
  p: number;
  /** "1.37× faster per call (p < 0.001)", or "no significant difference per call (medians … , p = 0.32)". */
  text: string;
}

export function compareTimes(subject: readonly number[], baseline: readonly number[], medians: { subject: number; baseline: number }): TimeComparison {
  const { p } = mannWhitney(baseline, subject);
  const ratio = medians.baseline / medians.subject;
  const pair = `medians ${formatNs(medians.subject)} vs ${formatNs(medians.baseline)}`;
  if (!Number.isFinite(p)) {
    return { verdict: 'too-few-calls', ratio, medians, p, text: `too few calls to test a difference (${pair})` };
  }
  if (p >= SIGNIFICANCE) {
    return { verdict: 'no-difference', ratio, medians, p, text: `no significant difference per call (${pair}, ${formatP(p)})` };
  }
  const faster = medians.subject < medians.baseline;
  const factor = faster ? ratio : 1 / ratio;
  return { verdict: faster ? 'faster' : 'slower', ratio, medians, p, text: `${formatRatio(factor)} ${faster ? 'faster' : 'slower'} per call (${formatP(p)})` };
}

/** A mode's device times per call (GPU results), or null on CPU. */
export function deviceTimes(m: ModeResult): { calls: number[]; median: number } | null {
  const g = m.gpu;
  return g && Array.isArray(g.deviceNs) && g.deviceNs.length > 0 ? { calls: g.deviceNs, median: g.deviceMedianNs } : null;
}

/** A GPU result: it names its device, or one of its modes has device times. */
export function isGpuResult(result: ProfileResult): boolean {
  return result.device !== undefined || result.modes.some((m) => deviceTimes(m) !== null);
}

export interface Headline {
  /** Mode labels compared, e.g. `EXTERNAL (packed)` and `POOL`; null when the result lacks one. */
  subject: string | null;
  baseline: string | null;
  /** null when there is nothing to compare (`text` says why). On a GPU result: host time per call. */
  time: TimeComparison | null;
  /** Which time `time` compares: null on CPU (the only time there is), 'host' on a GPU result. */
  basis: 'host' | null;
  /** GPU results: the same comparison on device time (CUDA events); null on CPU or when a side lacks it. */
  device: TimeComparison | null;
  /** Allocations per call the subject saves (negative: adds), from the timed calls. */
  allocsSaved: number | null;
  /** Total workspace of the subject (Σ over storages), bytes; null when it has none. */
  workspaceBytes: number | null;
  workspaceByStorage: Record<string, number>;
  /** The parts, in order, for layouts that set them apart: title, time, allocations, workspace; on GPU also
   * which time the verdict is on (`basis`) and the device-time verdict (`device`), null on CPU. */
  parts: { title: string; time: string; allocs: string; workspace: string | null; basis: string | null; device: string | null };
  /** The whole sentence. */
  text: string;
}

function allocsText(saved: number, subject: ModeResult, baseline: ModeResult): string {
  const count = (x: number): string => (Number.isInteger(x) ? formatCount(x) : x.toFixed(1));
  if (Math.abs(saved) < 0.05) return `the same allocations per call (${count(subject.summary.allocsPerCall)})`;
  const n = Math.abs(saved);
  const noun = n === 1 ? 'allocation' : 'allocations';
  return `${count(n)} ${saved > 0 ? 'fewer' : 'more'} ${noun} per call (${count(baseline.summary.allocsPerCall)} → ${count(subject.summary.allocsPerCall)})`;
}

function sumWorkspace(m: ModeResult): number | null {
  const values = Object.values(m.workspaceBytes);
  return values.length ? values.reduce((s, b) => s + b, 0) : null;
}

/** The EXTERNAL variants of a result, the packed layout first (the one this tool adds). */
function externals(result: ProfileResult): ModeResult[] {
  const rank = (m: ModeResult): number => (m.layout === 'packed' ? 0 : m.layout === 'dace' ? 1 : 2);
  return result.modes.filter((m) => m.mode === 'EXTERNAL').sort((a, b) => rank(a) - rank(b));
}

/** The baseline EXTERNAL is judged against: POOL, else SCOPED (on CPU the two run the same code). */
function baselineOf(result: ProfileResult): ModeResult | null {
  return result.modes.find((m) => m.mode === 'POOL') ?? result.modes.find((m) => m.mode === 'SCOPED') ?? null;
}

export const HOST_BASIS = 'host time per call (device synchronised before the clock stops)';

export function headlineFor(subject: ModeResult, baseline: ModeResult, gpu = false): Headline {
  const time = compareTimes(subject.calls.totalNs, baseline.calls.totalNs, { subject: subject.summary.medianNs, baseline: baseline.summary.medianNs });
  const ds = deviceTimes(subject);
  const db = deviceTimes(baseline);
  const device = ds && db ? compareTimes(ds.calls, db.calls, { subject: ds.median, baseline: db.median }) : null;
  const allocsSaved = baseline.summary.allocsPerCall - subject.summary.allocsPerCall;
  const workspaceBytes = sumWorkspace(subject);
  const title = `${subject.label} vs ${baseline.label}`;
  const allocs = allocsText(allocsSaved, subject, baseline);
  const workspace = workspaceBytes === null ? null : `${formatBytes(workspaceBytes)} workspace`;
  const basis = gpu ? HOST_BASIS : null;
  const deviceText = gpu ? (device ? `device time (CUDA events): ${device.text}` : 'device time: not recorded for both modes') : null;
  const timeText = gpu ? `${time.text.replace(' per call', ' per call in host time')}` : time.text;
  const text = `${title}: ${[timeText, ...(deviceText ? [deviceText] : []), allocs, ...(workspace ? [workspace] : [])].join(', ')}`;
  return {
    subject: subject.label,
    baseline: baseline.label,
    time,
    basis: gpu ? 'host' : null,
    device,
    allocsSaved,
    workspaceBytes,
    workspaceByStorage: { ...subject.workspaceBytes },
    parts: { title, time: time.text, allocs, workspace, basis, device: deviceText },
    text,
  };
}

function unavailable(text: string, subject: string | null, baseline: string | null): Headline {
  return {
    subject,
    baseline,
    time: null,
    basis: null,
    device: null,
    allocsSaved: null,
    workspaceBytes: null,
    workspaceByStorage: {},
    parts: { title: text, time: '', allocs: '', workspace: null, basis: null, device: null },
    text,
  };
}

/** One headline per EXTERNAL variant (packed first) against POOL (or SCOPED when POOL was not run). */
export function profileHeadlines(result: ProfileResult): Headline[] {
  const base = baselineOf(result);
  const ext = externals(result);
  if (!ext.length) return [unavailable('No EXTERNAL run in this result: nothing to compare against POOL', null, base?.label ?? null)];
  if (!base) return [unavailable(`${ext[0]!.label} was run without POOL or SCOPED: nothing to compare it with`, ext[0]!.label, null)];
  const gpu = isGpuResult(result);
  return ext.map((e) => headlineFor(e, base, gpu));
}

/** The headline of a result: EXTERNAL (packed if run) against POOL. */
export function profileHeadline(result: ProfileResult): Headline {
  return profileHeadlines(result)[0]!;
}

export interface ResultChange {
  /** Mode label (`POOL`, `EXTERNAL (packed)`, …). */
  mode: string;
  /** Result label of the reference and of the one compared with it. */
  reference: string;
  other: string;
  time: TimeComparison;
  /** Allocations per call: other − reference. */
  allocsDelta: number;
  /** Both results ran on a GPU: the same comparison on device time; null otherwise. */
  device: TimeComparison | null;
  /** One result ran on a CPU and the other on a GPU: `time` compares their host times, which then measure
   * different machines doing different work; the renderer and the reports say so. */
  crossTarget: boolean;
  /** "POOL: after is 1.12× slower per call (p = 0.003) than before". */
  text: string;
}

/**
 * Per mode label present in the first result and another: does the other differ beyond the noise?
 * The first result is the reference (before, machine A).
 */
export function compareResults(results: ReadonlyArray<{ label: string; result: ProfileResult }>): ResultChange[] {
  if (results.length < 2) return [];
  const [ref, ...others] = results;
  const out: ResultChange[] = [];
  for (const m of ref!.result.modes) {
    for (const o of others) {
      const om = o.result.modes.find((x) => x.label === m.label);
      if (!om) continue;
      const time = compareTimes(om.calls.totalNs, m.calls.totalNs, { subject: om.summary.medianNs, baseline: m.summary.medianNs });
      const allocsDelta = om.summary.allocsPerCall - m.summary.allocsPerCall;
      const dr = deviceTimes(m);
      const dof = deviceTimes(om);
      const device = dr && dof ? compareTimes(dof.calls, dr.calls, { subject: dof.median, baseline: dr.median }) : null;
      const crossTarget = isGpuResult(ref!.result) !== isGpuResult(o.result);
      const what = time.verdict === 'faster' || time.verdict === 'slower' ? `${time.text} than ${ref!.label}` : time.text;
      const extra = crossTarget
        ? ` (host times of a ${isGpuResult(o.result) ? 'GPU' : 'CPU'} run against a ${isGpuResult(ref!.result) ? 'GPU' : 'CPU'} run)`
        : device
          ? `; device time: ${device.text}`
          : '';
      out.push({ mode: m.label, reference: ref!.label, other: o.label, time, allocsDelta, device, crossTarget, text: `${m.label}: ${o.label} ${what}${extra}` });
    }
  }
  return out;
}

/** The verification badge: one short line, and whether it is good news. */
export function verificationBadge(result: ProfileResult): { ok: boolean; text: string; details: string[] } {
  const v = result.verification;
  // Nothing compared is not "identical": say so, with the verifier's reason (issue 6, no silent degradation).
  if (v.ok && v.vacuous) {
    const note = v.details.find((d) => d.kind === 'note' && d.message.startsWith('nothing was compared'));
    return { ok: true, text: 'Verified: no outputs to compare across modes', details: note ? [note.message] : [] };
  }
  if (v.ok) {
    const how = v.tolerance !== undefined ? `within a relative tolerance of ${v.tolerance}` : 'bitwise identical';
    return { ok: true, text: `Verified: all modes ${how}`, details: [] };
  }
  const details = v.details.filter((d) => d.kind !== 'note').map((d) => d.message);
  return { ok: false, text: `Verification failed: ${details.length} problem${details.length === 1 ? '' : 's'}`, details };
}
