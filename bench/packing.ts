/**
 * The `packing` bench section: over every corpus file (--default-symbol 64), how close the packed EXTERNAL
 * workspace comes to the peak-live lower bound of the analysis' live ranges, and how it compares with DaCe's
 * back-to-back workspace. One child process per file (bench/packing-file.ts).
 *
 * packed / aligned bound = 1 means the greedy placement is optimal for the ranges; the bound itself only
 * shrinks when the live ranges get tighter (docs/liveness.md), so both numbers are recorded.
 */
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir } from '../electron/engine/paths.js';
import type { FilePacking } from './packing-file.js';
import type { BenchSection } from './run.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SYMBOL = 64n;

function measureInChild(path: string): Promise<FilePacking> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(join(HERE, 'packing-file.js'), [path, String(SYMBOL)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: FilePacking | null = null;
    child.on('message', (m) => (result = m as FilePacking));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      resolvePromise(result ?? { file: path.split('/').pop()!, steps: 0, analyseMs: NaN, storages: [], symbolic: [], error: `measuring process exited with ${signal ?? `code ${code}`}` }),
    );
  });
}

const sum = (xs: bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);
const ratio = (a: bigint, b: bigint): number | null => (b === 0n ? null : Number((a * 1_000_000n) / b) / 1_000_000);
const fmt = (r: number | null): string => (r === null ? '-' : `${r.toFixed(3)}×`);

export interface FileRow {
  file: string;
  transients: number;
  daceBytes: string;
  packedBytes: string;
  lowerBound: string;
  alignedLowerBound: string;
  packedOverBound: number | null;
  packedOverAlignedBound: number | null;
  packedOverDace: number | null;
}

export const packingSection: BenchSection = {
  name: 'packing',
  description: `packed workspace vs the peak-live lower bound and DaCe's layout, every corpus file (symbols ${SYMBOL})`,
  async run() {
    const dir = corpusDir();
    const names = readdirSync(dir).filter((f) => /\.sdfgz?$/.test(f)).sort();
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
      const bound = sum(m.storages.map((s) => BigInt(s.lowerBound)));
      const aligned = sum(m.storages.map((s) => BigInt(s.alignedLowerBound)));
      rows.push({
        file: m.file,
        transients: m.storages.reduce((n, s) => n + s.transients, 0),
        daceBytes: String(dace),
        packedBytes: String(packed),
        lowerBound: String(bound),
        alignedLowerBound: String(aligned),
        packedOverBound: ratio(packed, bound),
        packedOverAlignedBound: ratio(packed, aligned),
        packedOverDace: ratio(packed, dace),
      });
    }
    const total = (k: 'daceBytes' | 'packedBytes' | 'lowerBound' | 'alignedLowerBound'): bigint => sum(rows.map((r) => BigInt(r[k])));
    const summary = {
      files: names.length,
      withWorkspace: rows.length,
      symbolicOnly,
      failed,
      daceBytes: String(total('daceBytes')),
      packedBytes: String(total('packedBytes')),
      lowerBound: String(total('lowerBound')),
      alignedLowerBound: String(total('alignedLowerBound')),
      packedOverBound: ratio(total('packedBytes'), total('lowerBound')),
      packedOverAlignedBound: ratio(total('packedBytes'), total('alignedLowerBound')),
      packedOverDace: ratio(total('packedBytes'), total('daceBytes')),
      /** Files whose packed workspace is exactly the aligned bound. */
      atAlignedBound: rows.filter((r) => r.packedBytes === r.alignedLowerBound).length,
      worstPackedOverAlignedBound: Math.max(...rows.map((r) => r.packedOverAlignedBound ?? 1)),
    };
    const notable = [...rows]
      .sort((a, b) => (b.packedOverAlignedBound ?? 0) - (a.packedOverAlignedBound ?? 0) || (a.packedOverDace ?? 0) - (b.packedOverDace ?? 0))
      .slice(0, 10);
    const lines = [
      `${'file'.padEnd(60)} ${'DaCe B'.padStart(12)} ${'packed B'.padStart(12)} ${'bound B'.padStart(12)} ${'packed/bnd'.padStart(10)} ${'packed/DaCe'.padStart(11)}`,
      ...notable.map(
        (r) =>
          `${r.file.slice(0, 60).padEnd(60)} ${r.daceBytes.padStart(12)} ${r.packedBytes.padStart(12)} ${r.alignedLowerBound.padStart(12)} ${fmt(r.packedOverAlignedBound).padStart(10)} ${fmt(r.packedOverDace).padStart(11)}`,
      ),
      `${rows.length} of ${names.length} files have a sized workspace (${symbolicOnly.length} symbolic only, ${failed.length} failed); ${summary.atAlignedBound} pack exactly at the aligned bound`,
      `aggregate: packed ${summary.packedBytes} B, aligned bound ${summary.alignedLowerBound} B (${fmt(summary.packedOverAlignedBound)}; unaligned bound ${fmt(summary.packedOverBound)}), DaCe ${summary.daceBytes} B (packed/DaCe ${fmt(summary.packedOverDace)})`,
      ...(failed.length ? [`FAILED: ${failed.map((f) => `${f.file}: ${f.error}`).join('; ')}`] : []),
    ];
    return { result: { description: this.description, files: rows, summary }, summary: lines };
  },
};
