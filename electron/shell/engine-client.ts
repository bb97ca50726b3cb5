/**
 * Main's side of the engine host (electron/engine-host/): starts it as a supervised child, relays each
 * window's calls and events, serves its runner jobs with main's runner host, and survives its death.
 *
 * - Started on first use; a `ready` message within READY_MS, then `init` with the config.
 * - If it dies (a crash, an out-of-memory on a huge file), every pending call fails with a clear message,
 *   its runner processes are killed, and the next call starts a fresh engine: the windows' sessions reopen
 *   there, and the paths the user approved are approved again (their documents must be opened again).
 * - `dispose()` cancels every job, then kills the process.
 */
import { TlabError } from '../engine/errors.js';
import type { DeviceProbe } from '../engine/profile/device.js';
import type { RunnerHost } from '../engine/profile/runner-host.js';
import { serializeError } from '../host-kit/engine-errors.js';
import { ENGINE_PROTOCOL_VERSION, type EngineConfig, type EngineToMain, type MainToEngine } from '../host-kit/engine-protocol.js';
import { METHODS, type EventName, type EventSink, type HostEvents, type Reply, type TransientLabApi } from '../ipc/contract.js';
import { ContractFailure } from '../ipc/errors.js';
import type { ChildEnd, SupervisedChild } from '../runner/child.js';
import type { BackendSession, PathApprover, SessionBackend } from './backend.js';

type EngineChild = SupervisedChild<MainToEngine, EngineToMain>;

/** A request without its id (the link numbers them). */
type Request = MainToEngine extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

export interface EngineClientOptions {
  /** Starts the engine host process (main: a utilityProcess of dist/electron/engine-host/entry.js). */
  spawn: () => EngineChild;
  config: EngineConfig;
  /** A runner host for each runner job the engine asks for (main: UtilityProcessRunnerHost). */
  createRunner: () => RunnerHost;
  /** Lists this machine's CUDA devices when the engine asks (main: the probe in a utilityProcess); absent: the
   * engine's `devices` fails as unsupported. */
  probeDevices?: DeviceProbe;
  log: (line: string) => void;
  readyTimeoutMs?: number;
}

const READY_MS = 30_000;
const DISPOSE_GRACE_MS = 3000;

function describeEnd(end: ChildEnd): string {
  return end.signal ? `killed by ${end.signal}` : `exit code ${end.code}`;
}

/** One engine process and what is in flight with it. */
class Link {
  private readonly pending = new Map<number, (reply: Reply<unknown>) => void>();
  private nextId = 1;
  private readonly runs = new Map<number, RunnerHost>();
  ended: string | null = null;
  readonly ready: Promise<void>;
  /** Settles once the process has ended and everything pending on it has been failed. */
  readonly exited: Promise<void>;
  private markExited!: () => void;

