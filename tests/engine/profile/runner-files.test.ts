/** The files a runner host hands its child: the inputs file and the progress page (electron/runner). */
import { existsSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JobFiles } from '../../../electron/runner/job-files.js';
import { clearProgressPage, ProgressFile, ProgressTracker } from '../../../electron/runner/progress-file.js';
import { RUNNER_PROTOCOL_VERSION } from '../../../electron/runner/messages.js';
import type { RunJob } from '../../../electron/engine/profile/runner-host.js';

const job = (inputs: Record<string, Uint8Array>): RunJob => ({
  variants: [],
  inputs,
  calls: 1,
  warmup: 0,
  settle: 0,
  poison: [0xff, 0xa5],
  guardByte: 0x5a,
  guardBytes: 64,
});

/** What the native loop stores (native/src/progress_file.h). */
function publish(path: string, phase: number, done: number, total: number): void {
  const page = Buffer.alloc(24);
  page.writeUInt32LE(0x47504c54, 0);
  page.writeUInt32LE(phase, 4);
  page.writeBigUInt64LE(BigInt(done), 8);
  page.writeBigUInt64LE(BigInt(total), 16);
  const fd = openSync(path, 'r+');
  writeSync(fd, page, 0, 24, 0);
  closeSync(fd);
}

describe('runner job files', () => {
  it('sends the job without its inputs and writes them to a file, each at an aligned offset', () => {
    const a = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
    const b = Uint8Array.from([1, 2, 3]);
    const files = new JobFiles(job({ a, b, empty: new Uint8Array(0) }));
    const msg = files.message(7);
    expect(msg).toMatchObject({ type: 'job', protocol: RUNNER_PROTOCOL_VERSION, jobId: 7, job: { inputs: {} } });
    if (msg.type !== 'job') throw new Error('not a job message');
    const { inputsFile, progressFile } = msg;
    expect(inputsFile!.entries).toEqual([
      { name: 'a', offset: 0, bytes: 5000 },
      { name: 'b', offset: 8192, bytes: 3 },
      { name: 'empty', offset: 12288, bytes: 0 },
    ]);
    const data = readFileSync(inputsFile!.path);
    expect(data.subarray(0, 5000)).toEqual(Buffer.from(a));
    expect(data.subarray(8192, 8195)).toEqual(Buffer.from(b));
    expect(readFileSync(progressFile!).byteLength).toBe(4096);
    files.dispose();
    expect(existsSync(inputsFile!.path)).toBe(false);
    expect(existsSync(progressFile!)).toBe(false);
  });
});

describe('progress page', () => {
  it('reads what the loop publishes, and the page as it is once the child announced its phase', () => {
    const file = new ProgressFile();
    const tracker = new ProgressTracker(file);
    try {
      expect(file.read()).toBeNull();
      expect(tracker.poll()).toBeNull();
      publish(file.path, 2, 3, 5);
      expect(tracker.poll()).toEqual({ phase: 'warmup', done: 3, total: 5 });
      expect(tracker.poll()).toBeNull();
      publish(file.path, 3, 10, 100);
      expect(tracker.poll()).toEqual({ phase: 'calls', done: 10, total: 100 });
      publish(file.path, 4, 100, 100);
      expect(tracker.poll()).toEqual({ phase: 'calls', done: 100, total: 100 });
      // The next variant starts: the child clears the page, then announces its first call.
      clearProgressPage(file.path);
      tracker.phaseAnnounced();
      expect(tracker.poll()).toBeNull();
      publish(file.path, 1, 0, 1);
      expect(tracker.poll()).toEqual({ phase: 'first-call', done: 0, total: 1 });
      // A busy host: the loop reached the timed calls before the announcement arrived, and the host had
      // already polled that state under the previous phase. Announced, the page counts as this variant's.
      clearProgressPage(file.path);
      publish(file.path, 3, 1, 5);
      expect(tracker.poll()).toEqual({ phase: 'calls', done: 1, total: 5 });
      tracker.phaseAnnounced();
      expect(tracker.poll()).toEqual({ phase: 'calls', done: 1, total: 5 });
      expect(tracker.poll()).toBeNull();
    } finally {
      file.dispose();
    }
    expect(existsSync(file.path)).toBe(false);
  });
});
