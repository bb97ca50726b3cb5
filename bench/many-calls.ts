/**
 * The `manycalls` bench section: `profile` of a tiny program with ten million timed calls, through the CLI as a
 * user runs it, and the peak RSS of the CLI and of its runner child (bench/rss-probe.ts, loaded into both).
 * Per-call times travel as typed arrays and the result keeps at most MAX_KEPT_CALLS rows per mode
 * (docs/profile.md, "Many calls"), so memory grows by tens of bytes per call, not by a JS array of numbers
 * per column, and the run ends instead of overflowing the stack (as it did at 300,000 calls).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../electron/engine/paths.js';
import type { ProfileResult } from '../electron/engine/profile/result.js';
import type { BenchSection } from './section.js';

const CALLS = Number(process.env.TLAB_BENCH_MANY_CALLS ?? 10_000_000);

interface Peak {
  pid: number;
  entry: string;
  maxRssKiB: number;
}

export const manyCallsSection: BenchSection = {
  name: 'manycalls',
  description: `profile chain.sdfg (N=1, SCOPED, 1 process) with ${CALLS.toLocaleString('en-US')} timed calls: peak RSS of the CLI and the runner`,
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'tlab-bench-manycalls-'));
    try {
      const root = packageRoot();
      const log = join(dir, 'rss.jsonl');
      const out = join(dir, 'result.json');
      const probe = pathToFileURL(join(root, 'dist', 'bench', 'rss-probe.js')).href;
      const args = [
        join(root, 'dist', 'electron', 'cli', 'main.js'),
        'profile',
        join(root, 'assets', 'examples', 'chain.sdfg'),
        '--symbols',
        'N=1',
        '--modes',
        'SCOPED',
        '--calls',
        String(CALLS),
        '--warmup',
        '0',
        '--processes',
        '1',
        '--timeout',
        '3600',
        '--out',
        out,
      ];
      const started = performance.now();
      // One OpenMP thread: on a shared 2-core VM the team's waits make a one-element map cost ~0.7 ms a call, and
      // this section measures memory, not the program.
      const env = { ...process.env, NODE_OPTIONS: `--import=${probe}`, TLAB_RSS_LOG: log, OMP_NUM_THREADS: '1' };
      const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(process.execPath, args, { env, maxBuffer: 1 << 24 }, (err, _stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
        );
      });
      const wallS = (performance.now() - started) / 1000;
      const peaks = (await readFile(log, 'utf8').catch(() => ''))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Peak);
      const peakOf = (suffix: string) => peaks.filter((p) => p.entry.endsWith(suffix)).sort((a, b) => b.maxRssKiB - a.maxRssKiB)[0];
      const cli = peakOf(join('cli', 'main.js'));
      const runner = peakOf('runner-entry.js');
      const mib = (p: Peak | undefined) => (p ? p.maxRssKiB / 1024 : NaN);
      let mode: ProfileResult['modes'][number] | null = null;
      let resultBytes = NaN;
      if (run.code === 0) {
        resultBytes = (await stat(out)).size;
        mode = (JSON.parse(await readFile(out, 'utf8')) as ProfileResult).modes[0] ?? null;
      }
      const result = {
        description: this.description,
        calls: CALLS,
        exitCode: run.code,
        error: run.code === 0 ? null : (run.stderr.trim().split('\n')[0] ?? ''),
        wallS,
        cliPeakRssMiB: mib(cli),
        runnerPeakRssMiB: mib(runner),
        resultMB: resultBytes / 1e6,
        keptRows: mode?.calls.totalNs.length ?? null,
        sampling: mode?.sampling ?? null,
        medianNs: mode?.summary.medianNs ?? null,
      };
      const lines = [
        run.code === 0
          ? `${CALLS.toLocaleString('en-US')} calls in ${wallS.toFixed(1)} s: CLI peak RSS ${result.cliPeakRssMiB.toFixed(0)} MiB, runner peak RSS ${result.runnerPeakRssMiB.toFixed(0)} MiB, result ${result.resultMB.toFixed(1)} MB (${result.keptRows} rows kept), median ${mode?.summary.medianNs} ns`
          : `FAILED (exit ${run.code}): ${result.error}`,
      ];
      return { result, summary: lines };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
