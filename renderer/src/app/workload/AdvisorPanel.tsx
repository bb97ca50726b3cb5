/**
 * The advisor panel (docs/advise.md, "In the window"): first and largest, per storage, the mode to use and the
 * workspace to allocate in bytes, with the layout's alignment and why (measured, or — said plainly — from the
 * footprints and allocations alone); then sizing across problem sizes (a sweep typed like `advise --sweep`, drawn
 * as a curve with its closed form); then what blocks EXTERNAL, largest first, with the change that would lift it.
 */
import { useEffect, useState } from 'react';
import { formatBytes, formatBytesExpr, formatCount, type AdviceView } from '../../../../electron/engine/view/public.js';
import { mountSweepChart } from '../../charts/index.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';
import { ChartBox } from './ChartBox.js';
import { parseSweepText, sweepPlaceholder } from './sweep-text.js';
import { loadAdvice } from './workload-actions.js';
import './workload.css';

const groupDigits = (v: number | string): string => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function Recommendations({ advice }: { advice: AdviceView }): React.JSX.Element {
  if (advice.recommendations.length === 0) {
    return <p className="advice-empty">No transient holds memory: there is nothing to allocate.</p>;
  }
  return (
    <div className="advice-recs">
      {advice.recommendations.map((r, k) => (
        <section key={r.storage} className={`advice-rec${k === 0 ? ' lead' : ''}`} data-testid={`advice-rec-${r.storage}`}>
          <div className="advice-rec-head">
            <span className={`advice-mode mode-text-${r.mode.toLowerCase()}`} data-testid="advice-mode">
              {r.mode}
            </span>
            <span className="advice-storage">{r.storage}</span>
          </div>
          {r.mode === 'EXTERNAL' ? (
            <>
              <div className="advice-bytes" data-testid="advice-bytes">
                {r.workspaceBytes === null ? 'symbolic' : formatBytes(r.workspaceBytes)}
              </div>
              <div className="advice-alloc">
                allocate{' '}
                <strong>{r.workspaceBytes === null ? 'a size that needs symbol values' : `${groupDigits(r.workspaceBytes)} B`}</strong> ·{' '}
                {r.layout} layout{r.alignment ? ` · ${r.alignment} B alignment` : ''}
              </div>
            </>
          ) : (
            <div className="advice-alloc">no workspace: nothing in {r.storage} can move to one</div>
          )}
          <ul className="advice-reasons">
            {r.reasons.map((why, i) => (
              <li key={i}>{why}</li>
            ))}
          </ul>
        </section>
      ))}
      <p className={`advice-basis ${advice.basis}`} data-testid="advice-basis">
        {advice.basisNote}
      </p>
    </div>
  );
}

function Sweep({ advice }: { advice: AdviceView }): React.JSX.Element {
  const text = useSelect(store, (s) => s.sweepText);
  const placeholder = useSelect(store, (s) => sweepPlaceholder(s.doc?.symbols ?? []));
  const [draft, setDraft] = useState(text);
  const parsed = parseSweepText(draft);
  const error = parsed && 'error' in parsed ? parsed.error : null;
  const apply = (): void => {
    if (error) return;
    store.set({ sweepText: draft });
    void loadAdvice();
  };
  const sweep = advice.sweep;
  const lead = sweep?.storages[0] ?? null;
  return (
    <section className="advice-section" aria-label="Sizing across problem sizes">
      <h3>Sizing across problem sizes</h3>
      <form
        className="advice-sweep-form"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={placeholder}
          aria-label="Sweep: a symbol and its range"
          aria-invalid={error !== null}
          data-testid="sweep-input"
          spellCheck={false}
        />
        <button type="submit" className="btn" disabled={error !== null || draft.trim() === ''} data-testid="sweep-run">
          Sweep
        </button>
        {error && <span className="advice-error-text">{error}</span>}
      </form>
      {sweep && lead ? (
        <>
          <p className="advice-closed-form" data-testid="sweep-closed-form">
            {lead.packed.closedForm ? (
              <>
                {lead.storage} workspace = <code>{lead.packed.closedForm}</code> B
              </>
            ) : (
              'No closed form: no one polynomial fits every point (alignment steps, or another program sizes the workspace at some values); the points are the answer.'
            )}
          </p>
          <ChartBox mount={mountSweepChart} data={{ sweep }} testid="sweep-chart" className="chart-box sweep-chart" height={240} />
        </>
      ) : (
        <p className="advice-hint">Type a symbol and a range (×2 steps; :x3 or :+64 for others) to see the workspace need grow.</p>
      )}
    </section>
  );
}

