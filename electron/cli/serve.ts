/**
 * `transient-lab serve [FILE…]`: browser mode. Composes the pieces a host provides — the file policy (the
 * `--root` folders), the runner (a Node child per job), the server — around the shared service, prints the
 * URL with its token, and runs until SIGINT/SIGTERM/SIGHUP, after which no runner or compiler process is left
 * (nor after a crash: see killChildrenOnCrash).
 */
import { daceFolderSdfg } from '../engine/dace/folder.js';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { ContractFailure } from '../ipc/errors.js';
import type { OnProfileProgress, ProfileOptions } from '../engine/profile/options.js';
import { probeDevices } from '../runner/devices.js';
import { NodeRunnerHost } from '../runner/host-node.js';
import { checkRemoteTarget, profileRemote } from '../runner/remote-host.js';
import { RootsFileAccess } from '../host-kit/file-access.js';
import { hostPdfPrinter } from '../host-kit/pdf.js';
import { startServer, type RunningServer } from '../host-kit/web-server/server.js';
import { isLoopback } from '../host-kit/web-security.js';
import { TransientLabService } from '../service/index.js';
import { optionValue, parseArgs, parseInteger } from './args.js';
import { killDescendants } from './children.js';
import type { Command } from './command.js';

const NAME = 'serve';
const USAGE =
  'serve [FILE…] [--port P] [--root DIR …] [--host H] [--no-open] [--remote [USER@]HOST …] [--ssh-option OPT …] [--remote-command CMD]';
/** Tried in turn when no --port is given (an explicit port is used exactly, 0 = any free port). */
const DEFAULT_PORT = 8686;
const PORT_TRIES = 10;
/** Time the jobs get to end on their own at shutdown before every child process is killed. */
const SHUTDOWN_GRACE_MS = 3000;

const HELP = `Usage: transient-lab ${USAGE}

Browser mode: serves the Transient Lab window on this machine, for a browser here or through an SSH tunnel
(ssh -L 8686:127.0.0.1:8686 node, then open the printed URL on your own machine).

  FILE…        SDFG files to open at start (inside the --root folders)
  --port P     port (default ${DEFAULT_PORT}, or the next free one; 0 = any free port)
  --root DIR   folder the page may open files from (repeatable; default: the current folder)
  --host H     address to bind instead of 127.0.0.1 and ::1 (other machines could then connect)
  --no-open    do not try to open a browser
  --remote [USER@]HOST
               a machine the page may choose to profile on, over ssh (repeatable; docs/remote.md). The page
               can name these and no other: without --remote every profile runs here
  --ssh-option OPT      extra ssh -o OPTION=VALUE for the remote hosts (repeatable)
  --remote-command CMD  how to start Transient Lab on the remote hosts (default transient-lab)

Prints one line, "Transient Lab: http://127.0.0.1:PORT/?token=…": the token is required for every
request. Ctrl-C stops the server, cancels running profiles and leaves no runner process behind.`;

function openBrowser(url: string): number | null {
  // Only where a desktop exists; a headless node has nothing to open, and that is not an error.
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return null;
  try {
    const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return child.pid ?? null;
  } catch {
    return null;
  }
}

async function listenOnFreePort(start: (port: number) => Promise<RunningServer>, port: number | null): Promise<RunningServer> {
  if (port !== null) return start(port);
  for (let i = 0; ; i++) {
    try {
      return await start(DEFAULT_PORT + i);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || i + 1 >= PORT_TRIES) throw err;
    }
  }
}

/** SIGHUP too: the terminal of an ssh session that closes sends it, and its default would skip the cleanup. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const on = (sig: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, on);
      done(sig);
    };
    for (const s of STOP_SIGNALS) process.on(s, on);
  });
}

/**
 * A bug that escapes every handler (an uncaught exception, an unhandled rejection) ends `serve` — its state is
 * no longer known — but not before the runner and compiler processes it started are killed: a shared GPU node
 * must not keep a runner spinning for a server that is gone. Exit 70, as any internal error.
 */
