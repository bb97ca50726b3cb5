import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAdviseCommand } from '../../electron/cli/advise.js';
import { createCheckCommand } from '../../electron/cli/check.js';
import type { Command } from '../../electron/cli/command.js';
import { TlabError } from '../../electron/engine/errors.js';
import { packageRoot } from '../../electron/engine/paths.js';

const HDIFF = join(packageRoot(), 'assets', 'examples', 'hdiff.sdfg');
const VADV = join(packageRoot(), 'assets', 'examples', 'vadv.sdfg');

function capture(make: (io: { stdout: { write(t: string): unknown }; stderr: { write(t: string): unknown } }) => Command) {
  const out: string[] = [];
  const cmd = make({ stdout: { write: (t: string) => out.push(t) }, stderr: { write: () => 0 } });
  return { run: (argv: string[]) => cmd.run(argv), out: () => out.join('') };
}

async function usageError(make: Parameters<typeof capture>[0], argv: string[]): Promise<TlabError> {
  const err = await capture(make)
    .run(argv)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TlabError);
  return err as TlabError;
}

describe('check: a CI gate', () => {
  it('exits 0 within budget and 1 with a one-line reason over it', async () => {
    const ok = capture(createCheckCommand);
    expect(await ok.run([HDIFF, '--default-symbol', '32', '--max-workspace', 'CPU_Heap=1MiB', '--max-allocs-per-call', '0'])).toBe(0);
    expect(ok.out()).toMatch(/^check: ok: workspace CPU_Heap .* budget 1048576 B; allocations per call in EXTERNAL: 0, budget 0\n$/);
    const over = capture(createCheckCommand);
    expect(await over.run([HDIFF, '--default-symbol', '32', '--max-workspace', 'CPU_Heap=100KiB'])).toBe(1);
    expect(over.out().split('\n').filter(Boolean)).toHaveLength(1);
    expect(over.out()).toMatch(/^check: FAILED: workspace CPU_Heap \(EXTERNAL, packed layout\) needs \d+ B, over the budget of 102400 B/);
    const allocs = capture(createCheckCommand);
    expect(await allocs.run([HDIFF, '--default-symbol', '32', '--max-allocs-per-call', '0', '--mode', 'scoped'])).toBe(1);
    expect(allocs.out()).toMatch(/SCOPED makes 3 allocation\(s\) per call, over the budget of 0/);
  });

  it('fails when the workspace is symbolic, rather than passing an unknown size', async () => {
    const c = capture(createCheckCommand);
    expect(await c.run([HDIFF, '--max-workspace', 'CPU_Heap=1GiB'])).toBe(1);
    expect(c.out()).toMatch(/is symbolic: give --symbols or --default-symbol/);
  });

  it('writes a machine-readable result with --json', async () => {
    const c = capture(createCheckCommand);
    expect(await c.run([HDIFF, '--default-symbol', '32', '--max-workspace', 'CPU_Heap=100KiB', '--json'])).toBe(1);
    const doc = JSON.parse(c.out()) as { schema: string; ok: boolean; failures: string[]; footprint: { EXTERNAL: { CPU_Heap: number } } };
    expect(doc).toMatchObject({ schema: 'transient-lab/check@1', ok: false });
    expect(doc.failures).toHaveLength(1);
    expect(doc.footprint.EXTERNAL.CPU_Heap).toBeGreaterThan(102400);
  });

  it('checks a workload: the largest call sizes the workspace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlab-check-'));
    const path = join(dir, 'w.json');
    writeFileSync(
      path,
      JSON.stringify({
        schema: 'transient-lab/workload@1',
        programs: { h: { sdfg: HDIFF }, v: { sdfg: VADV } },
        symbols: { I: 32, J: 32, K: 8 },
        sequence: ['h', 'v', { program: 'h', symbols: { I: 64 } }],
      }),
    );
    const c = capture(createCheckCommand);
    expect(await c.run([path, '--max-workspace', 'CPU_Heap=300KiB'])).toBe(1);
    expect(c.out()).toMatch(/largest of 3 calls\) needs \d+ B/);
  });

  it.each([
    [[HDIFF], /give at least one budget/],
    [[HDIFF, '--max-workspace', 'CPU_Heap'], /--max-workspace expects STORAGE=BYTES/],
    [[HDIFF, '--max-workspace', 'CPU_Heap=3 parsecs'], /--max-workspace expects STORAGE=BYTES/],
    [[HDIFF, '--max-workspace', 'A=1', '--max-workspace', 'A=2'], /given twice/],
    [[HDIFF, '--max-allocs-per-call', '-1'], /must be at least 0/],
    [[HDIFF, '--max-allocs-per-call', '1', '--mode', 'FAST'], /--mode expects one of/],
    [[HDIFF, '--max-allocs-per-call', '1', '--layout', 'tight'], /--layout expects packed or dace/],
  ])('refuses bad usage %j (exit 2)', async (argv, message) => {
    const e = await usageError(createCheckCommand, argv);
    expect(e.kind).toBe('usage');
    expect(e.message).toMatch(message);
  });
});

describe('advise', () => {
  it('prints the recommendation first, then footprints and what blocks EXTERNAL', async () => {
    const c = capture(createAdviseCommand);
    expect(await c.run([HDIFF, '--symbols', 'I=128,J=128,K=80'])).toBe(0);
    const lines = c.out().split('\n');
    expect(lines[2]).toMatch(/^Recommendation \(static/);
    expect(lines[3]).toMatch(
      /^ {2}CPU_Heap: EXTERNAL, allocate 30\.5 MiB \(31,951,360 B\) of workspace \(packed layout, 64-byte aligned slots\)$/,
    );
    expect(c.out()).toMatch(/What blocks EXTERNAL: nothing that holds memory/);
  });

  it('prints the sweep with its closed form, and JSON with --json', async () => {
    const c = capture(createAdviseCommand);
    expect(await c.run([HDIFF, '--symbols', 'J=16,K=8', '--sweep', 'I=16..256:x2', '--json'])).toBe(0);
    const doc = JSON.parse(c.out()) as {
      schema: string;
      sweep: { symbol: string; values: number[]; storages: { CPU_Heap: { packed: { closedForm: string } } } };
    };
    expect(doc.schema).toBe('transient-lab/advice@1');
    expect(doc.sweep.values).toEqual([16, 32, 64, 128, 256]);
    expect(doc.sweep.storages.CPU_Heap.packed.closedForm).toBe('3264*I + 3328');
  });

  it.each([
    [['--sweep', 'I=16..32'], /has 2 point\(s\)/],
    [['--sweep', 'I=1..100000000:+1'], /more than 64 points/],
    [['--sweep', 'I=16-32'], /--sweep expects SYMBOL=FROM..TO/],
    [['--sweep', 'I=32..16'], /1 <= FROM <= TO/],
  ])('refuses a bad sweep %j', async (extra, message) => {
    const e = await usageError(createAdviseCommand, [HDIFF, ...extra]);
    expect(e.message).toMatch(message);
  });
});
