/**
 * Right panel: everything known about the selection, in words and numbers. A transient: declaration, size
 * (exact bytes and the expression), storage, live steps, what each mode does with it and why not, its offsets in
 * both layouts, and, with a profile result, what it cost in each mode's sampled call. A graph element: its kind,
 * what it holds (memory rolled up over its transients) and its own fields.
 */
import { useDeferredValue, useMemo } from 'react';
import { formatBytes, formatBytesExpr, formatCount, formatNs, num, profileVerdict, type AnalysisView, type GraphEdge, type GraphNode } from '../../../../electron/engine/view/public.js';
import { sizeText } from '../../charts/transient-info.js';
import { storageFamily } from '../../theme/index.js';
import { asContractError, selectTransient, setDockTab, toast } from '../actions.js';
import { graphHandle } from '../graph/handle.js';
import { Icon } from '../Icon.js';
import { headlineBig } from '../profile/ProfileTab.js';
import { sampledCall, transientCosts } from '../profile/sampled.js';
import { store, type ElementSelection } from '../state.js';
import { useSelect } from '../store.js';
import { memoryOf, rowOf, transientFacts } from './facts.js';
import { revealTransient } from './reveal.js';

function Fact({ k, children, testid }: { k: string; children: React.ReactNode; testid?: string }): React.JSX.Element {
  return (
    <>
      <dt>{k}</dt>
      <dd data-testid={testid}>{children}</dd>
    </>
  );
}

function Mark({ ok }: { ok: boolean }): React.JSX.Element {
  return <span className={ok ? 'yes' : 'no'}>{ok ? '✓' : '✗'}</span>;
}

function TransientPanel({ view, row }: { view: AnalysisView; row: number }): React.JSX.Element {
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
        {view.sdfgs.length > 1 && <span className="muted"> in {f.sdfgName}</span>}
      </div>
      {f.alias ? (
        <>
          <div className="sel-big sel-alias" data-testid="selection-size">
            <span>{f.alias.text}</span>
            <span className="sel-big-sub">owns no bytes</span>
          </div>
          {f.alias.target ? (
            <div className="sel-exact" data-testid="selection-alias-target">
              <button type="button" className="btn btn-small btn-ghost" onClick={() => selectTransient(f.alias!.target!.id, 'graph')} title={`Select ${f.alias.target.name}`}>
                {f.alias.target.name}
              </button>{' '}
              holds {f.alias.target.size}
            </div>
          ) : (
            <div className="sel-exact" data-testid="selection-alias-target">
              {f.alias.reason ?? (f.alias.text.includes('argument') ? 'an argument: the caller’s memory, not a transient of this program' : '')}
            </div>
          )}
          <div className="sel-exact">
            its extent: {f.size}
            {f.alias.target ? ` of ${f.alias.target.name}` : ''}, counted in no total
          </div>
        </>
      ) : (
        <>
          <div className="sel-big" data-testid="selection-size">
            {f.size}
            <span className="sel-big-sub">{f.effectiveStorage}</span>
          </div>
          {f.exactBytes && f.exactBytes !== f.size && <div className="sel-exact">{f.exactBytes}{f.bytesExpr !== f.exactBytes.replace(/\D/g, '') ? ` = ${f.bytesExpr}` : ''}</div>}
          {!f.exactBytes && <div className="sel-exact">unknown until the symbols have values</div>}
        </>
      )}
      <dl className="facts">
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
        <button type="button" className="btn btn-small" data-testid="selection-reveal" onClick={() => void revealTransient(view, row).then((ok) => !ok && toast('info', `No access node of ${f.name} found in the graph`)).catch((e: unknown) => toast('error', asContractError(e).message))}>
          <Icon name="target" /> Show in graph
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => void navigator.clipboard?.writeText(f.jsonPath)} title={f.jsonPath}>
          <Icon name="copy" /> JSON path
        </button>
      </div>
      <p className="sel-path" title="Where it is declared in the file">
        <code>{f.jsonPath}</code>
      </p>
    </div>
  );
}

