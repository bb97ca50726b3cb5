/**
 * The Workload view's and the advisor's requests: the view model of an open workload, the advice for the open
 * document (workload or SDFG) with the sweep typed in the panel, and opening a program of the workload (its graph),
 * with the way back. Only the latest request of each kind lands.
 */
import type { AdviseRequest } from '../../../../electron/ipc/contract.js';
import { asContractError } from '../actions.js';
import { store } from '../state.js';

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

const MAX_POINTS = 64;

/**
 * The sweep as `advise --sweep` takes it (docs/advise.md): `N=64..4096` (×2 steps), `N=64..4096:x3`, `N=64..1024:+64`;
 * 3 to 64 points. An error names what is wrong.
 */
export function parseSweepText(text: string): { symbol: string; values: string[] } | { error: string } | null {
  const t = text.trim();
  if (t === '') return null;
  const m = /^([A-Za-z_]\w*)\s*=\s*(\d+)\s*\.\.\s*(\d+)\s*(?::\s*([x+])\s*(\d+))?$/.exec(t);
  if (!m) return { error: 'write it as N=64..4096, N=64..4096:x3 or N=64..1024:+64' };
  const [, symbol, a, b, kind = 'x', by = '2'] = m;
  const from = BigInt(a!);
  const to = BigInt(b!);
  const step = BigInt(by);
  if (to <= from) return { error: 'the end must be larger than the start' };
  if (kind === 'x' ? step < 2n || from < 1n : step < 1n)
    return { error: kind === 'x' ? 'a factor of at least 2, from at least 1' : 'a step of at least 1' };
  const values: string[] = [];
  for (let v = from; v <= to && values.length <= MAX_POINTS; v = kind === 'x' ? v * step : v + step) values.push(String(v));
  if (values.length > MAX_POINTS) return { error: `more than ${MAX_POINTS} points: take a larger step` };
  if (values.length < 3) return { error: 'a sweep needs at least 3 points' };
  return { symbol: symbol!, values };
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
