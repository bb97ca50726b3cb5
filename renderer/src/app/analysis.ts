/**
 * The analysis of the open document: requested with the symbols, default and target the top bar holds; only the
 * latest request lands, and a symbol edit re-analyses after 250 ms of quiet. The open sequence asks for the first
 * analysis of a file (open/sequence.ts) once its graph's first frame is on screen.
 */
import type { AnalysisView } from '../../../electron/engine/view/public.js';
import { yieldToEventLoop } from '../yield.js';
import { asContractError } from './actions.js';
import { measured } from './perf.js';
import { store, type Selection } from './state.js';

let analysisSeq = 0;
let debounce: ReturnType<typeof setTimeout> | null = null;

/**
 * Analyses the open document now. `landing` runs with the view once it is the latest and decoded, just before it
 * is committed to the store (the open sequence marks `tlab:analysis` there and waits for the view to be drawn).
 */
export async function analyseNow(landing?: (view: AnalysisView) => void): Promise<void> {
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
    landing?.(view);
    measured('tlab:analysis-commit', () =>
      store.set((st) => ({ analysis: view, analysing: false, analysisError: null, selection: stillValid(st.selection, view) })),
    );
  } catch (err) {
    if (seq !== analysisSeq || store.get().doc !== doc) return;
    store.set({ analysing: false, analysisError: asContractError(err) });
  }
}

function stillValid(sel: Selection | null, view: AnalysisView): Selection | null {
  if (!sel?.transient) return sel;
  return view.table.id.includes(sel.transient) ? sel : sel.element ? { ...sel, transient: null } : null;
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
