/**
 * The graph's part of an open: starting the layout of a committed document's root region, and its first frame.
 * The graph pane mounts the view (app/graph/GraphPane.tsx, `graphHandle`) and reports its frames here; which
 * root the view shows, and for which open, is decided here and nowhere else.
 */
import type { GraphRegion } from '../../../../electron/engine/view/public.js';
import { asContractError, toast } from '../actions.js';
import { graphHandle } from '../graph/handle.js';
import { store } from '../state.js';
import { currentOpen, markFirstFrame } from './marks.js';

/** The open whose graph the view draws (its first frame is that open's `tlab:first-frame`). */
let shownSeq = 0;
/** The document handle the view shows: the same handle with a new root is a preview's refresh, drawn in place. */
let shownDoc: string | null = null;

const failed = (err: unknown): void => toast('error', `Could not draw the graph: ${asContractError(err).message}`, 10_000);

/**
 * Shows the store's document in the graph view, from `root` when its reply is already in: then the layout request
 * leaves now, in the task that committed the document, before React renders that change (the caller runs this
 * right after the store change). Otherwise the view opens when the region arrives, unless a newer open came first.
 */
export function showDocument(root: GraphRegion | null = null): void {
  const view = graphHandle.current;
  const s = store.get();
  if (!view || !s.doc || !s.rootRegion) return;
  const refresh = s.doc.doc === shownDoc;
  shownDoc = s.doc.doc;
  shownSeq = currentOpen();
  const seq = shownSeq;
  if (root && !refresh) {
    view.open(root).catch(failed);
    return;
  }
  s.rootRegion
    .then((r) => {
      if (seq !== currentOpen()) return undefined;
      return refresh ? view.replaceRoot(r) : view.open(r);
    })
    .catch(failed);
}

/** The graph view has drawn its first frame of what it was last given. */
export function graphFirstFrame(): void {
  markFirstFrame(shownSeq);
}

/** A graph view was mounted (or mounted again): it starts from nothing and shows the open document, if any. */
export function graphMounted(): void {
  shownSeq = 0;
  shownDoc = null;
  showDocument();
}
