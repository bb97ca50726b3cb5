/**
 * Profile results in the window (runs live in profile-actions.ts): opened by upload or path, joined to the
 * comparison, saved through the browser's download or on the host, exported as a report.
 */
import type { ResultDoc } from '../../../electron/ipc/contract.js';
import { asContractError, client, growDock, showError, toast } from './actions.js';
import { store } from './state.js';

export async function openResultUpload(file: File): Promise<void> {
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const doc = await client().openResult({ name: file.name, bytes });
    addResult(doc);
  } catch (err) {
    showError({ title: `Could not open the result ${file.name}`, error: asContractError(err), context: `Opening the result ${file.name}` });
  }
}

export async function openResultPath(path: string): Promise<void> {
  // The dialog closes at once, as for an SDFG: keys pressed while the host reads the file belong to the window.
  store.set({ dialog: null });
  try {
    const doc = await client().openResult({ path });
    addResult(doc);
  } catch (err) {
    const name = path.split(/[\\/]/).pop() ?? path;
    showError({ title: `Could not open the result ${name}`, error: asContractError(err), context: `Opening the result ${name}` });
  }
}

/** An opened result becomes the Profile tab's result and joins the comparison. */
function addResult(doc: ResultDoc): void {
  store.set((s) => ({
    result: doc,
    compare: [
      ...s.compare.filter(
        (r) =>
          !(r.name === doc.name && r.path === doc.path && r.result.program.hash === doc.result.program.hash && r.result === doc.result),
      ),
      doc,
    ],
    dockTab: 'profile',
  }));
  growDock();
  toast('ok', `Opened ${doc.name}`);
}

export function removeCompared(index: number): void {
  store.set((s) => ({ compare: s.compare.filter((_, i) => i !== index) }));
}

function resultFileName(): string {
  const r = store.get().result;
  if (!r) return 'result.json';
  if (r.path) return r.path.split(/[\\/]/).pop()!;
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
  return `${r.result.program.name}-profile-${stamp}.json`;
}

/** Saves the shown result on this machine, through the browser's download. */
export async function downloadResult(): Promise<void> {
  const r = store.get().result;
  if (!r) {
    toast('warn', 'No result to save yet: run a profile or open a result first');
    return;
  }
  const name = resultFileName();
  download(name, new Blob([`${JSON.stringify(r.result, null, 2)}\n`], { type: 'application/json' }));
  toast('ok', `Downloaded ${name}`);
}

/** Saves through the browser's download (the desktop app turns it into its Save dialog, shell/downloads.ts). */
function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the files of an exported report (CSV: the calls, then the summary). */
export function downloadFiles(files: ReadonlyArray<{ name: string; mime: string; bytes: Uint8Array }>): void {
  for (const f of files) download(f.name, new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.mime }));
  toast('ok', `Downloaded ${files.map((f) => f.name).join(' and ')}`);
}

/** Export report… (menu, Ctrl+E, the top bar): the preview dialog, once there is a result to report. */
export function openExport(): void {
  if (!store.get().result) {
    toast('warn', 'No result to export yet: run a profile or open a result first');
    return;
  }
  store.set({ dialog: 'export', error: null });
}

/** Saves the shown result on the host, inside its allowed folders. */
export async function saveResultOnHost(path: string): Promise<string | null> {
  const r = store.get().result;
  if (!r) return null;
  try {
    const saved = await client().saveResult({ path, result: r.result });
    store.set((s) => ({
      result: s.result === r ? { ...r, path: saved.path, name: saved.path.split(/[\\/]/).pop()! } : s.result,
    }));
    toast('ok', `Saved ${saved.path}`);
    return saved.path;
  } catch (err) {
    showError({ title: 'Could not save the result', error: asContractError(err), context: `Saving ${path}` });
    return null;
  }
}

export function defaultResultName(): string {
  return resultFileName();
}
