/**
 * Ticks in the units people read: bytes on binary multiples of KiB/MiB/GiB, times in ns/µs/ms, program
 * steps on whole numbers. d3 picks the round numbers; we pick the unit first, so that tick labels are short
 * ("0 20 40 60") and the unit sits once in the axis title.
 */
import { tickFormat, ticks } from 'd3';
import { bytesUnit, formatNs, timeUnit, type Unit } from '../../../electron/engine/view/public.js';

export interface Ticks {
  unit: Unit;
  /** Tick values in the base unit (bytes, ns, steps). */
  values: number[];
  labels: string[];
}

function unitTicks(lo: number, hi: number, count: number, unit: Unit): Ticks {
  const a = lo / unit.factor;
  const b = hi / unit.factor;
  const vs = ticks(a, b, count);
  const fmt = tickFormat(a, b, count);
  return { unit, values: vs.map((v) => v * unit.factor), labels: vs.map((v) => fmt(v).replace('-', '\u2212')) };
}

/** Ticks for a byte axis over [lo, hi]. */
export function byteTicks(lo: number, hi: number, count = 5): Ticks {
  return unitTicks(lo, hi, count, bytesUnit(Math.max(Math.abs(lo), Math.abs(hi))));
}

/** Ticks for a time axis over [lo, hi] ns. */
export function timeTicks(lo: number, hi: number, count = 5): Ticks {
  return unitTicks(lo, hi, count, timeUnit(Math.max(Math.abs(lo), Math.abs(hi))));
}

/**
 * Ticks for a logarithmic time axis over [lo, hi] ns (lo > 0): the decades, with 2 and 5 between them when there
 * are few decades. Each label carries its own unit ("10 µs", "1 ms"): one unit cannot serve several decades.
 */
export function logTimeTicks(lo: number, hi: number): Ticks {
  const a = Math.floor(Math.log10(lo));
  const b = Math.ceil(Math.log10(hi));
  const steps = b - a <= 2 ? [1, 2, 5] : b - a <= 4 ? [1, 3] : [1];
  const values: number[] = [];
  for (let e = a; e <= b; e++)
    for (const m of steps) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) values.push(v);
    }
  return { unit: { name: '', factor: 1 }, values, labels: values.map((v) => formatNs(v).replace(/\.0+ /, ' ')) };
}

/** Whole-number ticks (steps, call indices) inside [lo, hi]. */
export function integerTicks(lo: number, hi: number, count = 8): Ticks {
  const vs = ticks(lo, hi, count).filter((v) => Number.isInteger(v));
  return { unit: { name: '', factor: 1 }, values: vs, labels: vs.map((v) => String(v)) };
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
