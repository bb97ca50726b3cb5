/** `profile --interpose` through the built CLI (docs/interpose.md): the figures, the note, and the one refusal. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../electron/engine/paths.js';
import { runCli } from './run-cli.js';

const chain = join(examplesDir(), 'chain.sdfg');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-interpose-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cache: join(dir, 'cache'), timeoutMs: 300_000 });

describe('profile --interpose', () => {
  it('times the allocations through the hooks and says so', async () => {
    const out = join(dir, 'chain.json');
    const args = [chain, '--symbols', 'N=1000', '--modes', 'scoped,persistent', '--calls', '3', '--warmup', '1', '--processes', '1'];
    const r = await cli(['profile', ...args, '--interpose', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^note: Allocation counts, bytes and times were measured by interposition \(--interpose\)/m);
    const result = JSON.parse(await readFile(out, 'utf8')) as {
      modes: Array<{ label: string; summary: { allocsPerCall: number } }>;
      warnings: string[];
    };
    expect(result.modes.map((m) => [m.label, m.summary.allocsPerCall])).toEqual([
      ['SCOPED', 4],
      ['PERSISTENT', 0],
    ]);
    expect(result.warnings.filter((w) => /interposition/.test(w))).toEqual([]);
  }, 300_000);

  it('is refused with --remote', async () => {
    const r = await cli(['profile', chain, '--interpose', '--remote', 'example.org']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--interpose cannot be used with --remote yet/);
  });
});
