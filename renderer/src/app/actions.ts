/**
 * Everything that changes the document, the analysis or the selection goes through here: the React views and
 * the keyboard call these functions, never the client directly. Each action owns its race rules (a newer open
 * wins; only the latest analysis lands).
 */
import type { ContractError, SymbolValues, TransientLabClient } from '../../../electron/ipc/contract.js';
import type { AnalysisView, DocInfo } from '../../../electron/engine/view/public.js';
import { connectHost, HostError, startupFiles } from '../host/index.js';
import type { ThemeName } from '../theme/index.js';
import { afterFirstFrame, beginOpen, currentOpen, markOpenStart, markReady, markStep, measured } from './perf.js';
import { afterNextFrame, yieldToEventLoop } from '../yield.js';
import { settledRegions } from './graph/handle.js';
import { store, type DockTab, type ElementSelection, type ErrorReport, type Selection, type Toast } from './state.js';
import { savedDockHeight } from './dock/dock-size.js';
import { openProfile } from './profile/open-profile.js';

/** A thrown value as the contract's error shape (HostErrors keep every field; anything else is a bug). */
export function asContractError(err: unknown): ContractError {
  if (err instanceof HostError) return err.toJSON();
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message, file: null, jsonPath: null, details: [] };
}

function client(): TransientLabClient {
  const c = store.get().client;
  if (!c) throw new HostError({ kind: 'transport', message: 'not connected to a Transient Lab host', file: null, jsonPath: null, details: [] });
  return c;
}

// ---------------------------------------------------------------------------------------------------------
// Toasts and errors
// ---------------------------------------------------------------------------------------------------------

let toastSeq = 0;

export function toast(kind: Toast['kind'], text: string, ms = 4000): void {
  const id = ++toastSeq;
  store.set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text }] }));
  setTimeout(() => store.set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), ms);
}

export function showError(report: ErrorReport): void {
  store.set({ error: report });
}

export function dismissError(): void {
  store.set({ error: null });
}

// ---------------------------------------------------------------------------------------------------------
// Connection
// ---------------------------------------------------------------------------------------------------------

