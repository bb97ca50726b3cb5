/**
 * Opening a document, step by step, in the order that was measured to be quickest (docs/renderer.md, "Opening"):
 *
 * 1. the window commits its frame ("Opening…") before anything is sent, so that no frame of its own overlaps the
 *    host's parse; then `tlab:open-start` and the request;
 * 2. the DocInfo (`tlab:doc`), then the graph's root region is asked for before the analysis (the host answers in
 *    order, and the first frame needs only the root);
 * 3. the document is committed once the root region is in (at most ROOT_WAIT_MS), and the graph's layout starts
 *    in that same task, before React renders the document;
 * 4. the first frame (`tlab:first-frame`, reported by the graph); a big file's preview is completed after it;
 * 5. the analysis (`tlab:analysis`), and `tlab:ready` once the dock's visible view has drawn it.
 *
 * A newer open (or a close) wins at every step: a superseded open closes its document on the host and marks
 * nothing.
 */
import type { SymbolValues, TransientLabClient } from '../../../../electron/ipc/contract.js';
import type { AnalysisView, DocInfo } from '../../../../electron/engine/view/public.js';
import { afterNextFrame } from '../../yield.js';
import { asContractError, client, showError } from '../actions.js';
import { analyseNow } from '../analysis.js';
import { measured } from '../perf.js';
import { store, type AppState } from '../state.js';
import { loadAdvice, loadWorkloadView } from '../workload/workload-actions.js';
import { showDocument } from './graph.js';
import { afterFirstFrame, beginOpen, currentOpen, markOpenStart, markReady, markStep } from './marks.js';

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

/** The first analysis of the current open, until a view has drawn it (`tlab:ready` is that open's). */
let awaitingReady: { seq: number; view: AnalysisView } | null = null;

/** A view that shows the analysis has drawn it: if it is an open's first analysis, that open is ready. */
export function analysisDrawn(view: AnalysisView): void {
  if (awaitingReady?.view === view) markReady(awaitingReady.seq);
}

/** Opens the document `call` asks the host for, under the name the window shows while it comes. */
export async function openWith(
  name: string,
  call: (c: TransientLabClient) => Promise<DocInfo>,
  symbols: SymbolValues = {},
  origin: AppState['workloadOrigin'] = null,
): Promise<void> {
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
  if (doc.workload) {
    await showWorkload(c, doc, prev, seq);
    return;
  }
  // Ask for the graph's root before the analysis: the host answers in order, and the first frame needs only it.
  const rootRegion = c.graph({ doc: doc.doc, region: null });
  rootRegion.catch(() => {}); // showDocument reports this error
  // The document is committed to React once the root region is in (or after ROOT_WAIT_MS), so that the graph's
  // layout starts in the worker before the window renders and paints the document's panels, and runs alongside
  // them. Committed first, the region's reply waited behind that render and its frame (nbody, Chromium trace:
  // the layout started 48 ms after the document arrived, with the host's reply long since sent).
  const root = await valueWithin(rootRegion, ROOT_WAIT_MS);
  if (seq !== currentOpen()) {
    void c.closeDoc({ doc: doc.doc }).catch(() => {});
    return;
  }
  const known = new Set(doc.symbols.map((x) => x.name));
  const kept = Object.fromEntries(Object.entries(symbols).filter(([k]) => known.has(k)));
  const s = store.get();
  const keepResult = s.result !== null && s.result.result.program.name === doc.name.replace(/\.sdfgz?$/i, '');
  measured('tlab:doc-commit', () => {
    store.set({
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
      workload: null,
      workloadError: null,
      advice: null,
      adviceError: null,
      workloadOrigin: origin,
    });
    // Now, in the task of the store change: the layout request reaches the worker before React renders it.
    showDocument(root);
  });
  if (prev) void c.closeDoc({ doc: prev.doc }).catch(() => {});
  await afterFirstFrame(seq, FIRST_FRAME_WAIT_MS);
  if (doc.preview && seq === currentOpen() && !(await completeDoc(c, doc, seq))) return;
  if (seq === currentOpen()) {
    await analyseNow((view) => {
      awaitingReady = { seq, view };
      markStep('tlab:analysis', seq);
    });
  }
}

/** A workload (docs/workload.md): no graph of its own; the Workload view and the advisor ask for their models. */
async function showWorkload(c: TransientLabClient, doc: DocInfo, prev: DocInfo | null, seq: number): Promise<void> {
  store.set({
    doc,
    rootRegion: null,
    symbols: {},
    defaultSymbol: null,
    target: null,
    analysis: null,
    analysisError: null,
    analysing: false,
    selection: null,
    hoverTransient: null,
    opening: null,
    run: null,
    result: null,
    workload: null,
    workloadError: null,
    advice: null,
    adviceError: null,
    sweepText: '',
    workloadOrigin: null,
  });
  if (prev) void c.closeDoc({ doc: prev.doc }).catch(() => {});
  await Promise.all([loadWorkloadView(), loadAdvice()]);
  if (seq === currentOpen()) markStep('tlab:analysis', seq);
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
  showDocument();
  return true;
}
