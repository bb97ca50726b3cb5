/**
 * Workspace packing of one SDFG file, measured in a process of its own (the largest corpus file is 166 MB of
 * JSON): per storage, DaCe's back-to-back total, the packed total and the peak-live lower bounds, under the
 * refined live-range rules and under the baseline rules (docs/liveness.md). Sends one result message (or
 * prints it as JSON when run by hand: `node dist/bench/packing-file.js FILE [SYMBOL]`).
 */
import { analyze, type LivenessRules } from '../electron/engine/analysis/index.js';
import { alignUp, peakOverlap } from '../electron/engine/analysis/layout-packed.js';
import { readSdfgFile } from '../electron/engine/sdfg/index.js';

export interface StoragePacking {
  storage: string;
  /** Transients in the workspace of this storage. */
  transients: number;
  /** DaCe's `__dace_get_external_memory_size_<storage>` (back to back, unaligned). */
  daceBytes: string;
  packedBytes: string;
  /** The packed total under the baseline rules (ranges before the refinements of issue 6). */
  baselinePackedBytes: string;
  /** Peak of Σ bytes over steps (refined live ranges): no layout can be smaller. */
  lowerBound: string;
  /** The same peak with every size rounded up to the layout's alignment: no aligned layout can be smaller. */
  alignedLowerBound: string;
  /** Live ranges of the workspace transients, for comparisons across analysis versions. */
  ranges: Record<string, [number, number] | null>;
  /** Transients whose refined range is not inside their baseline range (must stay empty: refinements only shrink). */
  widerThanBaseline: string[];
}

export interface FilePacking {
  file: string;
  steps: number;
  analyseMs: number;
  storages: StoragePacking[];
  /** Storages whose sizes stay symbolic (no packed layout). */
  symbolic: string[];
  error: string | null;
}

export async function measurePacking(path: string, defaultSymbol: bigint): Promise<FilePacking> {
  const name = path.split('/').pop()!;
  try {
    const file = await readSdfgFile(path);
    const run = (liveness: LivenessRules) => analyze(file, { symbols: new Map(), defaultSymbol, target: null, liveness });
    const t0 = performance.now();
    const a = run('refined');
    const analyseMs = performance.now() - t0;
    const base = run('baseline');
    const baseLive = new Map(base.transients.map((t) => [t.id, t.live]));
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
      const alignedLowerBound = peakOverlap(members.map((t) => ({ bytes: alignUp(t.bytes!, align), ...(t.live ?? full) })));
      const widerThanBaseline = members
        .filter((t) => {
          const b = baseLive.get(t.id) ?? full;
          const r = t.live ?? full;
          return r.first < b.first || r.last > b.last;
        })
        .map((t) => t.id);
      storages.push({
        storage,
        transients: members.length,
        daceBytes: String(dace.bytes),
        packedBytes: String(packed.bytes),
        baselinePackedBytes: String(base.layouts.packed[storage]?.bytes ?? packed.alignedSum),
        lowerBound: String(packed.lowerBound),
        alignedLowerBound: String(alignedLowerBound),
        ranges: Object.fromEntries(members.map((t) => [t.id, t.live ? [t.live.first, t.live.last] : null])),
        widerThanBaseline,
      });
    }
    return { file: name, steps: a.steps.length, analyseMs, storages, symbolic, error: null };
  } catch (err) {
    return { file: name, steps: 0, analyseMs: NaN, storages: [], symbolic: [], error: (err as Error).message };
  }
}

const path = process.argv[2];
if (path && process.argv[1]?.endsWith('packing-file.js')) {
  measurePacking(path, BigInt(process.argv[3] ?? '64')).then((result) => {
    if (process.send) process.send(result);
    else process.stdout.write(`${JSON.stringify(result)}\n`);
  });
}
