/**
 * The runner's GPU path end to end without a CUDA device: jobs for the generated chain_gpu programs, run on the
 * host-memory test double (tests/fixtures/gpu/host_memory_device_chain.cc) by a real runner child. The double
 * refuses host pointers where device memory is needed, so these tests fail if the runner skips a device copy.
 * What a real device adds (CUDA itself, asynchronous kernels, the real pool) is tested in gpu-device.test.ts,
 * which skips without one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mode } from '../../../electron/engine/analysis/types.js';
import type { GeneratedProgram } from '../../../electron/engine/codegen/types.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { prepareInputs } from '../../../electron/engine/profile/inputs.js';
import { makeRunJob } from '../../../electron/engine/profile/rounds.js';
import { verify } from '../../../electron/engine/profile/verify.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import type { RunJob, VariantResult } from '../../../electron/runner/messages.js';
import { chainGpuProgram, compileChainDouble, type DoubleFault } from './host-device-double.js';
import { handProgram } from './hand-program.js';
import { variantFor } from './runner-job.js';

const N = 64;
const UINT64_MAX = 2n ** 64n - 1n;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-gpu-runner-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let built = 0;
async function gpuJob(programs: GeneratedProgram[], opts: { fault?: DoubleFault; calls?: number; warmup?: number } = {}): Promise<RunJob> {
  const variants = programs.map((program) => {
    const libPath = join(dir, `chain-${program.mode}-${built++}.so`);
    compileChainDouble(program, libPath, opts.fault);
    const label = program.mode === 'EXTERNAL' ? `EXTERNAL (${program.layout})` : program.mode;
    return { label, program, build: { libPath } };
  });
  const prepared = await prepareInputs(programs[0]!.args, programs[0]!.symbols, { seed: 0n, files: new Map() });
  return makeRunJob(
    variants.map((v) => ({
      mode: v.program.mode,
      layout: v.program.mode === 'EXTERNAL' ? v.program.layout : null,
      label: v.label,
      program: v.program,
      build: v.build as never,
    })),
    Object.fromEntries(prepared.map((p) => [p.arg.name, p.bytes])),
    { calls: opts.calls ?? 6, warmup: opts.warmup ?? 1, sdfgFile: 'chain_gpu.sdfg' },
  );
}

const f64 = (bytes: Uint8Array) => new Float64Array(bytes.slice().buffer);
/** chain: out = 3·max(sqrt|(2x+1)/2 − 3| + 1, 2) + x (assets/examples/README.md). */
const chain = (x: number) => 3 * Math.max(Math.sqrt(Math.abs((2 * x + 1) / 2 - 3)) + 1, 2) + x;

