/**
 * The window's shortcuts. Ctrl (⌘ on macOS) + O open, P profile, E export, F search; 1–6 switch the dock tabs,
 * F fits the graph, Esc closes a dialog or clears the selection. Plain keys are ignored while typing.
 */
import { useEffect } from 'react';
import { clearSelection, dismissError, setDockTab } from './actions.js';
import { openExport } from './results.js';
import { graphHandle } from './graph/handle.js';
import { openProfile } from './profile/open-profile.js';
import { DOCK_TABS, store } from './state.js';

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}

export function handleKey(e: KeyboardEvent): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const s = store.get();
  if (mod && !e.altKey) {
    switch (e.key.toLowerCase()) {
      case 'o':
        store.set({ dialog: 'open', error: null });
        return true;
      case 'p':
        openProfile();
        return true;
      case 'e':
        openExport();
        return true;
      case 'f': {
        const input = document.querySelector<HTMLInputElement>('[data-testid="outline-search"]');
        if (!input) return false;
        input.focus();
        input.select();
        return true;
      }
      default:
        return false;
    }
  }
  if (e.key === 'Escape') {
    if (s.error) dismissError();
    else if (s.dialog) store.set({ dialog: null });
    else if (typing(e.target)) (e.target as HTMLElement).blur();
    else clearSelection();
    return true;
  }
  if (typing(e.target) || e.altKey || mod) return false;
  if (/^[1-6]$/.test(e.key) && s.doc && !s.doc.workload) {
    setDockTab(DOCK_TABS[Number(e.key) - 1]!);
    return true;
  }
  if ((e.key === 'f' || e.key === 'F') && s.doc) {
    graphHandle.current?.fit(true);
    return true;
  }
  return false;
}

export function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      // The focused graph canvas handles F and +/- itself; Esc still clears the shared selection.
      if (e.defaultPrevented && e.key !== 'Escape') return;
      if (handleKey(e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
