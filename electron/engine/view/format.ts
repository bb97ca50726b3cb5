/**
 * How every view, chart and report writes numbers: bytes in B/KiB/MiB/GiB/TiB, times in ns/µs/ms/s, both
 * with three significant digits; sizes that depend on unknown symbols stay symbolic ("8·N B").
 * Pure functions, no DOM and no Node: the renderer, the CLI's reports and the tests share them.
 *
 * A unit is left for the next one at 1000, not 1024, so that three significant digits always suffice:
 * 1000 KiB is written 0.977 MiB.
 */
import type { JsonInteger } from '../json.js';
import type { ProfileCheck } from './types.js';

const MINUS = '\u2212';

/** `x` with three significant digits, no exponent (|x| < 1e21); trailing zeros kept ("1.20"). */
export function sig3(x: number): string {
  if (!Number.isFinite(x)) return '–';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a >= 100 ? String(Math.round(a)) : a.toPrecision(3);
  return (x < 0 ? MINUS : '') + (text.includes('e') ? String(Number(text)) : text);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

export interface Unit {
  name: string;
  /** Value of one unit in the base (bytes or ns). */
  factor: number;
}

/** The unit in which `bytes` reads with at most three integer digits. */
export function bytesUnit(bytes: number): Unit {
  let i = 0;
  let v = Math.abs(bytes);
  while (v >= 999.5 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return { name: BYTE_UNITS[i]!, factor: 1024 ** i };
}

const asNumber = (v: number | JsonInteger | bigint): number => (typeof v === 'number' ? v : Number(v));

/** "800 B", "1.25 KiB", "96.0 MiB"; null → "–". Exact integers below 1000 B. */
export function formatBytes(v: number | JsonInteger | bigint | null | undefined): string {
  if (v === null || v === undefined) return '–';
  const n = asNumber(v);
  if (!Number.isFinite(n)) return '–';
  const u = bytesUnit(n);
  if (u.factor === 1) return `${n < 0 ? MINUS : ''}${Math.abs(Math.round(n))} B`;
  return `${sig3(n / u.factor)} ${u.name}`;
}

/** A byte-count expression for display: `8*(I + 2)*K` → "8·(I + 2)·K B". */
export function formatBytesExpr(expr: string): string {
  const e = expr.trim();
  if (/^\d+$/.test(e)) return formatBytes(Number(e));
  return `${e.replace(/\s*\*\*\s*/g, '^').replace(/\s*\*\s*/g, '·')} B`;
}

/** Known bytes as a number, else the symbolic expression. */
export function formatSize(bytes: JsonInteger | null | undefined, expr: string): string {
  return bytes === null || bytes === undefined ? formatBytesExpr(expr) : formatBytes(bytes);
}

const TIME_UNITS: Unit[] = [
  { name: 'ns', factor: 1 },
  { name: 'µs', factor: 1e3 },
  { name: 'ms', factor: 1e6 },
  { name: 's', factor: 1e9 },
];

/** The unit in which `ns` reads with at most three integer digits (seconds above). */
export function timeUnit(ns: number): Unit {
  const a = Math.abs(ns);
  for (let i = TIME_UNITS.length - 1; i > 0; i--) if (a >= TIME_UNITS[i]!.factor * 0.9995) return TIME_UNITS[i]!;
  return TIME_UNITS[0]!;
}

/** "412 ns", "1.23 µs", "6.88 ms", "2.50 s". */
export function formatNs(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '–';
  const u = timeUnit(ns);
  return `${sig3(ns / u.factor)} ${u.name}`;
}

/** Integers with thin-space thousands ("30 313"), other numbers with three significant digits. */
export function formatCount(n: number | JsonInteger | null | undefined): string {
  if (n === null || n === undefined) return '–';
  const x = asNumber(n);
  if (!Number.isFinite(x)) return '–';
  if (!Number.isInteger(x)) return sig3(x);
  const s = String(Math.abs(x)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  return (x < 0 ? MINUS : '') + s;
}

/** "1.37×". */
export function formatRatio(r: number): string {
  return `${sig3(r)}×`;
}

/** A fraction as a percentage: 0.4 → "40.0%". */
export function formatPercent(f: number): string {
  return `${sig3(f * 100)}%`;
}

/** "p < 0.001", "p = 0.003", "p = 0.32"; NaN → "p n/a". */
export function formatP(p: number): string {
  if (!Number.isFinite(p)) return 'p n/a';
  if (p < 0.001) return 'p < 0.001';
  return p < 0.01 ? `p = ${p.toFixed(3)}` : `p = ${p.toFixed(2)}`;
}

/** "steps 3–7", or "step 3". */
export function formatStepRange(first: number, last: number): string {
  if (first < 0) return 'never accessed';
  return first === last ? `step ${first}` : `steps ${first}–${last}`;
}

/** `N has a value` / `3 symbols have values (N, M, K)` / `2862 symbols have values (a, b, … and 2854 more)`. */
export function needsValuesText(n: { count: number; names: string[] }, shown = n.names.length): string {
  if (n.count === 1) return `${n.names[0]} has a value`;
  // "… and 1 more" would take the room of the one name it hides.
  const names = n.names.slice(0, n.count === shown + 1 ? shown + 1 : shown);
  const more = n.count > names.length ? `, … and ${(n.count - names.length).toLocaleString('en-US')} more` : '';
  return `${n.count.toLocaleString('en-US')} symbols have values (${names.join(', ')}${more})`;
}

/**
 * What a view or reference aliases, in words, in place of a size it does not own: `view of T`, `view of
 * argument A`, `reference to T`, `reference, set at run time`. `viewOf` is `analysis@1`'s (`<sdfg>:<name>`
 * for a transient, a bare name for an argument); `type` the descriptor class.
 */
export function aliasText(type: string, viewOf: string | null, reason: string | null = null): string {
  const reference = /Reference/.test(type);
  if (viewOf === null) return reference ? 'reference, set at run time' : `view of an unknown container${reason ? ` (${reason})` : ''}`;
  const colon = viewOf.indexOf(':');
  const target = colon >= 0 ? viewOf.slice(colon + 1) : `argument ${viewOf}`;
  return `${reference ? 'reference to' : 'view of'} ${target}`;
}

/**
 * The code generator's verdict in one line, as `analyze` prints it after "Can profile:" and the window's Profile
 * button says it: `yes`, or `no (<element>: <message>, at <JSON path>)` with how many other findings there are;
 * `yes, once N has a value` while symbols the build needs have none.
 */
export function canProfileText(c: ProfileCheck, namesShown?: number): string {
  if (c.ok) return c.needsValues ? `yes, once ${needsValuesText(c.needsValues, namesShown)}` : 'yes';
  const more = c.findings > 1 ? `; ${c.findings - 1} more finding(s)` : '';
  const blas = c.withBlas ? `; with --library-impl blas: ${c.withBlas.ok ? 'yes' : `no (${c.withBlas.message})`}` : '';
  return `no (${c.element}: ${c.message}, at ${c.jsonPath}${more})${blas}`;
}