function Blockers({ advice }: { advice: AdviceView }): React.JSX.Element {
  const moved = Object.entries(advice.blockedBytes)
    .map(([s, b]) => `${b === null ? 'symbolic' : formatBytes(b)} in ${s}`)
    .join(', ');
  const many = advice.subject.programs > 1;
  return (
    <section className="advice-section" aria-label="What blocks EXTERNAL">
      <h3>What blocks EXTERNAL</h3>
      {advice.blockers.length === 0 ? (
        <p className="advice-hint" data-testid="blockers-none">
          Nothing: every transient that holds memory can move to the workspace.
        </p>
      ) : (
        <>
          <p className="advice-hint">
            {formatCount(advice.blockers.length + advice.blockersLeft)} transient{advice.blockers.length === 1 ? '' : 's'} still allocate in
            EXTERNAL; lifting these would move {moved}.
          </p>
          <table className="advice-table" data-testid="blockers-table">
            <thead>
              <tr>
                <th>transient</th>
                {many && <th>program</th>}
                <th className="num">bytes</th>
                <th>why not</th>
                <th>change that would make it eligible</th>
              </tr>
            </thead>
            <tbody>
              {advice.blockers.map((b) => (
                <tr key={`${b.program}:${b.id}`}>
                  <td title={b.jsonPath}>
                    <code>{b.name}</code>
                  </td>
                  {many && <td>{b.program}</td>}
                  <td className="num">{b.bytes === null ? formatBytesExpr(b.bytesExpr) : formatBytes(b.bytes)}</td>
                  <td>{b.reason}</td>
                  <td>{b.change}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {advice.blockersLeft > 0 && <p className="advice-hint">… and {formatCount(advice.blockersLeft)} more, smaller.</p>}
        </>
      )}
    </section>
  );
}

export function AdvisorPanel(): React.JSX.Element {
  const advice = useSelect(store, (s) => s.advice);
  const error = useSelect(store, (s) => s.adviceError);
  const busy = useSelect(store, (s) => s.advising);
  return (
    <div className="advisor" data-testid="advisor-panel">
      <div className="advisor-head">
        <h2>Advisor</h2>
        {busy && <span className="spinner" aria-label="advising" />}
      </div>
      {error && (
        <p className="advice-error-text" role="alert">
          {error.message}
        </p>
      )}
      {advice && (
        <>
          <Recommendations advice={advice} />
          {advice.hazards.length > 0 && (
            <section className="advice-section advice-hazards" aria-label="Calls that overrun a workspace configured once">
              <h3>Calls that overrun a workspace configured once</h3>
              <ul>
                {advice.hazards.map((h) => (
                  <li key={`${h.storage}:${h.position}`}>
                    {h.program} at position {h.position} needs {formatBytes(h.neededBytes)} of {h.storage}; the programs' first calls
                    configured {formatBytes(h.configuredBytes)}. Set the workspace again whenever symbol values change.
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Sweep advice={advice} />
          <Blockers advice={advice} />
        </>
      )}
      {!advice && !error && <p className="advice-hint">Computing the advice…</p>}
    </div>
  );
}

/** The dock's Advisor tab on an SDFG: advised again whenever the analysis changes (symbols, target). */
export function AdvisorTab(): React.JSX.Element {
  const analysis = useSelect(store, (s) => s.analysis);
  useEffect(() => {
    void loadAdvice();
  }, [analysis]);
  return <AdvisorPanel />;
}
