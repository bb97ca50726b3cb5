import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { readNpy } from '../../electron/engine/profile/npy.js';
import { writeWorkload } from '../engine/workload/fixtures.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

function fixture(doc: Record<string, unknown>): string {
  const path = writeWorkload(doc);
  dirs.push(dirname(path));
  return path;
}

describe('transient-lab profile WORKLOAD.json', () => {
  it('prints a row per mode (time per step, allocations per step, footprint) and the verdict; writes the result and the outputs', async () => {
    const path = fixture({ sequence: ['writer', 'writer'] });
    const out = join(dirname(path), 'r.json');
    const saved = join(dirname(path), 'outputs');
    const report = join(dirname(path), 'r.html');
    const r = await cli([
      'profile',
      path,
      '--modes',
      'scoped,persistent,external',
      '--calls',
      '8',
      '--processes',
      '1',
      '--cxxflags',
      '-O1',
      '--out',
      out,
      '--save-outputs',
      saved,
      '--report',
      report,
    ]);
    expect(r.stderr).toBe(`report: ${report}\n`);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('workload fixture: 2 calls per step (writer → writer), 8 timed steps × 1 process per mode');
    expect(lines[1]).toMatch(/^mode +time per step +p10 +p90 +allocs\/step +alloc\+free\/step +footprint$/);
    expect(lines[2]).toMatch(/^SCOPED +\S+ \S*s .* 2 +\S+ \S*s +512 B \(largest per-call peak\)$/);
    expect(lines[3]).toMatch(/^PERSISTENT +.* 0 +0 ns +512 B \(sum of init allocations\)$/);
    expect(lines[4]).toMatch(/^EXTERNAL \(packed\) +.* 0 +0 ns +512 B \(one shared workspace\)$/);
    expect(lines[5]).toBe(
      'verification: every call of 2 steps in PERSISTENT, EXTERNAL (packed) matches SCOPED at every position (8 calls checked)',
    );
    const verdict = lines.find((l) => l.startsWith('verdict: '))!;
    // Noise-aware: a clean run names a winner or says none wins on time; either way the line says what is saved.
    expect(verdict).toMatch(
      /^verdict: (Noisy run: compared at p10 .*)?((SCOPED|PERSISTENT|EXTERNAL \(packed\)) wins: .* than the runner-up|No mode wins on time: )/,
    );
    const result = JSON.parse(await readFile(out, 'utf8'));
    expect(result.schema).toBe('transient-lab/workload-result@1');
    expect(result.verdict).toBe(verdict.slice('verdict: '.length));
    expect(Object.keys(result.perStep)).toEqual(['SCOPED', 'PERSISTENT', 'EXTERNAL (packed)']);
    // --report: the measured verdict backs the recommendation (the static "no timing" note is not repeated), and
    // the measured table and the result are in the page.
    const html = await readFile(report, 'utf8');
    expect(html).toContain('<p>Measured: ');
    expect(html).not.toContain('No timing backs this');
    expect(html).toContain('<section id="measured">');
    expect(html).toContain('id="tlab-workload-result"');
    // --save-outputs: DIR/<MODE>/<ARRAY>.npy of every shared array after the verification steps, equal across modes.
    const scoped = await readNpy(join(saved, 'SCOPED', 'C.npy'));
    const external = await readNpy(join(saved, 'EXTERNAL-packed', 'C.npy'));
    expect(scoped.shape).toEqual([64]);
    expect(Buffer.from(external.data).equals(Buffer.from(scoped.data))).toBe(true);
    const a = await readNpy(join(saved, 'PERSISTENT', 'A.npy'));
    const c = new Float64Array(scoped.data.buffer.slice(scoped.data.byteOffset, scoped.data.byteOffset + scoped.data.byteLength));
    const av = new Float64Array(a.data.buffer.slice(a.data.byteOffset, a.data.byteOffset + a.data.byteLength));
    expect(c[5]).toBe(av[5]! * 3 + 1);
  }, 300_000);

  it('exits 6 and names the program that depends on stale workspace bytes', async () => {
    const path = fixture({
      sequence: ['writer', 'stale'],
      symbols: { N: 100 },
      programs: { writer: { sdfg: 'writer.sdfg' }, stale: { sdfg: 'stale.sdfg' } },
    });
    const r = await cli(['profile', path, '--modes', 'scoped,external', '--calls', '6', '--processes', '1', '--cxxflags', '-O1']);
    expect(r.code).toBe(6);
    expect(r.stdout).toContain('verification: 2 of 4 calls differ from SCOPED or depend on stale workspace bytes (see findings)');
    expect(r.stdout).toContain('finding: EXTERNAL (packed): program stale (position 1) reads workspace bytes it did not write');
  }, 300_000);

  it('refuses a bad option in one line', async () => {
    const path = fixture({});
    const r = await cli(['profile', path, '--layout', 'diagonal']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("--layout expects dace, packed or both, got 'diagonal'");
    const pdf = await cli(['profile', path, '--report', 'r.pdf']);
    expect(pdf.code).toBe(2);
    expect(pdf.stderr).toContain("--report for a workload writes HTML: give a path ending in .html, got 'r.pdf'");
  });
});
