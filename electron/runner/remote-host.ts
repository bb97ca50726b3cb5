/**
 * `profile FILE --remote [user@]host`: the build and the runner run on another machine, over ssh
 * (docs/remote.md). This side starts `ssh HOST <remote command> remote-agent`, checks that the agent speaks
 * the same protocol and is the same Transient Lab version, sends the SDFG (and --input files), relays progress
 * and returns the agent's transient-lab/profile@1 result as it is.
 *
 * Cancel and timeout: a `cancel` frame, then the input is closed; the agent cancels its run (killing its
 * runner child) when either arrives. A dropped connection closes the agent's input the same way, so nothing is
 * left running there; here it is a TlabError('run') that says the connection dropped and in which step.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { TlabError } from '../engine/errors.js';
import { toolVersion } from '../engine/profile/manifest.js';
import type { OnProfileProgress, ProfileOptions } from '../engine/profile/options.js';
import type { ProfileResult } from '../engine/profile/result.js';
import { RunCancelled } from '../engine/profile/runner-host.js';
import { encodeFrame, FrameDecoder, REMOTE_PROTOCOL_VERSION, type AgentToHost, type HostToAgent } from './remote-wire.js';

export interface RemoteOptions {
  /** `[user@]host` as ssh takes it. */
  target: string;
  /** Extra `-o OPTION=VALUE` for ssh (port, identity file, known-hosts file…). */
  sshOptions?: string[];
  /** How to start Transient Lab there (default `transient-lab`), e.g. `node /opt/tlab/dist/electron/cli/main.js`. */
  remoteCommand?: string;
  /** The ssh client (default `ssh`). */
  ssh?: string;
  /** Called with the ssh process id once it started (tests use it to drop the connection). */
  onStarted?: (sshPid: number) => void;
  /** Called with the remote agent's process id (on the remote machine) once it said hello. */
  onAgent?: (agentPid: number) => void;
}

/** ssh's own exit status when the connection could not be made or was lost. */
const SSH_FAILED = 255;
/** A shell's "command not found". */
const NOT_FOUND = 127;
const HELLO_TIMEOUT_MS = 60_000;

const TARGET = /^(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9._-]+$|^(?:[A-Za-z0-9._-]+@)?\[[0-9A-Fa-f:.]+\]$/;

export function checkRemoteTarget(target: string): void {
  if (!TARGET.test(target) || target.startsWith('-')) {
    throw new TlabError('usage', `profile: --remote expects [user@]host, got '${target}'`);
  }
}

