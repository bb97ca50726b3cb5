/**
 * The wire between `profile --remote` (remote-host.ts) and `transient-lab remote-agent` on the other machine,
 * over ssh's stdin/stdout: frames of a 4-byte big-endian length and a V8-serialised message, the same
 * serialisation the local runner's IPC uses, so bigints, Maps and typed arrays cross unchanged. The agent's
 * stderr is free text (ssh's own errors arrive there too).
 */
import { deserialize, serialize } from 'node:v8';
import type { ErrorKind } from '../engine/errors.js';
import type { ProfileOptions, ProfileProgress } from '../engine/profile/options.js';
import type { ProfileResult } from '../engine/profile/result.js';

export const REMOTE_PROTOCOL_VERSION = 1;

/** What a remote profile sends: the options, minus what only makes sense on this side. */
type RemoteProfileOptions = Omit<ProfileOptions, 'signal' | 'runner' | 'devices' | 'inputs' | 'saveOutputs'>;

export type HostToAgent =
  | { type: 'hello'; protocol: number; version: string }
  | {
      type: 'profile';
      fileName: string;
      fileBytes: Uint8Array;
      options: RemoteProfileOptions;
      /** `--input NAME=F.npy`: the file's bytes travel with the request. */
      inputs: Array<{ name: string; fileName: string; bytes: Uint8Array }>;
    }
  | { type: 'cancel' };

export type AgentToHost =
  | { type: 'hello'; protocol: number; version: string; pid: number }
  | { type: 'progress'; progress: ProfileProgress }
  | { type: 'result'; result: ProfileResult }
  | {
      type: 'error';
      kind: ErrorKind;
      message: string;
      file: string | null;
      jsonPath: string | null;
      details: string[];
      cancelled: boolean;
    };

export function encodeFrame(message: HostToAgent | AgentToHost): Buffer {
  const body = serialize(message);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

/** The most a frame may claim: a result with per-call arrays of big runs stays far below this. */
const MAX_FRAME = 1 << 30;

/** Splits a byte stream into messages. Throws on a frame that cannot be a message (a wrong program answered). */
export class FrameDecoder<T> {
  private buffered: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): T[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const out: T[] = [];
    while (this.buffered.length >= 4) {
      const n = this.buffered.readUInt32BE(0);
      if (n > MAX_FRAME) throw new Error(`a frame of ${n} bytes: the other side does not speak the Transient Lab remote protocol`);
      if (this.buffered.length < 4 + n) break;
      out.push(deserialize(this.buffered.subarray(4, 4 + n)) as T);
      this.buffered = this.buffered.subarray(4 + n);
    }
    return out;
  }
}
