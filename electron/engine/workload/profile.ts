/**
 * `profile workload.json` (docs/workload.md, "Profiling"): plan, build every instance in every mode (the build
 * cache shares identical sources), verify every mode against SCOPED in one runner child, then time each mode in
 * `processes` fresh children, round-robin, and assemble `transient-lab/workload-result@1`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mode } from '../analysis/types.js';
import { buildProgram } from '../compile/index.js';
import { TlabError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { withFileErrors } from '../io/fs-errors.js';
import { fileLabel, type ProgramBuilder } from '../profile/build-variants.js';
import { encodeValue } from '../profile/inputs.js';
import { prebuiltLibrary } from '../profile/prebuilt.js';
import { describeMachine } from '../profile/machine.js';
import type { LayoutChoice } from '../profile/result.js';
import { throwIfCancelled } from '../profile/runner-host.js';
import { GUARD_BYTE, POISON } from '../profile/verify.js';
import { assembleWorkloadResult } from './assemble.js';
import { planWorkload, type WorkloadPlan } from './plan.js';
import type { WorkloadResult } from './result.js';
import type { WorkloadJob, WorkloadModeJob, WorkloadRunnerHost, WorkloadTiming, WorkloadVerifyResult } from './runner-host.js';

export interface WorkloadProfileOptions {
  modes: Mode[];
  layout: LayoutChoice;
  /** Verification steps; null: the workload's `steps`. */
  steps: number | null;
  /** Untimed and timed steps of each timing process. */
  warmup: number;
  calls: number;
  processes: number;
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  seed: bigint;
  /** `--save-outputs DIR`: keep every shared array of every mode after the verification steps. */
  keepOutputs: boolean;
  timeoutMs: number;
  cxxflags: readonly string[] | null;
  signal?: AbortSignal;
  host: WorkloadRunnerHost;
  /** The compiler driver; tests pass a fake one. */
  build?: ProgramBuilder;
}

export type WorkloadProgress = (message: string) => void;

export interface WorkloadRun {
  result: WorkloadResult;
  /** `--save-outputs`: label → shared array → bytes after verification, with the dtype of each array. */
  outputs: Record<string, Record<string, Uint8Array>> | null;
  arrays: WorkloadPlan['arrays'];
}

export async function profileWorkload(
  path: string,
  opts: WorkloadProfileOptions,
  onProgress: WorkloadProgress = () => {},
): Promise<WorkloadRun> {
  if (opts.calls < 1) throw new TlabError('usage', `--calls (timed steps) must be at least 1, got ${opts.calls}`);
  onProgress('plan');
  const plan = await planWorkload(path, opts);
  const runDir = await withFileErrors('build', 'create a run folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-workload-')));
  try {
    const modeJobs = await buildModes(plan, runDir, opts, onProgress);
    const steps = opts.steps ?? plan.workload.steps;
    const base = {
      sequence: plan.sequence.map((c) => ({ program: c.program, instance: c.instance })),
      arrays: Object.fromEntries(Object.entries(plan.arrays).map(([n, a]) => [n, a.bytes])),
      inputs: plan.inputs,
      poison: POISON,
      guardByte: GUARD_BYTE,
    };
    const runOpts = { timeoutMs: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) };
    onProgress(`verify ${modeJobs.length} modes, ${steps} step${steps === 1 ? '' : 's'}`);
    const overrunCheck = plan.instances.some((i) => plan.instances.some((j) => j !== i && j.program === i.program));
    const verification: WorkloadVerifyResult = await opts.host.verify(
      { ...base, kind: 'verify', modes: modeJobs, steps, warmupSteps: 0, overrunCheck, keepOutputs: opts.keepOutputs },
      runOpts,
    );
    const timings: Record<string, WorkloadTiming[]> = Object.fromEntries(plan.timed.map((l) => [l, []]));
    for (let p = 0; p < opts.processes; p++) {
      for (const label of plan.timed) {
        throwIfCancelled(opts.signal, 'between timing processes');
        onProgress(`time ${label} (process ${p + 1}/${opts.processes})`);
        const job: WorkloadJob = {
          ...base,
          kind: 'time',
          modes: [modeJobs.find((m) => m.label === label)!],
          steps: opts.calls,
          warmupSteps: opts.warmup,
          overrunCheck: false,
          keepOutputs: false,
        };
        timings[label]!.push(await opts.host.time(job, runOpts));
      }
    }
    const result = assembleWorkloadResult({
      plan,
      verification,
      timings,
      settings: { steps, warmupSteps: opts.warmup, timedSteps: opts.calls, processes: opts.processes },
      machine: await describeMachine(),
    });
    return { result, outputs: verification.outputs, arrays: plan.arrays };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

async function copyLibrary(from: string, to: string): Promise<string> {
  const bytes = await withFileErrors('input', 'read', from, () => readFile(from));
  await writeFileAtomic(to, bytes, { kind: 'run' });
  return to;
}

/** One library per instance and mode, each its own copy (dlopen caches by path); the cache shares builds. */
async function buildModes(
  plan: WorkloadPlan,
  runDir: string,
  opts: WorkloadProfileOptions,
  onProgress: WorkloadProgress,
): Promise<WorkloadModeJob[]> {
  const build = opts.build ?? buildProgram;
  const total = plan.variants.length * plan.instances.length;
  let done = 0;
  const jobs: WorkloadModeJob[] = [];
  for (const v of plan.variants) {
    const instances = [];
    for (const [k, inst] of plan.instances.entries()) {
      throwIfCancelled(opts.signal);
      onProgress(`${inst.prebuilt || inst.dace ? 'load' : 'build'} ${++done}/${total}: ${inst.id} ${v.label}`);
      const program = inst.programs.get(v.label)!;
      const label = `${fileLabel(v.label)}-${k}-${fileLabel(inst.program)}`;
      const pre = inst.prebuilt;
      const dace = inst.dace?.get(v.label) ?? null;
      // A prebuilt program runs the folder's library of this mode and layout (planWorkload checked it has one);
      // a DaCe program, its folder built in this mode (a copy: dlopen caches by path).
      const built = dace
        ? { libPath: await copyLibrary(dace.libraryPath, join(runDir, `${label}.so`)) }
        : pre
          ? await prebuiltLibrary(
              pre.dir,
              pre.manifest,
              pre.manifest.variants.findIndex((m) => m.mode === v.mode && m.layout === v.layout),
              program.source,
              join(runDir, `${label}.so`),
            )
          : await build(program, {
              runDir,
              sdfgFile: inst.sdfgFile,
              label,
              ...(opts.cxxflags ? { cxxflags: opts.cxxflags } : {}),
            });
      instances.push({
        id: inst.id,
        program: inst.program,
        libPath: built.libPath,
        initSymbols: program.initSymbols.map((name) => {
          const value = program.symbols[name];
          if (value === undefined)
            throw new TlabError('usage', `init symbol ${name} of program '${inst.program}' has no value: give --symbols ${name}=V`);
          return value;
        }),
        args: program.args,
        externals: program.externals,
        binding: inst.binding,
        symbolArgs: Object.fromEntries(
          program.args.filter((a) => a.kind === 'symbol').map((a) => [a.name, encodeValue(a, program.symbols[a.name] ?? 0n)]),
        ),
        nondeterministicFloat: program.nondeterministicFloat,
        ...(dace ? { dace: dace.call } : {}),
      });
    }
    jobs.push({ label: v.label, mode: v.mode, layout: v.layout, instances });
  }
  return jobs;
}
