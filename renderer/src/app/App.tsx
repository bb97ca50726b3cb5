/**
 * The window: top bar; outline | graph | selection; the resizable dock with its five tabs. With no document the
 * centre is the empty state. Errors, dialogs, the drop overlay and toasts float above.
 */
import { useEffect, useState } from 'react';
import { palette } from '../theme/index.js';
// The window's styles before its views' (each view imports its own).
import './app.css';
import { openLocalFiles } from './open/index.js';
import { Dock } from './dock/Dock.js';
import { EmptyState } from './EmptyState.js';
import { ErrorPanel } from './ErrorPanel.js';
import { GraphPane } from './graph/GraphPane.js';
import { useKeyboard } from './keyboard.js';
import { ExportDialog } from './ExportDialog.js';
import { OpenDialog } from './OpenDialog.js';
import { Outline } from './Outline.js';
import { SelectionPanel } from './selection/SelectionPanel.js';
import { store } from './state.js';
import { useSelect } from './store.js';
import { Toasts } from './Toasts.js';
import { TopBar } from './TopBar.js';
import { WorkloadScreen } from './workload/WorkloadScreen.js';

function useThemeVariables(): void {
  const theme = useSelect(store, (s) => s.theme);
  useEffect(() => {
    const p = palette(theme);
    const root = document.documentElement;
    root.dataset['theme'] = theme;
    // CSSOM custom properties (allowed by the strict CSP, unlike style attributes): one palette for CSS and canvas.
    const vars: Record<string, string> = {
      '--bg': p.background,
      '--surface': p.surface,
      '--surface-alt': p.surfaceAlt,
      '--text': p.text,
      '--muted': p.textMuted,
      '--border': p.border,
      '--grid': p.grid,
      '--accent': p.accent,
      '--hover': p.hover,
      '--match': p.match,
      '--danger': p.danger,
    };
    for (const [mode, c] of Object.entries(p.modes)) vars[`--mode-${mode.toLowerCase()}`] = c;
    for (const [mode, c] of Object.entries(p.modeFill)) vars[`--mode-${mode.toLowerCase()}-fill`] = c;
    for (const [fam, c] of Object.entries(p.storage)) vars[`--storage-${fam}`] = c;
    vars['--storage-ring'] = p.graph.accessBorder;
    for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v);
    root.style.colorScheme = theme;
  }, [theme]);
}

function DropOverlay(): React.JSX.Element | null {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = 0;
      setOver(false);
      // The desktop preload has taken this drop (files with paths open through the main process): no upload.
      if (e.defaultPrevented) return;
      e.preventDefault();
      void openLocalFiles([...(e.dataTransfer?.files ?? [])]);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!over) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-card">Drop an .sdfg, .sdfgz or result .json to open it</div>
    </div>
  );
}

/** A connection that takes longer than this says so; a quick one shows nothing (a banner that comes and goes
 * would also resize the workspace, and the graph canvas with it, just as a `?open=` file starts opening). */
const CONNECTING_BANNER_DELAY_MS = 600;

function ConnectionBanner(): React.JSX.Element | null {
  const c = useSelect(store, (s) => s.connection);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (c.status !== 'connecting') return;
    const t = setTimeout(() => setSlow(true), CONNECTING_BANNER_DELAY_MS);
    return () => clearTimeout(t);
  }, [c.status]);
  if (c.status === 'ready') return null;
  if (c.status === 'connecting') return slow ? <div className="banner banner-info">Connecting to the Transient Lab host…</div> : null;
  return (
    <div className="banner banner-error" role="alert" data-testid="connection-banner">
      {c.status === 'lost' ? 'The connection to the host is gone' : 'Could not connect to the host'}: {c.message}.{' '}
      {c.status === 'lost' ? 'Restart `transient-lab serve` and open the URL it prints.' : ''}
    </div>
  );
}

export function App(): React.JSX.Element {
  useThemeVariables();
  useKeyboard();
  const hasDoc = useSelect(store, (s) => s.doc !== null);
  const opening = useSelect(store, (s) => s.opening);
  const dockHeight = useSelect(store, (s) => s.dockHeight);
  const error = useSelect(store, (s) => s.error);
  const dialog = useSelect(store, (s) => s.dialog);
  const resultOnly = useSelect(store, (s) => s.doc === null && s.opening === null && s.result !== null);
  const isWorkload = useSelect(store, (s) => s.doc?.workload !== undefined && s.doc !== null);
  const showWorkspace = (hasDoc || opening !== null || resultOnly) && !isWorkload;

  return (
    <div className="app" data-testid="app">
      <TopBar />
      <ConnectionBanner />
      {/* The workspace is mounted from the start (hidden behind the empty state), so that the graph's layout
          worker is up before the first file is opened. */}
      {/* A result opened with no SDFG (`?open=result.json`, a dropped result): the dock alone, Profile and Compare. */}
      <div
        className="workspace"
        hidden={!showWorkspace}
        style={{ gridTemplateRows: resultOnly ? 'minmax(0, 1fr)' : `minmax(160px, 1fr) ${dockHeight}px` }}
      >
        <div className="middle" hidden={resultOnly}>
          {/* A workload has no SDFG of its own (its Workload view replaces the workspace): nothing to outline. */}
          {!isWorkload && <Outline />}
          <GraphPane />
          {!isWorkload && <SelectionPanel />}
        </div>
        {showWorkspace && <Dock />}
      </div>
      {isWorkload && <WorkloadScreen />}
      {!showWorkspace && !isWorkload && <EmptyState />}
      {error && <ErrorPanel report={error} />}
      {dialog === 'open' && <OpenDialog />}
      {dialog === 'export' && <ExportDialog />}
      <DropOverlay />
      <Toasts />
    </div>
  );
}
