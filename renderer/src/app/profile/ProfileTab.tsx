/**
 * The Profile tab: the run's settings on the left; on the right the run's progress (stage by stage, calls
 * i/N, cancel), then the result: the verdict in large type (the fastest mode, the run's noise first; each
 * EXTERNAL layout against POOL under it), the verification badge, a
 * per-mode table, and the charts (distribution, every call, alloc/free/compute, the sampled call's Gantt).
 */
import { useEffect, useMemo, useState } from 'react';
import type { ResultDoc } from '../../../../electron/ipc/contract.js';
import {
  deviceSummary,
  EMULATED_DEVICE,
  isEmulatedResult,
  deviceVersions,
  formatBytes,
  formatReleaseThreshold,
  libraryNodesLine,
  profileVerdict,
  verificationBadge,
  type Headline,
  type Verdict,
} from '../../../../electron/engine/view/public.js';
import { mountBreakdownChart, mountCallsChart, mountDistributionChart, mountGanttChart, type ProfileData } from '../../charts/index.js';
import { defaultResultName, downloadResult, saveResultOnHost } from '../results.js';
import { ChartMount } from '../dock/ChartMount.js';
import { UploadButton } from '../EmptyState.js';
import { Icon } from '../Icon.js';
import { cancelProfile, progressOf, STAGES, startProfile } from '../profile-actions.js';
import { store } from '../state.js';
import { EMPTY, useSelect } from '../store.js';
import { runFacts } from './compare-model.js';
import { LastResultsList } from './LastResults.js';
import { ModeTable } from './ModeTable.js';
import { ProfileBlocked } from './ProfileBlocked.js';
import { ProfileForm } from './ProfileForm.js';
import { useProfileBlock } from './profile-block.js';
import { hasSampledCalls } from './sampled.js';
import './chart-cards.css';
import './profile-tab.css';

function elapsed(ms: number): string {
  // `now` is the last tick's: a run started since then would read as a negative time until the next one.
  const s = Math.floor(Math.max(0, ms) / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function Progress(): React.JSX.Element | null {
  const run = useSelect(store, (s) => s.run);
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (run?.status !== 'running' && run?.status !== 'cancelling') return;
    setNow(performance.now());
    const t = setInterval(() => setNow(performance.now()), 500);
    return () => clearInterval(t);
  }, [run?.status]);
  if (!run) return null;
  const p = progressOf(run.events);
  const live = run.status === 'running' || run.status === 'cancelling';
  if (!live && run.status === 'done') return null;
  return (
    <div className={`run-progress${live ? '' : ' ended'}`} data-testid="profile-progress">
      <div className="run-head">
        <span className="run-title">
          {run.status === 'cancelling'
            ? 'Cancelling…'
            : run.status === 'cancelled'
              ? 'Cancelled'
              : run.status === 'failed'
                ? 'The profile failed'
                : 'Profiling'}
        </span>
        {live && <span className="muted">{elapsed(now - run.startedAt)}</span>}
        {live && (
          <button
            type="button"
            className="btn btn-small"
            data-testid="profile-cancel"
            disabled={run.status === 'cancelling'}
            onClick={() => void cancelProfile()}
          >
            <Icon name="stop" /> Cancel
          </button>
        )}
      </div>
      {live && (
        <>
          <div
            className="bar"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(p.fraction * 100)}
            data-testid="profile-bar"
          >
            <div className="bar-fill" style={{ width: `${(p.fraction * 100).toFixed(1)}%` }} />
          </div>
          <ol className="stages">
            {STAGES.map((s, i) => (
              <li key={s.stage} className={i < p.stage ? 'done' : i === p.stage ? 'now' : ''}>
                {s.title}
                {i === p.stage && p.last?.total ? ` ${p.last.done ?? 0}/${p.last.total}` : ''}
              </li>
            ))}
          </ol>
          <div className="run-message" data-testid="profile-message">
            {p.last?.message ?? 'starting…'}
          </div>
        </>
      )}
      {run.error && run.status !== 'cancelled' && (
        <div className="run-error" role="alert" data-testid="profile-error">
          <b>{run.error.message}</b>
          {run.error.file && (
            <div className="muted">
              {run.error.file}
              {run.error.jsonPath ? ` · ${run.error.jsonPath}` : ''}
            </div>
          )}
          {run.error.details.length > 0 && <pre className="error-details">{run.error.details.join('\n')}</pre>}
        </div>
      )}
    </div>
  );
}

/** The headline's large words: "PERSISTENT 1.09× faster per call", "No clear winner", "Too few calls to test", … */
export function headlineBig(h: Headline): string {
  return h.parts.big;
}

/** The result's verdict (view/verdict.ts, the same one the CLI and the reports give): the run's noise first,
 * then the fastest mode in large type, with what it is compared with, its allocations and memory under it. */
