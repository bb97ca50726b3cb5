/**
 * The host's side of the runner's progress page (native/src/progress_file.h): during the timed calls the
 * runner child's JavaScript is blocked in one native loop (docs/native.md), so the loop publishes progress by
 * storing into a small shared file and the host polls it. Any host (Node child_process, Electron
 * utilityProcess) can use this class.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { existsSync, accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Phase } from '../engine/profile/runner-host.js';

const MAGIC = 0x47504c54;
const BYTES = 24;
const PHASES: ReadonlyArray<Phase | null> = [null, 'first-call', 'warmup', 'calls', 'calls'];

export interface ProgressReading {
  phase: Phase;
  done: number;
  total: number;
}

/**
 * Turns polled readings into progress events for the variant the child announced last. The child clears the
 * page (clearProgressPage) before it announces a variant's first call, so whatever the page holds once that
 * message has arrived belongs to this variant, even when the message comes late on a busy machine and the
 * loop has already moved on to the timed calls.
 */
export class ProgressTracker {
  private last: string | null = null;

  constructor(private readonly file: ProgressFile) {}

  /** Call when a phase message arrives from the child: the next poll reports the page as it is then. */
  phaseAnnounced(): void {
    this.last = null;
  }

  /** A new reading since the last call, or null. */
  poll(): ProgressReading | null {
    const raw = this.file.readRaw();
    if (raw === null || raw === this.last) return null;
    this.last = raw;
    return this.file.read();
  }
}

const CLEARED = Buffer.alloc(BYTES);

/** The child's side: an empty page before a variant's loop (the previous variant's final state is gone). */
export function clearProgressPage(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, CLEARED, 0, BYTES, 0);
  } finally {
    closeSync(fd);
  }
}

/** tmpfs where there is one: the page never goes to disk. */
function progressDir(): string {
  try {
    if (existsSync('/dev/shm')) {
      accessSync('/dev/shm', constants.W_OK);
      return '/dev/shm';
    }
  } catch {
    // fall through to the temporary folder
  }
  return tmpdir();
}

export class ProgressFile {
  readonly path: string;
  private readonly dir: string;
  private fd: number | null;
  private readonly buffer = Buffer.alloc(BYTES);

  constructor() {
    this.dir = mkdtempSync(join(progressDir(), 'tlab-progress-'));
    this.path = join(this.dir, 'progress');
    // A whole page of zeros: the child maps it, and a store past the end of a file would be SIGBUS.
    writeFileSync(this.path, Buffer.alloc(4096));
    this.fd = openSync(this.path, 'r');
  }

  /** The page's bytes as hex (for change detection), or null when unreadable. */
  readRaw(): string | null {
    if (this.fd === null) return null;
    const n = readSync(this.fd, this.buffer, 0, BYTES, 0);
    return n < BYTES ? null : this.buffer.toString('hex');
  }

  /** The state in the buffer last read (readRaw) or read now, or null before the child published any. */
  read(): ProgressReading | null {
    if (this.readRaw() === null || this.buffer.readUInt32LE(0) !== MAGIC) return null;
    const phase = PHASES[this.buffer.readUInt32LE(4)] ?? null;
    if (!phase) return null;
    return { phase, done: Number(this.buffer.readBigUInt64LE(8)), total: Number(this.buffer.readBigUInt64LE(16)) };
  }

  dispose(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
