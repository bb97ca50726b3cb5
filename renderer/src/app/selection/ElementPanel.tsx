/**
 * The selection panel for a graph element: its kind, what it holds (memory rolled up over its transients, the
 * transients inside, biggest first) and its own fields (a loop's header, a map's range, a tasklet's code, a
 * memlet's subset and volume, …).
 */
import { useMemo } from 'react';
import {
  formatBytes,
  formatCount,
  num,
  type AnalysisView,
  type GraphEdge,
  type GraphNode,
} from '../../../../electron/engine/view/public.js';
import { sizeText } from '../../charts/transient-info.js';
import { storageFamily } from '../../theme/index.js';
import { selectTransient } from '../actions.js';
import { graphHandle } from '../graph/handle.js';
import type { ElementSelection } from '../state.js';
import { Fact } from './Fact.js';
import { memoryOf, rowOf } from './facts.js';

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

function NodeFacts({ n, view }: { n: GraphNode; view: AnalysisView | null }): React.JSX.Element {
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
      return (
        <Fact k="branches">
          {n.conditions.map((c, i) => (
            <div key={i}>
              <code>{c ?? 'else'}</code>
            </div>
          ))}
        </Fact>
      );
    case 'branch':
      return <Fact k="condition">{n.condition ?? 'else'}</Fact>;
    case 'region':
      return <Fact k="type">{n.regionType}</Fact>;
    case 'map':
    case 'consume':
      return (
        <>
          <Fact k="range">
            {n.params.map((p) => (
              <div key={p}>
                <code>{p}</code>
              </div>
            ))}
          </Fact>
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
      return n.symbolMapping.length ? (
        <Fact k="symbols">
          {n.symbolMapping.map((m) => (
            <div key={m}>
              <code>{m}</code>
            </div>
          ))}
        </Fact>
      ) : (
        <></>
      );
    case 'library': {
      // What this tool runs in its place (the file's `implementation` is what DaCe was asked for).
      const ran = view?.analysis.libraryNodes?.find((x) => x.jsonPath === n.id);
      return (
        <>
          <Fact k="class">{n.className}</Fact>
          {n.implementation && <Fact k="impl. in file">{n.implementation}</Fact>}
          {view?.analysis.libraryNodes && (
            <Fact k="runs as" testid="selection-library-expansion">
              {ran
                ? `its ${ran.implementation} expansion${ran.library ? ` (${ran.library})` : ' (loops)'}, in every mode: the analysis' transients are that expansion's`
                : 'not expanded here: no expansion of this node is supported'}
            </Fact>
          )}
        </>
      );
    }
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
        {e.assignments.length > 0 && (
          <Fact k="assigns">
            {e.assignments.map(([k, v]) => (
              <div key={k}>
                <code>{`${k} = ${v}`}</code>
              </div>
            ))}
          </Fact>
        )}
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

export function ElementPanel({ sel, view }: { sel: ElementSelection; view: AnalysisView | null }): React.JSX.Element {
  const n = sel.node;
  const e = sel.edge;
  const summary = n?.summary ?? null;
  const mem = useMemo(() => memoryOf(view, summary?.transients ?? []), [view, summary]);
  const kind = n ? (KIND[n.kind] ?? n.kind) : e ? (KIND[e.kind] ?? e.kind) : 'element';
  const label = n?.label ?? (e?.kind === 'memlet' ? (e.data ?? 'memlet') : e?.label) ?? sel.id;
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
            {mem.aliases > 0
              ? `; ${mem.aliases} view${mem.aliases === 1 ? '' : 's'} or reference${mem.aliases === 1 ? '' : 's'} not counted`
              : ''}
          </span>
        </div>
      )}
      <dl className="facts">
        {n && <NodeFacts n={n} view={view} />}
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
          <button
            type="button"
            className="btn btn-small"
            data-testid="selection-toggle"
            onClick={() => void graphHandle.current?.toggle(n.expand!)}
          >
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