const plural = (n: number, word: string): string | 0 => n && `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** The transients an element holds, biggest first; each selects itself. */
function Inside({ view, ids }: { view: AnalysisView; ids: string[] }): React.JSX.Element {
  const rows = useMemo(() => {
    const out = ids.map((id) => rowOf(view, id)).filter((r) => r >= 0);
    // Biggest owners first; views and references (they own nothing) with the symbolic sizes, after them.
    const b = (r: number) => {
      const x = view.table.alias[r]! >= 0 ? NaN : num(view.table.bytes[r]);
      return Number.isNaN(x) ? -1 : x;
    };
    return out.sort((x, y) => b(y) - b(x));
  }, [view, ids]);
  const shown = rows.slice(0, 12);
  return (
    <>
      <h4>Transients inside</h4>
      <ul className="inside" data-testid="selection-inside">
        {shown.map((r) => (
          <li key={r} onClick={() => selectTransient(view.table.id[r]!, 'graph')} title={view.table.id[r]}>
            <span className={`dot dot-${storageFamily(view.table.dict.storage[view.table.effectiveStorage[r]!]!)}`} aria-hidden="true" />
            <span className="inside-name">{view.table.name[r]}</span>
            <span className="inside-size">{sizeText(view, r)}</span>
          </li>
        ))}
        {rows.length > shown.length && <li className="muted small">… and {rows.length - shown.length} more</li>}
      </ul>
    </>
  );
}

const KIND: Record<string, string> = {
  state: 'state',
  region: 'control-flow region',
  loop: 'loop',
  conditional: 'conditional',
  branch: 'branch',
  break: 'break',
  continue: 'continue',
  return: 'return',
  access: 'access node',
  tasklet: 'tasklet',
  map: 'map',
  consume: 'consume scope',
  nested_sdfg: 'nested SDFG',
  library: 'library node',
  unknown: 'node',
  memlet: 'memlet',
  interstate: 'interstate edge',
};

function NodeFacts({ n }: { n: GraphNode }): React.JSX.Element {
  switch (n.kind) {
    case 'loop':
      return (
        <>
          {n.variable && <Fact k="variable">{n.variable}</Fact>}
          {n.init && <Fact k="init">{n.init}</Fact>}
          {n.condition && <Fact k="condition">{n.condition}</Fact>}
          {n.update && <Fact k="update">{n.update}</Fact>}
          {n.inverted && <Fact k="form">do-while</Fact>}
        </>
      );
    case 'conditional':
      return <Fact k="branches">{n.conditions.map((c, i) => <div key={i}><code>{c ?? 'else'}</code></div>)}</Fact>;
    case 'branch':
      return <Fact k="condition">{n.condition ?? 'else'}</Fact>;
    case 'region':
      return <Fact k="type">{n.regionType}</Fact>;
    case 'map':
    case 'consume':
      return (
        <>
          <Fact k="range">{n.params.map((p) => <div key={p}><code>{p}</code></div>)}</Fact>
          <Fact k="schedule">{n.schedule}</Fact>
        </>
      );
    case 'tasklet':
      return (
        <Fact k={n.language}>
          <pre className="code">{n.code}</pre>
          {n.codeLines > n.code.split('\n').length && <div className="muted small">{n.codeLines} lines in all</div>}
        </Fact>
      );
    case 'access':
      return (
        <>
          <Fact k="data">{n.data}</Fact>
          {n.storage && <Fact k="storage">{n.storage}</Fact>}
          {n.descriptor && <Fact k="type">{`${n.descriptor.dtype}[${n.descriptor.shape.join(', ')}]`}</Fact>}
          {!n.transient && <Fact k="note">not a transient (an argument or a global)</Fact>}
        </>
      );
    case 'nested_sdfg':
      return n.symbolMapping.length ? <Fact k="symbols">{n.symbolMapping.map((m) => <div key={m}><code>{m}</code></div>)}</Fact> : <></>;
    case 'library':
      return (
        <>
          <Fact k="class">{n.className}</Fact>
          {n.implementation && <Fact k="impl.">{n.implementation}</Fact>}
        </>
      );
    case 'unknown':
      return <Fact k="type">{n.type}</Fact>;
    default:
      return <></>;
  }
}

function EdgeFacts({ e }: { e: GraphEdge }): React.JSX.Element {
  if (e.kind === 'interstate') {
    return (
      <>
        <Fact k="condition">{e.condition ?? 'always'}</Fact>
        {e.assignments.length > 0 && <Fact k="assigns">{e.assignments.map(([k, v]) => <div key={k}><code>{`${k} = ${v}`}</code></div>)}</Fact>}
      </>
    );
  }
  return (
    <>
      <Fact k="memlet">
        <code>{e.label || '(empty)'}</code>
      </Fact>
      <Fact k="volume">
        {e.volume}
        {e.dynamic ? ' (at most)' : ''}
      </Fact>
      {e.wcr && <Fact k="WCR">{e.wcr}</Fact>}
    </>
  );
}

function ElementPanel({ sel, view }: { sel: ElementSelection; view: AnalysisView | null }): React.JSX.Element {
  const n = sel.node;
  const e = sel.edge;
  const summary = n?.summary ?? null;
  const mem = useMemo(() => memoryOf(view, summary?.transients ?? []), [view, summary]);
  const kind = n ? KIND[n.kind] ?? n.kind : e ? KIND[e.kind] ?? e.kind : 'element';
  const label = n?.label ?? (e?.kind === 'memlet' ? e.data ?? 'memlet' : e?.label) ?? sel.id;
  return (
    <div className="sel-body" data-testid="selection-element">
      <div className="sel-title">
        <h3>{label || kind}</h3>
        <span className="sel-kind">{kind}</span>
      </div>
      {summary && (
        <div className="sel-big">
          {summary.transients.length === 0 ? 'no transients' : mem.bytes > 0 || mem.symbolic === 0 ? formatBytes(mem.bytes) : 'symbolic'}
          <span className="sel-big-sub">
            {summary.transients.length} transient{summary.transients.length === 1 ? '' : 's'}
            {mem.symbolic > 0 && mem.bytes > 0 ? ` (+${mem.symbolic} symbolic)` : ''}
            {mem.aliases > 0 ? `; ${mem.aliases} view${mem.aliases === 1 ? '' : 's'} or reference${mem.aliases === 1 ? '' : 's'} not counted` : ''}
          </span>
        </div>
      )}
      <dl className="facts">
        {n && <NodeFacts n={n} />}
        {e && <EdgeFacts e={e} />}
        {summary && (
          <Fact k="inside">
            {[
              n?.kind !== 'state' && plural(summary.states, 'state'),
              plural(summary.nodes, 'node'),
              plural(summary.maps, 'map'),
              plural(summary.tasklets, 'tasklet'),
              plural(summary.loops, 'loop'),
              plural(summary.sdfgs, 'nested SDFG'),
            ]
              .filter(Boolean)
              .join(' · ') || 'nothing'}
          </Fact>
        )}
      </dl>
      {view && summary && summary.transients.length > 0 && <Inside view={view} ids={summary.transients} />}
      {n?.expand && (
        <div className="sel-actions">
          <button type="button" className="btn btn-small" data-testid="selection-toggle" onClick={() => void graphHandle.current?.toggle(n.expand!)}>
            Expand / collapse
          </button>
        </div>
      )}
      <p className="sel-path">
        <code>{sel.id}</code>
      </p>
    </div>
  );
}

export function SelectionPanel(): React.JSX.Element {
  const sel = useSelect(store, (s) => s.selection);
  const view = useDeferredValue(useSelect(store, (s) => s.analysis));
  const doc = useSelect(store, (s) => s.doc);
  const row = view && sel?.transient ? rowOf(view, sel.transient) : -1;
  return (
    <aside className="selection" aria-label="Selection" data-testid="selection-panel">
      <div className="panel-head">
        <span>Selection</span>
        {sel && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => store.set({ selection: null })} title="Clear (Esc)">
            clear
          </button>
        )}
      </div>
      {view && row >= 0 ? (
        <TransientPanel view={view} row={row} />
      ) : sel?.element ? (
        <ElementPanel sel={sel.element} view={view} />
      ) : (
        <div className="sel-empty">
          <p>Select a transient in the outline, the graph, the table or a chart to see everything known about it.</p>
          {view && doc && <Overview view={view} />}
        </div>
      )}
    </aside>
  );
}

function Stat({ n, label, tone }: { n: number; label: string; tone?: 'good' | 'warn' | undefined }): React.JSX.Element {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <span className="stat-n">{formatCount(n)}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

/** With nothing selected: the program at a glance. The EXTERNAL workspace (what this tool computes) leads, then
 * the measured EXTERNAL-vs-POOL verdict when a result of this program is loaded, then the counts. */
function Overview({ view }: { view: AnalysisView }): React.JSX.Element {
  const fates = view.totals.fates;
  const result = useSelect(store, (s) => s.result);
  const verdict = useMemo(() => (result && result.result.program.name === view.sdfgs[0]?.name ? profileVerdict(result.result) : null), [result, view]);
  const headline = verdict?.secondary[0] ?? null;
  return (
    <div className="overview" data-testid="selection-overview">
      {view.workspace.map((w) => (
        <div key={w.storage} className="ov-ws" data-testid="overview-workspace">
          <div className="ov-ws-head">EXTERNAL workspace · {w.storage}</div>
          {w.packed ? (
            <>
              <div className="ov-ws-big">{formatBytes(num(w.packed.bytes))}</div>
              <div className="ov-ws-nums">
                <span>DaCe&apos;s layout {w.dace.bytes === null ? 'symbolic' : formatBytes(num(w.dace.bytes))}</span>
                <span>lower bound {formatBytes(num(w.packed.lowerBound))}</span>
                {w.savings && num(w.savings.bytes) >= 0 && (
                  <span className={w.savings.fraction > 0 ? 'good' : 'muted'}>
                    packing saves {formatBytes(num(w.savings.bytes))} ({(w.savings.fraction * 100).toFixed(w.savings.fraction > 0 && w.savings.fraction < 0.1 ? 1 : 0)}%)
                  </span>
                )}
                {w.savings && num(w.savings.bytes) < 0 && (
                  <span className="muted" title="Our layout aligns every block; DaCe's packs them unaligned back to back">
                    {w.packed.alignment} B alignment adds {formatBytes(-num(w.savings.bytes))}
                  </span>
                )}
              </div>
            </>
          ) : (
            <>
              <div className="ov-ws-big ov-ws-symbolic">needs symbol values</div>
              <div className="ov-ws-nums">
                <span className="expr" title={w.dace.bytesExpr}>
                  DaCe&apos;s layout {formatBytesExpr(w.dace.bytesExpr)}
                </span>
              </div>
            </>
          )}
        </div>
      ))}
      {headline && (
        <button type="button" className={`ov-measured verdict-${headline.time?.verdict ?? 'none'}`} onClick={() => setDockTab('profile')} data-testid="overview-measured" title={headline.text}>
          <span className="ov-ws-head">measured: {headline.parts.title}</span>
          <span className="ov-measured-big">{headlineBig(headline)}</span>
          {verdict?.noiseText && (
            <span className="ov-measured-noise" data-testid="overview-noisy">
              noisy run: compared at p10
            </span>
          )}
        </button>
      )}
      <h4>This program</h4>
      <div className="stats">
        <Stat n={view.totals.transients} label="transients" />
        <Stat n={view.totals.holdingMemory} label="hold memory" />
        <Stat n={view.totals.eligible.EXTERNAL} label="EXTERNAL-eligible" tone="good" />
        <Stat n={view.totals.eligible.PERSISTENT} label="PERSISTENT-eligible" />
        <Stat n={fates[2] ?? 0} label="allocated every call in every mode" tone={(fates[2] ?? 0) > 0 ? 'warn' : undefined} />
      </div>
    </div>
  );
}
