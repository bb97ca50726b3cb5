/** The mounted graph view, for the parts of the window that drive it (keyboard, outline, selection panel, and the
 * open module, which gives it each document: open/graph.ts). */
import type { GraphView } from '../../graph/view.js';

export const graphHandle: { current: GraphView | null } = { current: null };
