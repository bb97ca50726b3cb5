/**
 * The page's performance probe for the bench: long main-thread tasks recorded from page load on
 * (PerformanceObserver 'longtask'), so that the bench can read the longest one between `tlab:open-start` and
 * `tlab:ready`; the frame times of the views that keep them; the graph's metrics; `performance.measure`s around
 * the commits it attributes long tasks to. `window.tlabPerf` exposes them read-only. The `tlab:*` marks of an
 * open are the open module's (open/marks.ts).
 */
import { currentOpen } from './open/marks.js';

const longTasks: Array<{ start: number; duration: number }> = [];
const frameSources = new Map<string, () => number[]>();
let graphMetrics: (() => unknown) | null = null;

/** The mounted graph view's metrics, for the bench (null unregisters). */
export function registerGraphMetrics(source: (() => unknown) | null): void {
  graphMetrics = source;
}

interface PerfProbe {
  /** Long tasks since page load: start (ms since navigation) and duration. */
  longTasks(): Array<{ start: number; duration: number }>;
  /** Frame durations (ms) recorded by each view that keeps them (graph, lifetimes). */
  frames(): Record<string, number[]>;
  /** The open the marks belong to (1, 2, …). */
  openSeq(): number;
  /** Where the graph's last open spent its time, and what it shows (graph module metrics). */
  graph(): unknown;
}

declare global {
  interface Window {
    tlabPerf?: PerfProbe;
  }
}

export function installPerfProbe(): void {
  try {
    const po = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
    });
    po.observe({ type: 'longtask', buffered: true });
  } catch {
    // Browsers without the Long Tasks API (Firefox, Safari): the marks still work.
  }
  window.tlabPerf = {
    longTasks: () => longTasks.slice(),
    frames: () => Object.fromEntries([...frameSources].map(([k, f]) => [k, f().slice()])),
    openSeq: currentOpen,
    graph: () => (graphMetrics ? structuredClone(graphMetrics()) : null),
  };
}

/** A view that records its frame times registers them here (null unregisters). */
export function registerFrames(name: string, source: (() => number[]) | null): void {
  if (source) frameSources.set(name, source);
  else frameSources.delete(name);
}

/** Runs `fn` inside a `performance.measure` named `name` (the bench reports which measures its longest tasks
 * overlapped: bench/lib/browser.ts `openTimes`). */
export function measured<T>(name: string, fn: () => T): T {
  const start = performance.now();
  try {
    return fn();
  } finally {
    try {
      performance.measure(name, { start, end: performance.now() });
    } catch {
      // A browser without User Timing Level 3: nothing to record.
    }
  }
}