describe('the runner on a GPU program (host-memory test double)', () => {
  it('allocates device arguments, fills them, times every mode through the GPU hook and copies the outputs back', async () => {
    const modes: Mode[] = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'];
    const job = await gpuJob(await Promise.all(modes.map((m) => chainGpuProgram(m, { n: N }))));
    expect(job.variants.every((v) => v.gpu === true)).toBe(true);
    const results = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    const [scoped, persistent, pool, external] = results as [VariantResult, VariantResult, VariantResult, VariantResult];

    // The outputs came back from "device" memory and are chain(inp) in every mode.
    const inp = f64(job.inputs.inp!);
    for (const r of results) {
      const out = f64(r.outputs!.out!);
      expect(out[5]).toBe(chain(inp[5]!));
      expect(out[N - 1]).toBe(chain(inp[N - 1]!));
    }
    const v = verify(
      job.variants.map((x) => ({ label: x.label, program: { nondeterministicFloat: false } })),
      results,
      job.variants[0]!.args,
    );
    expect(v).toEqual({ identical: true, ok: true, vacuous: false, compared: ['out'], details: [] });

    for (const r of results) {
      expect(r.timing.totalNs).toHaveLength(6);
      expect(r.gpu!.deviceNs).toHaveLength(6);
      expect(r.gpu!.kept.hostReturnNs).toHaveLength(6);
      r.gpu!.kept.hostSyncNs.forEach((sync, i) => expect(sync).toBeGreaterThanOrEqual(r.gpu!.kept.hostReturnNs[i]!));
      // The addon's clock is around the hook, so it covers the hook's own host times.
      r.timing.totalNs.forEach((t, i) => expect(t).toBeGreaterThanOrEqual(r.gpu!.kept.hostSyncNs[i]!));
    }
    // SCOPED allocates and frees the four transients on the device in every call; the sampled call shows them.
    expect(scoped.timing.kept.allocs.every((a) => a === 4)).toBe(true);
    expect(scoped.timing.kept.allocBytes.every((b) => b === 4 * N * 8)).toBe(true);
    const events = scoped.sampledCall!.events;
    expect(events.map((e) => [e.transient, e.kind])).toEqual([
      ['0:t1', 'alloc'],
      ['0:t2', 'alloc'],
      ['0:t1', 'free'],
      ['0:t3', 'alloc'],
      ['0:t2', 'free'],
      ['0:t4', 'alloc'],
      ['0:t3', 'free'],
      ['0:t4', 'free'],
    ]);
    expect(events.every((e) => e.device === true)).toBe(true);
    expect(scoped.poisonedTransients).toEqual(['0:t1', '0:t2', '0:t3', '0:t4']);
    expect(persistent.timing.kept.allocs.every((a) => a === 0)).toBe(true);
    expect(external.timing.kept.allocs.every((a) => a === 0)).toBe(true);
    // Packed: t1/t3 and t2/t4 share a slot each.
    expect(external.workspaceBytes).toEqual({ GPU_Global: BigInt(2 * N * 8) });
    // Only POOL pools: at most two transients live at once, so the pool's high-water mark is two of them.
    expect(pool.gpu!.pool).toEqual({ reservedHighBytes: 2 * N * 8, usedHighBytes: 2 * N * 8, releaseThreshold: UINT64_MAX });
    expect(scoped.gpu!.pool).toBeNull();
    expect(external.gpu!.pool).toBeNull();
  });

  it('a CUDA error is a clear error naming the mode, the call and the error string', async () => {
    const job = await gpuJob([await chainGpuProgram('SCOPED', { n: N })], { fault: 'cuda-error' });
    const err = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    // Calls 1 and 2 verify; the third is the first timed-loop call.
    expect((err as TlabError).message).toMatch(
      /^mode SCOPED during the first call failed: CUDA error in the first call of __program_chain_gpu: cudaError 700: an illegal memory access was encountered/,
    );
  });

  it('detects an uninitialised device transient through the two poison patterns', async () => {
    const job = await gpuJob([await chainGpuProgram('SCOPED', { n: N })], { fault: 'uninitialised' });
    const results = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    const v = verify([{ label: 'SCOPED', program: { nondeterministicFloat: false } }], results, job.variants[0]!.args);
    expect(v.ok).toBe(false);
    const d = v.details.find((x) => x.kind === 'uninitialised-read')!;
    expect(d).toMatchObject({ array: 'out', index: [0] });
    expect(d.transients).toContain('0:t4');
  });

  it('finds a write past a slot of the guarded device workspace after copying it back', async () => {
    const job = await gpuJob([await chainGpuProgram('EXTERNAL', { n: N })], { fault: 'overflow' });
    const [result] = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    expect(result!.guardViolations).toContainEqual(expect.objectContaining({ storage: 'GPU_Global', where: 'after', byteOffset: 0 }));
    expect(result!.guardViolations[0]!.slot).toMatch(/^0:t[13]$/);
  });

  it('finds a write past a device argument in the guards of the device argument arena, copied back after the call', async () => {
    for (const mode of ['SCOPED', 'EXTERNAL'] as const) {
      const job = await gpuJob([await chainGpuProgram(mode, { n: N })], { fault: 'arg-overrun' });
      const err = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TlabError);
      expect((err as TlabError).message).toMatch(
        new RegExp(
          `^mode ${mode === 'EXTERNAL' ? 'EXTERNAL \\(packed\\)' : mode} during verification call 1 failed: out-of-bounds write: the program wrote 8 bytes past the end of argument out \\(out has ${N * 8} bytes\\) with symbols N=${N}: .*try larger symbol values`,
        ),
      );
      // Without verification, the check after the timed calls finds it.
      const timed = await new NodeRunnerHost().run({ ...job, skipVerification: true }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect((timed as TlabError).message).toMatch(
        /during timed calls failed: out-of-bounds write: the program wrote 8 bytes past the end of argument out/,
      );
    }
  });

  it('reports the release threshold the program was generated with', async () => {
    const job = await gpuJob([await chainGpuProgram('POOL', { n: N, poolReleaseThreshold: 0n })], { calls: 3 });
    const [result] = await new NodeRunnerHost().run({ ...job, skipVerification: true }, { timeoutMs: 60_000 });
    expect(result!.gpu!.pool!.releaseThreshold).toBe(0n);
    expect(result!.outputs).toBeNull();
  });

  it('refuses to run a GPU library as a CPU program and a CPU library as a GPU program', async () => {
    const gpu = await gpuJob([await chainGpuProgram('SCOPED', { n: N })]);
    const asCpu = { ...gpu, variants: [{ ...gpu.variants[0]!, gpu: false }] };
    await expect(new NodeRunnerHost().run(asCpu, { timeoutMs: 60_000 })).rejects.toThrow(
      /is a GPU program library, but the job runs it as a CPU program/,
    );
    const cpuVariant = await variantFor(handProgram({ mode: 'SCOPED' }), dir);
    const cpu: RunJob = {
      ...gpu,
      variants: [{ ...cpuVariant, gpu: true }],
      inputs: { x: new Uint8Array(128), y: new Uint8Array(128), N: new Uint8Array(Int32Array.of(16).buffer) },
    };
    await expect(new NodeRunnerHost().run(cpu, { timeoutMs: 60_000 })).rejects.toThrow(/is not a GPU program library/);
  });
});
