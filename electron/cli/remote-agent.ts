/**
 * `transient-lab remote-agent`: the far end of `profile --remote` (electron/runner/remote-host.ts). Not for
 * people: it speaks framed messages (runner/remote-wire.ts) on stdin/stdout. It answers the hello with its
 * version, runs one profile (build and runner here, as `profile` would), streams progress and sends the result
 * JSON. When its input closes (the connection dropped, or the host cancelled) it cancels the run, which kills
 * its runner child, and exits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { writeFileAtomic } from '../engine/io/atomic-write.js';
import { withFileErrors } from '../engine/io/fs-errors.js';
import { toolVersion } from '../engine/profile/manifest.js';
import { profile } from '../engine/profile/profile.js';
import { RunCancelled } from '../engine/profile/runner-host.js';
import { probeDevices } from '../runner/devices.js';
import { NodeRunnerHost } from '../runner/host-node.js';
import { encodeFrame, FrameDecoder, REMOTE_PROTOCOL_VERSION, type AgentToHost, type HostToAgent } from '../runner/remote-wire.js';
import type { Command } from './command.js';

/** After the input closes, how long the run may take to wind down before the agent exits anyway. */
const WIND_DOWN_MS = 5_000;

function send(message: AgentToHost): void {
  process.stdout.write(encodeFrame(message));
}

export const remoteAgentCommand: Command = {
  name: 'remote-agent',
  usage: 'remote-agent          (internal: the remote end of profile --remote; speaks a binary protocol on stdin/stdout)',
  async run(argv: string[]): Promise<number> {
    if (argv.length) throw new TlabError('usage', `remote-agent: takes no arguments (it is started by profile --remote)`);
    const controller = new AbortController();
    const decoder = new FrameDecoder<HostToAgent>();
    let request: Extract<HostToAgent, { type: 'profile' }> | null = null;
    let wake: () => void = () => {};
    const gotRequest = new Promise<void>((resolve) => (wake = resolve));
    const stop = () => {
      if (controller.signal.aborted) return;
      controller.abort();
      wake();
      setTimeout(() => process.exit(130), WIND_DOWN_MS).unref();
    };
    process.stdin.on('data', (chunk: Buffer) => {
      let messages: HostToAgent[];
      try {
        messages = decoder.push(chunk);
      } catch (err) {
        process.stderr.write(`remote-agent: ${(err as Error).message}\n`);
        stop();
        return;
      }
      for (const m of messages) {
        if (m.type === 'hello') send({ type: 'hello', protocol: REMOTE_PROTOCOL_VERSION, version: toolVersion(), pid: process.pid });
        else if (m.type === 'profile') {
          request = m;
          wake();
        } else if (m.type === 'cancel') stop();
      }
    });
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    // A dropped connection can also show as EPIPE on our output.
    process.stdout.on('error', stop);
    process.on('SIGHUP', stop);
    process.on('SIGTERM', stop);

    await gotRequest;
    const req = request as Extract<HostToAgent, { type: 'profile' }> | null;
    if (!req || controller.signal.aborted) return 130;
    let work: string;
    try {
      work = await withFileErrors('run', 'create a folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-remote-')));
    } catch (err) {
      send({
        type: 'error',
        kind: 'run',
        message: err instanceof TlabError ? err.message : String(err),
        file: null,
        jsonPath: null,
        details: [],
        cancelled: false,
      });
      return 1;
    }
    try {
      const file = join(work, basename(req.fileName));
      await writeFileAtomic(file, req.fileBytes, { kind: 'run' });
      const inputs = new Map<string, string>();
      for (const [i, input] of req.inputs.entries()) {
        const path = join(work, `input-${i}-${basename(input.fileName)}`);
        await writeFileAtomic(path, input.bytes, { kind: 'run' });
        inputs.set(input.name, path);
      }
      const result = await profile(
        file,
        {
          ...req.options,
          inputs,
          saveOutputs: null,
          signal: controller.signal,
          runner: new NodeRunnerHost(),
          devices: () => probeDevices(),
        },
        (progress) => send({ type: 'progress', progress }),
      );
      send({ type: 'result', result });
      return 0;
    } catch (err) {
      const cancelled = err instanceof RunCancelled || controller.signal.aborted;
      if (err instanceof TlabError) {
        // Name files as the user knows them, not by this agent's temporary copies.
        const local = new Map<string, string>([
          [join(work, basename(req.fileName)), req.fileName],
          ...req.inputs.map((input, i): [string, string] => [join(work, `input-${i}-${basename(input.fileName)}`), input.fileName]),
        ]);
        const file = err.file === null ? null : (local.get(err.file) ?? err.file);
        const details = err.details.map((d) => [...local].reduce((text, [from, to]) => text.split(from).join(to), d));
        send({ type: 'error', kind: err.kind, message: err.message, file, jsonPath: err.jsonPath, details, cancelled });
        return 1;
      }
      send({
        type: 'error',
        kind: 'run',
        message: `internal error on the remote machine: ${(err as Error)?.stack ?? String(err)}`,
        file: null,
        jsonPath: null,
        details: [],
        cancelled,
      });
      return 70;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
