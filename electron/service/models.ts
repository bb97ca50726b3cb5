/**
 * Parsed SDFG models, shared by every session of one service and bounded by an estimate of their memory.
 * Least recently used models are dropped first; the most recent one always stays, whatever its size. A doc
 * whose model was dropped is parsed again on its next use (documents remember where their bytes are), so
 * eviction costs time, never data.
 */
import type { SdfgFile } from '../engine/model/sdfg.js';

/** Retained heap per byte of JSON, measured on the corpus after a full GC (velocity_tendencies 0.52,
 * channel_flow 0.57, stage8 0.19), rounded up. */
const HEAP_PER_JSON_BYTE = 0.6;
const FIXED_BYTES = 256 * 1024;

export function estimateModelBytes(file: SdfgFile): number {
  return Math.ceil(file.jsonBytes * HEAP_PER_JSON_BYTE) + FIXED_BYTES;
}

interface Entry {
  file: SdfgFile;
  bytes: number;
}

export class ModelCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<SdfgFile>>();
  private total = 0;

  constructor(
    private readonly budgetBytes: number,
    private readonly maxEntries: number,
  ) {}

  /** The model under `key`, loading it once even when several callers ask at the same time. */
  async get(key: string, load: () => Promise<SdfgFile>): Promise<SdfgFile> {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: Map order is the LRU order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.file;
    }
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      (file) => {
        this.loading.delete(key);
        this.put(key, file);
        return file;
      },
      (err: unknown) => {
        this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.bytes;
  }

  stats(): { models: number; bytes: number } {
    return { models: this.entries.size, bytes: this.total };
  }

  private put(key: string, file: SdfgFile): void {
    this.drop(key);
    const bytes = estimateModelBytes(file);
    this.entries.set(key, { file, bytes });
    this.total += bytes;
    for (const [k] of this.entries) {
      if (this.entries.size <= 1 || (this.total <= this.budgetBytes && this.entries.size <= this.maxEntries)) break;
      this.drop(k);
    }
  }
}
