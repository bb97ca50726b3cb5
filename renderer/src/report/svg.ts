/**
 * The chart modules' `renderSVG` as a self-contained ES module for Node hosts (built by `npm run build:report`
 * into dist/report/charts-svg.js): the engine's HTML writer draws every chart of a report as static SVG with
 * it. No DOM is touched.
 */
export { renderSVG } from '../charts/index.js';
