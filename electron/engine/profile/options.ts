/** What a profile run is asked to do, and the progress it reports (shared by every profile step). */
import { MODES, type Mode } from '../analysis/types.js';
import type { LayoutChoice } from './result.js';
import type { DeviceProbe } from './device.js';
import type { GpuChoice } from './gpu-backend.js';
import type { RunnerHost } from './runner-host.js';
import type { LibraryImplChoice } from '../sdfg/expand/impl.js';

export interface ProfileOptions {
  modes: Mode[];
  layout: LayoutChoice;
  calls: number;
  warmup: number;
  /** Fresh runner processes per mode; `calls` are timed in each and pooled. */
  processes: number;
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  seed: bigint;
  /** `--input NAME=F.npy`. */
  inputs: Map<string, string>;
  /** `--save-outputs DIR`, or null. */
  saveOutputs: string | null;
  /** Limit in ms for all runner jobs of the run together (0 = none). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Compiler optimisation and target flags for every mode; null or absent: DaCe's defaults
   * (compile/DACE_CXXFLAGS). Check user text with compile/parseCxxflags. */
  cxxflags?: readonly string[] | null;
  /** GPU programs: the default pool's release threshold init sets when a transient is pooled (null or absent:
   * DaCe's UINT64_MAX). `--pool-release-threshold`; refused for CPU programs and with --prebuilt. */
  poolReleaseThreshold?: bigint | null;
  /** Which implementation expands each library node (`--library-impl`, sdfg/expand/impl.ts); absent: pure. */
  libraryImpl?: LibraryImplChoice;
  /** `--interpose`: allocation figures from hooks on each library's allocation calls instead of the runtime
   * header's (docs/interpose.md); the result says so in its notes. */
  interpose?: boolean;
  /** The process host that runs each job: the CLI, the server and the tests pass electron/runner's
   * NodeRunnerHost, the Electron shell its utilityProcess host. The engine never picks one itself. */
  runner: RunnerHost;
  /** Lists CUDA devices (the host runs the addon's probe in a child: electron/runner/devices.ts). Asked only
   * for GPU programs, before anything is built; without it a GPU program is not checked for a device here. */
  devices?: DeviceProbe;
  /** GPU programs: `auto` (default: the device, refused without one), `device` or `host` (the CUDA translation
   * unit compiled for the CPU against the host CUDA runtime, docs/gpu-host.md). Refused for CPU programs. */
  gpu?: GpuChoice;
}

type ProfileStage = 'parse' | 'analyse' | 'generate' | 'build' | 'verify' | 'calls' | 'compare';

export interface ProfileProgress {
  stage: ProfileStage;
  message: string;
  done?: number;
  total?: number;
}

export type OnProfileProgress = (p: ProfileProgress) => void;

export const DEFAULT_PROFILE_OPTIONS: Omit<ProfileOptions, 'signal' | 'runner'> = {
  modes: [...MODES],
  layout: 'packed',
  calls: 100,
  warmup: 5,
  processes: 3,
  symbols: new Map(),
  defaultSymbol: null,
  seed: 0n,
  inputs: new Map(),
  saveOutputs: null,
  timeoutMs: 600_000,
  cxxflags: null,
};
