/**
 * The files a runner host hands a child along with a job: the input bytes (read by the child straight into
 * buffers it keeps, never through a message; see messages.ts) and the progress page of the timed calls
 * (progress-file.ts). Any host (Node child_process, Electron utilityProcess) uses them the same way:
 * create, send `message(jobId)`, poll `progress`, dispose when the job ends however it ends.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunJob } from '../engine/profile/runner-host.js';
import { RUNNER_PROTOCOL_VERSION, type HostToRunner, type InputsFile } from './messages.js';
import { ProgressFile, ProgressTracker } from './progress-file.js';

const ALIGN = 4096;

export class JobFiles {
  readonly progress: ProgressTracker;
  private readonly progressFile: ProgressFile;
  private readonly dir: string;
  private readonly inputs: InputsFile;

  constructor(private readonly job: RunJob) {
    this.dir = mkdtempSync(join(tmpdir(), 'tlab-job-'));
    try {
      this.inputs = writeInputs(join(this.dir, 'inputs.bin'), job.inputs);
      this.progressFile = new ProgressFile();
    } catch (err) {
      rmSync(this.dir, { recursive: true, force: true });
      throw err;
    }
    this.progress = new ProgressTracker(this.progressFile);
  }

  message(jobId: number): HostToRunner {
    return {
      type: 'job',
      protocol: RUNNER_PROTOCOL_VERSION,
      jobId,
      job: { ...this.job, inputs: {} },
      inputsFile: this.inputs,
      progressFile: this.progressFile.path,
    };
  }

  dispose(): void {
    this.progressFile.dispose();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Writes the inputs one after the other (page-aligned) and says where each is. */
export function writeInputs(path: string, inputs: Record<string, Uint8Array>): InputsFile {
  const fd = openSync(path, 'w', 0o600);
  const entries: InputsFile['entries'] = [];
  try {
    let offset = 0;
    for (const [name, bytes] of Object.entries(inputs)) {
      for (let done = 0; done < bytes.byteLength;) done += writeSync(fd, bytes, done, bytes.byteLength - done, offset + done);
      entries.push({ name, offset, bytes: bytes.byteLength });
      offset = Math.ceil((offset + bytes.byteLength) / ALIGN) * ALIGN;
    }
  } finally {
    closeSync(fd);
  }
  return { path, entries };
}