function killChildrenOnCrash(spare: () => number[]): void {
  const crash = (err: unknown) => {
    try {
      process.stderr.write(`transient-lab ${NAME}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    } finally {
      killDescendants(spare());
      process.exit(70);
    }
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}

export const serveCommand: Command = {
  name: NAME,
  usage: USAGE,
  async run(argv: string[]): Promise<number> {
    const args = parseArgs(NAME, argv, {
      port: { value: true },
      root: { value: true, repeat: true },
      host: { value: true },
      'no-open': { value: false },
      remote: { value: true, repeat: true },
      'ssh-option': { value: true, repeat: true },
      'remote-command': { value: true },
      help: { value: false },
    });
    if (args.flags.has('help')) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const portText = optionValue(args, 'port');
    const port = portText === undefined ? null : Number(parseInteger(NAME, 'port', portText, 0n));
    if (port !== null && port > 65535) throw new TlabError('usage', `${NAME}: --port must be at most 65535`);
    const host = optionValue(args, 'host');
    const files = await RootsFileAccess.create((args.options.get('root') ?? [process.cwd()]).map((r) => resolve(r)));
    const openAtStart: string[] = [];
    for (const file of args.positionals) {
      try {
        // A DaCe build folder opens as the SDFG DaCe saved in it (docs/dace-folders.md).
        // The window opens the folder itself (`openFile` reads its SDFG), so it can show how the build was made.
        const folder = await files.resolveRead(resolve(file), 'folder').catch(() => null);
        const sdfg = folder ? await daceFolderSdfg(folder) : null;
        if (folder && sdfg) await files.resolveRead(sdfg, 'sdfg');
        openAtStart.push(folder && sdfg ? folder : await files.resolveRead(resolve(file), 'sdfg'));
      } catch (err) {
        if (err instanceof ContractFailure)
          throw new TlabError('usage', `${NAME}: ${file} is not inside the --root folders (${files.roots.join(', ')})`);
        throw err;
      }
    }

    const remoteHosts = [...new Set(args.options.get('remote') ?? [])];
    for (const target of remoteHosts) {
      try {
        checkRemoteTarget(target);
      } catch {
        throw new TlabError('usage', `${NAME}: --remote expects [user@]host, got '${target}'`);
      }
    }
    if (!remoteHosts.length && (args.options.has('ssh-option') || args.options.has('remote-command'))) {
      throw new TlabError('usage', `${NAME}: --ssh-option and --remote-command need --remote HOST`);
    }
    const sshOptions = args.options.get('ssh-option') ?? [];
    const remoteCommand = optionValue(args, 'remote-command');
    const remote = remoteHosts.length
      ? {
          hosts: remoteHosts,
          run: (file: string, options: ProfileOptions, target: string, onProgress: OnProfileProgress) =>
            profileRemote(file, options, { target, sshOptions, remoteCommand }, onProgress),
        }
      : null;
    const service = await TransientLabService.create({
      host: 'browser',
      files,
      createRunner: () => new NodeRunnerHost(),
      openAtStart,
      printPdf: hostPdfPrinter('on the server (the machine running `transient-lab serve`)'),
      remote,
      devices: () => probeDevices(),
    });
    let opener: number | null = null;
    killChildrenOnCrash(() => (opener === null ? [] : [opener]));
    const stopping = stopSignal();
    let server: RunningServer;
    try {
      server = await listenOnFreePort((p) => startServer({ service, port: p, hosts: host ? [host] : undefined }), port);
    } catch (err) {
      await service.dispose();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new TlabError('usage', `${NAME}: port ${port ?? DEFAULT_PORT} is in use: choose another with --port (0 = any free port)`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
        throw new TlabError('usage', `${NAME}: cannot bind --host ${host}: no such address on this machine`);
      throw err;
    }
    if (host && !isLoopback(host)) {
      process.stderr.write(
        `warning: --host ${host}: Transient Lab is reachable from other machines; anyone who gets the token can compile and run programs as you. Prefer the default (127.0.0.1) and an SSH tunnel.\n`,
      );
    }
    process.stdout.write(`Transient Lab: ${server.url}\n`);
    opener = args.flags.has('no-open') ? null : openBrowser(server.url);

    await stopping;
    // A second Ctrl-C while stopping: stop now.
    const force = () => {
      killDescendants(opener === null ? [] : [opener]);
      process.exit(130);
    };
    for (const s of STOP_SIGNALS) process.once(s, force);
    await server.close();
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([service.dispose(), new Promise((r) => (grace = setTimeout(r, SHUTDOWN_GRACE_MS)))]);
    clearTimeout(grace);
    killDescendants(opener === null ? [] : [opener]);
    for (const s of STOP_SIGNALS) process.off(s, force);
    // Everything is closed; should a handle still keep Node alive, do not hang on the user's Ctrl-C.
    setTimeout(() => process.exit(0), 1000).unref();
    return 0;
  },
};
