import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAnalyzeCommand } from '../../electron/cli/analyze.js';
import { profileCommand } from '../../electron/cli/profile.js';
import { humanBytes, percent, table } from '../../electron/cli/format.js';
import { EXIT_CODES, TlabError } from '../../electron/engine/errors.js';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';

const SAMPLE = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__cuda_mempooler.sdfg');
const LOOPS = join(corpusDir(), 'spcl__npbench__npbench__benchmarks__nbody__nbody.sdfg');

function capture(columns?: number, stderrTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  const cmd = createAnalyzeCommand({
    stdout: { write: (t: string) => out.push(t), isTTY: columns !== undefined, columns },
    stderr: { write: (t: string) => err.push(t), isTTY: stderrTTY },
  });
  return { cmd, out: () => out.join(''), err: () => err.join('') };
}

async function failure(argv: string[]): Promise<TlabError> {
  const { cmd } = capture();
  try {
    await cmd.run(argv);
  } catch (e) {
    if (e instanceof TlabError) return e;
    throw e;
  }
  throw new Error('expected a TlabError');
}

describe('analyze command', () => {
  it('prints the summary, transients, modes and layouts', async () => {
    const c = capture();
    expect(await c.cmd.run([LOOPS, '--default-symbol', '64'])).toBe(0);
    const text = c.out();
    expect(text).toMatch(/^File: .*nbody\.sdfg/m);
    expect(text).toMatch(/^Target: +cpu/m);
    expect(text).toMatch(/^Transients: \d+/m);
    for (const m of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']) expect(text).toMatch(new RegExp(`^${m} `, 'm'));
    expect(text).toMatch(/Workspace layouts/);
    expect(text).toMatch(/--default-symbol 64 used for \d+ symbol\(s\):/);
  });

  it('says what packing does as the window does: "saves 640 B (50.0%)", or "costs 3.19 KiB more" where it costs', async () => {
    const chain = capture();
    expect(await chain.cmd.run([join(packageRoot(), 'assets', 'examples', 'chain.sdfg'), '--symbols', 'N=40'])).toBe(0);
    expect(chain.out()).toMatch(/^CPU_Heap +1\.25 KiB +1\.25 KiB +640 B +saves 640 B \(50\.0%\) +640 B +100\.0%$/m);
    // channel_flow at 64: alignment takes more than reuse gains. Once "-3.19 KiB (0.1%)" under "saved".
    const c = capture();
    expect(
      await c.cmd.run([join(corpusDir(), 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg'), '--default-symbol', '64']),
    ).toBe(0);
    // The layouts table's row: the only line that starts with the storage and ends with the bound/packed share.
    const row = c
      .out()
      .split('\n')
      .find((l) => /^CPU_Heap .*%$/.test(l))!;
    expect(row).toMatch(/ costs 3\.19 KiB more \(0\.1%\) /);
    expect(row).not.toMatch(/ -\d/);
  });

  it("explains the modes table's '?' where the executions per call are unknown (channel_flow's while loop)", async () => {
    const c = capture();
    expect(
      await c.cmd.run([join(corpusDir(), 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg'), '--default-symbol', '16']),
    ).toBe(0);
    const text = c.out();
    expect(text).toMatch(/^SCOPED +\? +\? /m);
    expect(text).toMatch(/^\? = unknown per call: .+ \(see Warnings\)$/m);
    expect(text).toMatch(/executions per call unknown for \d+ transient/);
    // A program whose counts are all known has no such line.
    const k = capture();
    expect(await k.cmd.run([SAMPLE])).toBe(0);
    expect(k.out()).not.toMatch(/^\? = unknown/m);
  });

  it('says whether the program can be profiled, with the first reason, its element and JSON path when not', async () => {
    const mlir = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__mlir_tasklet_mlir_tasklet_no_input.sdfg');
    const no = capture();
    expect(await no.cmd.run([mlir])).toBe(0);
    expect(no.out()).toMatch(
      /^Can profile: no \(tasklet 'add' in state s562_4: MLIR tasklets are not supported, at \$\.nodes\[1\]\.nodes\[0\]\)$/m,
    );
    const fixture = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'dynamic_map_range.sdfg');
    const yes = capture();
    expect(await yes.cmd.run([fixture, '--default-symbol', '64'])).toBe(0);
    expect(yes.out()).toMatch(/^Can profile: yes$/m);
    // The JSON carries the same verdict.
    const json = capture();
    expect(await json.cmd.run([mlir, '--json'])).toBe(0);
    expect(JSON.parse(json.out()).profile).toEqual({
      ok: false,
      element: "tasklet 'add' in state s562_4",
      message: 'MLIR tasklets are not supported',
      hint: 'write the tasklet in Python or C++',
      jsonPath: '$.nodes[1].nodes[0]',
      findings: 1,
    });
    const jsonYes = capture();
    expect(await jsonYes.cmd.run([fixture, '--default-symbol', '64', '--json'])).toBe(0);
    expect(JSON.parse(jsonYes.out()).profile).toEqual({ ok: true });
  });

  it('a program it can build says which symbols still need a value first (the build would refuse without them)', async () => {
    // dynamic_map_range's arrays are sized by H and W.
    const fixture = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'dynamic_map_range.sdfg');
    const none = capture();
    expect(await none.cmd.run([fixture])).toBe(0);
    expect(none.out()).toMatch(/^Can profile: yes, once 2 symbols have values \(H, W\)$/m);
    const one = capture();
    expect(await one.cmd.run([fixture, '--symbols', 'H=8', '--json'])).toBe(0);
    expect(JSON.parse(one.out()).profile).toEqual({ ok: true, needsValues: { count: 1, names: ['W'] } });
    const text = capture();
    expect(await text.cmd.run([fixture, '--symbols', 'H=8'])).toBe(0);
    expect(text.out()).toMatch(/^Can profile: yes, once W has a value$/m);
  });

  it('a program refused for want of blas (Potrf) says what --library-impl blas gives, and builds with it', async () => {
    const potrf = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__lapack_potrf_matrix_choleskyfact_potrf_MKL_float.sdfg');
    const pure = capture();
    expect(await pure.cmd.run([potrf, '--default-symbol', '16'])).toBe(0);
    expect(pure.out()).toMatch(/^Can profile: no \(.*no pure expansion of Potrf.*\); with --library-impl blas: yes$/m);
    const blas = capture();
    expect(await blas.cmd.run([potrf, '--default-symbol', '16', '--library-impl', 'blas'])).toBe(0);
    expect(blas.out()).toMatch(/^Can profile: yes$/m);
  });

  it('prints a live set with holes as its intervals', async () => {
    // pack_cycle, N = 16: carry is dead between its read (step 4) and its rewrite (7); docs/liveness.md §4.
    const c = capture();
    expect(await c.cmd.run([join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'pack_cycle.sdfg'), '--symbols', 'N=16', '--all'])).toBe(0);
    const row = (id: string) =>
      c
        .out()
        .split('\n')
        .find((l) => l.startsWith(`${id} `)) ?? '';
    expect(row('0:carry')).toMatch(/ 1-4,7-8 /);
    expect(row('0:last')).toMatch(/ 1,8-9 /);
    expect(row('0:g')).toMatch(/ 1-2 /);
  });

  it('lists the largest allocating transients by default and every one with --all', async () => {
    const rowsOf = (text: string) => text.split('\n').filter((l) => /^\d+:\S+ /.test(l));
    const short = capture();
    await short.cmd.run([LOOPS, '--default-symbol', '64']);
    const total = Number(/^Transients: (\d+)/m.exec(short.out())![1]);
    expect(total).toBeGreaterThan(60);
    expect(rowsOf(short.out())).toHaveLength(60);
    expect(short.out()).toContain(`(${total - 60} more transient(s) not shown`);
    const all = capture();
    await all.cmd.run([LOOPS, '--default-symbol', '64', '--all']);
    expect(rowsOf(all.out())).toHaveLength(total);
    expect(all.out()).not.toContain('not shown');
  });

  it('shows progress on a terminal for big files and nothing when stderr is piped', async () => {
    const tty = capture(undefined, true);
    await tty.cmd.run([LOOPS, '--default-symbol', '64']);
    expect(tty.err()).toMatch(/parsing .*nbody\.sdfg \(\d+\.\d s\)/);
    expect(tty.err()).toMatch(/analysing 5 SDFG\(s\), \d+ transient\(s\)/);
    expect(tty.err().endsWith('\r\x1b[K')).toBe(true);
    const piped = capture();
    await piped.cmd.run([LOOPS, '--default-symbol', '64']);
    expect(piped.err()).toBe('');
  });

  it('fits a TTY width and does not truncate piped output', async () => {
    const tty = capture(100);
    await tty.cmd.run([LOOPS, '--default-symbol', '64']);
    const rows = tty
      .out()
      .split('\n')
      .filter((l) => /^\d+:/.test(l));
    expect(rows.length).toBeGreaterThan(0);
    const piped = capture();
    await piped.cmd.run([LOOPS, '--default-symbol', '64']);
    expect(piped.out()).not.toContain('…');
  });

  it('--json prints the analysis@1 document', async () => {
    const c = capture();
    expect(await c.cmd.run([SAMPLE, '--json', '--symbols', 'N=1000'])).toBe(0);
    const doc = JSON.parse(c.out());
    expect(doc.schema).toBe('transient-lab/analysis@1');
    expect(doc.target).toBe('gpu');
    expect(doc.symbols.N).toEqual({ value: 1000, source: 'user' });
    expect(doc.modes.POOL.pooled).toBeGreaterThan(0);
  });

  it('--target overrides the detection', async () => {
    const c = capture();
    await c.cmd.run([SAMPLE, '--json', '--target', 'cpu']);
    const doc = JSON.parse(c.out());
    expect(doc.target).toBe('cpu');
    expect(doc.targetReason).toMatch(/--target cpu \(detected gpu/);
  });

  it('--help prints usage and exits 0', async () => {
    const c = capture();
    expect(await c.cmd.run(['--help'])).toBe(0);
    expect(c.out()).toMatch(/Usage: transient-lab analyze FILE/);
  });

  it("the top-level help names what the error messages tell a user to pass (profile's --default-symbol) and what profile opens", () => {
    expect(profileCommand.usage).toMatch(/^profile FILE\|WORKLOAD\|DACE_FOLDER /);
    expect(profileCommand.usage).toContain('[--default-symbol V]');
  });

  it('bad usage is a usage error (exit 2)', async () => {
    for (const argv of [
      [],
      [SAMPLE, SAMPLE],
      [SAMPLE, '--bogus'],
      [SAMPLE, '--target', 'tpu'],
      [SAMPLE, '--symbols', 'N=x'],
      [SAMPLE, '--default-symbol', 'big'],
    ]) {
      const e = await failure(argv);
      expect(e.kind, argv.join(' ')).toBe('usage');
      expect(EXIT_CODES[e.kind]).toBe(2);
    }
  });

  it('unreadable or malformed input is an input error naming the file (exit 3)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlab-analyze-'));
    const bad = join(dir, 'bad.sdfg');
    writeFileSync(bad, '{"type": "SDFG", "attributes": ');
    for (const path of [bad, join(dir, 'missing.sdfg')]) {
      const e = await failure([path]);
      expect(e.kind).toBe('input');
      expect(EXIT_CODES[e.kind]).toBe(3);
      expect(e.describe()).toContain(path);
    }
  });
});

describe('format helpers', () => {
  it('formats bytes, percentages and tables', () => {
    expect(humanBytes(0n)).toBe('0 B');
    expect(humanBytes(1023n)).toBe('1023 B');
    expect(humanBytes(1536n)).toBe('1.50 KiB');
    expect(humanBytes(1n << 60n)).toBe('1.00 EiB');
    expect(humanBytes(null)).toBe('?');
    expect(percent(1n, 3n)).toBe('33.3%');
    // Under one percent below zero, BigInt's integer part is 0 and carries no sign.
    expect(percent(-3n, 1000n)).toBe('-0.3%');
    expect(percent(-25n, 1000n)).toBe('-2.5%');
    expect(
      table(
        ['a', 'num'],
        [
          ['x', '1'],
          ['long', '22'],
        ],
        { align: ['left', 'right'] },
      ),
    ).toEqual(['a     num', '----  ---', 'x       1', 'long   22']);
    expect(table(['a', 'text'], [['x', 'abcdefghij']], { maxWidth: 9, flexColumn: 1 })[2]).toBe('x  abcde…');
  });
});

const MAIN = resolve(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
describe('built CLI', () => {
  it('exits 0 / 2 / 3 and prints JSON', () => {
    const ok = spawnSync(process.execPath, [MAIN, 'analyze', SAMPLE, '--json'], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).schema).toBe('transient-lab/analysis@1');
    expect(spawnSync(process.execPath, [MAIN, 'analyze'], { encoding: 'utf8' }).status).toBe(2);
    const missing = spawnSync(process.execPath, [MAIN, 'analyze', '/nonexistent/x.sdfg'], { encoding: 'utf8' });
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain('/nonexistent/x.sdfg');
  });
});
