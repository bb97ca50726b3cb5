/**
 * Compare: two or more results on the same axes (the first is the reference). Per mode, what changed beyond
 * the noise (view/verdict.ts: Mann–Whitney on the medians, or the p10 intervals where a side is noisy), then
 * the distribution and the time breakdown of every result's modes together.
 */
import { useMemo } from 'react';
import { compareResults, isGpuResult, significanceSentence } from '../../../../electron/engine/view/verdict.js';
import { mountBreakdownChart, mountDistributionChart, type ProfileData } from '../../charts/index.js';
import { removeCompared } from '../actions.js';
import { ChartMount } from '../dock/ChartMount.js';
import { UploadButton } from '../EmptyState.js';
import { Icon } from '../Icon.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';

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
  const data = useMemo<ProfileData>(() => ({ results: labelled }), [labelled]);
  const mixed = useMemo(() => labelled.some((r) => isGpuResult(r.result)) && labelled.some((r) => !isGpuResult(r.result)), [labelled]);
  return (
    <div className="compare-tab" data-testid="compare-tab">
      <div className="compare-list">
        {labelled.map((r, i) => (
          <span key={`${r.label}-${i}`} className={`chip${i === 0 ? ' chip-ref' : ''}`} data-testid="compare-item">
            {i === 0 && <span className="chip-tag">reference</span>}
            <span className={`chip-target${isGpuResult(r.result) ? ' gpu' : ''}`} data-testid="compare-target" title={r.result.device ? r.result.device.name : r.result.machine.cpu}>
              {isGpuResult(r.result) ? `GPU${r.result.device ? ` · ${r.result.device.name}` : ''}` : 'CPU'}
            </span>
            {r.label}
            {!r.label.startsWith(r.result.program.name) && <span className="muted"> · {r.result.program.name}</span>}
            <button type="button" className="chip-x" aria-label={`Remove ${r.label}`} onClick={() => removeCompared(i)}>
              <Icon name="close" size={11} />
            </button>
          </span>
        ))}
        <UploadButton label="Add result files…" accept=".json" testid="compare-add" />
        <button type="button" className="btn" onClick={() => store.set({ dialog: 'open' })}>
          <Icon name="folder" /> Browse…
        </button>
      </div>
      {list.length < 2 ? (
        <div className="dock-message" data-testid="compare-empty">
          {list.length === 0 ? 'Add two or more result files (or run profiles) to see them on the same axes.' : 'Add one more result to compare with this one. Every run and every opened result joins this list.'}
        </div>
      ) : (
        <>
          {mixed && (
            <p className="compare-note" data-testid="compare-mixed">
              CPU and GPU results together: a GPU result has two series per mode (host time, the device synchronised; and device time, from CUDA
              events), a CPU result one (marked CPU). Their host times are compared below, but they measure different machines doing different
              work.
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
                  {Math.abs(c.allocsDelta) >= 0.05 ? `; ${c.allocsDelta > 0 ? '+' : ''}${c.allocsDelta.toFixed(1)} allocations per call` : ''}
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