  constructor(
    readonly child: EngineChild,
    readonly generation: number,
    private readonly opts: EngineClientOptions,
    private readonly onEvent: (generation: number, session: number, event: EventName, payload: unknown) => void,
    onEnd: (link: Link) => void,
  ) {
    this.exited = new Promise<void>((resolve) => (this.markExited = resolve));
    let markReady!: () => void;
    let failReady!: (err: Error) => void;
    const started = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    const timer = setTimeout(
      () => failReady(new Error(`the engine process did not start within ${(opts.readyTimeoutMs ?? READY_MS) / 1000} s`)),
      opts.readyTimeoutMs ?? READY_MS,
    );
    for (const stream of child.output) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        for (const line of text.split('\n')) if (line.trim()) opts.log(`engine: ${line}`);
      });
    }
    child.onMessage((msg) => {
      switch (msg.type) {
        case 'ready':
          clearTimeout(timer);
          if (msg.protocol !== ENGINE_PROTOCOL_VERSION)
            failReady(
              new Error(`the engine host speaks protocol ${msg.protocol}, main ${ENGINE_PROTOCOL_VERSION}: rebuild with npm run build`),
            );
          else markReady();
          return;
        case 'reply': {
          const resolve = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          resolve?.(msg.reply);
          return;
        }
        case 'event':
          this.onEvent(generation, msg.session, msg.event, msg.payload);
          return;
        case 'run':
          this.startRun(msg.run, msg);
          return;
        case 'run-cancel':
          this.runs.get(msg.run)?.cancel();
          return;
        case 'probe-devices':
          this.probeDevices(msg.probe);
          return;
        case 'log':
          opts.log(`engine: ${msg.line}`);
          return;
      }
    });
    const end = (why: string) => {
      if (this.ended !== null) return;
      this.ended = why;
      clearTimeout(timer);
      failReady(new Error(why));
      for (const host of this.runs.values()) host.cancel();
      this.runs.clear();
      const message = `the engine process stopped unexpectedly (${why}); it starts again with the next request, and the files open before must be opened again`;
      for (const resolve of this.pending.values())
        resolve({ ok: false, error: { kind: 'internal', message, file: null, jsonPath: null, details: [] } });
      this.pending.clear();
      onEnd(this);
      this.markExited();
    };
    child.onExit((e) => end(describeEnd(e)));
    child.onError((err) => {
      end(`process error: ${err.message}`);
      child.kill();
    });
    this.ready = started.then(async () => {
      const reply = await this.request({ type: 'init', protocol: ENGINE_PROTOCOL_VERSION, config: opts.config });
      if (!reply.ok) throw new Error(reply.error.message);
    });
    // Nobody may be waiting yet: a failed start is reported to the first request instead.
    this.ready.catch(() => {});
  }

  request(body: Request, timeoutMs = 0): Promise<Reply<unknown>> {
    if (this.ended !== null)
      return Promise.resolve({
        ok: false,
        error: { kind: 'internal', message: `the engine process has stopped (${this.ended})`, file: null, jsonPath: null, details: [] },
      });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.pending.delete(id);
              resolve({
                ok: false,
                error: {
                  kind: 'internal',
                  message: `the engine did not answer ${body.type} within ${timeoutMs / 1000} s`,
                  file: null,
                  jsonPath: null,
                  details: [],
                },
              });
            }, timeoutMs)
          : undefined;
      this.pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.child.send({ ...body, id });
    });
  }

  private startRun(run: number, msg: Extract<EngineToMain, { type: 'run' }>): void {
    let host: RunnerHost;
    try {
      host = this.opts.createRunner();
    } catch (err) {
      this.child.send({ type: 'run-failed', run, error: serializeError(err) });
      return;
    }
    this.runs.set(run, host);
    host
      .run(msg.job, {
        timeoutMs: msg.timeoutMs > 0 ? msg.timeoutMs : undefined,
        onProgress: (progress) => {
          if (this.ended === null) this.child.send({ type: 'run-progress', run, progress });
        },
      })
      .then(
        (variants) => {
          if (this.ended === null) this.child.send({ type: 'run-done', run, variants });
        },
        (err: unknown) => {
          if (!(err instanceof TlabError)) this.opts.log(`runner host: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          if (this.ended === null) this.child.send({ type: 'run-failed', run, error: serializeError(err) });
        },
      )
      .finally(() => this.runs.delete(run));
  }

  private probeDevices(probe: number): void {
    const probeDevices = this.opts.probeDevices;
    const answer = probeDevices ? probeDevices() : Promise.reject(new TlabError('unsupported', 'this host does not look for CUDA devices'));
    answer.then(
      (report) => {
        if (this.ended === null) this.child.send({ type: 'devices-done', probe, report });
      },
      (err: unknown) => {
        if (this.ended === null) this.child.send({ type: 'devices-failed', probe, error: serializeError(err) });
      },
    );
  }

  kill(): void {
    for (const host of this.runs.values()) host.cancel();
    if (this.child.alive()) this.child.kill();
  }
}

interface RemoteRef {
  link: Link;
  id: number;
}

export class EngineClient implements SessionBackend, PathApprover {
  private link: Link | null = null;
  private started: Promise<Link> | null = null;
  private generation = 0;
  private nextSession = 1;
  /** Live sessions by `generation:id`, for routing events. */
  private readonly sinks = new Map<string, EventSink>();
  /** Replayed into a restarted engine. */
  private readonly approvals = new Map<string, boolean>();
  private disposed = false;

  constructor(private readonly opts: EngineClientOptions) {}

  /** The running engine, started (or restarted) when needed; concurrent callers share one start. */
  private current(): Promise<Link> {
    if (this.disposed) return Promise.reject(new ContractFailure('refused', 'Transient Lab is quitting'));
    if (this.link && this.link.ended === null && this.started) return this.started;
    const generation = ++this.generation;
    let child: EngineChild;
    try {
      child = this.opts.spawn();
    } catch (err) {
      return Promise.reject(
        new ContractFailure('internal', `the engine process could not be started: ${(err as Error).message ?? String(err)}`),
      );
    }
    const link = new Link(
      child,
      generation,
      this.opts,
      (g, s, e, p) => this.sinks.get(`${g}:${s}`)?.emit(e, p as HostEvents[typeof e]),
      (l) => {
        if (!this.disposed) this.opts.log(`engine process ended: ${l.ended}`);
      },
    );
    this.link = link;
    this.started = (async () => {
      try {
        await link.ready;
      } catch (err) {
        link.kill();
        throw new ContractFailure('internal', `the engine process could not be started: ${(err as Error).message}`);
      }
      // A restarted engine knows nothing: the paths the user chose are approved again before any call.
      for (const [path, write] of this.approvals) await link.request({ type: 'approve', path, write });
      return link;
    })();
    return this.started;
  }

  private async ask(body: Request): Promise<unknown> {
    const reply = await (await this.current()).request(body);
    if (reply.ok) return reply.value;
    throw new ContractFailure(reply.error.kind, reply.error.message, reply.error);
  }

  async approve(path: string): Promise<string> {
    const real = (await this.ask({ type: 'approve', path, write: false })) as string;
    this.approvals.set(real, false);
    return real;
  }

  async approveWrite(path: string): Promise<string> {
    const abs = (await this.ask({ type: 'approve', path, write: true })) as string;
    this.approvals.set(abs, true);
    return abs;
  }

  openSession(sink: EventSink): BackendSession {
    let ref: RemoteRef | null = null;
    let opening: Promise<RemoteRef> | null = null;
    let closed = false;
    const ensure = async (): Promise<RemoteRef> => {
      const link = await this.current();
      if (ref && ref.link === link) return ref;
      if (opening) return opening;
      opening = (async () => {
        const id = this.nextSession++;
        const reply = await link.request({ type: 'open-session', session: id });
        if (!reply.ok) throw new ContractFailure(reply.error.kind, reply.error.message, reply.error);
        this.sinks.set(`${link.generation}:${id}`, sink);
        ref = { link, id };
        return ref;
      })().finally(() => (opening = null));
      return opening;
    };
    const call = async (method: string, req: unknown): Promise<unknown> => {
      if (closed) throw new ContractFailure('refused', 'this window is closed');
      const { link, id } = await ensure();
      const reply = await link.request({ type: 'call', session: id, method, req });
      if (reply.ok) return reply.value;
      throw new ContractFailure(reply.error.kind, reply.error.message, reply.error);
    };
    const methods = Object.fromEntries(METHODS.map((m) => [m, (req: unknown) => call(m, req)]));
    return {
      ...(methods as unknown as TransientLabApi),
      dispose: async () => {
        if (closed) return;
        closed = true;
        const r = ref;
        if (!r) return;
        this.sinks.delete(`${r.link.generation}:${r.id}`);
        if (r.link.ended === null) await r.link.request({ type: 'close-session', session: r.id });
      },
    };
  }

  /** Cancels every job (the runner processes end with them), then stops the engine process. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const link = this.link;
    if (!link || link.ended !== null) return;
    await link.request({ type: 'dispose' }, DISPOSE_GRACE_MS);
    link.kill();
    // Quitting waits for the process to be gone (bounded), so that nothing of it outlives the app's state files.
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([link.exited, new Promise((r) => (grace = setTimeout(r, DISPOSE_GRACE_MS)))]);
    clearTimeout(grace);
  }

  /** The engine process's pid, when one runs (tests, diagnostics). */
  get pid(): number | undefined {
    return this.link && this.link.ended === null ? this.link.child.pid : undefined;
  }
}
