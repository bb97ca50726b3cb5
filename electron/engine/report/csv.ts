/**
 * CSV reports: one row per timed call (every per-call column of every mode of every result), and one row per
 * mode with its summary. Numbers are written in full (shortest round-trip decimal), so parsing the CSV gives
 * back exactly the result's values; NaN and null become empty fields. RFC 4180 quoting, `\n` line ends,
 * a header row.
 */
import { PER_CALL_COLUMNS } from '../profile/columns.js';
import type { ProfileResult } from '../profile/result.js';
import { summaryRows } from './model.js';
import type { LabelledResult } from './types.js';

/** A row's place (result, mode, process, call), then every per-call column (columns.ts) by its CSV name. */
export const CALL_COLUMNS: readonly string[] = [
  'result',
  'program',
  'mode',
  'layout',
  'label',
  'process',
  'call',
  ...PER_CALL_COLUMNS.map((c) => c.csv),
];

export const SUMMARY_COLUMNS = [
  'result',
  'program',
  'mode',
  'layout',
  'label',
  'calls',
  'median_ns',
  'p10_ns',
  'p90_ns',
  'mean_ns',
  'allocs_per_call',
  'frees_per_call',
  'allocator_ns_per_call',
  'alloc_share',
  'minor_faults_per_call',
  'workspace_bytes',
  'init_ns',
  'first_call_ns',
  'events_overflowed',
] as const;

/** Added after the columns above when a result ran on a GPU (profile@1's GPU additions); CPU-only reports keep
 * exactly the columns above. */
const GPU_CALL_COLUMNS = ['device_ns'] as const;
const GPU_SUMMARY_COLUMNS = ['device_median_ns', 'pool_reserved_high_bytes', 'pool_used_high_bytes', 'pool_release_threshold'] as const;

const anyGpu = (results: readonly LabelledResult[]): boolean => results.some(({ result }) => result.modes.some((m) => m.gpu));

function field(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const line = (cells: ReadonlyArray<string | number | boolean | null | undefined>): string => cells.map(field).join(',');

/** Every kept timed call: `process` and `call` (both from 0) place it in its runner process (with `sampling`,
 * row i of a process is its call floor(i·n / k), docs/profile-schema.md). */
export function callsCsv(results: readonly LabelledResult[]): string {
  const gpu = anyGpu(results);
  const out: string[] = [line(gpu ? [...CALL_COLUMNS, ...GPU_CALL_COLUMNS] : CALL_COLUMNS)];
  for (const { label, result } of results) {
    const perProcess = Math.max(1, result.settings.calls);
    for (const m of result.modes) {
      const c = m.calls;
      const rows = Math.max(1, m.sampling?.keptPerProcess ?? perProcess);
      for (let i = 0; i < c.totalNs.length; i++) {
        const row = i % rows;
        out.push(
          line([
            label,
            result.program.name,
            m.mode,
            m.layout,
            m.label,
            Math.floor(i / rows),
            m.sampling ? Math.floor((row * perProcess) / rows) : row,
            ...PER_CALL_COLUMNS.map(({ name }) => c[name][i]),
            ...(gpu ? [m.gpu?.deviceNs[i]] : []),
          ]),
        );
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** One row per (result, mode): the profiler's summary plus frees, allocator time and workspace. */
export function summaryCsv(results: readonly LabelledResult[]): string {
  const byResult = new Map<number, ProfileResult>(results.map((x, i) => [i, x.result]));
  const gpu = anyGpu(results);
  const out: string[] = [line(gpu ? [...SUMMARY_COLUMNS, ...GPU_SUMMARY_COLUMNS] : SUMMARY_COLUMNS)];
  for (const s of summaryRows(results)) {
    out.push(
      line([
        s.resultLabel,
        byResult.get(s.result)!.program.name,
        s.mode,
        s.layout,
        s.label,
        s.calls,
        s.medianNs,
        s.p10Ns,
        s.p90Ns,
        s.meanNs,
        s.allocsPerCall,
        s.freesPerCall,
        s.allocatorNsPerCall,
        s.allocShare,
        s.minorFaultsPerCall,
        s.workspaceBytes,
        s.initNs,
        s.firstCallNs,
        s.eventsOverflowed,
        ...(gpu ? [s.gpu?.deviceMedianNs, s.gpu?.pool?.reservedHighBytes, s.gpu?.pool?.usedHighBytes, s.gpu?.pool?.releaseThreshold] : []),
      ]),
    );
  }
  return `${out.join('\n')}\n`;
}

/** `out.csv` → `out.summary.csv`; any other name gets `.summary.csv` appended. */
export function summaryPath(callsPath: string): string {
  return /\.csv$/i.test(callsPath) ? callsPath.replace(/\.csv$/i, '.summary.csv') : `${callsPath}.summary.csv`;
}

/** RFC 4180 CSV → rows of fields (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
    i++;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
