export { profile, DEFAULT_PROFILE_OPTIONS } from './profile.js';
export type { ProfileOptions, ProfileProgress, ProfileStage, OnProfileProgress } from './options.js';
// The steps of a profile run, for hosts that drive them one by one (profile.ts shows the order).
export { planProfile, planVariants, generateVariants, checkProfileOptions } from './plan.js';
export type { ProfilePlan, PlannedVariant } from './plan.js';
export { buildVariants, fileLabel } from './build-variants.js';
export type { BuiltVariant, BuildVariantsOptions, ProgramBuilder } from './build-variants.js';
export { makeRunJob, jobInputs, runRounds, poolRuns } from './rounds.js';
export type { RunRoundsOptions } from './rounds.js';
export { assembleResult, modeResult, profileNotes } from './assemble.js';
export { jsonInteger } from '../json.js';
export type { AssembleInput } from './assemble.js';
export { describeMachine, foreignCpuBusy, busyMachineWarning } from './machine.js';
export { saveOutputs } from './outputs.js';
// What a process host implements (electron/runner/host-node.ts is the Node one).
export { RunCancelled, throwIfCancelled, variantLabel } from './runner-host.js';
export type { RunnerHost, RunJob, VariantJob, VariantResult, VariantTiming, RunnerProgress, RunOptions, Phase, GuardViolation, Calibration } from './runner-host.js';
export { verify, POISON, GUARD_BYTE, GUARD_BYTES, NONDETERMINISTIC_RTOL } from './verify.js';
export type { VerifiedVariant } from './verify.js';
export { PROFILE_SCHEMA } from './result.js';
export type { ProfileResult, ModeResult, VerificationDetail, LayoutChoice, CallSummary, PerCallColumns, JsonInteger, SampledCall, AllocationEvent } from './result.js';
export { readNpy, writeNpy, parseNpy, encodeNpy } from './npy.js';
export type { NpyArray } from './npy.js';
export { prepareInputs, generatorFor, SplitMix64, fillGenerated, gatherCOrder } from './inputs.js';
export { summarize, quantile } from './stats.js';
