/**
 * The `packing` bench section: over every corpus file (--default-symbol 64), how close the packed EXTERNAL
 * workspace comes to the peak-live lower bound of the refined live sets, and how it compares with DaCe's
 * back-to-back workspace. The same file is also packed under the interval rules (one live interval per
 * transient, issue 6) and the baseline rules (before issue 6), against the same bound: the before/after of
 * each refinement. One child process per file (bench/packing-file.ts). Where the reference run can follow a
 * file, its exact bound too; and the loop fixtures against their exact bounds (bench/packing-exact.ts).
 *
 * The bound: the peak over steps of Σ sizes (rounded up to the layout's alignment) of the transients live at
 * that step under the refined live sets; no aligned layout that respects those sets can be smaller. The exact
 * bound (docs/liveness.md §8) is the same peak over the points of a run where values are really needed: no
 * correct aligned layout for those symbol values can be smaller.
 */
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packLayout, type PackItem } from '../electron/engine/analysis/layout-packed.js';
import { corpusDir } from '../electron/engine/paths.js';
import { loopFixtures } from './packing-exact.js';
import type { FilePacking } from './packing-file.js';
import type { BenchSection } from './section.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SYMBOL = 64n;

function measureInChild(path: string): Promise<FilePacking> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(join(HERE, 'packing-file.js'), [path, String(SYMBOL)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: FilePacking | null = null;
    child.on('message', (m) => (result = m as FilePacking));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      resolvePromise(
        result ?? {
          file: path.split('/').pop()!,
          steps: 0,
          analyseMs: NaN,
          storages: [],
          symbolic: [],
          exactRefused: null,
          error: `measuring process exited with ${signal ?? `code ${code}`}`,
        },
      ),
    );
  });
}

const sum = (xs: bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);
const ratio = (a: bigint, b: bigint): number | null => (b === 0n ? null : Number((a * 1_000_000n) / b) / 1_000_000);
const fmt = (r: number | null): string => (r === null ? '-' : `${r.toFixed(3)}×`);

interface FileRow {
  file: string;
  transients: number;
  daceBytes: string;
  packedBytes: string;
  baselinePackedBytes: string;
  intervalPackedBytes: string;
  /** The exact bound of the reference run (null: it could not follow the file; `exactRefused` says why). */
  exactBytes: string | null;
  exactRefused: string | null;
  lowerBound: string;
  alignedLowerBound: string;
  packedOverBound: number | null;
  packedOverAlignedBound: number | null;
  baselineOverAlignedBound: number | null;
  intervalOverAlignedBound: number | null;
  packedOverExact: number | null;
  packedOverDace: number | null;
  /** Refined ranges that are not inside the baseline ones (a refinement bug if ever non-empty). */
  widerThanBaseline: string[];
}

