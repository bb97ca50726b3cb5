/**
 * The three dock tabs that show the analysis: the transients table (renderer/src/views/), the lifetime timeline
 * and the workspace map (renderer/src/charts/). Each one reports when it has drawn the analysis, which is what
 * `tlab:ready` waits for.
 */
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { AnalysisView } from '../../../../electron/engine/view/public.js';
import { mountLifetimeChart, mountWorkspaceChart, type LifetimeData, type WorkspaceData } from '../../charts/index.js';
import { TransientsTable } from '../../views/TransientsTable.js';
import { hoverTransient, selectTransient } from '../actions.js';
import { analysisDrawn } from '../open/index.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';
import { ChartMount } from './ChartMount.js';

function Waiting(): React.JSX.Element {
  const analysing = useSelect(store, (s) => s.analysing);
  const error = useSelect(store, (s) => s.analysisError);
  const reading = useSelect(store, (s) => s.doc?.preview === true);
  if (error) {
    return (
      <div className="dock-message error" role="alert" data-testid="analysis-error">
        <b>The analysis failed:</b> {error.message}
        {error.jsonPath && (
          <>
            {' '}
            at <code>{error.jsonPath}</code>
          </>
        )}
        {error.details.length > 0 && <pre className="error-details">{error.details.join('\n')}</pre>}
      </div>
    );
  }
  return (
    <div className="dock-message">
      {analysing ? (
        <>
          <span className="spinner" />{' '}
          {reading
            ? 'Reading the nested SDFGs (the graph above shows the root already)…'
            : 'Analysing: lifetimes, eligibility, workspace layouts…'}
        </>
      ) : (
        'No analysis yet.'
      )}
    </div>
  );
}

export function TransientsTab(): React.JSX.Element {
  const view = useAnalysis();
  const theme = useSelect(store, (s) => s.theme);
  const selected = useSelect(store, (s) => s.selection?.transient ?? null);
  useEffect(() => {
    if (!view) return;
    const id = requestAnimationFrame(() => analysisDrawn(view));
    return () => cancelAnimationFrame(id);
  }, [view]);
  if (!view) return <Waiting />;
  return (
    <div className="tab-fill" data-testid="transients-table">
      <TransientsTable
        view={view}
        theme={theme}
        selectedTransient={selected}
        onSelect={(id) => selectTransient(id, 'table')}
        onHover={(id) => {
          if (store.get().hoverTransient !== id) hoverTransient(id);
        }}
      />
    </div>
  );
}

/**
 * The analysis as the dock's views read it: deferred, so that a new analysis re-renders them in React's
 * interruptible (time-sliced) mode instead of inside the task that received it.
 */
function useAnalysis() {
  return useDeferredValue(useSelect(store, (s) => s.analysis));
}

/** Storages that hold memory, the biggest peak first; a picker when there are several. */
function StoragePicker({
  storages,
  value,
  onChange,
}: {
  storages: string[];
  value: string | null;
  onChange: (s: string | null) => void;
}): React.JSX.Element | null {
  if (storages.length < 2) return null;
  return (
    <label className="tab-option">
      storage
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} data-testid="storage-picker">
        <option value="">largest</option>
        {storages.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </label>
  );
}

function useStorage(view: AnalysisView | null, kind: 'memory' | 'workspace'): [string | null, (s: string | null) => void, string[]] {
  const [storage, setStorage] = useState<string | null>(null);
  const storages = useMemo(() => (view ? (kind === 'memory' ? view.memory : view.workspace).map((m) => m.storage) : []), [view, kind]);
  useEffect(() => {
    if (storage !== null && !storages.includes(storage)) setStorage(null);
  }, [storages, storage]);
  return [storage, setStorage, storages];
}

export function LifetimesTab(): React.JSX.Element {
  const view = useAnalysis();
  const [storage, setStorage, storages] = useStorage(view, 'memory');
  const [rows, setRows] = useState<'memory' | 'all'>('memory');
  const data = useMemo<LifetimeData | null>(() => (view ? { view, storage, rows } : null), [view, storage, rows]);
  if (!view || !data) return <Waiting />;
  return (
    <div className="tab-chart">
      <div className="tab-options">
        <StoragePicker storages={storages} value={storage} onChange={setStorage} />
        <label className="tab-option">
          rows
          <select value={rows} onChange={(e) => setRows(e.target.value as 'memory' | 'all')} data-testid="lifetime-rows">
            <option value="memory">transients that hold memory</option>
            <option value="all">every transient</option>
          </select>
        </label>
      </div>
      <ChartMount
        mount={mountLifetimeChart}
        data={data}
        source="lifetimes"
        testid="lifetime-chart"
        frames="lifetimes"
        onDrawn={(d) => analysisDrawn(d.view)}
      />
    </div>
  );
}

export function WorkspaceTab(): React.JSX.Element {
  const view = useAnalysis();
  const [storage, setStorage, storages] = useStorage(view, 'workspace');
  const data = useMemo<WorkspaceData | null>(() => (view ? { view, storage } : null), [view, storage]);
  if (!view || !data) return <Waiting />;
  if (view.workspace.length === 0) {
    return (
      <div className="dock-message" data-testid="workspace-empty">
        {view.table.count === 0
          ? 'This program has no transients: there is nothing to place in an EXTERNAL workspace.'
          : `No transient of this program can move into an EXTERNAL workspace: ${
              view.totals.eligible.EXTERNAL === 0
                ? 'none is EXTERNAL-eligible (the Transients tab says why for each).'
                : 'the eligible ones hold no memory of their own.'
            }`}
      </div>
    );
  }
  return (
    <div className="tab-chart">
      {storages.length > 1 && (
        <div className="tab-options">
          <StoragePicker storages={storages} value={storage} onChange={setStorage} />
        </div>
      )}
      <ChartMount
        mount={mountWorkspaceChart}
        data={data}
        source="workspace"
        testid="workspace-chart"
        onDrawn={(d) => analysisDrawn(d.view)}
      />
    </div>
  );
}
