/**
 * The centre: mounts the canvas graph module (renderer/src/graph/) once and drives it from the store — the theme,
 * the transient marks of the chosen mode, the shared selection — and feeds its selection and hover back. Which
 * document it shows, and when, is the open module's (open/graph.ts), which also takes its first frame. React
 * renders only the toolbar around it.
 */
import { useEffect, useRef, useState } from 'react';
import { createGraphView, prewarmLayoutWorker, type GraphProgress } from '../../graph/index.js';
import { asContractError, hoverTransient, selectElement, toast } from '../actions.js';
import { Icon } from '../Icon.js';
import { graphFirstFrame, graphMounted } from '../open/index.js';
import { registerFrames, registerGraphMetrics } from '../perf.js';
import { store } from '../state.js';
import { useSelect, watch } from '../store.js';
import { afterNextFrame } from '../../yield.js';
import { graphHandle } from './handle.js';
import { buildMarks } from './marks.js';
import './graph.css';

export function GraphPane(): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const doc = useSelect(store, (s) => s.doc);
  const opening = useSelect(store, (s) => s.opening);
  const [progress, setProgress] = useState<GraphProgress | null>(null);
  const [info, setInfo] = useState<string>('');

  useEffect(() => {
    const el = host.current!;
    const view = createGraphView(el, {
      fetchRegion: (id) => {
        const s = store.get();
        if (!s.client || !s.doc) return Promise.reject(new Error('no document is open'));
        if (id === null && s.rootRegion) return s.rootRegion;
        return s.client.graph({ doc: s.doc.doc, region: id });
      },
      search: (query, limit) => {
        const s = store.get();
        if (!s.client || !s.doc) return Promise.resolve([]);
        return s.client.search({ doc: s.doc.doc, query, limit });
      },
      onSelect: (sel) => {
        if (!sel) {
          if (store.get().selection?.source === 'graph') selectElement(null);
          return;
        }
        selectElement({ id: sel.id, region: sel.region, node: sel.node, edge: sel.edge }, 'graph');
      },
      onHover: (sel) => {
        const t = sel?.node?.kind === 'access' ? sel.node.transient : sel?.edge?.kind === 'memlet' ? sel.edge.transient : null;
        if (store.get().hoverTransient !== t) hoverTransient(t);
      },
      onFirstFrame: (i) => {
        graphFirstFrame();
        setInfo(`${i.nodes} nodes`);
      },
      onProgress: setProgress,
      onError: (err) => toast('error', `Graph: ${asContractError(err).message}`, 8000),
      theme: store.get().theme,
    });
    graphHandle.current = view;
    registerFrames('graph', () => view.metrics.frameTimes);
    registerGraphMetrics(() => {
      const m = view.metrics;
      return {
        open: m.open,
        visibleNodes: m.visibleNodes,
        visibleEdges: m.visibleEdges,
        visibleTexts: m.visibleTexts,
        scale: m.scale,
        lastLayoutMs: m.lastLayoutMs,
        lastLayoutRegions: m.lastLayoutRegions,
      };
    });

    graphMounted();

    let marksSeq = 0;
    const applyMarks = (): void => {
      const s = store.get();
      if (!s.analysis) return;
      const seq = ++marksSeq;
      void buildMarks(s.analysis, s.mode, () => seq !== marksSeq).then((m) => {
        if (m && seq === marksSeq) view.setTransientMarks(m);
      });
    };
    const applyHighlight = (): void => {
      const s = store.get();
      view.highlightTransient(s.selection?.transient ?? s.hoverTransient ?? null);
    };
    const unsubs = [
      watch(
        store,
        (s) => s.theme,
        (t) => view.setTheme(t),
      ),
      watch(
        store,
        (s) => s.analysis,
        () => {
          // The marks are a nicety next to the first frame and the table: build them after the frame that shows those.
          void afterNextFrame().then(applyMarks);
        },
      ),
      watch(store, (s) => s.mode, applyMarks),
      watch(
        store,
        (s) => s.selection,
        (sel) => {
          if (sel && sel.source !== 'graph') view.select(sel.element?.id ?? null);
          if (!sel) view.select(null);
          applyHighlight();
        },
      ),
      watch(store, (s) => s.hoverTransient, applyHighlight),
    ];
    return () => {
      for (const u of unsubs) u();
      registerFrames('graph', null);
      registerGraphMetrics(null);
      graphHandle.current = null;
      view.destroy();
      // The next document's graph view starts with a warm worker too.
      prewarmLayoutWorker();
    };
  }, []);

  const busy = progress !== null;
  return (
    <section className="graph-pane" aria-label="Graph">
      <div className="panel-head graph-head" role="toolbar" aria-label="Graph">
        <span>Graph</span>
        {info && <span className="graph-info">{info}</span>}
        {busy && (
          <span className="graph-info">
            <span className="spinner" /> {progress.phase === 'fetch' ? 'fetching' : 'laying out'}{' '}
            {progress.total > 0 ? `${progress.done}/${progress.total}` : '…'}
          </span>
        )}
        <span className="head-spacer" />
        <button
          type="button"
          className="btn btn-small btn-ghost"
          title="Fit the graph (F)"
          data-testid="graph-fit"
          onClick={() => graphHandle.current?.fit(true)}
        >
          <Icon name="fit" /> Fit
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          title="Open every closed element on screen"
          data-testid="graph-next"
          onClick={() => void graphHandle.current?.expandNextLevel()}
        >
          Expand level
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          title="Open everything (up to a node budget)"
          data-testid="graph-expand"
          onClick={() =>
            void graphHandle.current
              ?.expandAll()
              .then((r) => r.stoppedAtBudget && toast('info', `Stopped at ${r.nodes} nodes: open the rest element by element`))
          }
        >
          Expand all
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          title="Collapse everything"
          data-testid="graph-collapse"
          onClick={() => void graphHandle.current?.collapseAll()}
        >
          Collapse all
        </button>
      </div>
      <div className="graph-body">
        <div className="graph-host" ref={host} data-testid="graph" />
        {!doc && opening && (
          <div className="graph-opening" data-testid="graph-opening">
            <span className="spinner" aria-hidden="true" /> Opening {opening.name}…
          </div>
        )}
      </div>
    </section>
  );
}
