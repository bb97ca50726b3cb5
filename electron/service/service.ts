/**
 * The host-neutral implementation of the contract. A host (browser-mode server, Electron main, a test) builds
 * one `TransientLabService` with what only it knows — how to start a runner process, which files the user may
 * name, its own limits — and opens one `Session` per renderer (a WebSocket connection, a window). Sessions own
 * their documents and jobs; closing one cancels its jobs and releases its documents.
 *
 *   const service = await TransientLabService.create({ host: 'electron', files, createRunner: () => new MyRunnerHost() });
 *   const session = service.openSession({ emit: (event, payload) => win.webContents.send('tlab:event', event, payload) });
 *   …  await session.dispose();  await service.dispose();
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { examplesDir, packageRoot } from '../engine/paths.js';
import type { DeviceProbe } from '../engine/profile/device.js';
import { PREVIEW_MIN_JSON_BYTES } from '../engine/sdfg/preview.js';
import type { FileAccess } from '../host-kit/file-access.js';
import { CONTRACT_VERSION, type EnvironmentInfo, type EventSink, type HostLimits } from '../ipc/contract.js';
import { DEFAULT_LIMITS } from '../ipc/contract-schema.js';
import type { PdfPrinter, RemoteAccess, RunnerHost, ServiceContext } from './context.js';
import { DeviceCache } from './devices.js';
import { listExamples } from './examples.js';
import { JobRegistry } from './jobs.js';
import { ModelCache } from './models.js';
import { Session } from './session.js';
import { UploadStore } from './uploads.js';
import { DEFAULT_VIEWS, type ViewBuilders } from './views.js';

export interface ServiceOptions {
  host: EnvironmentInfo['host'];
  /** Which paths the renderer may name. */
  files: FileAccess;
  /** A fresh runner host for each profile job (one job per host instance). */
  createRunner: () => RunnerHost;
  /** Files to open at start (`EnvironmentInfo.openAtStart`). */
  openAtStart?: string[];
  limits?: Partial<HostLimits>;
  /** Folder of the bundled examples (default: the package's assets/examples). */
  examplesDir?: string;
  /** Parent of the private upload folder (default: the OS temp folder). */
  tempDir?: string;
  /** Estimated memory of parsed models kept for all sessions together (default 1.5 GiB). */
  modelBudgetBytes?: number;
  maxModels?: number;
  /** Open documents per session. */
  maxDocsPerSession?: number;
  /** JSON size from which a file with nested SDFGs opens as a preview of its root first (default 24 MiB,
   * engine/sdfg/preview.ts); Infinity turns previews off. */
  previewMinJsonBytes?: number;
  /** Profiles running at once (default 1: concurrent timings disturb each other). */
  maxConcurrentProfiles?: number;
  /** Upper bound of a profile's whole run, also when the request says 0 (default 1 h). */
  maxProfileMs?: number;
  views?: Partial<ViewBuilders>;
  /** Transient Lab version reported by `environment` (default: package.json). */
  version?: string;
  /** Prints a report's HTML to PDF (Chromium on the host); null or absent: `exportReport` refuses PDF as
   * `unsupported`, saying that PDF needs Chromium. It throws a TlabError('unsupported') when it finds none. */
  printPdf?: PdfPrinter | null;
  /** Remote machines a profile may run on (`serve --remote HOST`); absent: none, every request naming one is
   * refused. */
  remote?: RemoteAccess | null;
  /** Lists this machine's CUDA devices (electron/runner/devices.ts's `probeDevices`: a child loads the addon). Asked
   * once, on the first `devices` call; absent: `devices` fails as `unsupported` and the window offers both GPU
   * choices as before. */
  devices?: DeviceProbe | null;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export class TransientLabService {
  private readonly sessions = new Set<Session>();
  private nextSession = 1;
  private disposed = false;

  private constructor(private readonly ctx: ServiceContext) {}

  static async create(opts: ServiceOptions): Promise<TransientLabService> {
    const limits: HostLimits = { ...DEFAULT_LIMITS, ...opts.limits };
    const examples = await listExamples(opts.examplesDir ?? examplesDir());
    const version = opts.version ?? packageVersion();
    const environment: EnvironmentInfo = {
      contract: CONTRACT_VERSION,
      version,
      host: opts.host,
      roots: [...opts.files.roots],
      examples: examples.map(({ id, title, description, symbols, kind }) => ({
        id,
        title,
        description,
        symbols,
        ...(kind ? { kind } : {}),
      })),
      openAtStart: [...(opts.openAtStart ?? [])],
      limits,
      remoteHosts: [...(opts.remote?.hosts ?? [])],
    };
    return new TransientLabService({
      options: {
        maxDocsPerSession: opts.maxDocsPerSession ?? 64,
        maxProfileMs: opts.maxProfileMs ?? 3_600_000,
        previewMinJsonBytes: opts.previewMinJsonBytes ?? PREVIEW_MIN_JSON_BYTES,
      },
      printPdf: opts.printPdf ?? null,
      remote: opts.remote && opts.remote.hosts.length ? { hosts: [...opts.remote.hosts], run: opts.remote.run } : null,
      devices: new DeviceCache(opts.devices ?? null),
      limits,
      files: opts.files,
      createRunner: opts.createRunner,
      models: new ModelCache(opts.modelBudgetBytes ?? 1.5 * 2 ** 30, opts.maxModels ?? 32),
      uploads: new UploadStore(opts.tempDir),
      jobs: new JobRegistry(opts.maxConcurrentProfiles ?? 1),
      views: { ...DEFAULT_VIEWS, ...opts.views },
      examples,
      environment: () => structuredClone(environment),
    });
  }

  get limits(): HostLimits {
    return this.ctx.limits;
  }

  /** Profiles running now (all sessions). */
  get runningProfiles(): number {
    return this.ctx.jobs.running;
  }

  /** One renderer's view of the service. The session implements `TransientLabApi`. */
  openSession(sink: EventSink): Session {
    if (this.disposed) throw new Error('the service is stopped');
    const session = new Session(`s${this.nextSession++}`, this.ctx, sink, () => this.sessions.delete(session));
    this.sessions.add(session);
    return session;
  }

  /** Cancels every job (their runner processes are killed) and releases every document and upload. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.sessions].map((s) => s.dispose()));
    await this.ctx.jobs.cancelAll();
    await this.ctx.uploads.dispose();
  }
}
