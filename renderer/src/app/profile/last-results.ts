/**
 * A file's last results, offered again when it is opened (shelf.ts keeps them). A finished run goes on the shelf
 * of the file it ran on; opening a file whose DocInfo carries its sha256 looks its shelf up, and the dock offers
 * the newest ("Last results for this file: …  Show"), the Profile tab lists them all.
 */
import type { DocInfo } from '../../../../electron/engine/view/public.js';
import type { ResultDoc } from '../../../../electron/ipc/contract.js';
import { asContractError, toast } from '../actions.js';
import { store } from '../state.js';
import { createStore, watch } from '../store.js';
import { fileKey, indexedDbShelf, memoryShelf, recall, shelfKey, shelve, type ShelfBackend, type ShelfEntry } from './shelf.js';

export interface Offer {
  /** The open file's shelf key, or null (no file, or no sha256 yet: a preview). */
  key: string | null;
  /** Its shelved results, newest first. */
  entries: ShelfEntry[];
  /** The dock's line is closed (shown, dismissed, or the file's latest run is on screen already). */
  hidden: boolean;
}

export const offers = createStore<Offer>({ key: null, entries: [], hidden: true });

let backend: ShelfBackend | null = null;
let warned = false;

function shelf(): ShelfBackend {
  return (backend ??= indexedDbShelf() ?? memoryShelf());
}

/** IndexedDB refused (quota, a blocked upgrade, storage off): the shelf goes on in memory, and says so once. */
async function withShelf<T>(fn: (b: ShelfBackend) => Promise<T>): Promise<T> {
  try {
    return await fn(shelf());
  } catch (err) {
    backend = memoryShelf();
    if (!warned) {
      warned = true;
      toast('warn', `Results are kept for this page only: the browser refused its storage (${asContractError(err).message})`, 8000);
    }
    return fn(backend);
  }
}

function docShelfKey(doc: DocInfo | null): string | null {
  return doc?.sha256 ? shelfKey(fileKey(doc), doc.sha256) : null;
}

async function offerFor(doc: DocInfo | null): Promise<void> {
  const key = docShelfKey(doc);
  if (key === offers.get().key) return;
  offers.set({ key, entries: [], hidden: true });
  if (!key) return;
  const entries = await withShelf((b) => recall(b, key));
  if (offers.get().key === key) offers.set({ entries, hidden: entries.length === 0 });
}

/** Follows the open document (the dock installs it): each file opened is looked up on the shelf. */
export function installShelf(): () => void {
  void offerFor(store.get().doc);
  return watch(
    store,
    (s) => s.doc,
    (doc) => void offerFor(doc),
  );
}

/** A run ended: its result goes on the shelf of the file it ran on (keyed by the hash the result records). */
export async function rememberRun(doc: DocInfo, run: ResultDoc): Promise<void> {
  const key = shelfKey(fileKey(doc), run.result.program.hash);
  const entry: ShelfEntry = { savedAt: run.result.createdAt ?? new Date().toISOString(), name: run.name, result: run.result };
  await withShelf((b) => shelve(b, key, entry));
  // The run is on screen: the dock's line stays closed, the Profile tab's list has it.
  if (offers.get().key === key) offers.set({ entries: await withShelf((b) => recall(b, key)), hidden: true });
}

const same = (a: ResultDoc, e: ShelfEntry): boolean =>
  a.name === e.name && a.result.program.hash === e.result.program.hash && a.result.createdAt === e.result.createdAt;

/** Shows a shelved result in the Profile tab, as an opened one (it joins Compare too). */
export function showShelved(e: ShelfEntry): void {
  const doc: ResultDoc = { name: e.name, path: null, result: e.result };
  store.set((s) => ({ result: doc, compare: [...s.compare.filter((r) => !same(r, e)), doc], dockTab: 'profile' }));
  offers.set({ hidden: true });
}

/** Puts every shelved result of the file on the Compare tab. */
export function compareShelved(entries: readonly ShelfEntry[]): void {
  const docs = [...entries].reverse().map((e): ResultDoc => ({ name: e.name, path: null, result: e.result }));
  store.set((s) => ({
    compare: [...s.compare.filter((r) => !entries.some((e) => same(r, e))), ...docs],
    result: s.result ?? docs.at(-1)!,
    dockTab: 'compare',
  }));
  offers.set({ hidden: true });
}

export function hideOffer(): void {
  offers.set({ hidden: true });
}

/** "7 Dec, 14:02 · SCOPED, EXTERNAL (packed) · 30 × 3 calls" */
export function describeEntry(e: ShelfEntry): { when: string; modes: string; calls: string } {
  const r = e.result;
  const when = new Date(e.savedAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return { when, modes: r.modes.map((m) => m.label).join(', '), calls: `${r.settings.calls} × ${r.settings.processes} calls` };
}
