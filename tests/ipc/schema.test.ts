import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { requestSchemas } from '../../electron/ipc/contract-schema.js';
import { profileResultSchema } from '../../electron/ipc/result-schema.js';
import { METHODS } from '../../electron/ipc/contract.js';

describe('request schemas', () => {
  const schemas = requestSchemas({ uploadBytes: 1024, pathChars: 100, profileCalls: 1000 });

  it('has one schema per method', () => {
    expect(Object.keys(schemas).sort()).toEqual([...METHODS].sort());
  });

  it('bounds uploads by the host limit', () => {
    expect(v.safeParse(schemas.openUpload, { name: 'a.sdfg', bytes: new Uint8Array(1024) }).success).toBe(true);
    expect(v.safeParse(schemas.openUpload, { name: 'a.sdfg', bytes: new Uint8Array(1025) }).success).toBe(false);
    expect(v.safeParse(schemas.openUpload, { name: 'a.sdfg', bytes: new Uint8Array(0) }).success).toBe(false);
    expect(v.safeParse(schemas.openUpload, { name: 'a.sdfg', bytes: Buffer.from('{}') }).success).toBe(true);
  });

  it('accepts decimal symbol values of any size, nothing else', () => {
    const ok = (symbols: Record<string, string>) =>
      v.safeParse(schemas.analyze, { doc: 'd1', symbols, defaultSymbol: null, target: null }).success;
    expect(ok({ N: '128', M: '-3', HUGE: '123456789012345678901234567890' })).toBe(true);
    for (const bad of ['1.5', '1e3', '', ' 1', '0x10', '1'.repeat(40)]) expect(ok({ N: bad }), bad).toBe(false);
    expect(ok({ '1N': '1' })).toBe(false);
  });

  it('bounds path lengths, calls, processes and their product', () => {
    expect(v.safeParse(schemas.openFile, { path: 'x'.repeat(100) }).success).toBe(true);
    expect(v.safeParse(schemas.openFile, { path: 'x'.repeat(101) }).success).toBe(false);
    const req = {
      doc: 'd1',
      job: 'j',
      modes: ['SCOPED'],
      layout: 'packed',
      calls: 500,
      warmup: 0,
      processes: 2,
      symbols: {},
      defaultSymbol: null,
      seed: '18446744073709551615',
      inputs: {},
      timeoutS: 0,
    };
    expect(v.safeParse(schemas.profile, req).success).toBe(true);
    expect(v.safeParse(schemas.profile, { ...req, processes: 3 }).success).toBe(false);
    expect(v.safeParse(schemas.profile, { ...req, seed: '18446744073709551616' }).success).toBe(false);
    expect(v.safeParse(schemas.profile, { ...req, calls: 1.5 }).success).toBe(false);
  });

  it('checks the GPU settings of a profile request: the pool release threshold and where the program runs', () => {
    const req = { doc: 'd1', job: 'j', modes: ['POOL'], layout: 'packed', calls: 5, warmup: 0, processes: 1 };
    const base = { ...req, symbols: {}, defaultSymbol: null, seed: '0', inputs: {}, timeoutS: 0 };
    for (const ok of ['0', 'max', '18446744073709551615'])
      expect(v.safeParse(schemas.profile, { ...base, poolReleaseThreshold: ok, gpu: 'host' }).success, ok).toBe(true);
    for (const bad of ['-1', '18446744073709551616', '1e9', 'MAX', ''])
      expect(v.safeParse(schemas.profile, { ...base, poolReleaseThreshold: bad }).success, bad).toBe(false);
    expect(v.safeParse(schemas.profile, { ...base, gpu: 'cpu' }).success).toBe(false);
  });
});

