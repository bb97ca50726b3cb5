/**
 * The three moments the bench measures (`performance.mark`), for the current open only:
 * - `tlab:open-start`: the open request is sent;
 * - `tlab:first-frame`: the first frame of that file's graph is on screen;
 * - `tlab:ready`: the analysis has filled the table and the timeline (the dock's visible view has drawn it).
 * Long main-thread tasks are recorded from page load on (PerformanceObserver 'longtask'), so that the bench can
 * read the longest one between open-start and ready. `window.tlabPerf` exposes both read-only.
 */
let openSeq = 0;
const done = { firstFrame: false, ready: false };
const longTasks: Array<{ start: number; duration: number }> = [];
const frameSources = new Map<string, () => number[]>();
let graphMetrics: (() => unknown) | null = null;

/** The mounted graph view's metrics, for the bench (null unregisters). */
export function registerGraphMetrics(source: (() => unknown) | null): void {
  graphMetrics = source;
}

export interface PerfProbe {
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
    openSeq: () => openSeq,
    graph: () => (graphMetrics ? structuredClone(graphMetrics()) : null),
  };
}

/** A view that records its frame times registers them here (null unregisters). */
export function registerFrames(name: string, source: (() => number[]) | null): void {
  if (source) frameSources.set(name, source);
  else frameSources.delete(name);
}

/** A new open (or a close) begins: the previous open's marks go at once, so nobody reads them as this one's;
 * returns the open's sequence number. */
export function beginOpen(): number {
  openSeq++;
  const waiters = firstFrameWaiters;
  firstFrameWaiters = [];
  for (const w of waiters) w();
  done.firstFrame = false;
  done.ready = false;
  for (const m of ['tlab:open-start', 'tlab:doc', 'tlab:analysis', 'tlab:first-frame', 'tlab:ready']) performance.clearMarks(m);
  return openSeq;
}

/** Open `seq`'s request is about to be sent (nothing when a newer open or a close came first). */
export function markOpenStart(seq: number): void {
  if (seq === openSeq) performance.mark('tlab:open-start', { detail: { seq } });
}

export function currentOpen(): number {
  return openSeq;
}

let firstFrameWaiters: Array<() => void> = [];

export function markFirstFrame(seq: number): void {
  if (seq !== openSeq || done.firstFrame) return;
  done.firstFrame = true;
  performance.mark('tlab:first-frame', { detail: { seq } });
  const waiters = firstFrameWaiters;
  firstFrameWaiters = [];
  for (const w of waiters) w();
}

/**
 * Resolves once open `seq` has its first graph frame on screen, or after `timeoutMs`, or at once when a newer
 * open started. The analysis waits for it: the host answers one request at a time, and the graph's first
 * regions should not queue behind a seconds-long analysis of a big file.
 */
export function afterFirstFrame(seq: number, timeoutMs: number): Promise<void> {
  if (seq !== openSeq || done.firstFrame) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, timeoutMs);
    firstFrameWaiters.push(() => {
      clearTimeout(t);
      resolve();
    });
  });
}

export function markReady(seq: number): void {
  if (seq !== openSeq || done.ready) return;
  done.ready = true;
  performance.mark('tlab:ready', { detail: { seq } });
}

/** Intermediate moments of an open (the bench's breakdown): `tlab:doc` (DocInfo arrived), `tlab:analysis`. */
export function markStep(name: 'tlab:doc' | 'tlab:analysis', seq: number): void {
  if (seq !== openSeq) return;
  performance.clearMarks(name);
  performance.mark(name, { detail: { seq } });
}

export function isReadyMarked(seq: number): boolean {
  return seq === openSeq && done.ready;
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
