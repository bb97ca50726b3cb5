/**
 * Legends that wrap instead of dropping entries: items flow left to right and onto further lines when the
 * width runs out; an item wider than a whole line gets a line of its own and is abbreviated by its caller
 * (`fitText`), but every item is placed. Charts size their headers from `lines`.
 */

export interface Flow {
  /** Left x of each item. */
  x: number[];
  /** Line of each item, from 0. */
  line: number[];
  lines: number;
  /** Width each item may use (its own, or the line's when it alone is wider). */
  width: number[];
}

/** Places items of `widths` between x0 and x1 with `gap` between them; lines after the first start at `indent` (default x0). */
export function flowItems(widths: readonly number[], x0: number, x1: number, gap: number, indent = x0): Flow {
  const out: Flow = { x: [], line: [], lines: widths.length ? 1 : 0, width: [] };
  let x = x0;
  let line = 0;
  let start = x0;
  widths.forEach((w) => {
    if (x > start && x + w > x1) {
      line++;
      start = x = indent;
    }
    out.x.push(x);
    out.line.push(line);
    // +1: callers fit text to this width with sums of their own that may round a hair above `w`.
    out.width.push(w <= x1 - x ? w + 1 : x1 - x);
    x += w + gap;
  });
  out.lines = widths.length ? line + 1 : 0;
  return out;
}
