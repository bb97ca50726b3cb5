/**
 * Opening the Profile tab ready to run: from the top bar's Profile button, Ctrl+P and the desktop menu. It used to
 * switch the tab only, leaving the focus on the button and Run below the fold of a short dock. Kept apart from the
 * actions (which import the profile run) so that every caller can import it without a cycle.
 */
import { dockMax } from '../dock/dock-size.js';
import { store } from '../state.js';

/** The dock height the Profile tab needs to show the form's head (Run) and its first settings. */
const PROFILE_DOCK_MIN = 300;

let runFocusWanted = false;
const runFocusListeners = new Set<() => void>();

/**
 * The top bar's Profile button, Ctrl+P and the desktop menu: the Profile tab, in a dock tall enough for the form,
 * with the focus on Run (the settings are filled in: Enter or Space runs them; Tab walks on to the settings).
 */
export function openProfile(): void {
  // A result opened on its own (no SDFG): its Profile tab, nothing to run.
  if (!store.get().doc) return store.set({ dockTab: 'profile' });
  store.set((s) => ({
    dockTab: 'profile',
    ...(s.dockHeight < PROFILE_DOCK_MIN ? { dockHeight: Math.min(PROFILE_DOCK_MIN, dockMax()) } : {}),
  }));
  runFocusWanted = true;
  for (const l of [...runFocusListeners]) l();
}

/** The form subscribes: `focus` runs now if a focus on Run is pending (the tab was just opened), and on later asks. */
export function onRunFocus(focus: () => void): () => void {
  const take = (): void => {
    if (!runFocusWanted) return;
    runFocusWanted = false;
    focus();
  };
  runFocusListeners.add(take);
  take();
  return () => runFocusListeners.delete(take);
}
