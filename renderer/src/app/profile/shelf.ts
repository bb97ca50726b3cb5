/**
 * The shelf of last results: each file's latest profile results, kept across page reloads so that a finished
 * run is not lost when the file is opened again. Keyed by the file (its path, or an upload's name) and its
 * content hash: `DocInfo.sha256`, which is what a profile of the file records as `program.hash`; a file edited
 * since has another hash and is offered nothing.
 *
 * Bounded: the last MAX_PER_FILE results of a file, MAX_FILES files (the one used longest ago goes first).
 * Stored in the page's IndexedDB (per origin: `serve`'s default port keeps it across restarts): a result is
 * 40–100 KB of JSON with its per-call columns, more with a sampled call, so localStorage's ~5 MB would not hold
 * 100. No host-side store of results exists (the contract's `saveResult` writes where the user says). Where
 * IndexedDB is missing or refused, the shelf lives in memory for the page's life.
 */
import type { ProfileResult } from '../../../../electron/engine/view/public.js';

export const MAX_PER_FILE = 5;
export const MAX_FILES = 20;

export interface ShelfEntry {
  /** When the run ended (ISO 8601). */
  savedAt: string;
  /** Its name in the window ("hello_world · run 14:02:11"). */
  name: string;
  result: ProfileResult;
}

export interface ShelfBackend {
  /** Every shelved file: its key and when it was last used. */
  index(): Promise<Array<{ key: string; touched: number }>>;
  get(key: string): Promise<ShelfEntry[] | null>;
  put(key: string, entries: ShelfEntry[], touched: number): Promise<void>;
  touch(key: string, touched: number): Promise<void>;
  remove(key: string): Promise<void>;
}

/** A file as the shelf knows it: its path, or an upload's name (uploads have no path). */
export function fileKey(doc: { path: string | null; name: string }): string {
  return doc.path ?? `upload:${doc.name}`;
}

export function shelfKey(file: string, sha256: string): string {
  return `${file}\n${sha256}`;
}

/** Puts `entry` first on the file's shelf, keeps its last MAX_PER_FILE, and drops the files used longest ago. */
export async function shelve(b: ShelfBackend, key: string, entry: ShelfEntry, now = Date.now()): Promise<void> {
  const entries = [entry, ...((await b.get(key)) ?? [])].slice(0, MAX_PER_FILE);
  await b.put(key, entries, now);
  const rows = await b.index();
  if (rows.length <= MAX_FILES) return;
  rows.sort((x, y) => y.touched - x.touched || (x.key === key ? -1 : y.key === key ? 1 : 0));
  for (const r of rows.slice(MAX_FILES)) await b.remove(r.key);
}

/** The file's shelved results, newest first ([] when none); using them counts as a use of the file. */
export async function recall(b: ShelfBackend, key: string, now = Date.now()): Promise<ShelfEntry[]> {
  const entries = (await b.get(key)) ?? [];
  if (entries.length) await b.touch(key, now);
  return entries;
}

export function memoryShelf(): ShelfBackend {
  const m = new Map<string, { entries: ShelfEntry[]; touched: number }>();
  return {
    index: async () => [...m].map(([key, v]) => ({ key, touched: v.touched })),
    get: async (key) => m.get(key)?.entries ?? null,
    put: async (key, entries, touched) => void m.set(key, { entries, touched }),
    touch: async (key, touched) => {
      const v = m.get(key);
      if (v) v.touched = touched;
    },
    remove: async (key) => void m.delete(key),
  };
}

const DB = 'transient-lab';
const INDEX = 'shelf-index';
const RESULTS = 'shelf-results';

function done<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('the shelf request failed'));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('the shelf transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('the shelf transaction was aborted'));
  });
}

/** The shelf in IndexedDB: a small index store (key, touched) and the entries by key. Null without IndexedDB. */
export function indexedDbShelf(): ShelfBackend | null {
  if (typeof indexedDB === 'undefined') return null;
  let opened: Promise<IDBDatabase> | null = null;
  const db = (): Promise<IDBDatabase> =>
    (opened ??= new Promise((resolve, reject) => {
      const r = indexedDB.open(DB, 1);
      r.onupgradeneeded = () => {
        r.result.createObjectStore(INDEX, { keyPath: 'key' });
        r.result.createObjectStore(RESULTS);
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error ?? new Error('the shelf database could not be opened'));
      r.onblocked = () => reject(new Error('the shelf database is blocked by another window'));
    }));
  const write = async (fn: (index: IDBObjectStore, results: IDBObjectStore) => void): Promise<void> => {
    const tx = (await db()).transaction([INDEX, RESULTS], 'readwrite');
    fn(tx.objectStore(INDEX), tx.objectStore(RESULTS));
    await committed(tx);
  };
  return {
    index: async () => (await done((await db()).transaction(INDEX).objectStore(INDEX).getAll())) as Array<{ key: string; touched: number }>,
    get: async (key) => ((await done((await db()).transaction(RESULTS).objectStore(RESULTS).get(key))) as ShelfEntry[] | undefined) ?? null,
    put: (key, entries, touched) =>
      write((index, results) => {
        results.put(entries, key);
        index.put({ key, touched });
      }),
    touch: (key, touched) => write((index) => void index.put({ key, touched })),
    remove: (key) =>
      write((index, results) => {
        index.delete(key);
        results.delete(key);
      }),
  };
}