function BigHeadline({ v, result }: { v: Verdict; result: ResultDoc['result'] }): React.JSX.Element {
  const h = v.primary;
  const t = h.time;
  const d = h.device;
  // The winner's large words take its mode's colour, the one the charts and the table give it.
  // Modes that ran one library have no winner among them, whatever the clock says.
  const winner =
    h.kind === 'winner' && t?.verdict === 'faster' && !h.sameCode ? result.modes.find((m) => m.label === h.subject)?.mode : undefined;
  return (
    <div
      className={`headline verdict-${h.sameCode ? 'same-code' : (t?.verdict ?? 'none')}${winner ? ` winner-${winner.toLowerCase()}` : ''}${v.noiseText || v.busyText ? ' headline-noisy' : ''}`}
      data-testid="profile-headline"
      title={v.text}
    >
      {v.busyText && (
        <div className="headline-noise" role="note" data-testid="headline-busy">
          <Icon name="warn" /> {v.busyText}.
        </div>
      )}
      {v.noiseText && (
        <div className="headline-noise" role="note" data-testid="headline-noise">
          <Icon name="warn" /> {v.noiseText}.
        </div>
      )}
      {t && (
        <div className="headline-title">
          {h.parts.title}
          {h.basis === 'host' && (
            <span className="headline-basis" data-testid="headline-basis">
              {' '}
              · host time per call, device synchronised
            </span>
          )}
          {h.basis === 'emulated' && (
            <span className="headline-basis" data-testid="headline-basis">
              {' '}
              · emulated host time per call (--gpu host), not device time
            </span>
          )}
        </div>
      )}
      <div className="headline-big" data-testid="headline-big">
        {h.parts.big}
      </div>
      {t && (
        <div className="headline-parts">
          <span data-testid="headline-detail">{h.parts.detail}</span>
          {h.parts.allocs && <span>{h.parts.allocs}</span>}
          {h.parts.memory && <span>{h.parts.memory}</span>}
        </div>
      )}
      {t && h.basis === 'host' && (
        <div
          className={`headline-device verdict-${d?.verdict ?? 'none'}`}
          data-testid="headline-device"
          title="Device time per call from CUDA events around each call"
        >
          <span className="headline-device-label">Device time</span>{' '}
          {d ? (
            <>
              <b>{d.claim}</b>
              <span className="muted"> · {d.evidence}</span>
            </>
          ) : (
            <span className="muted">not recorded for both modes</span>
          )}
        </div>
      )}
    </div>
  );
}

/** The device a GPU result ran on: name, memory, compute capability, driver and runtime. */
function DeviceLine({ doc }: { doc: ResultDoc }): React.JSX.Element | null {
  const d = doc.result.device;
  if (!d) return null;
  if (isEmulatedResult(doc.result))
    return (
      <div className="device-line" data-testid="device-line">
        <Icon name="chip" /> <b>Emulated GPU</b> <span>{EMULATED_DEVICE}</span>
      </div>
    );
  return (
    <div className="device-line" data-testid="device-line">
      <Icon name="chip" /> <b>GPU {d.index}</b> <span>{deviceSummary(d)}</span>
      <span className="muted"> · {deviceVersions(d)}</span>
    </div>
  );
}

