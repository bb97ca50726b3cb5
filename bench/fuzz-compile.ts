/**
 * The generator stage's compile-and-run check: a sample of mutants that the CPU generator turns into every
 * variant goes through `transient-lab profile` in a child process (g++, the runner, cross-mode verification,
 * one call per mode). Exit 5 (the compiler rejected generated code) or 70 (an internal error) is a generator
 * bug; exit 6 (a run crashed, timed out or modes diverged) is shown with its message, since a mutant can
 * also make a program that reads uninitialised data, indexes out of bounds or never ends. Every symbol is 64
 * (DaCe's tiled programs assume sizes of at least a tile). Slow: `fuzz-driver --compile K`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../electron/engine/paths.js';
import { CODEGEN_VARIANTS } from './lib/fuzz-codegen.js';
import { caseText, runCase, type FuzzCase, type Seed } from './lib/fuzz-core.js';

export interface CompileCheck {
  /** Mutants profiled. */
  runs: number;
  exitCodes: Record<string, number>;
  /** Exit 5 or 70 (or a signal): generator bugs. */
  failures: string[];
  /** Exit 6: a run crashed or the modes disagreed. */
  runFailures: string[];
}

const caseJson = (c: FuzzCase): string => JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** Profiles up to `limit` of `cases` that generate every CPU variant (detected target cpu, a default symbol). */
export function fuzzCompile(seeds: Seed[], cases: FuzzCase[], limit: number, log: (line: string) => void = () => {}): CompileCheck {
  const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
  const dir = mkdtempSync(join(tmpdir(), 'tlab-fuzz-compile-'));
  const check: CompileCheck = { runs: 0, exitCodes: {}, failures: [], runFailures: [] };
  try {
    for (const c of cases) {
      if (check.runs >= limit) break;
      if (c.defaultSymbol === null || c.defaultSymbol < 1n) continue;
      let cpuPrograms = 0;
      const outcome = runCase(seeds, c, { codegen: true, onProgram: (_p, target) => void (target === 'cpu' && cpuPrograms++) });
      if (outcome.kind !== 'ok' || cpuPrograms !== CODEGEN_VARIANTS.length || outcome.generator?.targets[0] !== 'cpu') continue;
      const text = caseText(seeds, c);
      if (text === null) continue;
      const file = join(dir, `case${check.runs}.sdfg`);
      writeFileSync(file, text);
      const args = [
        main,
        'profile',
        file,
        '--default-symbol',
        '64',
        '--layout',
        'both',
        '--calls',
        '1',
        '--warmup',
        '0',
        '--processes',
        '1',
        '--cxxflags',
        '-O1',
        '--timeout',
        '120',
      ];
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 300_000 });
      check.runs++;
      const code = r.signal ? `signal ${r.signal}` : String(r.status);
      check.exitCodes[code] = (check.exitCodes[code] ?? 0) + 1;
      // A failed verification is reported on stdout, everything else on stderr.
      const failed = r.stdout.split('\n').findIndex((l) => l.startsWith('verification FAILED'));
      const message = failed >= 0 ? r.stdout.split('\n').slice(failed, failed + 2) : r.stderr.split('\n');
      const why = `${code}: ${caseJson(c)}: ${message.filter(Boolean).slice(0, 4).join(' | ').slice(0, 600)}`;
      log(
        `  profile ${check.runs}: exit ${code} (${((performance.now() - t0) / 1000).toFixed(0)} s) ${seeds[c.seed % seeds.length]!.name}`,
      );
      if (r.signal || r.status === 5 || r.status === 70) check.failures.push(why);
      else if (r.status === 6) check.runFailures.push(why);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return check;
}
