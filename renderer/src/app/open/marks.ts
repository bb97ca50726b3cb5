/**
 * Which open is current (its number: 1, 2, …; a close counts as one) and its `performance.mark`s, which the bench
 * reads (bench/browser.ts `openTimes`; names and meaning are its contract):
 * - `tlab:open-start`: the open request is sent;
 * - `tlab:doc`: the DocInfo arrived;
 * - `tlab:first-frame`: the first frame of that file's graph is on screen;
 * - `tlab:analysis`: the AnalysisView arrived;
 * - `tlab:ready`: the analysis has filled the dock's visible view (table, timeline or map).
 * Every mark is made for the current open only: a superseded open's late steps leave nothing behind.
 */
let openSeq = 0;
const done = { firstFrame: false, ready: false };
let firstFrameWaiters: Array<() => void> = [];

const MARKS = ['tlab:open-start', 'tlab:doc', 'tlab:analysis', 'tlab:first-frame', 'tlab:ready'];

/** A new open (or a close) begins: the previous open's marks go at once, so nobody reads them as this one's;
 * returns the open's number. */
export function beginOpen(): number {
  openSeq++;
  const waiters = firstFrameWaiters;
  firstFrameWaiters = [];
  for (const w of waiters) w();
  done.firstFrame = false;
  done.ready = false;
  for (const m of MARKS) performance.clearMarks(m);
  return openSeq;
}

/** The current open's number (0 before the first). */
export function currentOpen(): number {
  return openSeq;
}

/** Open `seq`'s request is about to be sent (nothing when a newer open or a close came first). */
export function markOpenStart(seq: number): void {
  if (seq === openSeq) performance.mark('tlab:open-start', { detail: { seq } });
}

/** Intermediate moments of an open (the bench's breakdown): `tlab:doc` (DocInfo arrived), `tlab:analysis`. */
export function markStep(name: 'tlab:doc' | 'tlab:analysis', seq: number): void {
  if (seq !== openSeq) return;
  performance.clearMarks(name);
  performance.mark(name, { detail: { seq } });
}

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