export async function connect(): Promise<void> {
  let c: TransientLabClient;
  try {
    c = await connectHost();
  } catch (err) {
    const e = asContractError(err);
    store.set({ connection: { status: 'failed', message: e.message }, opening: null });
    return;
  }
  c.on('disconnected', ({ reason }) => {
    store.set({ connection: { status: 'lost', message: reason } });
  });
  c.on('profileProgress', (event) => {
    store.set((s) => {
      if (!s.run || s.run.job !== event.job) return {};
      return { run: { ...s.run, events: [...s.run.events, event] } };
    });
  });
  c.on('openRequest', ({ path }) => void openPath(path));
  c.on('command', ({ name }) => {
    if (name === 'open') store.set({ dialog: 'open' });
    else if (name === 'toggleTheme') toggleTheme();
    else if (name === 'profile') openProfile();
    else if (name === 'openResult') store.set({ dialog: 'open' });
    else if (name === 'saveResult') void downloadResult();
    else if (name === 'exportReport') openExport();
  });
  try {
    const env = await c.environment({});
    store.set({ client: c, env, connection: { status: 'ready', message: `Transient Lab ${env.version}` } });
    const files = startupFiles(env);
    // Several startup files: the last one stays open (one document per window).
    for (const path of files) await openPath(path);
  } catch (err) {
    store.set({ connection: { status: 'failed', message: asContractError(err).message }, opening: null });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Opening
// ---------------------------------------------------------------------------------------------------------

/** How long the analysis of a new file waits for the graph's first frame before it is requested anyway. */
const FIRST_FRAME_WAIT_MS = 3000;
/** How long a new document waits for its graph's root region before it is shown without it. */
const ROOT_WAIT_MS = 150;

/** `p`'s value if it resolves within `ms`, else null (also when it rejects: its own handler reports that). */
function valueWithin<T>(p: Promise<T>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

/** Open sequence → its first analysis, so that `tlab:ready` belongs to the open that asked for it. */
const readyFor = new WeakMap<AnalysisView, number>();

async function openWith(name: string, call: (c: TransientLabClient) => Promise<DocInfo>, symbols: SymbolValues = {}): Promise<void> {
  let c: TransientLabClient;
  try {
    c = client();
  } catch (err) {
    showError({ title: `Could not open ${name}`, error: asContractError(err), context: `Opening ${name}` });
    return;
  }
  const seq = beginOpen();
  const opening = { name, startedAt: performance.now() };
  store.set({ opening, error: null, dialog: null });
  // The window puts what it has on screen (the "Opening…" state, a new connection's environment) before the host
  // starts reading, so that no frame overlaps the host's parse. On a 2-core machine running both, the frame sent
  // along with the request was now and then held 80–150 ms for a core (Chromium trace: 3–6 ms of CPU in such a
  // task, the rest waiting in the layer commit's flush to the GPU process). Costs at most one frame.
  await afterNextFrame();
  if (seq !== currentOpen()) {
    if (store.get().opening === opening) store.set({ opening: null });
    return;
  }
  markOpenStart(seq);
  let doc: DocInfo;
  try {
    doc = await call(c);
  } catch (err) {
    if (seq !== currentOpen()) return;
    store.set({ opening: null });
    showError({ title: `Could not open ${name}`, error: asContractError(err), context: `Opening ${name}` });
    return;
  }
  if (seq !== currentOpen()) {
    void c.closeDoc({ doc: doc.doc }).catch(() => {});
    return;
  }
  markStep('tlab:doc', seq);
  const prev = store.get().doc;
  // Ask for the graph's root before the analysis: the host answers in order, and the first frame needs only it.
  const rootRegion = c.graph({ doc: doc.doc, region: null });
  rootRegion.catch(() => {}); // the graph pane shows this error
  // The document is committed to React once the root region is in (or after ROOT_WAIT_MS), so that the graph's
  // layout starts in the worker before the window renders and paints the document's panels, and runs alongside
  // them. Committed first, the region's reply waited behind that render and its frame (nbody, Chromium trace:
  // the layout started 48 ms after the document arrived, with the host's reply long since sent).
  const root = await valueWithin(rootRegion, ROOT_WAIT_MS);
  if (root) settledRegions.set(rootRegion, root);
  if (seq !== currentOpen()) {
    void c.closeDoc({ doc: doc.doc }).catch(() => {});
    return;
  }
  const known = new Set(doc.symbols.map((x) => x.name));
  const kept = Object.fromEntries(Object.entries(symbols).filter(([k]) => known.has(k)));
  const s = store.get();
  const keepResult = s.result !== null && s.result.result.program.name === doc.name.replace(/\.sdfgz?$/i, '');
  measured('tlab:doc-commit', () => store.set({
    doc,
    rootRegion,
    symbols: kept,
    defaultSymbol: null,
    target: null,
    analysis: null,
    analysisError: null,
    analysing: true,
    selection: null,
    hoverTransient: null,
    opening: null,
    run: null,
    result: keepResult ? s.result : null,
  }));
  if (prev) void c.closeDoc({ doc: prev.doc }).catch(() => {});
  await afterFirstFrame(seq, FIRST_FRAME_WAIT_MS);
  if (doc.preview && seq === currentOpen() && !(await completeDoc(c, doc, seq))) return;
  if (seq === currentOpen()) await analyseNow(seq);
}

/** A big file opened as a preview (its root only): once the first frame is up, take the complete DocInfo and
 * redraw the root with what its nested SDFGs hold. False when the open was superseded or the file failed. */
async function completeDoc(c: TransientLabClient, preview: DocInfo, seq: number): Promise<boolean> {
  let full: DocInfo;
  try {
    full = await c.docInfo({ doc: preview.doc });
  } catch (err) {
    if (seq !== currentOpen()) return false;
    store.set({ analysing: false });
    showError({ title: `Could not read all of ${preview.name}`, error: asContractError(err), context: `Opening ${preview.name}` });
    return false;
  }
  if (seq !== currentOpen() || store.get().doc?.doc !== preview.doc) return false;
  const rootRegion = c.graph({ doc: full.doc, region: null });
  rootRegion.catch(() => {});
  store.set({ doc: full, rootRegion });
  return true;
}

/** Opens a file by path (the Open dialog, `?open=`, start-up files, the desktop's `openRequest`): a result `.json`
 * opens as a result, anything else as an SDFG. */
export function openPath(path: string): Promise<void> {
  if (/\.json$/i.test(path)) return openResultPath(path);
  const name = path.split(/[\\/]/).pop() || path;
  return openWith(name, (c) => c.openFile({ path }));
}

export function openExample(id: string): Promise<void> {
  const ex = store.get().env?.examples.find((e) => e.id === id);
  return openWith(ex ? `${ex.title}.sdfg` : id, (c) => c.openExample({ id }), ex?.symbols ?? {});
}

/** Files the user dropped or picked: SDFGs open as documents, result JSON files open as results. */
export async function openLocalFiles(files: File[]): Promise<void> {
  const limit = store.get().env?.limits.uploadBytes ?? Infinity;
  for (const file of files) {
    if (file.size > limit) {
      showError({
        title: `Could not open ${file.name}`,
        context: `Uploading ${file.name}`,
        error: { kind: 'refused', message: `${file.name} is ${(file.size / 2 ** 20).toFixed(0)} MiB; this host accepts uploads up to ${(limit / 2 ** 20).toFixed(0)} MiB`, file: file.name, jsonPath: null, details: ['Start `transient-lab serve` with --root on the folder that holds it and open it by path instead.'] },
      });
      continue;
    }
    if (/\.json$/i.test(file.name)) {
      await openResultUpload(file);
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    await openWith(file.name, (c) => c.openUpload({ name: file.name, bytes }));
  }
}

export function closeDocument(): void {
  const { doc, client: c } = store.get();
  beginOpen();
  store.set({ doc: null, rootRegion: null, analysis: null, selection: null, analysing: false, run: null });
  if (doc && c) void c.closeDoc({ doc: doc.doc }).catch(() => {});
}

// ---------------------------------------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------------------------------------

let analysisSeq = 0;
let debounce: ReturnType<typeof setTimeout> | null = null;

async function analyseNow(openSeq: number | null = null): Promise<void> {
  const s = store.get();
  if (!s.doc || !s.client) return;
  const seq = ++analysisSeq;
  const doc = s.doc;
  store.set({ analysing: true });
  try {
    const view = await s.client.analyze({ doc: doc.doc, symbols: s.symbols, defaultSymbol: s.defaultSymbol, target: s.target });
    // Decoding a big analysis was this task's work; rendering it is the next one's.
    await yieldToEventLoop();
    if (seq !== analysisSeq || store.get().doc !== doc) return;
    if (openSeq !== null) {
      readyFor.set(view, openSeq);
      markStep('tlab:analysis', openSeq);
    }
    measured('tlab:analysis-commit', () => store.set((st) => ({ analysis: view, analysing: false, analysisError: null, selection: stillValid(st.selection, view) })));
  } catch (err) {
    if (seq !== analysisSeq || store.get().doc !== doc) return;
    store.set({ analysing: false, analysisError: asContractError(err) });
  }
}

function stillValid(sel: Selection | null, view: AnalysisView): Selection | null {
  if (!sel?.transient) return sel;
  return view.table.id.includes(sel.transient) ? sel : sel.element ? { ...sel, transient: null } : null;
}

/** A view that shows the analysis has drawn it: the open it belongs to is ready. */
export function analysisDrawn(view: AnalysisView): void {
  const seq = readyFor.get(view);
  if (seq !== undefined) markReady(seq);
}

/** Re-analyse after the user stops typing (symbols, default, target). */
function reanalyseSoon(ms = 250): void {
  if (debounce) clearTimeout(debounce);
  debounce = setTimeout(() => {
    debounce = null;
    void analyseNow();
  }, ms);
}

/** Sets one symbol ('' removes it). Invalid text is kept out of the request and reported. */
export function setSymbol(name: string, value: string): boolean {
  const v = value.trim();
  if (v !== '' && !/^-?\d{1,39}$/.test(v)) return false;
  store.set((s) => {
    const symbols = { ...s.symbols };
    if (v === '') delete symbols[name];
    else symbols[name] = v;
    return { symbols };
  });
  reanalyseSoon();
  return true;
}

export function setDefaultSymbol(value: string): boolean {
  const v = value.trim();
  if (v !== '' && !/^-?\d{1,39}$/.test(v)) return false;
  store.set({ defaultSymbol: v === '' ? null : v });
  reanalyseSoon();
  return true;
}

export function setTarget(target: 'cpu' | 'gpu' | null): void {
  store.set({ target });
  reanalyseSoon(0);
}

// ---------------------------------------------------------------------------------------------------------
// Selection, chrome
// ---------------------------------------------------------------------------------------------------------

export function selectTransient(id: string | null, source: Selection['source']): void {
  store.set((s) => {
    if (id === null) return { selection: null };
    if (s.selection?.transient === id && s.selection.source === source) return {};
    return { selection: { transient: id, element: null, source } };
  });
}

export function selectElement(element: ElementSelection | null, source: Selection['source'] = 'graph'): void {
  if (!element) {
    store.set({ selection: null });
    return;
  }
  const node = element.node;
  const edge = element.edge;
  const transient = node?.kind === 'access' ? node.transient : edge?.kind === 'memlet' ? edge.transient : null;
  store.set({ selection: { transient, element, source } });
}

export function clearSelection(): void {
  store.set({ selection: null, hoverTransient: null });
}

export function hoverTransient(id: string | null): void {
  store.set({ hoverTransient: id });
}

export function setDockTab(tab: DockTab): void {
  store.set({ dockTab: tab });
}

/** Results need room: the dock grows to most of the window (the user can drag it back), unless the user chose
 * its height: that choice stands (dock/dock-size.ts). */
export function growDock(): void {
  if (savedDockHeight() !== null) return;
  const want = Math.round(window.innerHeight * 0.64);
  store.set((s) => (s.dockHeight < want ? { dockHeight: want } : {}));
}

export function setTheme(theme: ThemeName): void {
  try {
    window.localStorage.setItem('tlab:theme', theme);
  } catch {
    // Not persisted; the toggle still works for this page.
  }
  store.set({ theme });
}

export function toggleTheme(): void {
  setTheme(store.get().theme === 'dark' ? 'light' : 'dark');
}

// ---------------------------------------------------------------------------------------------------------
// Results (profile runs live in profile-actions.ts)
// ---------------------------------------------------------------------------------------------------------

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
export function addResult(doc: import('../../../electron/ipc/contract.js').ResultDoc): void {
  store.set((s) => ({
    result: doc,
    compare: [...s.compare.filter((r) => !(r.name === doc.name && r.path === doc.path && r.result.program.hash === doc.result.program.hash && r.result === doc.result)), doc],
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
