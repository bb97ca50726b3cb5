/**
 * `transient-lab report` as a user runs it (the built CLI in a child process): JSON and CSV round-trip with
 * the result, an HTML report gives its results back, and bad input, a newer schema, an unwritable output and a
 * missing Chromium each end with a clear message and exit code, leaving nothing half-written behind.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { CALL_COLUMNS, parseCsv, SUMMARY_COLUMNS } from '../../electron/engine/report/index.js';
import { corpusDir } from '../../electron/engine/paths.js';
import { clone, FIXTURE, loadResult } from './fixtures.js';

const MAIN = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const run = promisify(execFile);

async function cli(command: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MAIN, command, ...args], { cwd: packageRoot(), encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
const report = (...args: string[]) => cli('report', ...args);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-report-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** No temporary file of an atomic write stays behind. */
async function noTemporaries(): Promise<void> {
  expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

const rowsOf = (text: string): Array<Record<string, string>> => {
  const [head, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!])));
};

describe('transient-lab report', () => {
  test('json: the result itself, validated', async () => {
    const out = join(dir, 'r.json');
    const r = await report(FIXTURE.run, '-o', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(out);
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(JSON.parse(await readFile(FIXTURE.run, 'utf8')));
    const two = await report(FIXTURE.run, FIXTURE.rerun, '-o', join(dir, 'two.json'));
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/the JSON format holds exactly one result, got 2/);
  });

  test('csv: per-call rows and the per-mode summary round-trip with the results', async () => {
    const out = join(dir, 'calls.csv');
    const r = await report(FIXTURE.run, FIXTURE.rerun, '--label', 'before', '--label', 'after', '-o', out);
    expect(r.code, r.stderr).toBe(0);
    const calls = rowsOf(await readFile(out, 'utf8'));
    const summary = rowsOf(await readFile(join(dir, 'calls.summary.csv'), 'utf8'));
    expect(Object.keys(calls[0]!)).toEqual([...CALL_COLUMNS]);
    expect(Object.keys(summary[0]!)).toEqual([...SUMMARY_COLUMNS]);
    const columns = {
      total_ns: 'totalNs',
      alloc_ns: 'allocNs',
      free_ns: 'freeNs',
      allocs: 'allocs',
      frees: 'frees',
      alloc_bytes: 'allocBytes',
      minor_faults: 'minorFaults',
    } as const;
    for (const [label, path] of [
      ['before', FIXTURE.run],
      ['after', FIXTURE.rerun],
    ] as const) {
      const result = loadResult(path);
      for (const m of result.modes) {
        const mine = calls.filter((c) => c.result === label && c.label === m.label);
        expect(mine.length).toBe(m.calls.totalNs.length);
        for (const [csv, field] of Object.entries(columns))
          expect(
            mine.map((c) => Number(c[csv])),
            `${label} ${m.label} ${csv}`,
          ).toEqual(m.calls[field]);
        expect(mine.map((c) => [c.mode, c.layout, Number(c.process) * result.settings.calls + Number(c.call)])).toEqual(
          mine.map((_, i) => [m.mode, m.layout ?? '', i]),
        );
        const s = summary.find((x) => x.result === label && x.label === m.label)!;
        expect([
          Number(s.median_ns),
          Number(s.p10_ns),
          Number(s.p90_ns),
          Number(s.mean_ns),
          Number(s.allocs_per_call),
          Number(s.calls),
        ]).toEqual([
          m.summary.medianNs,
          m.summary.p10Ns,
          m.summary.p90Ns,
          m.summary.meanNs,
          m.summary.allocsPerCall,
          m.calls.totalNs.length,
        ]);
        expect(s.workspace_bytes === '' ? null : Number(s.workspace_bytes)).toEqual(
          Object.keys(m.workspaceBytes).length ? Object.values(m.workspaceBytes).reduce((a, b) => a + b, 0) : null,
        );
      }
    }
  });

  test('html: a self-contained report whose embedded results read back (labels kept)', async () => {
    const out = join(dir, 'cmp.html');
    const r = await report(FIXTURE.run, FIXTURE.rerun, '--label', 'before', '--label', 'after', '-o', out);
    expect(r.code, r.stderr).toBe(0);
    const html = await readFile(out, 'utf8');
    // Checked as booleans: a failing toMatch would print the whole 500 KB report.
    expect(/<(script|link|img)\b[^>]*\b(src|href)\s*=/i.test(html), 'no external script, stylesheet or image').toBe(false);
    expect(
      html.includes('<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;'),
      'CSP refuses everything by default',
    ).toBe(true);
    const back = join(dir, 'back.csv');
    const again = await report(out, '-o', back);
    expect(again.code, again.stderr).toBe(0);
    expect([...new Set(rowsOf(await readFile(back, 'utf8')).map((c) => c.result))]).toEqual(['cmp.html (before)', 'cmp.html (after)']);
    const json = join(dir, 'first.json');
    expect((await report(out, '--label', 'x', FIXTURE.sampled, '-o', join(dir, 'three.csv'))).code).toBe(0);
    const one = await report(FIXTURE.run, '-o', join(dir, 'one.html'), '--no-analysis');
    expect(one.stderr).toMatch(/--no-analysis/);
    expect((await report(join(dir, 'one.html'), '-o', json)).code).toBe(0);
    expect(JSON.parse(await readFile(json, 'utf8'))).toEqual(JSON.parse(await readFile(FIXTURE.run, 'utf8')));
  });

  test.each([
    ['malformed JSON', '{"schema": "transient-lab/profile@1", ', /bad\.json.*invalid JSON/s],
    ['foreign JSON', '{"hello": "world"}', /bad\.json.*no "schema" field/s],
    ['a newer schema', null, /bad\.json.*written by a newer Transient Lab \(transient-lab\/profile@2\).*update Transient Lab/s],
    ['a malformed result', 'calls', /bad\.json: at \$\.modes\[0\]\.calls\.totalNs: malformed transient-lab\/profile@1 document/],
    ['an HTML page that is no report', '<!doctype html><title>x</title>', /bad\.json.*without an embedded Transient Lab result/s],
  ])('%s: exit 3 naming the file, the output left as it was', async (_, content, message) => {
    const bad = join(dir, 'bad.json');
    const result = clone(loadResult(FIXTURE.run)) as unknown as Record<string, unknown>;
    if (content === null) result.schema = 'transient-lab/profile@2';
    if (content === 'calls') (result.modes as Array<{ calls: { totalNs: unknown } }>)[0]!.calls.totalNs = 'fast';
    await writeFile(bad, content === null || content === 'calls' ? JSON.stringify(result) : content);
    const out = join(dir, 'kept.html');
    await writeFile(out, 'the previous report');
    const r = await report(bad, '-o', out);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(out, 'utf8')).toBe('the previous report');
    await noTemporaries();
  });

  test('an output that cannot be written: exit 2 with the reason, nothing left behind', async () => {
    const missing = await report(FIXTURE.run, '-o', join(dir, 'no-such-folder', 'r.html'), '--no-analysis');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot write .*r\.html: the folder .*no-such-folder does not exist/);
    await writeFile(join(dir, 'a-file'), 'x');
    const notDir = await report(FIXTURE.run, '-o', join(dir, 'a-file', 'r.csv'));
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toMatch(/cannot write .*a-file.*is not a folder/);
    const isDir = await report(FIXTURE.run, '-o', dir, '--format', 'json');
    expect(isDir.code).toBe(2);
    expect(isDir.stderr).toMatch(/it is a folder/);
    await noTemporaries();
  });

  test('usage errors and PDF without Chromium', async () => {
    expect((await report(FIXTURE.run)).stderr).toMatch(/-o OUT is required/);
    const unknown = await report(FIXTURE.run, '-o', join(dir, 'r.txt'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/cannot tell the format from 'r\.txt'/);
    expect((await report(FIXTURE.run, '-o', join(dir, 'r.x'), '--format', 'docx')).stderr).toMatch(
      /--format expects html, pdf, csv, json, got 'docx'/,
    );
    const out = join(dir, 'r.pdf');
    const pdf = await report(FIXTURE.run, '-o', out, '--chromium', join(dir, 'no-chromium'));
    expect(pdf.code).toBe(7);
    expect(pdf.stderr).toMatch(/PDF needs Chromium: --chromium .*no-chromium is not an executable file/);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    await noTemporaries();
  });

  test('profile --report: the run and its report in one command; bad --report refused before any build', async () => {
    const example = join(corpusDir(), 'spcl__dace__doc___static__sdfg__example.sdfg');
    const bad = await cli('profile', example, '--report', join(dir, 'r.txt'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--report .*r\.txt: the name must end in \.html, \.pdf, \.csv or \.json/);
    const noChromium = await cli('profile', example, '--report', join(dir, 'p.pdf'), '--chromium', join(dir, 'none'));
    expect(noChromium.code).toBe(7);
    expect(noChromium.stderr).toMatch(/PDF needs Chromium/);
    const html = join(dir, 'profiled.html');
    const out = join(dir, 'profiled.json');
    const r = await cli(
      'profile',
      example,
      '--default-symbol',
      '32',
      '--modes',
      'scoped,external',
      '--calls',
      '3',
      '--warmup',
      '1',
      '--processes',
      '1',
      '--out',
      out,
      '--report',
      html,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`report: ${html}`);
    const back = join(dir, 'profiled-back.json');
    expect((await report(html, '-o', back)).code).toBe(0);
    expect(JSON.parse(await readFile(back, 'utf8'))).toEqual(JSON.parse(await readFile(out, 'utf8')));
    // The report has the analysis of the profiled file itself.
    expect((await readFile(html, 'utf8')).includes('(the profiled file: same sha256)')).toBe(true);
  });
});