export const packingSection: BenchSection = {
  name: 'packing',
  description: `packed workspace vs the peak-live lower bound, the exact bound and DaCe's layout, every corpus file (symbols ${SYMBOL}) and the loop fixtures`,
  async run() {
    const dir = corpusDir();
    const names = readdirSync(dir)
      .filter((f) => /\.sdfgz?$/.test(f))
      .sort();
    const rows: FileRow[] = [];
    const failed: Array<{ file: string; error: string }> = [];
    const symbolicOnly: string[] = [];
    for (const name of names) {
      const m = await measureInChild(join(dir, name));
      if (m.error) {
        failed.push({ file: m.file, error: m.error });
        continue;
      }
      if (m.storages.length === 0) {
        if (m.symbolic.length) symbolicOnly.push(m.file);
        continue;
      }
      const dace = sum(m.storages.map((s) => BigInt(s.daceBytes)));
      const packed = sum(m.storages.map((s) => BigInt(s.packedBytes)));
      const baseline = sum(m.storages.map((s) => BigInt(s.baselinePackedBytes)));
      const interval = sum(m.storages.map((s) => BigInt(s.intervalPackedBytes)));
      const exact = m.storages.every((s) => s.exactBytes !== null) ? sum(m.storages.map((s) => BigInt(s.exactBytes!))) : null;
      const bound = sum(m.storages.map((s) => BigInt(s.lowerBound)));
      const aligned = sum(m.storages.map((s) => BigInt(s.alignedLowerBound)));
      rows.push({
        file: m.file,
        transients: m.storages.reduce((n, s) => n + s.transients, 0),
        daceBytes: String(dace),
        packedBytes: String(packed),
        baselinePackedBytes: String(baseline),
        intervalPackedBytes: String(interval),
        exactBytes: exact === null ? null : String(exact),
        exactRefused: m.exactRefused,
        lowerBound: String(bound),
        alignedLowerBound: String(aligned),
        packedOverBound: ratio(packed, bound),
        packedOverAlignedBound: ratio(packed, aligned),
        baselineOverAlignedBound: ratio(baseline, aligned),
        intervalOverAlignedBound: ratio(interval, aligned),
        packedOverExact: exact === null ? null : ratio(packed, exact),
        packedOverDace: ratio(packed, dace),
        widerThanBaseline: m.storages.flatMap((s) => s.widerThanBaseline),
      });
    }
    const total = (
      k: 'daceBytes' | 'packedBytes' | 'baselinePackedBytes' | 'intervalPackedBytes' | 'lowerBound' | 'alignedLowerBound',
    ): bigint => sum(rows.map((r) => BigInt(r[k])));
    const withExact = rows.filter((r) => r.exactBytes !== null);
    const summary = {
      files: names.length,
      withWorkspace: rows.length,
      symbolicOnly,
      failed,
      daceBytes: String(total('daceBytes')),
      packedBytes: String(total('packedBytes')),
      baselinePackedBytes: String(total('baselinePackedBytes')),
      lowerBound: String(total('lowerBound')),
      alignedLowerBound: String(total('alignedLowerBound')),
      packedOverBound: ratio(total('packedBytes'), total('lowerBound')),
      packedOverAlignedBound: ratio(total('packedBytes'), total('alignedLowerBound')),
      packedOverDace: ratio(total('packedBytes'), total('daceBytes')),
      baselineOverAlignedBound: ratio(total('baselinePackedBytes'), total('alignedLowerBound')),
      baselineOverDace: ratio(total('baselinePackedBytes'), total('daceBytes')),
      intervalPackedBytes: String(total('intervalPackedBytes')),
      intervalOverAlignedBound: ratio(total('intervalPackedBytes'), total('alignedLowerBound')),
      /** Corpus files the reference run could follow, and their packed / exact (refined rules). */
      withExactBound: withExact.map((r) => ({ file: r.file, exactBytes: r.exactBytes, packedOverExact: r.packedOverExact })),
      /** Files whose packed workspace is exactly the aligned bound (refined / baseline rules). */
      atAlignedBound: rows.filter((r) => r.packedBytes === r.alignedLowerBound).length,
      intervalAtAlignedBound: rows.filter((r) => r.intervalPackedBytes === r.alignedLowerBound).length,
      baselineAtAlignedBound: rows.filter((r) => r.baselinePackedBytes === r.alignedLowerBound).length,
      worstPackedOverAlignedBound: Math.max(...rows.map((r) => r.packedOverAlignedBound ?? 1)),
      worstBaselineOverAlignedBound: Math.max(...rows.map((r) => r.baselineOverAlignedBound ?? 1)),
      worstIntervalOverAlignedBound: Math.max(...rows.map((r) => r.intervalOverAlignedBound ?? 1)),
      /** Refined ranges outside their baseline ranges, over all files (must be 0). */
      widerThanBaseline: rows.reduce((n, r) => n + r.widerThanBaseline.length, 0),
    };
    // Files the refinement changed first, then the ones furthest from the bound.
    const notable = [...rows]
      .sort(
        (a, b) =>
          Number(a.packedBytes === a.intervalPackedBytes) - Number(b.packedBytes === b.intervalPackedBytes) ||
          Number(a.packedBytes === a.baselinePackedBytes) - Number(b.packedBytes === b.baselinePackedBytes) ||
          (b.baselineOverAlignedBound ?? 0) - (a.baselineOverAlignedBound ?? 0) ||
          (b.packedOverAlignedBound ?? 0) - (a.packedOverAlignedBound ?? 0),
      )
      .slice(0, 12);
    const lines = [
      `${'file'.padEnd(48)} ${'DaCe B'.padStart(11)} ${'baseline B'.padStart(11)} ${'interval B'.padStart(11)} ${'packed B'.padStart(11)} ${'bound B'.padStart(11)} ${'base/bnd'.padStart(8)} ${'intv/bnd'.padStart(8)} ${'pack/bnd'.padStart(8)} ${'pack/DaCe'.padStart(9)}`,
      ...notable.map(
        (r) =>
          `${r.file.slice(0, 48).padEnd(48)} ${r.daceBytes.padStart(11)} ${r.baselinePackedBytes.padStart(11)} ${r.intervalPackedBytes.padStart(11)} ${r.packedBytes.padStart(11)} ${r.alignedLowerBound.padStart(11)} ${fmt(r.baselineOverAlignedBound).padStart(8)} ${fmt(r.intervalOverAlignedBound).padStart(8)} ${fmt(r.packedOverAlignedBound).padStart(8)} ${fmt(r.packedOverDace).padStart(9)}`,
      ),
      `${rows.length} of ${names.length} files have a sized workspace (${symbolicOnly.length} symbolic only, ${failed.length} failed); at the aligned bound: ${summary.atAlignedBound} refined, ${summary.intervalAtAlignedBound} interval, ${summary.baselineAtAlignedBound} baseline`,
      `aggregate vs the aligned bound (${summary.alignedLowerBound} B): refined ${fmt(summary.packedOverAlignedBound)} (${summary.packedBytes} B), interval ${fmt(summary.intervalOverAlignedBound)} (${summary.intervalPackedBytes} B), baseline ${fmt(summary.baselineOverAlignedBound)} (${summary.baselinePackedBytes} B); worst file ${fmt(summary.worstPackedOverAlignedBound)} refined, ${fmt(summary.worstIntervalOverAlignedBound)} interval, ${fmt(summary.worstBaselineOverAlignedBound)} baseline`,
      `aggregate vs DaCe's back-to-back workspace (${summary.daceBytes} B): refined ${fmt(summary.packedOverDace)}, baseline ${fmt(summary.baselineOverDace)}`,
      `exact bound (reference run) for ${withExact.length} of ${rows.length} corpus files: ${withExact.map((r) => `${r.file.slice(0, 40)} ${fmt(r.packedOverExact)}`).join(', ') || '-'}; the others have data-dependent control flow, library nodes or views`,
      ...(summary.widerThanBaseline
        ? [`REFINEMENT BUG: ${summary.widerThanBaseline} refined range(s) outside their baseline or interval range`]
        : []),
      ...(failed.length ? [`FAILED: ${failed.map((f) => `${f.file}: ${f.error}`).join('; ')}`] : []),
    ];
    const fixtures = await loopFixtures();
    lines.push(...fixtures.lines);
    const synthetic = syntheticPack();
    lines.push(`synthetic: ${synthetic.buffers} buffers packed in ${synthetic.ms.toFixed(0)} ms (target < ${synthetic.targetMs} ms)`);
    return { result: { description: this.description, files: rows, summary, loopFixtures: fixtures.result, synthetic }, summary: lines };
  },
};

/** The packer alone on 30,000 buffers with overlapping lives (a timing target, so it lives here, not in a test). */
function syntheticPack(): { buffers: number; ms: number; targetMs: number; withinTarget: boolean } {
  const items: PackItem[] = [];
  for (let i = 0; i < 30_000; i++)
    items.push({ id: `t${i}`, bytes: BigInt(64 + ((i * 7919) % 5000)), first: i % 500, last: (i % 500) + (i % 7) });
  const t0 = performance.now();
  packLayout(items, 64);
  const ms = performance.now() - t0;
  return { buffers: items.length, ms, targetMs: 5000, withinTarget: ms < 5000 };
}
