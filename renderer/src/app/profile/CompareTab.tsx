/**
 * Compare: two or more results on the same axes (the first is the reference). Each run with its file, symbols,
 * modes, calls and machine, and a warning when runs are of different programs or symbols (compare-model.ts).
 * Per mode, what changed beyond the noise (view/verdict.ts: Mann–Whitney on the medians, or the p10 intervals
 * where a side is noisy, its threshold said under it), then the distribution (on a log axis when the runs differ
 * tenfold) and the time breakdown of every result's modes together.
 */
import { useMemo, useState } from 'react';
import { compareResults, isGpuResult, significanceSentence } from '../../../../electron/engine/view/public.js';
import { mountBreakdownChart, mountDistributionChart, type ProfileData } from '../../charts/index.js';
import { removeCompared } from '../results.js';
import { ChartMount } from '../dock/ChartMount.js';
import { UploadButton } from '../EmptyState.js';
import { Icon } from '../Icon.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';
import { compareWarnings, runFacts, wantsLogAxis } from './compare-model.js';
import './chart-cards.css';
import './compare.css';

export function CompareTab(): React.JSX.Element {
  const list = useSelect(store, (s) => s.compare);
  const labelled = useMemo(() => {
    const seen = new Map<string, number>();
    return list.map((r) => {
      const n = (seen.get(r.name) ?? 0) + 1;
      seen.set(r.name, n);
      return { label: n > 1 ? `${r.name} (${n})` : r.name, result: r.result };
    });
  }, [list]);
  const changes = useMemo(() => compareResults(labelled), [labelled]);
  const warnings = useMemo(() => compareWarnings(labelled), [labelled]);
  // Log by default when the runs' times differ tenfold; the user's choice stands until the list changes.
  const [axis, setAxis] = useState<{ list: typeof labelled; log: boolean } | null>(null);
  const log = axis && axis.list === labelled ? axis.log : wantsLogAxis(labelled);
  const data = useMemo<ProfileData>(() => ({ results: labelled, timeScale: log ? 'log' : 'linear' }), [labelled, log]);
  const mixed = useMemo(() => labelled.some((r) => isGpuResult(r.result)) && labelled.some((r) => !isGpuResult(r.result)), [labelled]);
  return (
    <div className="compare-tab" data-testid="compare-tab">
      {labelled.length > 0 && (
        <table className="compare-runs" data-testid="compare-runs">
          <thead>
            <tr>
              <th>run</th>
              <th>file</th>
              <th>symbols</th>
              <th>modes</th>
              <th>calls</th>
              <th>machine</th>
              <th aria-label="Remove" />
            </tr>
          </thead>
          <tbody>
            {labelled.map((r, i) => {
              const f = runFacts(r.result);
              return (
                <tr key={`${r.label}-${i}`} className={i === 0 ? 'compare-ref' : ''} data-testid="compare-item">
                  <td className="compare-run-name">
                    {i === 0 && <span className="chip-tag">reference</span>}
                    <span
                      className={`chip-target${isGpuResult(r.result) ? ' gpu' : ''}`}
                      data-testid="compare-target"
                      title={r.result.device ? r.result.device.name : r.result.machine.cpu}
                    >
                      {isGpuResult(r.result) ? `GPU${r.result.device ? ` · ${r.result.device.name}` : ''}` : 'CPU'}
                    </span>
                    <span title={r.label}>{r.label}</span>
                  </td>
                  <td title={f.filePath} data-testid="compare-file">
                    {f.file}
                  </td>
                  <td title={f.symbolsAll} data-testid="compare-symbols">
                    {f.symbols}
                  </td>
                  <td title={f.modes} data-testid="compare-modes">
                    {f.modes}
                  </td>
                  <td data-testid="compare-calls">{f.calls}</td>
                  <td title={f.machineAll} data-testid="compare-machine">
                    {f.machine}
                  </td>
                  <td>
                    <button type="button" className="chip-x" aria-label={`Remove ${r.label}`} onClick={() => removeCompared(i)}>
                      <Icon name="close" size={11} />
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="compare-list">
        <UploadButton label="Add result files…" accept=".json" testid="compare-add" />
        <button type="button" className="btn" onClick={() => store.set({ dialog: 'open' })}>
          <Icon name="folder" /> Browse…
        </button>
      </div>
      {list.length < 2 ? (
        <div className="dock-message" data-testid="compare-empty">
          {list.length === 0
            ? 'Add two or more result files (or run profiles) to see them on the same axes.'
            : 'Add one more result to compare with this one. Every run and every opened result joins this list.'}
        </div>
      ) : (
        <>
          {warnings.map((w) => (
            <p key={w.kind} className="compare-warn" role="alert" data-testid={`compare-warn-${w.kind}`}>
              <Icon name="warn" size={13} /> {w.text}
            </p>
          ))}
          {mixed && (
            <p className="compare-note" data-testid="compare-mixed">
              CPU and GPU results together: a GPU result has two series per mode (host time, the device synchronised; and device time, from
              CUDA events), a CPU result one (marked CPU). Their host times are compared below, but they measure different machines doing
              different work.
            </p>
          )}
          <ul className="changes" data-testid="compare-changes">
            {changes.map((c) => (
              <li key={`${c.mode}|${c.other}`} className={`change change-${c.time.verdict}`}>
                <span className="change-mode">{c.mode}</span>
                <span>
                  {c.other}: {c.time.text}
                  {c.time.verdict === 'faster' || c.time.verdict === 'slower' ? ` than ${c.reference}` : ''}
                  {c.crossTarget ? ' (host times, CPU against GPU)' : ''}
                  {c.noise.length > 0 && (
                    <span className="change-noise" data-testid="compare-noise" title={c.noise.join('\n')}>
                      {' '}
                      · noisy ({c.noise.join('; ')}), so compared at p10
                    </span>
                  )}
                  {c.device ? `; device time: ${c.device.text}` : ''}
                  {Math.abs(c.allocsDelta) >= 0.05
                    ? `; ${c.allocsDelta > 0 ? '+' : ''}${c.allocsDelta.toFixed(1)} allocations per call`
                    : ''}
                </span>
              </li>
            ))}
            {changes.length === 0 && <li className="muted">These results share no mode label to compare.</li>}
          </ul>
          {changes.length > 0 && (
            <p className="muted small" data-testid="compare-significance">
              {significanceSentence('median')}
              {changes.some((c) => c.time.statistic === 'p10') ? ` ${significanceSentence('p10')}` : ''}
            </p>
          )}
          <div className="compare-axis">
            <label title="A log axis keeps runs whose times differ tenfold or more readable on one axis">
              <input
                type="checkbox"
                checked={log}
                onChange={(e) => setAxis({ list: labelled, log: e.target.checked })}
                data-testid="compare-log"
              />{' '}
              log time axis
            </label>
          </div>
          <div className="chart-grid">
            <figure className="chart-card wide">
              <ChartMount mount={mountDistributionChart} data={data} source="gantt" testid="compare-distribution" />
            </figure>
            <figure className="chart-card wide">
              <ChartMount mount={mountBreakdownChart} data={data} source="gantt" testid="compare-breakdown" />
            </figure>
          </div>
        </>
      )}
    </div>
  );
}
