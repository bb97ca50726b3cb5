/**
 * What a profile measures of a program's streams (native/include/transient_stream.h): each stream's site
 * allocates the block the analysis sizes (analysis/stream-footprint.ts: 48-byte headers and the first blocks of
 * buffer_size elements), and a queue that holds more adds fixed-size blocks, as many as its peak needs. On
 * tests/fixtures/sdfg/streams.sdfg, R (buffer_size 0: 64 doubles first) takes all N elements of A in one bulk
 * push before any pop, so it adds exactly ceil((N - 64) / per block) blocks; Q (buffer_size 4) holds all N once
 * the produce map is done and never more after (each consumed element pushes at most one back), so it adds
 * ceil((N - 4) / per block) blocks, one or two more at most for the partly drained blocks its cycle passes.
 * Before, a full queue doubled its ring: R's allocations went 1 KiB, 2 KiB, … up to the first power of two
 * holding N elements.
 *
 * Needs the native addon and dist/: tests/global-setup.ts builds them or fails the run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { streamBlockBytes } from '../codegen/compile.js';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'streams.sdfg');
const N = 20_000;

describe("a profile's allocations of stream queues", () => {
  it('are the analysed site blocks and blocks of fixed size, as many as each queue holds at its peak', async () => {
    const symbols = new Map([['N', BigInt(N)]]);
    const analysis = analyze(await readSdfgFile(FIXTURE), { symbols, defaultSymbol: null, target: null });
    const siteBytes = (name: string) => Number(analysis.transients.find((t) => t.name === name)!.bytes);
    expect([siteBytes('Q'), siteBytes('R')]).toEqual([48 + 4 * 8, 48 + 64 * 8]);

    const result = await profile(FIXTURE, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      modes: ['SCOPED'],
      calls: 2,
      warmup: 1,
      processes: 1,
      symbols,
      timeoutMs: 240_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    const mode = result.modes[0]!;
    const events = mode.sampledCall!.events;
    const block = streamBlockBytes();
    const perBlock = Math.floor((block - 24) / 8);
    const allocs = (name: string) => events.filter((e) => e.kind === 'alloc' && e.transient.endsWith(`:${name}`)).map((e) => e.bytes);
    const frees = (name: string) => events.filter((e) => e.kind === 'free' && e.transient.endsWith(`:${name}`)).map((e) => e.bytes);

    const r = allocs('R');
    expect(r[0]).toBe(siteBytes('R'));
    expect(r.slice(1)).toEqual(Array(Math.ceil((N - 64) / perBlock)).fill(block));
    const q = allocs('Q');
    expect(q[0]).toBe(siteBytes('Q'));
    expect(new Set(q.slice(1))).toEqual(new Set([block]));
    expect(q.length - 1).toBeGreaterThanOrEqual(Math.ceil((N - 4) / perBlock));
    expect(q.length - 1).toBeLessThanOrEqual(Math.ceil((N - 4) / perBlock) + 2);
    // Every byte allocated is freed in the call. The summary is a median over calls: Q's one or two extra blocks
    // depend on the order the parallel produce map pushed in.
    for (const name of ['Q', 'R']) expect(frees(name).sort()).toEqual(allocs(name).sort());
    const least = 2 + Math.ceil((N - 64) / perBlock) + Math.ceil((N - 4) / perBlock);
    expect(mode.summary.allocsPerCall).toBeGreaterThanOrEqual(least);
    expect(mode.summary.allocsPerCall).toBeLessThanOrEqual(least + 2);
    expect(mode.summary.allocBytesPerCall).toBe(siteBytes('Q') + siteBytes('R') + (mode.summary.allocsPerCall - 2) * block);
  }, 300_000);
});
