/**
 * Entry of the desktop app's engine host: an Electron utilityProcess (a forked Node child in tests) that holds
 * the TransientLabService. Parsing a 166 MB SDFG, analysing it, building view models and compiling variants
 * all happen on this process's event loop, never on the main process's, so no window freezes while another
 * opens a big file. The main process keeps the security checks (sender, payload) and relays each window's
 * calls here; this process validates them again through the shared dispatcher (dispatch.ts), so the service
 * never sees an unchecked request whoever sends it. It never loads the native addon: runner jobs go back to
 * main (relay-runner.ts), which starts the runner utilityProcess.
 */
import { TlabError } from '../engine/errors.js';
import { ENGINE_PROTOCOL_VERSION, type EngineConfig, type EngineToMain, type MainToEngine } from '../host-kit/engine-protocol.js';
import { ApprovedFileAccess, RootsFileAccess, type FileAccess } from '../host-kit/file-access.js';
import { hostPdfPrinter } from '../host-kit/pdf.js';
import type { EventName, HostEvents, Reply } from '../ipc/contract.js';
import { createDispatcher, type Dispatch } from '../ipc/dispatch.js';
import { ContractFailure, toContractError } from '../ipc/errors.js';
import { parentTransport } from '../runner/parent-port.js';
import { profileRemote } from '../runner/remote-host.js';
import { TransientLabService, type Session } from '../service/index.js';
import { DeviceRelay, RelayRunnerHost, RunRelay } from './relay-runner.js';

const port = parentTransport<MainToEngine, EngineToMain>();
const relay = new RunRelay((msg) => port.send(msg));
const deviceRelay = new DeviceRelay((msg) => port.send(msg));
const sessions = new Map<number, { session: Session; dispatch: Dispatch }>();
let service: TransientLabService | null = null;
let approved: ApprovedFileAccess | null = null;

function log(line: string): void {
  port.send({ type: 'log', line });
}

function fail(kind: 'usage' | 'refused' | 'internal', message: string): Reply<never> {
  return { ok: false, error: { kind, message, file: null, jsonPath: null, details: [] } };
}

async function init(config: EngineConfig): Promise<Reply<unknown>> {
  if (service) return fail('usage', 'the engine host is already initialised');
  let files: FileAccess;
  if (config.files.kind === 'approved') files = approved = new ApprovedFileAccess();
  else files = await RootsFileAccess.create(config.files.roots);
  service = await TransientLabService.create({
    host: config.host,
    files,
    createRunner: () => new RelayRunnerHost(relay),
    openAtStart: config.openAtStart,
    limits: config.limits,
    ...(config.previewMinJsonBytes !== undefined ? { previewMinJsonBytes: config.previewMinJsonBytes } : {}),
    printPdf: hostPdfPrinter('on this machine (the desktop app prints through a Chromium on the PATH)'),
    // Main runs the probe in a utilityProcess, as it runs the runners: the addon never loads here.
    devices: () => deviceRelay.probe(),
    // ssh runs from this process, as `profile --remote` does from the CLI: nothing of the run happens in main.
    remote: config.remote?.hosts.length
      ? {
          hosts: config.remote.hosts,
          run: (file, options, target, onProgress) =>
            profileRemote(
              file,
              options,
              { target, sshOptions: config.remote?.sshOptions, remoteCommand: config.remote?.remoteCommand },
              onProgress,
            ),
        }
      : null,
  });
  return { ok: true, value: { limits: service.limits } };
}

function openSession(id: number): Reply<unknown> {
  if (!service) return fail('usage', 'the engine host is not initialised');
  if (sessions.has(id)) return fail('usage', `session ${id} is already open`);
  const session = service.openSession({
    emit<E extends EventName>(event: E, payload: HostEvents[E]) {
      port.send({ type: 'event', session: id, event, payload });
    },
  });
  const dispatch = createDispatcher(session, {
    limits: service.limits,
    onInternalError: (method, err) =>
      log(`internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  });
  sessions.set(id, { session, dispatch });
  return { ok: true, value: null };
}

async function closeSession(id: number): Promise<Reply<unknown>> {
  const s = sessions.get(id);
  sessions.delete(id);
  await s?.session.dispose();
  return { ok: true, value: null };
}

async function approve(path: string, write: boolean): Promise<Reply<unknown>> {
  if (!approved) return fail('refused', 'this engine host reads files from its roots, not from approvals');
  if (write) return { ok: true, value: approved.approveWrite(path) };
  try {
    return { ok: true, value: await approved.approve(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'ENOTDIR'
            ? 'a part of the path is not a folder'
            : (err as Error).message;
    throw new TlabError('input', `cannot open: ${why}`, { file: path });
  }
}

async function handle(msg: MainToEngine): Promise<Reply<unknown>> {
  switch (msg.type) {
    case 'init':
      if (msg.protocol !== ENGINE_PROTOCOL_VERSION)
        return fail('internal', `engine host protocol ${ENGINE_PROTOCOL_VERSION}, main sent ${msg.protocol}: rebuild with npm run build`);
      return init(msg.config);
    case 'open-session':
      return openSession(msg.session);
    case 'close-session':
      return closeSession(msg.session);
    case 'call': {
      const s = sessions.get(msg.session);
      if (!s) return fail('refused', 'this window has no session in the engine (it was closed)');
      return s.dispatch(msg.method, msg.req);
    }
    case 'approve':
      return approve(msg.path, msg.write);
    case 'dispose':
      await service?.dispose();
      sessions.clear();
      return { ok: true, value: null };
    default:
      return fail('usage', 'unknown request');
  }
}

port.onMessage((msg) => {
  switch (msg.type) {
    case 'run-progress':
      relay.progress(msg.run, msg.progress);
      return;
    case 'run-done':
      relay.done(msg.run, msg.variants);
      return;
    case 'run-failed':
      relay.failed(msg.run, msg.error);
      return;
    case 'devices-done':
      deviceRelay.done(msg.probe, msg.report);
      return;
    case 'devices-failed':
      deviceRelay.failed(msg.probe, msg.error);
      return;
  }
  const { id } = msg;
  handle(msg).then(
    (reply) => port.send({ type: 'reply', id, reply }),
    (err: unknown) => {
      if (!(err instanceof TlabError || err instanceof ContractFailure))
        log(`engine host: ${msg.type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      port.send({ type: 'reply', id, reply: { ok: false, error: toContractError(err) } });
    },
  );
});

port.send({ type: 'ready', protocol: ENGINE_PROTOCOL_VERSION, pid: process.pid });
