/**
 * What the service's modules share, in a module of its own so that none of them imports service.ts: the
 * service builds the context (service.ts), sessions read it (session.ts), profile jobs and report exports take
 * the pieces they need (profile-job.ts, reports.ts). Types only.
 */
import type { OnProfileProgress, ProfileOptions } from '../engine/profile/options.js';
import type { ProfileResult } from '../engine/profile/result.js';
import type { FileAccess } from '../host-kit/file-access.js';
import type { EnvironmentInfo, HostLimits } from '../ipc/contract.js';
import type { DeviceCache } from './devices.js';
import type { Example } from './examples.js';
import type { JobRegistry } from './jobs.js';
import type { ModelCache } from './models.js';
import type { UploadStore } from './uploads.js';
import type { ViewBuilders } from './views.js';

/** What runs generated code: the CLI and browser mode fork a Node child, the desktop app a utilityProcess. */
export type RunnerHost = NonNullable<ProfileOptions['runner']>;

export type PdfPrinter = (html: string) => Promise<Uint8Array>;

/** Runs one profile on another machine over ssh (the CLI's `profileRemote`, injected by the host: the service
 * starts no process of its own). Same options, progress and cancel (`options.signal`) as a local run. */
export type RemoteProfiler = (
  file: string,
  options: ProfileOptions,
  target: string,
  onProgress: OnProfileProgress,
) => Promise<ProfileResult>;

/** The remote machines this host process was told it may use, and how to reach them. */
export interface RemoteAccess {
  /** `[user@]host` names, exactly as a request must name them. */
  hosts: string[];
  run: RemoteProfiler;
}

/** What sessions share; fixed at creation. */
export interface ServiceContext {
  /** ServiceOptions' fields of the same names, defaults applied. */
  readonly options: { readonly maxDocsPerSession: number; readonly maxProfileMs: number; readonly previewMinJsonBytes: number };
  readonly limits: HostLimits;
  readonly files: FileAccess;
  readonly createRunner: () => RunnerHost;
  readonly models: ModelCache;
  readonly uploads: UploadStore;
  readonly jobs: JobRegistry;
  readonly views: ViewBuilders;
  readonly examples: readonly Example[];
  readonly printPdf: PdfPrinter | null;
  readonly remote: RemoteAccess | null;
  /** This machine's CUDA devices, probed once. */
  readonly devices: DeviceCache;
  environment(): EnvironmentInfo;
}
