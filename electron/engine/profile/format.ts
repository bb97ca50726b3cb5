/** The console form of a ProfileResult: one table row per mode (+layout) and the lines under it. */
import { profileVerdict, ratioText } from '../view/verdict.js';
import type { ModeResult, ProfileResult } from './result.js';
import { indexInputLines } from './index-inputs.js';
import { libraryNodesLine } from '../view/library-nodes.js';

function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return '-';
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}

function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(2)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(1)} KiB`;
  return `${n} B`;
}

function count(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => rows.reduce((w, r) => Math.max(w, r[c]!.length), 0));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

function workspace(m: ModeResult): string {
  const entries = Object.entries(m.workspaceBytes);
  if (!entries.length) return '-';
  return entries.map(([s, b]) => (entries.length > 1 ? `${s}:${formatBytes(b)}` : formatBytes(b))).join(' ');
}

const cudaVersion = (v: number) => (v ? `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}` : '?');
const releaseThresholdText = (t: string) => (t === ((1n << 64n) - 1n).toString() ? 'max' : formatBytes(Number(t)));

/** Which folder is which mode, and why (DaCe build folders: the mode is read from the build, not the name). */
function daceFolderLines(modes: ModeResult[]): string[] {
  const from = modes.filter((m) => m.daceFolder);
  if (!from.length) return [];
  const lines = from.map((m) => {
    const f = m.daceFolder!;
    return `${m.label} ← ${f.path} (${f.modeReason}; SDFG sha256 ${f.sdfgSha256.slice(0, 12)})${f.builtBy ? `; ${f.builtBy}` : ''}`;
  });
  return lines;
}

/** Why a mode's allocation columns say n/m (a DaCe build that could not be interposed, a library that bypasses
 * interposition). */
function unmeasuredLines(modes: ModeResult[]): string[] {
  return modes
    .filter((m) => m.allocationsMeasured === false)
    .map(
      (m) =>
        `n/m: ${m.label}: allocations not measured: ${m.allocationsUnmeasured ?? 'the library records none'}; median/call is the whole call, allocations included.`,
    );
}

export function formatProfile(result: ProfileResult): string {
  const lines: string[] = [];
  lines.push(
    `${result.program.name} (${result.program.file}): ${result.settings.processes > 1 ? `${result.settings.processes} processes × ` : ''}${result.settings.calls} calls after ${result.settings.warmup} warmup, ${result.machine.compiler} ${(result.settings.cxxflags ?? []).join(' ')}, ${result.machine.cpu}`,
  );
  lines.push('');
  const scoped = result.modes.find((m) => m.mode === 'SCOPED');
  // GPU runs: median/call is host time with the device synchronised; device/call the CUDA-event time.
  const gpu = result.modes.some((m) => m.gpu);
  // `--gpu host`: the CUDA events read the host clock; the column is named for what it is.
  const emulated = result.backend === 'cuda-host';
  // The verdict is the one the renderer and the reports show (view/verdict.ts). A noisy run is compared at p10,
  // and so is the ratio column: channel_flow on a busy machine read PERSISTENT "48.10×" from medians of 61 ms
  // against 1.27 ms, where the verdict (at p10: 925 µs against 719 µs) could name no winner at all.
  const verdict = profileVerdict(result);
  const atP10 = verdict.statistic === 'p10';
  const rows: string[][] = [
    [
      'mode',
      'median/call',
      ...(gpu ? [emulated ? 'emulated/call' : 'device/call'] : []),
      'p10',
      'p90',
      'allocs/call',
      'alloc+free',
      'faults/call',
      'workspace',
      atP10 ? 'vs SCOPED (p10)' : 'vs SCOPED',
    ],
  ];
  for (const m of result.modes) {
    const s = m.summary;
    rows.push([
      m.label,
      formatNs(s.medianNs),
      ...(gpu ? [formatNs(m.gpu?.deviceMedianNs ?? NaN)] : []),
      formatNs(s.p10Ns),
      formatNs(s.p90Ns),
      // Never a 0 that looks measured: a DaCe-built library records no allocation events (docs/dace-folders.md).
      m.allocationsMeasured === false ? 'n/m' : count(s.allocsPerCall),
      m.allocationsMeasured === false ? 'n/m' : `${(s.allocShare * 100).toFixed(1)}%`,
      count(s.minorFaultsPerCall),
      workspace(m),
      scoped ? ratioText(result, scoped, m, verdict.statistic) : '-',
    ]);
  }
  for (const l of table(rows)) lines.push(l);
  for (const l of [...daceFolderLines(result.modes), ...unmeasuredLines(result.modes)]) lines.push(l);
  if (emulated) {
    lines.push(
      'backend: cuda-host — the CUDA code ran on this CPU under the host CUDA runtime (--gpu host); every time is a host time of the emulation, not a device time (emulated/call: host clock between the two CUDA events of a call)',
    );
  } else if (result.device) {
    const d = result.device;
    lines.push(
      `device: ${d.name} (compute capability ${d.computeCapability}, CUDA runtime ${cudaVersion(d.runtimeVersion)}, driver ${cudaVersion(d.driverVersion)}); median/call is host time until the device finished, device/call CUDA-event time`,
    );
  }
  const pooled = result.modes.filter((m) => m.gpu?.pool);
  if (pooled.length) {
    lines.push(
      `pool high-water (reserved / used): ${pooled.map((m) => `${m.label} ${formatBytes(m.gpu!.pool!.reservedHighBytes)} / ${formatBytes(m.gpu!.pool!.usedHighBytes)}`).join('; ')} (release threshold ${releaseThresholdText(pooled[0]!.gpu!.pool!.releaseThreshold)})`,
    );
  }
  const library = libraryNodesLine(result.libraryNodes);
  if (library) lines.push(library);
  lines.push(...indexInputLines(result.indexInputs));
  // PERSISTENT moves the allocations into init, and first calls pay cold caches and first-touch faults: both
  // belong next to the steady state, or a mode looks cheaper than it is over a short-lived program.
  lines.push(`init / first call: ${result.modes.map((m) => `${m.label} ${formatNs(m.initNs)} / ${formatNs(m.firstCallNs)}`).join('; ')}`);
  // Said, not hidden: the warm-up went on until the page faults per call settled (docs/profile.md, Timing).
  const extended = result.modes.filter((m) => m.warmupCalls?.some((w) => w > result.settings.warmup));
  if (extended.length) {
    lines.push(
      `warm-up extended until the page faults per call settled: ${extended.map((m) => `${m.label} ${m.warmupCalls!.join(', ')} calls`).join('; ')}`,
    );
  }
  lines.push('');
  // The verdict: the fastest mode, or why none is named, with the run's noise first; then each EXTERNAL layout
  // against POOL.
  lines.push(`verdict: ${verdict.text}.`);
  // When every mode ran one library the headline says it all; each pair would only repeat it.
  for (const h of verdict.primary.sameCode ? [] : verdict.secondary) lines.push(`${h.text}.`);
  for (const f of verdict.noise.findings) lines.push(`noise: ${f.text}.`);
  if (result.modes.some((m) => m.summary.minorFaultsPerCall > 0)) {
    lines.push(
      'faults/call: minor page faults per call. Freshly allocated large transients fault in again on every call (glibc returns large freed blocks to the kernel): that cost is part of allocating, even where alloc+free time looks small.',
    );
  }
  if (result.modes.some((m) => m.eventsOverflowed))
    lines.push('warning: the allocation event buffer overflowed in some calls: alloc+free shares are lower bounds.');
  for (const note of result.notes) lines.push(`note: ${note}`);
  for (const w of result.warnings) lines.push(`warning: ${w}`);
  const v = result.verification;
  const vacuous = v.vacuous ? v.details.find((d) => d.kind === 'note' && d.message.startsWith('nothing was compared')) : undefined;
  if (v.ok && vacuous) {
    lines.push(`verification: ${vacuous.message}; no uninitialised reads, no workspace overflow.`);
  } else if (v.ok) {
    lines.push(
      `verification: all modes produced ${v.tolerance !== undefined ? `the same outputs within a relative tolerance of ${v.tolerance}` : 'bitwise identical outputs'}; no uninitialised reads, no workspace overflow.`,
    );
  } else {
    lines.push('verification FAILED:');
    for (const d of v.details) if (d.kind !== 'note') lines.push(`  ${d.message}`);
  }
  return lines.join('\n');
}
