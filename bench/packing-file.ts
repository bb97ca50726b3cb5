/**
 * Workspace packing of one SDFG file, measured in a process of its own (the largest corpus file is 166 MB of
 * JSON): per storage, DaCe's back-to-back total, the packed total and the peak-live lower bounds, under the
 * refined live-set rules, the interval rules and the baseline rules (docs/liveness.md), and — where the
 * reference run can follow the program (analysis/exact: no data-dependent control flow, library nodes or
 * views) — the exact bound. Sends one result message (or prints it as JSON when run by hand:
 * `node dist/bench/packing-file.js FILE [SYMBOL]`).
 */
import { analyze, type LivenessRules } from '../electron/engine/analysis/index.js';
import { exactBound } from '../electron/engine/analysis/exact/bound.js';
import { alignUp, peakOverlap } from '../electron/engine/analysis/layout-packed.js';
import { readSdfgFile } from '../electron/engine/sdfg/index.js';

interface StoragePacking {
  storage: string;
  /** Transients in the workspace of this storage. */
  transients: number;
  /** DaCe's `__dace_get_external_memory_size_<storage>` (back to back, unaligned). */
  daceBytes: string;
  packedBytes: string;
  /** The packed total under the baseline rules (ranges before the refinements of issue 6). */
  baselinePackedBytes: string;
  /** The packed total under the interval rules (one interval per transient: issue 6, before live sets per point). */
  intervalPackedBytes: string;
  /** The exact bound of the reference run (docs/liveness.md §8); null when the run could not follow the program. */
  exactBytes: string | null;
  /** Peak of Σ bytes over steps (refined live ranges): no layout can be smaller. */
  lowerBound: string;
  /** The same peak with every size rounded up to the layout's alignment: no aligned layout can be smaller. */
  alignedLowerBound: string;
  /** Live sets of the workspace transients, for comparisons across analysis versions. */
  ranges: Record<string, Array<[number, number]> | null>;
  /** Transients whose refined range is not inside their baseline or interval range (must stay empty: refinements only shrink). */
  widerThanBaseline: string[];
}

export interface FilePacking {
  file: string;
  steps: number;
  analyseMs: number;
  storages: StoragePacking[];
  /** Storages whose sizes stay symbolic (no packed layout). */
  symbolic: string[];
  /** Why the reference run could not measure the exact bound (null when it did, or nothing is packed). */
  exactRefused: string | null;
  error: string | null;
}

/** Limits of the reference run in the bench: programs that need more are reported as refused. */
const EXACT_LIMITS = { maxPoints: 100_000, maxElementOps: 5_000_000 };

async function measurePacking(path: string, defaultSymbol: bigint): Promise<FilePacking> {
  const name = path.split('/').pop()!;
  try {
    const file = await readSdfgFile(path);
    const run = (liveness: LivenessRules) => analyze(file, { symbols: new Map(), defaultSymbol, target: null, liveness });
    const t0 = performance.now();
    const a = run('refined');
    const analyseMs = performance.now() - t0;
    const base = run('baseline');
    const interval = run('interval');
    const baseLive = new Map(base.transients.map((t) => [t.id, t.live]));
    const intervalLive = new Map(interval.transients.map((t) => [t.id, t.live]));
    let exact: ReturnType<typeof exactBound> | null = null;
    let exactRefused: string | null = null;
    if (Object.values(a.layouts.packed).some((l) => l && l.offsets.size)) {
      try {
        exact = exactBound(file, a, EXACT_LIMITS);
      } catch (err) {
        exactRefused = (err as Error).message;
      }
    }
    const storages: StoragePacking[] = [];
    const symbolic: string[] = [];
    for (const [storage, packed] of Object.entries(a.layouts.packed)) {
      const dace = a.layouts.dace[storage];
      if (!packed || !dace || dace.bytes === null) {
        symbolic.push(storage);
        continue;
      }
      const members = a.transients.filter((t) => packed.offsets.has(t.id));
      const full = { first: 0, last: Math.max(0, a.steps.length - 1) };
      const align = BigInt(packed.alignment);
      const alignedLowerBound = peakOverlap(
        members.map((t) => ({ bytes: alignUp(t.bytes!, align), ...(t.live ?? full), segments: t.liveSegments ?? [full] })),
      );
      const widerThanBaseline = members
        .filter((t) => {
          const r = t.live ?? full;
          return [baseLive.get(t.id) ?? full, intervalLive.get(t.id) ?? full].some((b) => r.first < b.first || r.last > b.last);
        })
        .map((t) => t.id);
      const exactBytes = exact?.storages.find((x) => x.storage === storage)?.bytes ?? null;
      storages.push({
        storage,
        transients: members.length,
        daceBytes: String(dace.bytes),
        packedBytes: String(packed.bytes),
        baselinePackedBytes: String(base.layouts.packed[storage]?.bytes ?? packed.alignedSum),
        intervalPackedBytes: String(interval.layouts.packed[storage]?.bytes ?? packed.alignedSum),
        exactBytes: exactBytes === null ? null : String(exactBytes),
        lowerBound: String(packed.lowerBound),
        alignedLowerBound: String(alignedLowerBound),
        ranges: Object.fromEntries(
          members.map((t) => [t.id, t.liveSegments ? t.liveSegments.map((x): [number, number] => [x.first, x.last]) : null]),
        ),
        widerThanBaseline,
      });
    }
    return { file: name, steps: a.steps.length, analyseMs, storages, symbolic, exactRefused, error: null };
  } catch (err) {
    return { file: name, steps: 0, analyseMs: NaN, storages: [], symbolic: [], exactRefused: null, error: (err as Error).message };
  }
}

const path = process.argv[2];
if (path && process.argv[1]?.endsWith('packing-file.js')) {
  // `void`: the entry point of the child; measurePacking returns its errors in the result, and anything else is an
  // unhandled rejection that ends the child with a non-zero exit, which the parent reports.
  void measurePacking(path, BigInt(process.argv[3] ?? '64')).then((result) => {
    if (process.send) process.send(result);
    else process.stdout.write(`${JSON.stringify(result)}\n`);
  });
}
