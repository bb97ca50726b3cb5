/**
 * One coalesced animation frame for every chart: any number of redraw requests between two frames cost one
 * draw per chart, all inside a single requestAnimationFrame callback.
 */
type Draw = () => void;

const pending = new Set<Draw>();
let handle: number | null = null;

const raf: (cb: () => void) => number =
  typeof requestAnimationFrame === 'function'
    ? (cb) => requestAnimationFrame(cb)
    : // Under Node's types (the renderer tests) setTimeout returns a Timeout object; under the DOM's, a number.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      (cb) => setTimeout(cb, 16) as unknown as number;

function flush(): void {
  handle = null;
  const draws = [...pending];
  pending.clear();
  for (const d of draws) d();
}

/** Asks for `draw` to run in the next frame (once, however often it is asked). */
export function requestDraw(draw: Draw): void {
  pending.add(draw);
  if (handle === null) handle = raf(flush);
}

/** Drops a pending draw (a chart being destroyed). */
export function cancelDraw(draw: Draw): void {
  pending.delete(draw);
}

/** Runs every pending draw now (tests; printing before the next frame). */
export function flushDraws(): void {
  if (pending.size) flush();
}
