/**
 * Per-mode numbers of a coverage row that ran (bench/lib/coverage-row.ts): each mode's median time per call,
 * allocations per call and workspace bytes, so that the README and the closing note can quote per-mode
 * tables for the large programs; and the lines the `coverage` section prints for them.
 */
import type { ProfileResult } from '../../electron/engine/profile/result.js';

export interface ModeNumbers {
  /** `SCOPED`, `EXTERNAL (packed)`, … */
  label: string;
  /** Over the row's timed calls (the coverage run times few: CALLS in coverage-row.ts). */
  medianNs: number;
  p10Ns: number;
  allocsPerCall: number;
  /** Bytes allocated per call; null where the result does not carry it. */
  allocBytesPerCall: number | null;
  /** The workspace the caller passes (EXTERNAL: summed over storages; 0 in the other modes). */
  workspaceBytes: number;
  /** Bytes allocated in init and held until exit (PERSISTENT); null where a size is not known. */
  initBytes: number | null;
}

export function modeNumbers(r: ProfileResult): ModeNumbers[] {
  return r.modes.map((m) => ({
    label: m.label,
    medianNs: m.summary.medianNs,
    p10Ns: m.summary.p10Ns,
    allocsPerCall: m.summary.allocsPerCall,
    allocBytesPerCall: m.summary.allocBytesPerCall ?? null,
    workspaceBytes: Object.values(m.workspaceBytes).reduce((s, b) => s + b, 0),
    initBytes: m.initBytes ?? null,
  }));
}

/** The programs issue 22 names (besides every file over 2 MB): their per-mode tables are printed. */
const NAMED_PROGRAMS = ['channel_flow', 'nbody', 'deriche', 'stage8', 'cloudsc_simplified'];

const mib = (b: number | null): string => (b === null ? '-' : (b / 2 ** 20).toFixed(2));

/** The per-mode table of each row over `smallBytes` or named in NAMED_PROGRAMS that carries per-mode numbers. */
export function modeTables(rows: ReadonlyArray<{ file: string; bytes: number; perMode?: ModeNumbers[] }>, smallBytes: number): string[] {
  const lines: string[] = [];
  for (const r of rows) {
    if (!r.perMode?.length || (r.bytes <= smallBytes && !NAMED_PROGRAMS.some((n) => r.file.includes(n)))) continue;
    lines.push(
      `${r.file}: per mode`,
      `  ${'mode'.padEnd(18)} ${'median ms'.padStart(10)} ${'allocs/call'.padStart(12)} ${'alloc MiB/call'.padStart(15)} ${'workspace MiB'.padStart(14)} ${'init MiB'.padStart(9)}`,
      ...r.perMode.map(
        (m) =>
          `  ${m.label.padEnd(18)} ${(m.medianNs / 1e6).toFixed(3).padStart(10)} ${m.allocsPerCall.toFixed(1).padStart(12)} ${mib(m.allocBytesPerCall).padStart(15)} ${mib(m.workspaceBytes).padStart(14)} ${mib(m.initBytes).padStart(9)}`,
      ),
    );
  }
  return lines;
}
