/**
 * A whole profile run, as five named steps that hosts may also call one by one:
 *
 *   planProfile    parse → analyse → check the supported subset → generate every variant   (plan.ts)
 *   buildVariants  compile each variant into its own library                                (build-variants.ts)
 *   runRounds      P fresh runner processes per variant, round-robin, through a RunnerHost  (rounds.ts)
 *   verify         uninitialised reads, workspace overflows, cross-mode agreement           (verify.ts)
 *   assembleResult the transient-lab/profile@1 document                                     (assemble.ts)
 *
 * Generated code only ever runs in the runner child, never in this process; which process host runs it is
 * the caller's choice (`options.runner`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TlabError } from '../errors.js';
import { withFileErrors } from '../io/fs-errors.js';
import { accumulatedBeforeWritten } from '../model/accumulate-first.js';
import { neverWrittenTransients } from '../model/queries.js';
import { assembleResult } from './assemble.js';
import { buildVariants } from './build-variants.js';
import { crashDetails, planIndexInputs } from './index-inputs.js';
import { explainUnobserved } from './unobserved.js';
import { planWithDerivedSymbols } from './derive-symbols.js';
import { prepareInputs } from './inputs.js';
import { busyMachineWarning, describeMachine, foreignCpuBusy } from './machine.js';
import type { OnProfileProgress, ProfileOptions } from './options.js';
import { checkOutputFolder, saveOutputs } from './outputs.js';
import type { ProfilePlan } from './plan.js';
import type { ProfileResult } from './result.js';
import type { BuiltVariant } from './build-variants.js';
import { jobInputs, makeRunJob, poolRuns, runRounds } from './rounds.js';
import { verify } from './verify.js';

export { DEFAULT_PROFILE_OPTIONS } from './options.js';
export type { OnProfileProgress, ProfileOptions, ProfileProgress } from './options.js';

export async function profile(filePath: string, options: ProfileOptions, onProgress: OnProfileProgress = () => {}): Promise<ProfileResult> {
  // Before anything else: a long run must not be lost to an output folder that cannot be written.
  if (options.saveOutputs) await checkOutputFolder(options.saveOutputs);
  const plan = await planWithDerivedSymbols(filePath, options, onProgress);
  const runDir = await withFileErrors('build', 'create a run folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-run-')));
  try {
    const built = await buildVariants(plan.variants, {
      runDir,
      sdfgFile: filePath,
      signal: options.signal,
      onProgress,
      cxxflags: options.cxxflags,
      ...(plan.gpuBackend ? { gpuBackend: plan.gpuBackend } : {}),
    });
    return await runVerifyAssemble(plan, built, filePath, options, onProgress);
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/**
 * The steps after build, shared by profile() and profilePrebuilt(): inputs, timed rounds, verification, saved
 * outputs and the result document. `options.layout` is what the result records.
 */
export async function runVerifyAssemble(
  plan: ProfilePlan,
  built: BuiltVariant[],
  sdfgFile: string,
  options: ProfileOptions,
  onProgress: OnProfileProgress,
): Promise<ProfileResult> {
  const { inputs: indexInputs, warnings: indexWarnings } = planIndexInputs(plan.file, plan.args, plan.symbols, options.inputs);
  const prepared = await prepareInputs(plan.args, plan.symbols, { seed: options.seed, files: options.inputs, indexInputs });
  const job = makeRunJob(built, jobInputs(prepared), {
    calls: options.calls,
    warmup: options.warmup,
    sdfgFile,
    interpose: options.interpose,
  });
  const othersBusy = await foreignCpuBusy();
  const busy = busyMachineWarning(othersBusy);
  const runs = await runRounds(options.runner, job, {
    processes: options.processes,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onProgress,
  }).catch((err: unknown) => {
    // A crash says what the generated inputs could and could not keep in bounds.
    const more = crashDetails(indexInputs, indexWarnings);
    if (!(err instanceof TlabError) || err.kind !== 'run' || !more.length) throw err;
    throw new TlabError(err.kind, err.message, { file: err.file, jsonPath: err.jsonPath, details: [...err.details, ...more], cause: err });
  });
  const results = runs.map(poolRuns);

  onProgress({ stage: 'compare', message: 'compare outputs' });
  const verification = explainUnobserved(
    verify(built, results, plan.args, new Set(neverWrittenTransients(plan.file)), accumulatedBeforeWritten(plan.file)),
    plan.file,
  );
  const saved = options.saveOutputs ? await saveOutputs(options.saveOutputs, built, results, plan.args, plan.name) : null;
  const warnings = [
    ...plan.analysis.warnings,
    ...built.flatMap((v) => [...v.program.warnings, ...v.build.warnings]),
    ...(busy ? [busy] : []),
    ...indexWarnings,
  ];
  if (saved?.fallbackReason)
    warnings.push(
      `--save-outputs: cannot write into ${saved.requested} (${saved.fallbackReason}): the outputs were saved to ${saved.dir} instead`,
    );
  const assembled = assembleResult({
    plan,
    built,
    results,
    verification,
    options,
    machine: { ...(await describeMachine()), ...(othersBusy !== null ? { othersBusy } : {}) },
    warnings,
  });
  const result = indexInputs.length ? { ...assembled, indexInputs } : assembled;
  return saved ? { ...result, savedOutputs: saved } : result;
}
