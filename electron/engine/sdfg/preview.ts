/**
 * A first look at a big SDFG before all of it is read: the root SDFG with the bodies of its nested SDFGs left
 * out, so that a window can draw the top level while the rest is parsed.
 *
 * velocity_tendencies is 166 MB of JSON, and 88% of it sits in 45 nested SDFGs; decoding, parsing and
 * normalising all of it takes about two seconds on an idle machine, the root alone a tenth of that. Finding the
 * nested bodies must not itself read the file byte by byte in JavaScript, so this relies on how DaCe writes
 * files: `json.dumps(indent=…)`, where an object's closing brace sits alone on a line at the indentation of
 * the line that opened it, and no string can hold a raw newline. Both ends are found with Buffer.indexOf
 * (native memchr/memmem). A file written any other way (compact JSON, hand-edited) gets no preview, only the
 * full parse — never a wrong one: every skipped range must start an object whose first key is `"type": "SDFG"`,
 * and the root text left over must parse.
 *
 * A preview is a model of its own: `preview` is set, nested SDFG nodes whose body was skipped have
 * `deferred: true` and no `sdfg`, and its statistics, SDFG list and warnings are those of the root only.
 * Nothing but the first drawing may use it; everything else waits for the full model.
 */
import type { SdfgFile } from '../model/sdfg.js';
import { decodeUtf8, parseJsonText } from './bytes.js';
import type { DecodedSdfg } from './index.js';
import { normaliseSdfg } from './normalise.js';

/** Below this, the whole file parses about as fast as a preview would. */
export const PREVIEW_MIN_JSON_BYTES = 24 * 2 ** 20;
/** A preview is worth it only when the nested bodies are most of the file. */
const MIN_SKIPPED_SHARE = 0.5;

/** Stands in for a skipped nested SDFG body (a string that cannot be SDFG JSON text, so never a real value). */
export const DEFERRED_SDFG = 'tlab:deferred-nested-sdfg';

const KEY = Buffer.from('"sdfg": {', 'latin1');
const TYPE_SDFG = Buffer.from('"type": "SDFG"', 'latin1');
const NEWLINE = 0x0a;
const SPACE = 0x20;
const CLOSE = 0x7d;

/** The root of `decoded` with its nested SDFG bodies skipped, or null when this file gets no preview. */
export function previewSdfg(decoded: DecodedSdfg, minJsonBytes = PREVIEW_MIN_JSON_BYTES): SdfgFile | null {
  const { json, path, compressed } = decoded;
  if (json.length < minJsonBytes) return null;
  const ranges = nestedBodies(json);
  if (ranges === null || ranges.length === 0) return null;
  let skipped = 0;
  for (const [from, to] of ranges) skipped += to - from;
  if (skipped < json.length * MIN_SKIPPED_SHARE) return null;

  const marker = Buffer.from(JSON.stringify(DEFERRED_SDFG), 'latin1');
  const parts: Buffer[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    parts.push(json.subarray(at, from), marker);
    at = to;
  }
  parts.push(json.subarray(at));
  let root: unknown;
  try {
    root = parseJsonText(decodeUtf8(Buffer.concat(parts), path), path);
  } catch {
    // The layout guess was wrong somewhere: the full parse reads the file as it is and reports any real error.
    return null;
  }
  const file = normaliseSdfg(root, path, json.length, compressed, { deferred: DEFERRED_SDFG });
  return { ...file, preview: true };
}

/**
 * [start, end) of every outermost nested SDFG body (the `{…}` value of an `"sdfg"` key), in file order; null
 * when the text is not laid out as DaCe writes it.
 */
export function nestedBodies(json: Buffer): Array<[number, number]> | null {
  const ranges: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const key = json.indexOf(KEY, from);
    if (key < 0) return ranges;
    const lineStart = json.lastIndexOf(NEWLINE, key) + 1;
    for (let k = lineStart; k < key; k++) if (json[k] !== SPACE) return null;
    const indent = key - lineStart;
    const open = key + KEY.length - 1;
    // The body's first key must be `"type": "SDFG"` on the next line, one level deeper.
    let k = open + 1;
    if (json[k] !== NEWLINE) return null;
    k++;
    const inner = k;
    while (json[k] === SPACE) k++;
    if (k - inner <= indent || json.compare(TYPE_SDFG, 0, TYPE_SDFG.length, k, k + TYPE_SDFG.length) !== 0) return null;
    const close = closingBrace(json, inner, indent);
    if (close < 0) return null;
    ranges.push([open, close + 1]);
    from = close + 1;
  }
}

/**
 * The first `}` at the start of a line indented by exactly `indent` spaces, at or after `from`. Hopping from
 * brace to brace (memchr) beats searching for the whole "\n   …}" line, which Buffer.indexOf's Boyer–Moore
 * would crawl through one space at a time. A brace that follows a newline is never inside a string.
 */
function closingBrace(json: Buffer, from: number, indent: number): number {
  for (let at = json.indexOf(CLOSE, from); at >= 0; at = json.indexOf(CLOSE, at + 1)) {
    const lineStart = at - indent;
    if (lineStart < 1 || json[lineStart - 1] !== NEWLINE) continue;
    let k = lineStart;
    while (k < at && json[k] === SPACE) k++;
    if (k === at) return at;
  }
  return -1;
}
