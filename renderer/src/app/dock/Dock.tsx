/**
 * The bottom dock: six tabs (1–6), a one-line summary of what the tab shows on the right, and a handle on its top
 * edge to resize it (drag or arrow keys; remembered). Only the visible tab is mounted.
 */
import { useDeferredValue, useEffect, useRef } from 'react';
import { formatBytes, num, type AnalysisView } from '../../../../electron/engine/view/public.js';
import { setDockTab } from '../actions.js';
import { CompareTab } from '../profile/CompareTab.js';
import { LastResultsOffer } from '../profile/LastResults.js';
import { ProfileTab } from '../profile/ProfileTab.js';
import { DOCK_TAB_TITLES, DOCK_TABS, store, type DockTab } from '../state.js';
import { useSelect } from '../store.js';
import { LifetimesTab, TransientsTab, WorkspaceTab } from './AnalysisTabs.js';
import { AdvisorTab } from '../workload/AdvisorPanel.js';
import { clampDock, defaultDockHeight, DOCK_MIN, dockMax, forgetDockHeight, rememberDockHeight } from './dock-size.js';
import './dock.css';

function peakSummary(view: AnalysisView): string {
  const parts: string[] = [];
  for (const m of view.memory) {
    if (!m.curves) {
      parts.push(`${m.storage}: symbolic`);
      continue;
    }
    const scoped = m.curves.find((c) => c.mode === 'SCOPED');
    const ext = m.curves.find((c) => c.mode === 'EXTERNAL');
    if (scoped && ext)
      parts.push(`${m.storage} peak: SCOPED ${formatBytes(num(scoped.peak.bytes))}, EXTERNAL ${formatBytes(num(ext.peak.bytes))}`);
  }
  return parts.slice(0, 2).join(' · ');
}

function TabSummary({ tab }: { tab: DockTab }): React.JSX.Element | null {
  const view = useDeferredValue(useSelect(store, (s) => s.analysis));
  const analysing = useSelect(store, (s) => s.analysing);
  const result = useSelect(store, (s) => s.result);
  const compare = useSelect(store, (s) => s.compare.length);
  if (analysing && tab !== 'profile' && tab !== 'compare' && tab !== 'advisor')
    return (
      <span className="dock-summary">
        <span className="spinner" /> analysing…
      </span>
    );
  if (!view) return null;
  let text = '';
  if (tab === 'transients')
    text = `${view.totals.transients} transients · ${view.totals.holdingMemory} hold memory · ${view.totals.eligible.EXTERNAL} EXTERNAL-eligible`;
  else if (tab === 'lifetimes')
    text = [`${view.analysis.steps.length} step${view.analysis.steps.length === 1 ? '' : 's'}`, peakSummary(view)]
      .filter(Boolean)
      .join(' · ');
  else if (tab === 'workspace')
    text = view.workspace
      .map(
        (w) =>
          `${w.storage}: packed ${w.packed ? formatBytes(w.packed.bytes) : 'symbolic'} vs dace ${w.dace.bytes === null ? 'symbolic' : formatBytes(w.dace.bytes)}`,
      )
      .join(' · ');
  else if (tab === 'profile') text = result ? `${result.name}` : '';
  else if (tab === 'compare') text = compare ? `${compare} result${compare === 1 ? '' : 's'}` : '';
  return <span className="dock-summary">{text}</span>;
}

/** Arrow keys move the edge by STEP px (Shift: four steps); Page Up/Down by BIG. */
const STEP = 16;
const BIG = 120;

function setHeight(h: number, remember: boolean): void {
  const v = clampDock(h);
  store.set({ dockHeight: v });
  if (remember) rememberDockHeight(v);
}

/** The dock's top edge: drag it, or focus it (Tab) and use the arrow keys; a double-click goes back to the default.
 * The height chosen is remembered across reloads (dock-size.ts). */
function ResizeHandle(): React.JSX.Element {
  const start = useRef<{ y: number; h: number } | null>(null);
  const height = useSelect(store, (s) => s.dockHeight);
  useEffect(() => {
    const move = (e: PointerEvent): void => {
      if (start.current) setHeight(start.current.h + (start.current.y - e.clientY), false);
    };
    const up = (): void => {
      if (!start.current) return;
      start.current = null;
      document.body.classList.remove('resizing');
      rememberDockHeight(store.get().dockHeight);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
  }, []);
  return (
    <div
      className="dock-resize"
      role="separator"
      tabIndex={0}
      aria-orientation="horizontal"
      aria-label="Resize the dock: drag, or arrow keys; double-click for the default height"
      aria-valuemin={DOCK_MIN}
      aria-valuemax={dockMax()}
      aria-valuenow={height}
      title="Drag to resize (or focus and use ↑ ↓); double-click: default height"
      data-testid="dock-resize"
      onPointerDown={(e) => {
        start.current = { y: e.clientY, h: store.get().dockHeight };
        document.body.classList.add('resizing');
        e.preventDefault();
      }}
      onKeyDown={(e) => {
        const h = store.get().dockHeight;
        const step = e.shiftKey ? 4 * STEP : STEP;
        const to: Record<string, number> = {
          ArrowUp: h + step,
          ArrowDown: h - step,
          PageUp: h + BIG,
          PageDown: h - BIG,
          Home: dockMax(),
          End: DOCK_MIN,
        };
        if (!(e.key in to) || e.ctrlKey || e.metaKey || e.altKey) return;
        e.preventDefault();
        setHeight(to[e.key]!, true);
      }}
      onDoubleClick={() => {
        forgetDockHeight();
        store.set({ dockHeight: defaultDockHeight() });
      }}
    />
  );
}

export function Dock(): React.JSX.Element {
  const tab = useSelect(store, (s) => s.dockTab);
  const running = useSelect(store, (s) => s.run?.status === 'running');
  // With no SDFG open (a result on its own) only the result tabs have something to show.
  const hasDoc = useSelect(store, (s) => s.doc !== null || s.opening !== null);
  return (
    <section className="dock" aria-label="Views">
      <ResizeHandle />
      <div className="dock-tabs" role="tablist">
        {DOCK_TABS.map(
          (t, i) =>
            (hasDoc || t === 'profile' || t === 'compare') && (
              <button
                type="button"
                key={t}
                role="tab"
                aria-selected={t === tab}
                className={`dock-tab${t === tab ? ' active' : ''}`}
                data-testid={`tab-${t}`}
                onClick={() => setDockTab(t)}
                title={`${DOCK_TAB_TITLES[t]} (${i + 1})`}
              >
                {DOCK_TAB_TITLES[t]}
                {t === 'profile' && running && <span className="tab-dot" aria-label="running" />}
              </button>
            ),
        )}
        <TabSummary tab={tab} />
      </div>
      <LastResultsOffer />
      <div className="dock-body" role="tabpanel" data-testid={`panel-${tab}`}>
        {tab === 'transients' && <TransientsTab />}
        {tab === 'lifetimes' && <LifetimesTab />}
        {tab === 'workspace' && <WorkspaceTab />}
        {tab === 'profile' && <ProfileTab />}
        {tab === 'compare' && <CompareTab />}
        {tab === 'advisor' && <AdvisorTab />}
      </div>
    </section>
  );
}
