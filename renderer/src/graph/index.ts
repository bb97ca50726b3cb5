/**
 * The graph module: draws an SDFG region by region on a canvas (docs/graph.md). Framework-free; the app mounts
 * it into a container and talks to it through `GraphView`.
 */
export { createGraphView, prewarmLayoutWorker } from './view.js';
export type { GraphView, GraphProgress } from './view.js';
export { transientMarks } from './marks.js';
export type { TransientMark, TransientMarks } from './marks.js';
