/**
 * The Workload view's and the advisor's requests: the view model of an open workload, the advice for the open
 * document (workload or SDFG) with the sweep typed in the panel, and opening a program of the workload (its graph),
 * with the way back. Only the latest request of each kind lands.
 */
import type { AdviseRequest } from '../../../../electron/ipc/contract.js';
import { asContractError } from '../actions.js';
import { store } from '../state.js';
import { parseSweepText } from './sweep-text.js';

let viewSeq = 0;
let adviceSeq = 0;

function baseRequest(): Omit<AdviseRequest, 'sweep'> | null {
  const s = store.get();
  if (!s.doc || !s.client) return null;
  return { doc: s.doc.doc, symbols: s.symbols, defaultSymbol: s.defaultSymbol, target: s.target, layout: 'packed' };
}

/** The Workload view's model of the open workload. */
export async function loadWorkloadView(): Promise<void> {
  const s = store.get();
  const req = baseRequest();
  if (!req || !s.client) return;
  const seq = ++viewSeq;
  try {
    const view = await s.client.workloadView(req);
    if (seq === viewSeq && store.get().doc?.doc === req.doc) store.set({ workload: view, workloadError: null });
  } catch (err) {
    if (seq === viewSeq && store.get().doc?.doc === req.doc) store.set({ workloadError: asContractError(err) });
  }
}

/** The advisor on the open document, with the panel's sweep. */
export async function loadAdvice(): Promise<void> {
  const s = store.get();
  const req = baseRequest();
  if (!req || !s.client) return;
  const sweep = parseSweepText(s.sweepText);
  if (sweep && 'error' in sweep) return;
  const seq = ++adviceSeq;
  store.set({ advising: true });
  try {
    const advice = await s.client.advise({ ...req, sweep });
    if (seq === adviceSeq && store.get().doc?.doc === req.doc) store.set({ advice, adviceError: null, advising: false });
  } catch (err) {
    if (seq === adviceSeq && store.get().doc?.doc === req.doc) store.set({ adviceError: asContractError(err), advising: false });
  }
}
