/** The mounted graph view, for the parts of the window that drive it (keyboard, outline, selection panel). */
import type { GraphRegion } from '../../../../electron/engine/view/public.js';
import type { GraphView } from '../../graph/view.js';

export const graphHandle: { current: GraphView | null } = { current: null };

/**
 * Root-region requests whose reply is already in, with it: the graph pane starts the layout from the store's
 * change itself (synchronously) instead of a promise callback that would run after React's render of the same
 * change (actions.ts openWith).
 */
export const settledRegions = new WeakMap<Promise<GraphRegion>, GraphRegion>();
