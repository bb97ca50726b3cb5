/**
 * The window's small actions: errors and toasts, the selection every view shares, and the chrome (dock tab and
 * height, theme). The React views and the keyboard call actions, never the client directly; the larger ones
 * have modules of their own, each with its race rules: opening a document (open/), its analysis (analysis.ts),
 * results (results.ts), profile runs (profile-actions.ts), the connection (connect.ts).
 */
import type { ContractError, TransientLabClient } from '../../../electron/ipc/contract.js';
import { HostError } from '../host/index.js';
import type { ThemeName } from '../theme/index.js';
import { store, type DockTab, type ElementSelection, type ErrorReport, type Selection, type Toast } from './state.js';
import { savedDockHeight } from './dock/dock-size.js';

/** A thrown value as the contract's error shape (HostErrors keep every field; anything else is a bug). */
export function asContractError(err: unknown): ContractError {
  if (err instanceof HostError) return err.toJSON();
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message, file: null, jsonPath: null, details: [] };
}

/** The connected host's client; throws a transport error before the window is connected. */
export function client(): TransientLabClient {
  const c = store.get().client;
  if (!c)
    throw new HostError({ kind: 'transport', message: 'not connected to a Transient Lab host', file: null, jsonPath: null, details: [] });
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

function setTheme(theme: ThemeName): void {
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
