/**
 * Left panel: the SDFGs of the file as a tree (nested under the SDFG that embeds them), the root's states, and
 * each SDFG's transients with a storage dot and their size, biggest first. The search box filters transients by
 * name and, on Enter, searches the graph (labels, code, memlets) and zooms to the first match.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { formatBytes, ownedBytes, type GraphNode, type SearchHit } from '../../../electron/engine/view/public.js';
import { sizeText } from '../charts/transient-info.js';
import { storageFamily } from '../theme/index.js';
import { selectElement, selectTransient } from './actions.js';
import { graphHandle } from './graph/handle.js';
import { outlineGroups } from './outline-model.js';
import { measured } from './perf.js';
import { revealHit } from './selection/reveal.js';
import { store } from './state.js';
import { useSelect } from './store.js';
import { headTail, matchParts, MidCut } from './text/MidCut.js';
import './outline.css';

/** Rows per SDFG before "… more": the table is the place for thousands. */
const PER_SDFG = 60;
const SEARCH_ROWS = 200;

interface TransientRow {
  row: number;
  id: string;
  name: string;
  bytes: number;
  size: string;
  storage: string;
}

function useRootStates(): GraphNode[] {
  const root = useSelect(store, (s) => s.rootRegion);
  const [nodes, setNodes] = useState<GraphNode[]>([]);
  useEffect(() => {
    let live = true;
    setNodes([]);
    root?.then((r) => live && setNodes(r.nodes)).catch(() => {});
    return () => {
      live = false;
    };
  }, [root]);
  return nodes;
}

function Dot({ storage }: { storage: string }): React.JSX.Element {
  return <span className={`dot dot-${storageFamily(storage)}`} title={storage} aria-hidden="true" />;
}