/** Per mode, the stream-ordered pool's high-water marks and release threshold (GPU results). */
function PoolTable({ doc }: { doc: ResultDoc }): React.JSX.Element | null {
  const modes = doc.result.modes.filter((m) => m.gpu);
  if (!modes.length) return null;
  return (
    <table className="mode-table pool-table" data-testid="pool-table">
      <caption>Stream-ordered pool (cudaMemPool attributes after each mode's calls)</caption>
      <thead>
        <tr>
          <th>mode</th>
          <th>reserved high-water</th>
          <th>used high-water</th>
          <th>release threshold</th>
        </tr>
      </thead>
      <tbody>
        {modes.map((m) => (
          <tr key={m.label}>
            <td>
              <span className={`mode-tag mode-${m.mode.toLowerCase()}${m.layout === 'dace' ? ' hatched' : ''}`}>{m.label}</span>
            </td>
            {m.gpu!.pool ? (
              <>
                <td className="num strong">{formatBytes(m.gpu!.pool.reservedHighBytes)}</td>
                <td className="num">{formatBytes(m.gpu!.pool.usedHighBytes)}</td>
                <td className="num">{formatReleaseThreshold(m.gpu!.pool.releaseThreshold)}</td>
              </>
            ) : (
              <td className="num muted" colSpan={3}>
                allocates nothing from the pool
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SaveBar({ doc }: { doc: ResultDoc }): React.JSX.Element {
  const host = useSelect(store, (s) => s.env?.host);
  const roots = useSelect(store, (s) => s.env?.roots ?? EMPTY);
  const [path, setPath] = useState<string | null>(null);
  return (
    <div className="save-bar">
      <span className="save-name" title={doc.path ?? 'not saved yet'}>
        <Icon name="result" /> {doc.name}
        {doc.path ? <span className="muted"> · {doc.path}</span> : <span className="muted"> · not saved</span>}
      </span>
      <button type="button" className="btn btn-small" data-testid="result-download" onClick={() => void downloadResult()}>
        <Icon name="export" /> Download JSON
      </button>
      {host === 'browser' && path === null && (
        <button
          type="button"
          className="btn btn-small"
          data-testid="result-save"
          onClick={() => setPath(`${roots[0] ? `${roots[0]}/` : ''}${defaultResultName()}`)}
        >
          Save on the server…
        </button>
      )}
      {path !== null && (
        <form
          className="save-form"
          onSubmit={(e) => {
            e.preventDefault();
            void saveResultOnHost(path).then((p) => p && setPath(null));
          }}
        >
          <input value={path} onChange={(e) => setPath(e.target.value)} data-testid="result-save-path" aria-label="Save as" size={48} />
          <button type="submit" className="btn btn-small btn-primary" data-testid="result-save-confirm">
            Save
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setPath(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}

function ResultView({ doc }: { doc: ResultDoc }): React.JSX.Element {
  const verdict = useMemo(() => profileVerdict(doc.result), [doc]);
  const badge = useMemo(() => verificationBadge(doc.result), [doc]);
  const data = useMemo<ProfileData>(() => ({ results: [{ label: doc.name, result: doc.result }] }), [doc]);
  const r = doc.result;
  const settings = runFacts(r).settings;
  const libraryLine = libraryNodesLine(r.libraryNodes);
  return (
    <div className="result" data-testid="profile-result">
      <div className="result-top">
        <BigHeadline v={verdict} result={doc.result} />
        <div className={`badge ${badge.ok ? 'badge-ok' : 'badge-bad'}`} data-testid="verification-badge" title={badge.details.join('\n')}>
          <Icon name={badge.ok ? 'check' : 'warn'} /> {badge.text}
        </div>
      </div>
      {/* When every mode ran one library the headline says it all; each pair would only repeat it. */}
      {(verdict.primary.sameCode ? [] : verdict.secondary).map((h) => (
        <div key={h.text} className="headline-more" data-testid="headline-pair">
          {h.text}
        </div>
      ))}
      {!badge.ok && badge.details.length > 0 && (
        <ul className="badge-details">
          {badge.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      <DeviceLine doc={doc} />
      <div className="result-meta muted small">{settings}</div>
      {libraryLine && (
        <div className="result-meta muted small" data-testid="result-library-nodes">
          {libraryLine}
        </div>
      )}
      <SaveBar doc={doc} />
      <ModeTable doc={doc} />
      <PoolTable doc={doc} />
      <div className="chart-grid">
        <figure className="chart-card">
          <ChartMount mount={mountDistributionChart} data={data} source="gantt" testid="chart-distribution" />
        </figure>
        <figure className="chart-card">
          <ChartMount mount={mountBreakdownChart} data={data} source="gantt" testid="chart-breakdown" />
        </figure>
        <figure className="chart-card wide">
          <ChartMount mount={mountCallsChart} data={data} source="gantt" testid="chart-calls" />
        </figure>
        <figure className="chart-card wide">
          {hasSampledCalls(r) ? (
            <ChartMount mount={mountGanttChart} data={data} source="gantt" testid="chart-gantt" />
          ) : (
            <p className="muted small chart-none" data-testid="chart-gantt-none">
              No allocation events of a sampled call in this result: the profiler that wrote it did not record them.
            </p>
          )}
        </figure>
      </div>
      {r.notes.length + r.warnings.length > 0 && (
        <ul className="result-notes">
          {[...r.warnings, ...r.notes].map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ProfileTab(): React.JSX.Element {
  const result = useSelect(store, (s) => s.result);
  const run = useSelect(store, (s) => s.run);
  const running = run?.status === 'running' || run?.status === 'cancelling';
  const blocked = useProfileBlock() !== null;
  return (
    <div className="profile-tab">
      <ProfileForm running={running} onRun={() => void startProfile()} />
      <div className="profile-main">
        <ProfileBlocked />
        <Progress />
        {result ? (
          <ResultView doc={result} />
        ) : (
          !running && (
            <div className="dock-message" data-testid="profile-empty">
              <p>
                <b>Profile</b> builds the program in every chosen mode, verifies that all modes compute the same outputs, then times every
                call with allocation and free split out.
              </p>
              <p className="muted">
                {blocked ? 'A saved result can still be opened.' : 'Choose the settings on the left and press Run, or open a saved result.'}
              </p>
              <div className="row-actions">
                <UploadButton label="Open a result file…" accept=".json" testid="profile-open-result" />
                <button type="button" className="btn" onClick={() => store.set({ dialog: 'open' })}>
                  <Icon name="folder" /> Browse…
                </button>
              </div>
              <LastResultsList />
            </div>
          )
        )}
      </div>
    </div>
  );
}
