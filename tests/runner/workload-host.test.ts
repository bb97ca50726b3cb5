import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramArg } from '../../electron/engine/codegen/types.js';
import type { WorkloadJob } from '../../electron/engine/workload/runner-host.js';
import { NodeWorkloadHost } from '../../electron/runner/workload-host.js';
import { fixtureBuilds, fixtureSource, type FixtureBuilds } from '../native/fixtureBuild.js';

const N = 64;
const arg = (
  name: string,
  kind: ProgramArg['kind'],
  dtype: string,
  ctype: string,
  elementBytes: number,
  elements: number,
  written = false,
): ProgramArg => ({
  name,
  kind,
  dtype,
  ctype,
  elementBytes,
  shape: kind === 'array' ? [BigInt(elements)] : [],
  totalElements: BigInt(elements),
  strides: kind === 'array' ? [1n] : [],
  written,
  read: !written,
});
// The fake program's signature (tests/native/fixtures/fake_program.cc): A, B, probe, N, alpha, behaviour.
const ARGS = [
  arg('A', 'array', 'float64', 'double', 8, N),
  arg('B', 'array', 'float64', 'double', 8, N, true),
  arg('probe', 'array', 'uint8', 'uint8_t', 1, 16, true),
  arg('N', 'symbol', 'int32', 'int', 4, 1),
  arg('alpha', 'scalar', 'float64', 'double', 8, 1),
  arg('behaviour', 'symbol', 'int32', 'int', 4, 1),
];
const int32 = (v: number) => new Uint8Array(Int32Array.of(v).buffer);

let builds: FixtureBuilds;
let lib: string;
beforeAll(() => {
  builds = fixtureBuilds();
  lib = builds.compile('t', fixtureSource);
});
afterAll(() => builds.dispose());

/** `good` (behaviour 0) then `bad` (the given behaviour) in one step. */
function job(kind: WorkloadJob['kind'], behaviour: number): WorkloadJob {
  const instance = (program: string, b: number) => ({
    id: program,
    program,
    libPath: lib,
    initSymbols: [BigInt(N), BigInt(b)],
    args: ARGS,
    externals: [{ storage: 'CPU_Heap', layout: 'dace' as const, bytes: 0n, slots: [] }],
    binding: { A: 'A', B: 'B', probe: 'probe', alpha: 'alpha' },
    symbolArgs: { N: int32(N), behaviour: int32(b) },
    nondeterministicFloat: false,
  });
  return {
    kind,
    modes: [{ label: 'EXTERNAL (dace)', mode: 'EXTERNAL', layout: 'dace', instances: [instance('good', 0), instance('bad', behaviour)] }],
    sequence: [
      { program: 'good', instance: 0 },
      { program: 'bad', instance: 1 },
    ],
    arrays: { A: N * 8, B: N * 8, probe: 16, alpha: 8 },
    inputs: { A: new Uint8Array(Float64Array.from({ length: N }, (_, i) => i).buffer), alpha: new Uint8Array(Float64Array.of(0.5).buffer) },
    steps: 3,
    warmupSteps: 1,
    poison: [0xff, 0xa5],
    guardByte: 0x5a,
    overrunCheck: false,
    keepOutputs: false,
  };
}

describe('the workload runner (one child, several libraries, one shared workspace)', () => {
  it('times every call of every step in one native loop, the workspace sized and shared', async () => {
    const t = await new NodeWorkloadHost().time(job('time', 0), { timeoutMs: 60_000 });
    expect(t.positions).toBe(2);
    expect(t.stepNs.length).toBe(3);
    expect(t.callNs.length).toBe(6);
    // SCOPED tmp (and one scratch per OpenMP thread) allocate in every call; the sizes are the fixture's.
    expect(t.allocs.every((a) => a >= 1)).toBe(true);
    expect(t.workspace.CPU_Heap).toBeGreaterThanOrEqual(N * 8);
    // Each step's wall time covers its calls.
    for (let s = 0; s < 3; s++) expect(t.stepNs[s]!).toBeGreaterThanOrEqual(t.callNs[2 * s]! + t.callNs[2 * s + 1]!);
  }, 120_000);

  it('names the program and its position when a call crashes during the timed steps', async () => {
    const err = await new NodeWorkloadHost().time(job('time', 1), { timeoutMs: 60_000 }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /^mode EXTERNAL \(dace\), program bad at position 1 of step 1 crashed with SIGSEGV during the warm-up steps/,
    );
  }, 120_000);

  it('names the program and its position when a call throws during the timed steps', async () => {
    const err = await new NodeWorkloadHost().time(job('time', 6), { timeoutMs: 60_000 }).catch((e: Error) => e);
    expect((err as Error).message).toContain('__program_t at position 1 of step 1 (warm-up) threw a C++ exception: std::bad_alloc');
  }, 120_000);

  it('names the program and its position when a call crashes during verification', async () => {
    const verify = {
      ...job('verify', 1),
      modes: [{ ...job('verify', 1).modes[0]!, label: 'SCOPED', mode: 'SCOPED' as const, layout: null }],
    };
    const err = await new NodeWorkloadHost().verify(verify, { timeoutMs: 60_000 }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^mode SCOPED, program bad at position 1 of step 1 crashed with SIGSEGV during verification/);
  }, 120_000);
});
