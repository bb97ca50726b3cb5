/**
 * ICON velocity (`velocity_no_nproma_if_prop_lvn_only_0_istep_1`) at `--default-symbol 16`: the only output that
 * depends on memory nothing wrote is `max_vcfl_dyn`, through the Reduce without identity into `vcflmax`
 * (the program's own read, as DaCe's pure expansion runs it), and verification names `0:vcflmax` first. With that
 * Reduce given an identity in a copy, every mode agrees. `ddt_vn_apc_pc` and `ddt_w_adv_pc` depended on the
 * poison too until the clamped start indices became index-safe (clamped-start.test.ts); docs/profile.md,
 * "velocity_no_nproma, traced".
 *
 * Needs the native addon and dist/: tests/global-setup.ts builds them or fails the run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const VELOCITY = join(
  corpusDir(),
  'spcl__dace__tests__sdfg__data__sdfg_reconstruction__velocity_no_nproma_if_prop_lvn_only_0_istep_1.sdfgz',
);
const run = (file: string) =>
  profile(file, {
    ...DEFAULT_PROFILE_OPTIONS,
    runner: new NodeRunnerHost(),
    calls: 1,
    warmup: 0,
    processes: 1,
    symbols: new Map(),
    defaultSymbol: 16n,
    timeoutMs: 240_000,
  });

let dir: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-velocity-diag-'));
  process.env.TRANSIENT_LAB_CACHE = join(dir, 'cache');
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(dir, { recursive: true, force: true });
});

describe('velocity_no_nproma at --default-symbol 16', () => {
  it('reads uninitialised memory only through vcflmax, and says so', async () => {
    const v = (await run(VELOCITY)).verification;
    const reads = v.details.filter((d) => d.kind === 'uninitialised-read');
    expect(reads.length).toBeGreaterThan(0);
    expect(v.details.filter((d) => d.kind !== 'uninitialised-read' && d.kind !== 'note')).toEqual([]);
    for (const d of reads) {
      expect(d.array).toBe('__CG_p_diag__m_max_vcfl_dyn');
      expect(d.transients?.[0]).toBe('0:vcflmax');
      expect(d.message).toMatch(/accumulates into 0:vcflmax/);
    }
  }, 600_000);

  it('verifies in every mode once that Reduce has an identity', async () => {
    const json = JSON.parse(gunzipSync(await readFile(VELOCITY)).toString('utf8'));
    const reduce = json.nodes[5].nodes[0].attributes.sdfg.nodes[1].nodes[16];
    expect([reduce.label, reduce.attributes.identity ?? null]).toEqual(['Reduce (Max), Axes: [0, 1]', null]);
    reduce.attributes.identity = 0.0;
    const patched = join(dir, 'velocity_identity.sdfg');
    await writeFile(patched, JSON.stringify(json));
    const v = (await run(patched)).verification;
    expect(v.ok, JSON.stringify(v.details)).toBe(true);
    expect(v.identical).toBe(true);
  }, 600_000);
});
