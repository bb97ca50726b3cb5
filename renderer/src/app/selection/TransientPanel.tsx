/**
 * The selection panel for a transient: declaration, size (exact bytes and the expression), storage, live steps,
 * what each mode does with it and why not, its offsets in both layouts, and, with a profile result, what it cost
 * in each mode's sampled call.
 */
import { useMemo } from 'react';
import { formatNs, type AnalysisView } from '../../../../electron/engine/view/public.js';
import { storageFamily } from '../../theme/index.js';
import { asContractError, selectTransient, toast } from '../actions.js';
import { Icon } from '../Icon.js';
import { sampledCall, transientCosts } from '../profile/sampled.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';
import { Fact, Mark } from './Fact.js';
import { transientFacts } from './facts.js';
import { revealTransient } from './reveal.js';

export function TransientPanel({ view, row }: { view: AnalysisView; row: number }): React.JSX.Element {
  const f = useMemo(() => transientFacts(view, row), [view, row]);
  const result = useSelect(store, (s) => s.result);
  const costs = useMemo(() => (result ? transientCosts(result.result, f.id) : []), [result, f.id]);
  const sampledModes = result ? result.result.modes.filter((m) => sampledCall(m)).length : 0;
  return (
    <div className="sel-body" data-testid="selection-transient">
      <div className="sel-title">
        <span className={`dot dot-${storageFamily(f.effectiveStorage)}`} aria-hidden="true" />
        <h3>{f.name}</h3>
        <span className="sel-kind">{f.alias ? (f.alias.text.startsWith('reference') ? 'reference' : 'view') : 'transient'}</span>
      </div>
      <div className="sel-decl">
        <code>{f.declaration}</code>
        {view.sdfgs.length > 1 && !f.expandedFrom && <span className="muted"> in {f.sdfgName}</span>}
      </div>
      {f.expandedFrom && (
        <div
          className="sel-expanded"
          data-testid="selection-expanded-from"
          title="Created by the library node's expansion (--library-impl pure)"
        >
          from expansion of library node {f.expandedFrom}
        </div>
      )}
      {f.alias ? (
        <>
          <div className="sel-big sel-alias" data-testid="selection-size">
            <span>{f.alias.text}</span>
            <span className="sel-big-sub">owns no bytes</span>
          </div>
          {f.alias.target ? (
            <div className="sel-exact" data-testid="selection-alias-target">
              <button
                type="button"
                className="btn btn-small btn-ghost"
                onClick={() => selectTransient(f.alias!.target!.id, 'graph')}
                title={`Select ${f.alias.target.name}`}
              >
                {f.alias.target.name}
              </button>{' '}
              holds {f.alias.target.size}
            </div>
          ) : (
            <div className="sel-exact" data-testid="selection-alias-target">
              {f.alias.reason ??
                (f.alias.text.includes('argument') ? 'an argument: the caller’s memory, not a transient of this program' : '')}
            </div>
          )}
          <div className="sel-exact">
            its extent: {f.size}
            {f.alias.target ? ` of ${f.alias.target.name}` : ''}, counted in no total
          </div>
        </>
      ) : f.noMemory ? (
        <div className="sel-big sel-words" data-testid="selection-size">
          <span>{f.noMemory}</span>
          <span className="sel-big-sub">
            declared {f.size}, holds none · {f.effectiveStorage}
          </span>
        </div>
      ) : (
        <>
          <div className="sel-big" data-testid="selection-size">
            {f.size}
            <span className="sel-big-sub">{f.effectiveStorage}</span>
          </div>
          {f.exactBytes && f.exactBytes !== f.size && (
            <div className="sel-exact">
              {f.exactBytes}
              {f.bytesExpr !== f.exactBytes.replace(/\D/g, '') ? ` = ${f.bytesExpr}` : ''}
            </div>
          )}
          {!f.exactBytes && <div className="sel-exact">unknown until the symbols have values</div>}
        </>
      )}
      <dl className="facts">
        {f.insideStructure !== null && (
          <Fact k="inside" testid="selection-inside-structure">
            structure {f.insideStructure}
          </Fact>
        )}
        {f.viewedBy.length > 0 && (
          <Fact k="viewed as" testid="selection-viewed-by">
            {f.viewedBy.slice(0, 6).join(', ')}
            {f.viewedBy.length > 6 ? ` and ${f.viewedBy.length - 6} more` : ''}
          </Fact>
        )}
        <Fact k="live" testid="selection-live">
          {f.live}
          {f.liveSteps && <div className="muted small">{f.liveSteps}</div>}
        </Fact>
        <Fact k="allocated">{f.allocation}</Fact>
        <Fact k="per call">{f.executionsPerCall}×</Fact>
        <Fact k="storage">
          {f.storage}
          {f.storage !== f.effectiveStorage ? ` → ${f.effectiveStorage}` : ''} · {f.lifetime}
        </Fact>
      </dl>
      <h4>Modes</h4>
      <div className="elig" data-testid="selection-eligibility">
        <span>
          PERSISTENT <Mark ok={f.eligible.PERSISTENT} />
        </span>
        <span>
          EXTERNAL <Mark ok={f.eligible.EXTERNAL} />
        </span>
      </div>
      {f.reason && <p className="reason">{f.reason}</p>}
      <ul className="mode-lines">
        {f.modes.map((m) => (
          <li key={m.mode} className={m.good ? 'good' : ''}>
            <span className={`mode-tag mode-${m.mode.toLowerCase()}`}>{m.mode}</span>
            <span>{m.text}</span>
          </li>
        ))}
      </ul>
      {f.placement && (
        <>
          <h4>Offset in the {f.placement.storage} workspace</h4>
          <dl className="facts" data-testid="selection-offsets">
            <Fact k="packed">{f.placement.packed}</Fact>
            <Fact k="dace">{f.placement.dace}</Fact>
          </dl>
        </>
      )}
      {result && (
        <>
          <h4>Measured (sampled call)</h4>
          {sampledModes === 0 ? (
            <p className="muted small">This result has no per-transient allocation events (its profiler did not record a sampled call).</p>
          ) : (
            <table className="mini" data-testid="selection-costs">
              <thead>
                <tr>
                  <th>mode</th>
                  <th>allocs</th>
                  <th>alloc</th>
                  <th>free</th>
                </tr>
              </thead>
              <tbody>
                {costs.map((c) => (
                  <tr key={c.mode}>
                    <td>{c.mode}</td>
                    <td className="num">{c.allocs}</td>
                    <td className="num">{c.allocs ? formatNs(c.allocNs) : '–'}</td>
                    <td className="num">{c.frees ? formatNs(c.freeNs) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <div className="sel-actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="selection-reveal"
          onClick={() =>
            void revealTransient(view, row)
              .then((ok) => !ok && toast('info', `No access node of ${f.name} found in the graph`))
              .catch((e: unknown) => toast('error', asContractError(e).message))
          }
        >
          <Icon name="target" /> Show in graph
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => void navigator.clipboard?.writeText(f.jsonPath)}
          title={f.jsonPath}
        >
          <Icon name="copy" /> JSON path
        </button>
      </div>
      <p className="sel-path" title="Where it is declared in the file">
        <code>{f.jsonPath}</code>
      </p>
    </div>
  );
}
