/**
 * A profile run whose arrays cannot fit is refused before anything is generated, built or allocated, naming
 * the arrays, the total and the limit. `N=1000000000000` used to end in `RangeError: Invalid typed array
 * length` in input preparation, after every mode had been compiled.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { AnalysisOptions } from '../../../electron/engine/analysis/types.js';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { examplesDir } from '../../../electron/engine/paths.js';
import { argumentBuffer } from '../../../electron/engine/profile/inputs.js';
import { checkRunFits, checkRunMemory, machineLimits, type MemoryLimits } from '../../../electron/engine/profile/memory.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const chain = join(examplesDir(), 'chain.sdfg');
const GiB = 2 ** 30;
const roomy: MemoryLimits = { totalBytes: 64 * GiB, availableBytes: 60 * GiB, constrainedBytes: null, maxBufferBytes: 4 * GiB };

async function need(n: bigint, limits: MemoryLimits) {
  const file = await readSdfgFile(chain);
  const opts: AnalysisOptions = { symbols: new Map([['N', n]]), defaultSymbol: null, target: null };
  return checkRunMemory(file, analyze(file, opts), opts, limits);
}

async function refusal(n: bigint, limits: MemoryLimits): Promise<TlabError> {
  const error = await need(n, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TlabError);
  expect((error as TlabError).kind).toBe('usage');
  expect((error as TlabError).file).toBe(chain);
  return error as TlabError;
}

describe('checkRunMemory', () => {
  it('counts every argument and every allocated transient', async () => {
    const n = await need(1000n, roomy);
    expect(n.arguments).toEqual([
      { name: 'inp', bytes: 8000n },
      { name: 'out', bytes: 8000n },
    ]);
    expect(n.transients.map((t) => t.name)).toEqual(['t1', 't2', 't3', 't4']);
    expect(n.totalBytes).toBe(6n * 8000n);
  });

  it('refuses arguments larger than one Node.js buffer, naming them and the limit', async () => {
    const error = await refusal(10n ** 12n, { ...roomy, totalBytes: 2 ** 60, availableBytes: 2 ** 60 });
    expect(error.message).toBe(
      'arguments inp (7.28 TiB), out (7.28 TiB) cannot be allocated: one input buffer holds at most 4.00 GiB in this Node.js (buffer.constants.MAX_LENGTH)',
    );
    expect(error.details[0]).toBe(
      'the run holds at least arguments 14.55 TiB + transients 29.10 TiB = 43.66 TiB at once (N=1000000000000); largest:',
    );
    expect(error.details).toContain('  transient t4: 7.28 TiB');
  });

  it('refuses arguments that cannot travel to the runner in one message', async () => {
    const error = await refusal(200_000_000n, roomy);
    expect(error.message).toMatch(/^the arguments \(2\.98 GiB\) cannot be passed to the runner: .* at most 4\.00 GiB/);
  });

  it('refuses a run beyond the physical memory, then beyond a cgroup limit, then beyond what is available now', async () => {
    // N = 10^8: 2 arguments + 4 transients of 800 MB = 4.47 GiB.
    const physical = await refusal(100_000_000n, { ...roomy, totalBytes: 4 * GiB, availableBytes: 3 * GiB });
    expect(physical.message).toBe('the arrays need 4.47 GiB, more than the physical memory of this machine (4.00 GiB)');
    const cgroup = await refusal(100_000_000n, { ...roomy, constrainedBytes: 2 * GiB });
    expect(cgroup.message).toBe('the arrays need 4.47 GiB, more than the memory limit (cgroup) of this process (2.00 GiB)');
    const available = await refusal(100_000_000n, { ...roomy, availableBytes: 3 * GiB });
    expect(available.message).toBe('the arrays need 4.47 GiB, more than the memory available now (3.00 GiB of 64.00 GiB, os.freemem)');
    expect(available.details).toContain(
      'running anyway would swap or be killed by the kernel; free memory (other programs) or use smaller sizes',
    );
  });

  it('lets a run that fits through', async () => {
    await expect(need(100_000_000n, roomy)).resolves.toMatchObject({ totalBytes: 4_800_000_000n });
  });

  it('reads the limits of this machine', () => {
    const limits = machineLimits();
    expect(limits.totalBytes).toBeGreaterThan(0);
    expect(limits.availableBytes).toBeGreaterThan(0);
    expect(limits.availableBytes).toBeLessThanOrEqual(limits.totalBytes);
    expect(limits.maxBufferBytes).toBeGreaterThanOrEqual(2 ** 31 - 1);
  });
});

describe('checkRunFits: symbol values the program can receive', () => {
  it('refuses a value beyond the declared integer type (it would wrap), and analyze() warns about it', async () => {
    const file = await readSdfgFile(chain);
    const opts: AnalysisOptions = { symbols: new Map([['N', 3_000_000_000n]]), defaultSymbol: null, target: null };
    const analysis = analyze(file, opts);
    const text =
      'symbol N=3000000000 does not fit its declared type int32 (-2147483648 to 2147483647): the program would receive a wrapped value';
    expect(analysis.warnings).toContain(text);
    let error: unknown;
    try {
      checkRunFits(file, analysis, opts, { ...roomy, totalBytes: 2 ** 62, availableBytes: 2 ** 62, maxBufferBytes: 2 ** 62 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TlabError);
    expect((error as TlabError).message).toBe(text);
    expect((error as TlabError).jsonPath).toBe('$.attributes.symbols.N');
  });

  it('lets values inside the type through', async () => {
    const file = await readSdfgFile(chain);
    const opts: AnalysisOptions = { symbols: new Map([['N', 2n ** 31n - 1n]]), defaultSymbol: null, target: null };
    const analysis = analyze(file, opts);
    expect(analysis.warnings.filter((w) => w.includes('does not fit'))).toEqual([]);
    expect(
      checkRunFits(file, analysis, opts, { ...roomy, totalBytes: 2 ** 62, availableBytes: 2 ** 62, maxBufferBytes: 2 ** 62 }).totalBytes,
    ).toBe(6n * 8n * (2n ** 31n - 1n));
  });
});

describe('argumentBuffer (the last line for engine callers that prepare inputs themselves)', () => {
  const arg = (totalElements: bigint): ProgramArg => ({
    name: 'A',
    kind: 'array',
    dtype: 'float64',
    ctype: 'double',
    elementBytes: 8,
    shape: [totalElements],
    totalElements,
    strides: [1n],
    written: false,
    read: true,
  });

  it('allocates the zeroed storage', () => {
    expect(argumentBuffer(arg(3n))).toEqual(new Uint8Array(24));
  });

  it('refuses negative and oversized arguments with a TlabError instead of a RangeError', () => {
    expect(() => argumentBuffer(arg(-1n))).toThrow(/argument A would have a negative size/);
    expect(() => argumentBuffer(arg(10n ** 12n))).toThrow(/argument A needs 8000000000000 bytes, more than one Node.js buffer holds/);
  });
});

describe('profile() refuses before building anything', () => {
  let cache: string;
  const saved = process.env.TRANSIENT_LAB_CACHE;
  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'tlab-memory-'));
    process.env.TRANSIENT_LAB_CACHE = cache;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.TRANSIENT_LAB_CACHE;
    else process.env.TRANSIENT_LAB_CACHE = saved;
    await rm(cache, { recursive: true, force: true });
  });

  it.each([
    ['N=-1', -1n, /^negative array extent: with N=-1/],
    ['N=10^12', 10n ** 12n, /cannot be allocated: one input buffer holds at most/],
  ])('%s', async (_name, n, message) => {
    const run = profile(chain, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      symbols: new Map([['N', n]]),
      calls: 1,
      processes: 1,
    });
    await expect(run).rejects.toThrow(message);
    await expect(run).rejects.toBeInstanceOf(TlabError);
    expect(await readdir(cache)).toEqual([]);
  });
});
