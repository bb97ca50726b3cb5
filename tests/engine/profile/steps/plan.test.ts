/** Profile step 1, plan: parse, analyse, check and generate, with nothing compiled or run. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../../../electron/engine/errors.js';
import { corpusDir, examplesDir } from '../../../../electron/engine/paths.js';
import type { ProfileProgress } from '../../../../electron/engine/profile/options.js';
import { planProfile, planVariants } from '../../../../electron/engine/profile/plan.js';
import { RunCancelled } from '../../../../electron/engine/profile/runner-host.js';

const hdiff = join(examplesDir(), 'hdiff.sdfg');
const base = {
  modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const,
  layout: 'both' as const,
  calls: 3,
  symbols: new Map<string, bigint>(),
  defaultSymbol: 16n,
};

describe('plan step', () => {
  it('orders the variants canonically, SCOPED first, EXTERNAL once per layout', () => {
    expect(planVariants(['EXTERNAL', 'SCOPED'], 'both')).toEqual([
      { mode: 'SCOPED', layout: null },
      { mode: 'EXTERNAL', layout: 'dace' },
      { mode: 'EXTERNAL', layout: 'packed' },
    ]);
    expect(planVariants(['POOL', 'PERSISTENT'], 'dace')).toEqual([
      { mode: 'PERSISTENT', layout: null },
      { mode: 'POOL', layout: null },
    ]);
    expect(planVariants(['EXTERNAL'], 'dace')).toEqual([{ mode: 'EXTERNAL', layout: 'dace' }]);
  });

  it('generates one program per variant with the same arguments, and reports every stage', async () => {
    const progress: ProfileProgress[] = [];
    const plan = await planProfile(hdiff, { ...base, modes: [...base.modes] }, (p) => progress.push(p));
    expect(plan.variants.map((v) => v.label)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (dace)', 'EXTERNAL (packed)']);
    expect(plan.variants.map((v) => v.program.mode)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL', 'EXTERNAL']);
    expect(plan.variants[3]!.program.layout).toBe('dace');
    expect(plan.args).toBe(plan.variants[0]!.program.args);
    expect(plan.args.length).toBeGreaterThan(0);
    expect(plan.name).toBe('hdiff');
    expect(plan.fileHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.values(plan.symbols).every((v) => v === 16n)).toBe(true);
    expect(plan.analysis.target).toBe('cpu');
    expect(progress.map((p) => p.stage)).toEqual(['parse', 'analyse', 'generate', 'generate', 'generate', 'generate', 'generate']);
    expect(progress.at(-1)).toMatchObject({ done: 5, total: 5 });
  });

  it('refuses bad settings before reading the file', async () => {
    const missing = '/nonexistent/never-read.sdfg';
    await expect(planProfile(missing, { ...base, modes: [] })).rejects.toMatchObject({ kind: 'usage', message: 'no modes to profile' });
    await expect(planProfile(missing, { ...base, modes: ['SCOPED'], calls: 0 })).rejects.toMatchObject({ kind: 'usage' });
    const err = await planProfile(missing, { ...base, modes: ['SCOPED'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect(err).toMatchObject({ kind: 'input', file: missing });
  });

  it('stops when cancelled before analysing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(planProfile(hdiff, { ...base, modes: ['SCOPED'], signal: controller.signal })).rejects.toBeInstanceOf(RunCancelled);
  });

  it('plans a GPU program as CUDA (build needs no device); a GPU program outside the CUDA subset names its JSON path', async () => {
    const gpu = join(corpusDir(), 'spcl__dace__doc___static__sdfg__gpu-notb.sdfg');
    const plan = await planProfile(gpu, { ...base, modes: ['SCOPED', 'POOL'], defaultSymbol: 8n });
    expect(plan.analysis.target).toBe('gpu');
    expect(plan.variants.map((v) => v.program.gpu?.language)).toEqual(['cuda', 'cuda']);
    // tmp is declared [1] and indexed with 2 dimensions (docs/gpu.md, coverage).
    const err = await planProfile(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__default_storage_2.sdfg'), {
      ...base,
      modes: ['SCOPED'],
      defaultSymbol: 8n,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect(err).toMatchObject({ kind: 'unsupported', jsonPath: '$.nodes[0].edges[1]' });
    expect((err as TlabError).details.join('\n')).toMatch(/the subset has 2 dimension\(s\) but 'tmp' has 1/);
  });

  it('a host that runs (it passes a device probe) refuses a GPU program without a device, and records the device it has', async () => {
    const gpu = join(corpusDir(), 'spcl__dace__doc___static__sdfg__gpu-notb.sdfg');
    const report = { runtimeLibrary: 'libcudart.so', runtimeVersion: 13000, driverVersion: 13000, attempts: [] };
    const none = await planProfile(gpu, {
      ...base,
      modes: ['SCOPED'],
      defaultSymbol: 8n,
      devices: async () => ({ ...report, devices: [], reason: 'no NVIDIA driver is installed' }),
    }).catch((e: unknown) => e);
    expect(none).toMatchObject({
      kind: 'unsupported',
      message: 'this is a GPU program and this machine has no CUDA device: no NVIDIA driver is installed',
    });
    const device = {
      index: 0,
      name: 'Test GPU',
      totalMemoryBytes: 2 ** 34,
      computeCapability: '9.0',
      multiprocessors: 132,
      memoryPools: true,
    };
    const one = await planProfile(gpu, {
      ...base,
      modes: ['SCOPED'],
      defaultSymbol: 8n,
      devices: async () => ({ ...report, devices: [device], reason: null }),
    });
    expect(one.device).toEqual({ ...device, runtimeVersion: 13000, driverVersion: 13000 });
    expect(one.variants.map((v) => v.label)).toEqual(['SCOPED']);
    // A CPU program never asks for the probe.
    let asked = false;
    await planProfile(hdiff, {
      ...base,
      modes: ['SCOPED'],
      devices: async () => ((asked = true), { ...report, devices: [], reason: 'x' }),
    });
    expect(asked).toBe(false);
  });

  it('--pool-release-threshold reaches the generator for GPU programs and is refused for CPU ones', async () => {
    const gpu = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__cuda_mempooler.sdfg');
    const plan = await planProfile(gpu, { ...base, modes: ['POOL'], defaultSymbol: 8n, poolReleaseThreshold: 0n });
    expect(plan.variants[0]!.program.gpu!.poolReleaseThreshold).toBe(0n);
    const cpu = await planProfile(hdiff, { ...base, modes: ['POOL'], poolReleaseThreshold: 0n }).catch((e: unknown) => e);
    expect(cpu).toMatchObject({ kind: 'usage', message: expect.stringMatching(/--pool-release-threshold applies to GPU programs/) });
  });
});
