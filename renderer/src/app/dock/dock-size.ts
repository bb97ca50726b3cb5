/**
 * The dock's height: a default from the window's height, or the one the user chose (dragging its top edge, or the
 * arrow keys on it), remembered across reloads in localStorage. Always clamped: the dock keeps at least its tabs
 * and a few rows, the graph at least 160 px under the 48 px top bar. Plain functions (state.ts reads the initial
 * height from here; the dock writes through the store).
 */
export const DOCK_MIN = 120;
const GRAPH_MIN = 160;
const TOP_BAR = 48;
const KEY = 'tlab:dock-height';

export function dockMax(): number {
  return Math.max(DOCK_MIN, window.innerHeight - TOP_BAR - GRAPH_MIN);
}

export function clampDock(h: number): number {
  return Math.round(Math.max(DOCK_MIN, Math.min(dockMax(), h)));
}

/** 38 % of the window, between 220 and 420 px: what a first visit gets, and what a double-click goes back to. */
export function defaultDockHeight(): number {
  return clampDock(Math.max(220, Math.min(420, window.innerHeight * 0.38)));
}

/** The height the user chose, or null (never chosen, storage off, or a value that is not a height). */
export function savedDockHeight(): number | null {
  try {
    const v = Number(window.localStorage.getItem(KEY));
    return Number.isFinite(v) && v > 0 ? clampDock(v) : null;
  } catch {
    return null;
  }
}

export function initialDockHeight(): number {
  return savedDockHeight() ?? defaultDockHeight();
}

export function rememberDockHeight(h: number): void {
  try {
    window.localStorage.setItem(KEY, String(Math.round(h)));
  } catch {
    // Storage off (privacy mode): the height holds for this page only.
  }
}

export function forgetDockHeight(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Nothing was stored.
  }
}