export async function profileRemote(
  file: string,
  options: ProfileOptions,
  remote: RemoteOptions,
  onProgress: OnProfileProgress = () => {},
): Promise<ProfileResult> {
  checkRemoteTarget(remote.target);
  if (options.saveOutputs)
    throw new TlabError('usage', 'profile: --save-outputs cannot be used with --remote (the outputs stay on the remote machine)');
  const fileBytes = await readFile(file).catch((cause: unknown) => {
    throw new TlabError('input', `cannot read: ${(cause as Error).message}`, { file, cause });
  });
  const inputs: Array<{ name: string; fileName: string; bytes: Uint8Array }> = [];
  for (const [name, path] of options.inputs) {
    const bytes = await readFile(path).catch((cause: unknown) => {
      throw new TlabError('input', `cannot read --input ${name}: ${(cause as Error).message}`, { file: path, cause });
    });
    inputs.push({ name, fileName: path, bytes });
  }
  if (options.signal?.aborted) throw new RunCancelled('before the remote run started');

  const remoteCommand = remote.remoteCommand ?? 'transient-lab';
  const sshArgs = [
    '-T',
    '-o',
    'BatchMode=yes',
    ...(remote.sshOptions ?? []).flatMap((o) => ['-o', o]),
    remote.target,
    '--',
    `${remoteCommand} remote-agent`,
  ];
  const child = spawn(remote.ssh ?? 'ssh', sshArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
  if (child.pid !== undefined) remote.onStarted?.(child.pid);
  const host = remote.target.replace(/^.*@/, '');

  return new Promise<ProfileResult>((resolve, reject) => {
    const decoder = new FrameDecoder<AgentToHost>();
    let stderr = '';
    let hello = false;
    let stage = 'connecting';
    let settled = false;
    let ending: TlabError | null = null;

    const finish = (err: Error | null, result?: ProfileResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(helloTimer);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(result!);
    };
    /** Ask the agent to stop, close its input, and make sure ssh goes away. */
    const hangUp = (why: TlabError) => {
      if (ending) return;
      ending = why;
      try {
        if (hello) child.stdin.write(encodeFrame({ type: 'cancel' }));
        child.stdin.end();
      } catch {
        /* the pipe may already be gone */
      }
      // The agent stops when its input closes; if ssh lingers, end it (the remote side sees the drop as well).
      setTimeout(() => child.kill('SIGTERM'), 3_000).unref();
      setTimeout(() => child.kill('SIGKILL'), 6_000).unref();
    };
    const onAbort = () => hangUp(new RunCancelled(`on ${host} during ${stage}`));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs
      ? setTimeout(
          () =>
            hangUp(
              new TlabError(
                'run',
                `timed out after ${(options.timeoutMs / 1000).toFixed(1)} s on ${host} during ${stage}; the remote run was stopped`,
              ),
            ),
          options.timeoutMs,
        )
      : undefined;
    const helloTimer = setTimeout(() => {
      if (!hello)
        hangUp(
          new TlabError(
            'run',
            `${host} did not answer within ${HELLO_TIMEOUT_MS / 1000} s: is \`${remoteCommand} remote-agent\` a Transient Lab there?`,
          ),
        );
    }, HELLO_TIMEOUT_MS);

    const send = (m: HostToAgent) => child.stdin.write(encodeFrame(m));
    child.stdin.on('error', () => {
      /* reported through the exit status */
    });
    send({ type: 'hello', protocol: REMOTE_PROTOCOL_VERSION, version: toolVersion() });
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-8192);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      let messages: AgentToHost[];
      try {
        messages = decoder.push(chunk);
      } catch (err) {
        hangUp(new TlabError('run', `${host}: ${(err as Error).message} (is \`${remoteCommand}\` Transient Lab there?)`));
        return;
      }
      for (const m of messages) {
        if (m.type === 'hello') {
          hello = true;
          clearTimeout(helloTimer);
          remote.onAgent?.(m.pid);
          if (m.protocol !== REMOTE_PROTOCOL_VERSION || m.version !== toolVersion()) {
            hangUp(
              new TlabError(
                'run',
                `${host} runs Transient Lab ${m.version} (remote protocol ${m.protocol}), this is ${toolVersion()} (protocol ${REMOTE_PROTOCOL_VERSION}): install the same version there`,
              ),
            );
            return;
          }
          stage = 'the build';
          const { signal: _s, runner: _r, devices: _d, inputs: _i, saveOutputs: _o, ...rest } = options;
          send({ type: 'profile', fileName: file, fileBytes, options: rest, inputs });
        } else if (m.type === 'progress') {
          stage = m.progress.message;
          onProgress(m.progress);
        } else if (m.type === 'result') {
          child.stdin.end();
          // The agent's copies of the files were temporary: name them as they are here.
          const result = m.result;
          result.program.file = file;
          result.settings.inputs = Object.fromEntries(options.inputs);
          result.notes = [
            ...result.notes,
            `built and run on ${remote.target} over ssh (Transient Lab ${toolVersion()}); machine describes that host`,
          ];
          finish(null, result);
        } else if (m.type === 'error') {
          child.stdin.end();
          if (ending) finish(ending);
          else finish(new TlabError(m.kind, `on ${host}: ${m.message}`, { file: m.file, jsonPath: m.jsonPath, details: m.details }));
        }
      }
    });
    child.on('error', (err) => finish(new TlabError('run', `cannot start ssh (${remote.ssh ?? 'ssh'}): ${err.message}`, { cause: err })));
    child.on('close', (code, signal) => {
      if (settled) return;
      if (ending) return finish(ending);
      const last = stderr.trim().split('\n').filter(Boolean).slice(-4);
      if (!hello && (code === NOT_FOUND || /command not found|not found|No such file/i.test(stderr)) && code !== SSH_FAILED) {
        finish(
          new TlabError('run', `Transient Lab is not installed on ${host}: \`${remoteCommand}\` was not found there`, {
            details: [
              'install Transient Lab there (npm ci && npm run build in a checkout, with `transient-lab` on the PATH), or give --remote-command "node /path/to/dist/electron/cli/main.js"',
              ...last,
            ],
          }),
        );
      } else if (!hello && code === SSH_FAILED) {
        finish(new TlabError('run', `cannot connect to ${remote.target} with ssh`, { details: last }));
      } else {
        const why = signal ? `ssh ended by ${signal}` : `ssh exited with ${code}`;
        finish(
          new TlabError(
            'run',
            `the connection to ${host} dropped during ${stage} (${why}); the remote run stops when its connection closes`,
            { details: last },
          ),
        );
      }
    });
  });
}