describe('profile result schema', () => {
  const result = {
    schema: 'transient-lab/profile@1',
    program: { name: 'p', file: 'p.sdfg', hash: 'h' },
    machine: { cpu: 'c', cores: 2, compiler: 'g++', os: 'Linux', node: 'v20' },
    settings: {
      modes: ['SCOPED'],
      layout: 'packed',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols: { N: 4, BIG: '99999999999999999999' },
      seed: 0,
      inputs: {},
    },
    modes: [
      {
        mode: 'SCOPED',
        layout: null,
        label: 'SCOPED',
        build: { ms: 1, cached: true },
        initNs: 1,
        exitNs: 1,
        firstCallNs: 1,
        calls: { totalNs: [5], allocNs: [1], freeNs: [1], allocs: [1], frees: [1], allocBytes: [8], minorFaults: [0] },
        eventsOverflowed: false,
        runnerOverheadNsPerCall: null,
        summary: { medianNs: 5, p10Ns: 5, p90Ns: 5, meanNs: 5, allocsPerCall: 1, allocShare: 0.4, minorFaultsPerCall: 0 },
        workspaceBytes: {},
        outputChecksums: {},
        allocationEvents: [{ transient: '0:t', kind: 'alloc', startNs: 0, durationNs: 10, bytes: 8 }],
      },
    ],
    verification: { identical: true, ok: true, details: [] },
    notes: [],
    warnings: [],
  };

  it('accepts a result with JSON nulls for NaN and keeps fields added later', () => {
    const out = v.parse(profileResultSchema, JSON.parse(JSON.stringify(result)));
    expect((out.modes[0] as unknown as { allocationEvents: unknown[] }).allocationEvents).toHaveLength(1);
  });

  it('refuses per-call columns of different lengths', () => {
    const bad = structuredClone(result);
    bad.modes[0]!.calls.allocNs = [];
    expect(v.safeParse(profileResultSchema, bad).success).toBe(false);
  });

  it('accepts a sampled result (more calls timed than kept) and checks its counts', () => {
    const sampled = structuredClone(result) as typeof result & { modes: Array<Record<string, unknown>> };
    sampled.modes[0]!.sampling = { calls: 10_000_000, keptPerProcess: 1 };
    expect(v.safeParse(profileResultSchema, sampled).success).toBe(true);
    (sampled.modes[0]!.sampling as { calls: number }).calls = 0;
    expect(v.safeParse(profileResultSchema, sampled).success).toBe(false);
  });

  it('checks the GPU additions when present (device, per-mode device times and pool)', () => {
    const gpu = structuredClone(result) as typeof result & { device?: unknown; modes: Array<Record<string, unknown>> };
    gpu.device = {
      index: 0,
      name: 'd',
      totalMemoryBytes: 1,
      computeCapability: '9.0',
      multiprocessors: 1,
      memoryPools: true,
      runtimeVersion: 13000,
      driverVersion: 13000,
    };
    gpu.modes[0]!.gpu = {
      deviceNs: [3],
      deviceMedianNs: 3,
      pool: { reservedHighBytes: 8, usedHighBytes: 8, releaseThreshold: '18446744073709551615' },
    };
    expect(v.safeParse(profileResultSchema, gpu).success).toBe(true);
    expect(v.safeParse(profileResultSchema, { ...gpu, backend: 'cuda-host' }).success).toBe(true);
    expect(v.safeParse(profileResultSchema, { ...gpu, backend: 'opencl' }).success).toBe(false);
    const short = structuredClone(gpu);
    (short.modes[0]!.gpu as { deviceNs: number[] }).deviceNs = [];
    expect(v.safeParse(profileResultSchema, short).success).toBe(false);
    const threshold = structuredClone(gpu);
    (threshold.modes[0]!.gpu as { pool: { releaseThreshold: unknown } }).pool.releaseThreshold = 1.8e19;
    expect(v.safeParse(profileResultSchema, threshold).success).toBe(false);
    const noName = structuredClone(gpu);
    delete (noName.device as { name?: string }).name;
    expect(v.safeParse(profileResultSchema, noName).success).toBe(false);
  });
});
