/**
 * One profile run for the contract: a ProfileRequest becomes the engine's ProfileOptions, the host's runner is
 * passed in, progress becomes `profileProgress` events. The one place that calls the engine's `profile`.
 */
import { profile, type ProfileOptions } from '../engine/profile/index.js';
import type { OnProfileProgress } from '../engine/profile/options.js';
import type { ProfileResult } from '../engine/profile/result.js';
import type { ProfileProgressEvent, ProfileRequest } from '../ipc/contract.js';
import { ContractFailure, toContractError } from '../ipc/errors.js';
import type { RemoteProfiler, RunnerHost } from './context.js';
import { parseLibraryImpl } from '../engine/sdfg/expand/impl.js';

export interface ProfileJobInput {
  req: ProfileRequest;
  /** The SDFG to compile (a real path, or an upload's private copy). */
  sdfgPath: string;
  /** How the result and errors name the program file (the upload's own name for uploads). */
  display: string;
  /** Argument name → real path of its .npy file (already allowed by the file policy). */
  inputs: Map<string, string>;
  /** Unused when the run is remote: the remote side runs its own runner. */
  runner: RunnerHost;
  /** Run on this remote machine instead (already checked against the host's list), or null. */
  remote: { target: string; run: RemoteProfiler } | null;
  /** Limit for the runner jobs; the whole-run limit is enforced by the job registry. */
  runnerTimeoutMs: number;
  signal: AbortSignal;
  onProgress: (event: ProfileProgressEvent) => void;
}

export async function runProfileJob(input: ProfileJobInput): Promise<ProfileResult> {
  const { req } = input;
  const options: ProfileOptions = {
    modes: [...req.modes],
    layout: req.layout,
    calls: req.calls,
    warmup: req.warmup,
    processes: req.processes,
    symbols: new Map(Object.entries(req.symbols).map(([k, value]) => [k, BigInt(value)])),
    defaultSymbol: req.defaultSymbol === null ? null : BigInt(req.defaultSymbol),
    seed: BigInt(req.seed),
    inputs: input.inputs,
    saveOutputs: null,
    timeoutMs: input.runnerTimeoutMs,
    signal: input.signal,
    runner: input.runner,
    ...(req.libraryImpl === undefined ? {} : { libraryImpl: parseLibraryImpl(req.libraryImpl, 'libraryImpl') }),
    // Checked by the contract's schema (decimal below 2^64, or max).
    ...(req.poolReleaseThreshold === undefined
      ? {}
      : { poolReleaseThreshold: req.poolReleaseThreshold === 'max' ? 2n ** 64n - 1n : BigInt(req.poolReleaseThreshold) }),
    ...(req.gpu === undefined ? {} : { gpu: req.gpu }),
  };
  try {
    const onProgress = (p: Parameters<OnProfileProgress>[0]) => input.onProgress({ job: req.job, ...p });
    const result = input.remote
      ? await input.remote.run(input.sdfgPath, options, input.remote.target, onProgress)
      : await profile(input.sdfgPath, options, onProgress);
    return input.sdfgPath === input.display ? result : { ...result, program: { ...result.program, file: input.display } };
  } catch (err) {
    if (input.sdfgPath === input.display) throw err;
    const e = toContractError(err);
    if (e.kind === 'internal') throw err;
    // An upload is compiled from a private copy: its path means nothing to the user, its name does.
    const rename = (s: string): string => s.split(input.sdfgPath).join(input.display);
    throw new ContractFailure(e.kind, rename(e.message), {
      file: e.file === null ? null : rename(e.file),
      jsonPath: e.jsonPath,
      details: e.details.map(rename),
    });
  }
}
