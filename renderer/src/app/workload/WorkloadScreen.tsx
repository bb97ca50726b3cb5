/**
 * A workload document's window (docs/renderer.md, "Workload view"): the Workload chart (calls, what each mode holds
 * over them, each program's workspace need) beside the advisor panel. Clicking a program opens its graph.
 */
import { useState } from 'react';
import { formatBytes } from '../../../../electron/engine/view/public.js';
import { mountWorkloadChart } from '../../charts/index.js';
import { openWorkloadProgram } from '../open/index.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';
import { AdvisorPanel } from './AdvisorPanel.js';
import { ChartBox } from './ChartBox.js';
import './workload.css';

function WorkloadMeasuredFacts(): React.JSX.Element | null {
  const m = useSelect(store, (s) => s.workload?.measured ?? null);
  if (!m) return null;
  return (
    <section className="workload-measured" aria-label="Measured">
      <p className="workload-verdict">{m.verdict}</p>
      {m.findings.map((f, i) => (
        <p key={i} className="workload-finding">
          {f}
        </p>
      ))}
    </section>
  );
}

export function WorkloadScreen(): React.JSX.Element {
  const view = useSelect(store, (s) => s.workload);
  const error = useSelect(store, (s) => s.workloadError);
  const [picked, setPicked] = useState<string | null>(null);
  // The storage with the largest workspace first; another one (a GPU workload's host heap) by choice.
  const storage = picked && view?.storages.includes(picked) ? picked : (view?.storages[0] ?? null);
  return (
    <div className="workload-screen" data-testid="workload-view">
      <main className="workload-main">
        {error && (
          <p className="advice-error-text" role="alert">
            {error.message}
          </p>
        )}
        {!view && !error && (
          <p className="advice-hint">
            <span className="spinner" /> analysing every call…
          </p>
        )}
        {view && (
          <>
            {view.storages.length > 1 && (
              <label className="workload-storage">
                storage{' '}
                <select value={storage ?? ''} onChange={(e) => setPicked(e.target.value)} data-testid="workload-storage">
                  {view.storages.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <ChartBox
              mount={mountWorkloadChart}
              data={{ view, storage }}
              testid="workload-chart"
              className="chart-box workload-chart"
              onPick={(key) => void openWorkloadProgram(key)}
            />
            <div className="workload-programs" aria-label="Programs">
              {view.programs.map((p) => (
                <button
                  type="button"
                  key={p.key}
                  className="btn workload-program"
                  data-testid={`workload-program-${p.key}`}
                  title={`Open ${p.file}: its graph, lifetimes and workspace`}
                  onClick={() => void openWorkloadProgram(p.key)}
                >
                  {p.key} <span className="muted">{storage ? formatBytes(p.workspace[storage] ?? 0) : ''}</span>
                </button>
              ))}
            </div>
            {view.notes.map((n, i) => (
              <p key={i} className="advice-hint">
                {n}
              </p>
            ))}
            <WorkloadMeasuredFacts />
          </>
        )}
      </main>
      <aside className="workload-side">
        <AdvisorPanel />
      </aside>
    </div>
  );
}