export function Outline(): React.JSX.Element {
  const doc = useSelect(store, (s) => s.doc);
  // Deferred: a 30k-transient analysis re-renders the outline after the table, in interruptible slices.
  const view = useDeferredValue(useSelect(store, (s) => s.analysis));
  const query = useSelect(store, (s) => s.outlineQuery);
  const selected = useSelect(store, (s) => s.selection?.transient ?? null);
  const states = useRootStates();
  const [open, setOpen] = useState<Set<number>>(new Set([0]));
  const [showAll, setShowAll] = useState<Set<number>>(new Set());
  const [statesOpen, setStatesOpen] = useState<boolean | null>(null);
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setOpen(new Set([0]));
    setShowAll(new Set());
    setStatesOpen(null);
    setHits(null);
  }, [doc]);

  // Grouped and summed in one pass; the biggest-first order is made only for the rows shown (outline-model.ts).
  const groups = useMemo(() => (view ? measured('tlab:outline-groups', () => outlineGroups(view)) : null), [view]);

  const rowAt = (i: number): TransientRow => {
    const t = view!.table;
    return {
      row: i,
      id: t.id[i]!,
      name: t.name[i]!,
      bytes: ownedBytes(t, i),
      size: sizeText(view!, i),
      storage: t.dict.storage[t.effectiveStorage[i]!]!,
    };
  };

  const children = useMemo(() => {
    const m = new Map<number | null, number[]>();
    for (const s of doc?.sdfgs ?? []) m.set(s.parent, [...(m.get(s.parent) ?? []), s.index]);
    return m;
  }, [doc]);

  const q = query.trim().toLowerCase();
  const matches = useMemo(() => {
    if (!q || !view) return null;
    const out: Array<{ row: number; sdfg: number }> = [];
    if (!groups) return out;
    const names = view.table.name;
    for (const [sdfg, list] of groups.rows) {
      const hit = list.filter((i) => names[i]!.toLowerCase().includes(q));
      for (const i of hit.sort(groups.compare)) out.push({ row: i, sdfg });
    }
    return out;
  }, [q, groups, view]);

  useEffect(() => {
    if (!selected || !listRef.current) return;
    const el = listRef.current.querySelector(`[data-transient="${CSS.escape(selected)}"]`);
    el?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const runGraphSearch = async (): Promise<void> => {
    const g = graphHandle.current;
    if (!g || !q) return;
    const found = await g.search(query.trim());
    setHits(found);
  };

  if (!doc) return <aside className="outline" />;

  const transientItem = (r: TransientRow, sdfgName?: string, match?: string): React.JSX.Element => (
    <li
      key={r.id}
      className={`ol-item ol-transient${r.id === selected ? ' selected' : ''}`}
      data-transient={r.id}
      data-testid="outline-transient"
      onClick={() => selectTransient(r.id, 'outline')}
      onPointerEnter={() => store.set({ hoverTransient: r.id })}
      onPointerLeave={() => store.set({ hoverTransient: null })}
      title={`${r.name} · ${r.storage} · ${r.size}`}
    >
      <Dot storage={r.storage} />
      <span className="ol-name">
        <MidCut parts={match ? matchParts(r.name, match) : headTail(r.name)} />
      </span>
      {sdfgName && <span className="ol-sub">{sdfgName}</span>}
      <span className="ol-size">{r.size}</span>
    </li>
  );

  // The root's blocks are shown open when they are few; a long list starts closed so the transients stay in view.
  const showStates = statesOpen ?? states.length <= 12;

  const sdfgItem = (index: number, depth: number): React.JSX.Element => {
    const s = doc.sdfgs[index]!;
    const isOpen = open.has(index);
    const list = groups?.rows.get(index) ?? [];
    const tot = groups?.totals.get(index);
    const kids = children.get(index) ?? [];
    const all = showAll.has(index);
    const toggle = () => setOpen((o) => (o.has(index) ? new Set([...o].filter((x) => x !== index)) : new Set([...o, index])));
    return (
      <li key={`sdfg${index}`} className="ol-group">
        <div
          className={`ol-item ol-sdfg depth-${Math.min(depth, 6)}`}
          onClick={toggle}
          data-testid="outline-sdfg"
          role="treeitem"
          aria-expanded={isOpen}
        >
          <span className={`caret${isOpen ? ' open' : ''}`} aria-hidden="true" />
          <span className="ol-name ol-strong">{s.name}</span>
          {tot && (
            <span className="ol-size">
              {tot.count} · {tot.symbolic && tot.bytes === 0 ? 'symbolic' : `${formatBytes(tot.bytes)}${tot.symbolic ? '+' : ''}`}
            </span>
          )}
        </div>
        {isOpen && (
          <ul className={`ol-children depth-${Math.min(depth + 1, 6)}`}>
            {index === 0 && states.length > 0 && (
              <li
                className="ol-item ol-group-head"
                onClick={() => setStatesOpen(!showStates)}
                data-testid="outline-states"
                aria-expanded={showStates}
              >
                <span className={`caret${showStates ? ' open' : ''}`} aria-hidden="true" />
                <span className="ol-name">control flow</span>
                <span className="ol-size">{states.length}</span>
              </li>
            )}
            {index === 0 &&
              showStates &&
              states.map((n) => (
                <li
                  key={n.id}
                  className="ol-item ol-state"
                  data-testid="outline-state"
                  onClick={() => {
                    selectElement({ id: n.id, region: '$', node: n, edge: null }, 'outline');
                    void graphHandle.current?.reveal({ id: n.id, path: [] });
                  }}
                  title={`${n.kind} ${n.label}`}
                >
                  <span className={`glyph glyph-${n.kind}`} aria-hidden="true" />
                  <span className="ol-name">{n.label}</span>
                  {n.summary && n.summary.transients.length > 0 && <span className="ol-sub">{n.summary.transients.length} tr.</span>}
                </li>
              ))}
            {list.length > 0 && states.length > 0 && index === 0 && (
              <li className="ol-item ol-group-head ol-static">
                <span className="caret-spacer" aria-hidden="true" />
                <span className="ol-name">transients</span>
                <span className="ol-size">{list.length}</span>
              </li>
            )}
            {groups?.top(index, all ? list.length : PER_SDFG).map((i) => transientItem(rowAt(i)))}
            {!all && list.length > PER_SDFG && (
              <li className="ol-item ol-more" onClick={() => setShowAll((x) => new Set([...x, index]))}>
                … {list.length - PER_SDFG} more
              </li>
            )}
            {kids.map((k) => sdfgItem(k, depth + 1))}
          </ul>
        )}
      </li>
    );
  };

  return (
    <aside className="outline" aria-label="Outline">
      <div className="panel-head">
        <span>Outline</span>
        {view && <span className="muted">{view.table.count} transients</span>}
      </div>
      <div className="search-box">
        <input
          type="search"
          placeholder="Search transients · Enter: graph"
          value={query}
          data-testid="outline-search"
          aria-label="Search"
          onChange={(e) => {
            store.set({ outlineQuery: e.target.value });
            if (hits) void graphHandle.current?.search('');
            setHits(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void runGraphSearch();
          }}
        />
      </div>
      <div className="outline-list" ref={listRef} role="tree">
        {matches ? (
          <ul className="ol-children">
            {hits && (
              <li className="ol-section">
                <span>In the graph: {hits.length === 0 ? 'no match' : `${hits.length}${hits.length >= 50 ? '+' : ''} matches`}</span>
              </li>
            )}
            {hits?.slice(0, 50).map((h) => (
              <li key={h.id} className="ol-item ol-hit" data-testid="outline-hit" title={h.snippet} onClick={() => void revealHit(h)}>
                <span className={`glyph glyph-${h.kind}`} aria-hidden="true" />
                <span className="ol-name">
                  <MidCut parts={matchParts(h.label, q)} />
                </span>
                <span className="ol-sub">{h.field}</span>
              </li>
            ))}
            <li className="ol-section">
              <span>
                Transients: {matches.length === 0 ? 'no match' : matches.length}
                {!hits && q && ' · Enter searches the graph'}
              </span>
            </li>
            {matches
              .slice(0, SEARCH_ROWS)
              .map((m) => transientItem(rowAt(m.row), doc.sdfgs.length > 1 ? doc.sdfgs[m.sdfg]?.name : undefined, q))}
          </ul>
        ) : (
          <ul className="ol-root">{(children.get(null) ?? [0]).map((i) => sdfgItem(i, 0))}</ul>
        )}
      </div>
    </aside>
  );
}
