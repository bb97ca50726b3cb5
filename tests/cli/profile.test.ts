/** The `profile` subcommand end to end, through the built CLI (dist/, built by tests/global-setup.ts). */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { encodeNpy, readNpy } from '../../electron/engine/profile/npy.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const example = join(corpusDir(), 'spcl__dace__doc___static__sdfg__example.sdfg');
const gpuOnly = join(corpusDir(), 'spcl__dace__doc___static__sdfg__gpu-notb.sdfg');
const packCycle = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'pack_cycle.sdfg');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-profile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, 'profile', ...args],
      { env: { ...process.env, TRANSIENT_LAB_CACHE: join(dir, 'cache') }, timeout: 300_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('profile CLI usage errors (exit 2)', () => {
  it.each([
    [[], /expected exactly one SDFG file/],
    [[example, '--calls', '0'], /--calls must be at least 1/],
    [[example, '--processes', '0'], /--processes must be at least 1/],
    [[example, '--modes', 'scoped,heap'], /unknown mode 'heap'/],
    [[example, '--layout', 'tight'], /--layout expects dace, packed or both/],
    [[example, '--input', 'A'], /--input expects NAME=FILE.npy/],
    [[example, '--bogus'], /unknown option --bogus/],
    [[example, '--timeout', 'soon'], /--timeout expects seconds/],
    [[example, '--cxxflags', 'O3'], /--cxxflags: 'O3' is not a compiler option/],
    [[example, '--cxxflags', '-O2 -o lib.so'], /--cxxflags: -o is set by the build itself/],
  ])('%j', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('profile CLI input errors (exit 3)', () => {
  it('a missing SDFG file', async () => {
    const r = await cli([join(dir, 'nope.sdfg')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('nope.sdfg');
  });

  it('a missing symbol value names the symbol', async () => {
    const r = await cli([example, '--calls', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/symbol N has no value/);
  });

  it('an .npy of the wrong shape names file, array, expected and got', async () => {
    const bad = join(dir, 'bad.npy');
    await writeFile(bad, encodeNpy({ dtype: 'float64', shape: [3], data: new Uint8Array(24) }));
    const r = await cli([example, '--default-symbol', '8', '--calls', '1', '--input', `A=${bad}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('bad.npy');
    expect(r.stderr).toMatch(/array A: expected shape \(8, 8\), got \(3\)/);
  });

  it("takes a structure's leaf by its dotted name (P.inner.b)", async () => {
    const bad = join(dir, 'bad-leaf.npy');
    await writeFile(bad, encodeNpy({ dtype: 'float64', shape: [3], data: new Uint8Array(24) }));
    const structs = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'struct_args.sdfg');
    const r = await cli([structs, '--symbols', 'N=6', '--calls', '1', '--input', `P.inner.b=${bad}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/array P\.inner\.b: expected shape \(6\), got \(3\)/);
  });
});

describe('profile CLI --cxxflags', () => {
  it('builds every mode with the given flags and records them', async () => {
    const out = join(dir, 'o1.json');
    const r = await cli([
      example,
      '--default-symbol',
      '8',
      '--calls',
      '2',
      '--warmup',
      '0',
      '--processes',
      '1',
      '--modes',
      'scoped,external',
      '--cxxflags',
      '-O1 -fno-tree-vectorize',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    const result = JSON.parse(await readFile(out, 'utf8'));
    expect(result.settings.cxxflags).toEqual(['-O1', '-fno-tree-vectorize']);
    for (const m of result.modes) {
      expect(m.build.flags).toEqual(expect.arrayContaining(['-std=c++20', '-O1', '-fno-tree-vectorize']));
      expect(m.build.flags).not.toContain('-O3');
    }
  });
});

describe('profile CLI unsupported programs (exit 4)', () => {
  // Without a device the refusal is the device's (tests/native/cuda-devices.test.ts); the JSON path of what the
  // generator cannot translate shows through `build`, which needs no device (tests/cli/build.test.ts).
  it('a GPU program', async () => {
    const r = await cli([gpuOnly, '--default-symbol', '8', '--calls', '1']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/at \$\.|has no CUDA device/);
  });
});

describe('profile CLI success (exit 0)', () => {
  it('prints the table, writes --out and --save-outputs', async () => {
    const out = join(dir, 'result.json');
    const saved = join(dir, 'outputs');
    const r = await cli([
      example,
      '--default-symbol',
      '8',
      '--calls',
      '4',
      '--warmup',
      '1',
      '--processes',
      '2',
      '--layout',
      'both',
      '--seed',
      '3',
      '--out',
      out,
      '--save-outputs',
      saved,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^mode\s+median\/call\s+p10\s+p90\s+allocs\/call\s+alloc\+free\s+faults\/call\s+workspace\s+vs SCOPED( \(p10\))?$/m,
    );
    expect(r.stdout).toMatch(/^EXTERNAL \(packed\)\s/m);
    expect(r.stdout).toMatch(/^init \/ first call: SCOPED [\d.]+ [nµm]?s \/ [\d.]+ [nµm]?s; PERSISTENT /m);
    // The verdict the window and the reports give (view/verdict.ts). hello_world has no transient: every mode
    // builds one library, so no mode wins and no pair is compared, whatever the clock said.
    expect(r.stdout).toMatch(
      /^verdict: (Noisy run: .+\. )?All modes run the same code: every mode generated the same program \(the memory modes change nothing in it\), so their times differ only by the machine and the order of the runs: .+\.$/m,
    );
    expect(r.stdout).not.toMatch(/^EXTERNAL \(packed\) vs POOL/m);
    for (const label of ['PERSISTENT', 'POOL', 'EXTERNAL \\(dace\\)', 'EXTERNAL \\(packed\\)'])
      expect(r.stdout).toMatch(new RegExp(`^${label}\\s.*\\ssame code$`, 'm'));
    expect(r.stdout).toContain('note: POOL generated the same code as SCOPED');
    const result = JSON.parse(await readFile(out, 'utf8'));
    expect(result.schema).toBe('transient-lab/profile@1');
    expect(result.program.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.settings).toMatchObject({ calls: 4, warmup: 1, processes: 2, layout: 'both', seed: 3, symbols: { N: 8 } });
    expect(result.modes.map((m: { label: string }) => m.label)).toEqual([
      'SCOPED',
      'PERSISTENT',
      'POOL',
      'EXTERNAL (dace)',
      'EXTERNAL (packed)',
    ]);
    expect(result.modes.map((m: { sameCodeAs?: string }) => m.sameCodeAs)).toEqual([undefined, 'SCOPED', 'SCOPED', 'SCOPED', 'SCOPED']);
    for (const m of result.modes) {
      // 4 timed calls in each of 2 processes, pooled.
      expect(m.calls.totalNs).toHaveLength(8);
      expect(m.calls.minorFaults).toHaveLength(8);
      expect(m.summary.medianNs).toBeGreaterThan(0);
    }
    expect(result.verification).toMatchObject({ identical: true, ok: true });
    // What each mode holds from init on (PERSISTENT's moved transients), from the analysis.
    const initBytes = (mode: string) => result.modes.find((m: { mode: string }) => m.mode === mode).initBytes;
    for (const m of result.modes) expect(typeof m.initBytes).toBe('number');
    expect(initBytes('PERSISTENT')).toBeGreaterThanOrEqual(initBytes('SCOPED'));
    // DaCe's default CPU flags, recorded for the run and for each library.
    expect(result.settings.cxxflags).toEqual([
      '-O3',
      '-march=native',
      '-fno-math-errno',
      '-fno-trapping-math',
      '-fno-signed-zeros',
      '-freciprocal-math',
    ]);
    for (const m of result.modes) expect(m.build.flags).toEqual(expect.arrayContaining(['-std=c++20', ...result.settings.cxxflags]));
    expect(r.stdout.split('\n')[0]).toContain('-O3 -march=native');
    const checksums = result.modes.map((m: { outputChecksums: Record<string, string> }) => JSON.stringify(m.outputChecksums));
    expect(new Set(checksums).size).toBe(1);
    for (const sub of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const a = await readNpy(join(saved, sub, 'A.npy'));
      expect(a.shape).toEqual([8, 8]);
    }
  });
});

describe('profile CLI with too few calls', () => {
  it('says there are too few calls to test and how many would do, instead of "no significant difference"', async () => {
    // pack_cycle's transients make its modes different programs (hello_world's modes are one).
    const r = await cli([packCycle, '--symbols', 'N=16', '--calls', '2', '--warmup', '1', '--processes', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'verdict: Too few calls to test which mode is fastest: 2 timed calls per mode can reach p = 0.25 at best, not p < 0.01; 6 per mode would.\n',
    );
    expect(r.stdout).toMatch(
      /^EXTERNAL \(packed\) vs POOL: too few calls to test \(2 timed calls per mode can reach p = 0\.25 at best, not p < 0\.01; 6 per mode would\)/m,
    );
    expect(r.stdout).not.toMatch(/no significant difference/);
  });
});
