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
 * A big gzip file is scanned while it inflates, 1 MiB at a time, and each inflated chunk is dropped once it
 * was scanned: on this project's VM, first touches of fresh memory cost more than inflating itself
 * (velocity_tendencies: about 0.6 s to gunzip into one 166 MB buffer, 0.35 s streamed and dropped). The full
 * parse needs the whole text, so it gets its own inflation later, on the thread pool.
 *
 * A preview is a model of its own: `preview` is set, nested SDFG nodes whose body was skipped have
 * `deferred: true` and no `sdfg`, and its statistics, SDFG list and warnings are those of the root only.
 * Nothing but the first drawing may use it; everything else waits for the full model.
 */
import type { SdfgFile } from '../model/sdfg.js';
import { createGunzip } from 'node:zlib';
import { decodeUtf8, gzipSizeHint, parseJsonText, rejectJsonContent, sniffSdfg } from './bytes.js';
import { decodeSdfgBytes, decodeSdfgBytesAsync, type DecodedSdfg } from './index.js';
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

/**
 * A file's preview (null when it gets none), and its decoding for the full parse (failing as decodeSdfgBytes
 * would). A big gzip file is previewed while it inflates, and `decoded` inflates it again, on libuv's thread
 * pool, from the first call on (the caller chooses when: not while the preview's own work needs the CPU).
 */
export async function decodeWithPreview(
  bytes: Uint8Array,
  path: string,
  minJsonBytes = PREVIEW_MIN_JSON_BYTES,
): Promise<{ preview: SdfgFile | null; decoded: () => Promise<DecodedSdfg> }> {
  const sniff = sniffSdfg(bytes);
  if (!sniff.ok || !sniff.compressed || gzipSizeHint(bytes) < minJsonBytes) {
    const decoded = decodeSdfgBytes(bytes, path);
    return { preview: previewSdfg(decoded, minJsonBytes), decoded: async () => decoded };
  }
  const scan = new BodyScanner();
  let first = true;
  const complete = await inflateChunks(bytes, (chunk) => {
    if (first && rejectJsonContent(chunk, true) !== null) scan.fail();
    first = false;
    return scan.push(chunk);
  });
  if (!complete || !scan.end()) return { preview: null, decoded: decodeLater(bytes, path) };
  return { preview: scan.total >= minJsonBytes ? rootOf(scan, path, true) : null, decoded: decodeLater(bytes, path) };
}

/** The full decoding of gzip `bytes`, on libuv's thread pool, started by the first call. */
function decodeLater(bytes: Uint8Array, path: string): () => Promise<DecodedSdfg> {
  let decoding: Promise<DecodedSdfg> | null = null;
  return () => {
    if (!decoding) {
      decoding = decodeSdfgBytesAsync(bytes, path);
      // Its failure belongs to whoever awaits it, and must not count as unhandled before then.
      decoding.catch(() => {});
    }
    return decoding;
  };
}

const STREAM_CHUNK = 2 ** 20;

/**
 * Inflates gzip `bytes` chunk by chunk, handing each to `consume`; true when the stream ended intact (gzip's
 * CRC checked: a preview of a corrupt file would be wrong) and `consume` never returned false. Each chunk is
 * consumed in a microtask, after Node has already queued the next one on the thread pool, so scanning one
 * overlaps inflating the next.
 */
function inflateChunks(bytes: Uint8Array, consume: (chunk: Buffer) => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      resolve(ok);
    };
    const inflate = createGunzip({ chunkSize: STREAM_CHUNK });
    inflate.on('data', (chunk: Buffer) =>
      queueMicrotask(() => {
        if (done) return;
        if (!consume(chunk)) {
          inflate.destroy();
          finish(false);
        }
      }),
    );
    // Corrupt or truncated: the full decoding reports it.
    inflate.on('error', () => finish(false));
    // Queued behind the last chunk's microtask.
    inflate.on('end', () => queueMicrotask(() => finish(true)));
    inflate.end(bytes);
  });
}

/** The root of `decoded` with its nested SDFG bodies skipped, or null when this file gets no preview. */
export function previewSdfg(decoded: DecodedSdfg, minJsonBytes = PREVIEW_MIN_JSON_BYTES): SdfgFile | null {
  const { json, path, compressed } = decoded;
  if (json.length < minJsonBytes) return null;
  const scan = new BodyScanner();
  scan.push(json);
  return scan.end() ? rootOf(scan, path, compressed) : null;
}

function rootOf(scan: BodyScanner, path: string, compressed: boolean): SdfgFile | null {
  if (scan.ranges.length === 0 || scan.total - scan.rootBytes < scan.total * MIN_SKIPPED_SHARE) return null;
  let root: unknown;
  try {
    root = parseJsonText(decodeUtf8(Buffer.concat(scan.pieces), path), path);
  } catch {
    // The layout guess was wrong somewhere: the full parse reads the file as it is and reports any real error.
    return null;
  }
  const file = normaliseSdfg(root, path, scan.total, compressed, { deferred: DEFERRED_SDFG });
  return { ...file, preview: true };
}

/**
 * [start, end) of every outermost nested SDFG body (the `{…}` value of an `"sdfg"` key), in file order; null
 * when the text is not laid out as DaCe writes it.
 */
export function nestedBodies(json: Buffer): Array<[number, number]> | null {
  const scan = new BodyScanner();
  scan.push(json);
  return scan.end() ? scan.ranges : null;
}

const MARKER = Buffer.from(JSON.stringify(DEFERRED_SDFG), 'latin1');

/**
 * Finds nested SDFG bodies in JSON text that arrives in chunks, and keeps (copies of) the text around them:
 * the root, with MARKER where each body was. Chunks are cut into runs of whole lines (the line split across
 * two chunks is joined on its own), so every test below sees a whole line: a key and the indentation before
 * it, a closing brace and the newline and spaces before it.
 */
class BodyScanner {
  /** The root's text, in pieces. */
  readonly pieces: Buffer[] = [];
  readonly ranges: Array<[number, number]> = [];
  rootBytes = 0;
  /** Bytes pushed. */
  total = 0;
  private state: 'root' | 'type' | 'body' = 'root';
  private indent = 0;
  /** Where the body being skipped starts, in the whole text. */
  private bodyFrom = 0;
  /** The last chunk's unfinished line (a copy: the chunk itself may be dropped). */
  private carry: Buffer | null = null;
  private failed = false;

  fail(): void {
    this.failed = true;
  }

  /** Scans `chunk`; false once the text is known not to be laid out as expected. */
  push(chunk: Buffer): boolean {
    if (this.failed) return false;
    const base = this.total;
    this.total += chunk.length;
    const firstNl = chunk.indexOf(NEWLINE);
    if (firstNl < 0) {
      this.carry = this.carry ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk);
      return true;
    }
    let from = 0;
    if (this.carry) {
      const line = Buffer.concat([this.carry, chunk.subarray(0, firstNl + 1)]);
      this.lines(line, base - this.carry.length);
      this.carry = null;
      from = firstNl + 1;
    }
    const lastNl = chunk.lastIndexOf(NEWLINE);
    if (lastNl >= from) this.lines(chunk.subarray(from, lastNl + 1), base + from);
    if (lastNl + 1 < chunk.length) this.carry = Buffer.from(chunk.subarray(lastNl + 1));
    return !this.failed;
  }

  /** Ends the text; false when it was not laid out as expected (or a body never closed). */
  end(): boolean {
    if (this.carry) {
      this.lines(this.carry, this.total - this.carry.length);
      this.carry = null;
    }
    return !this.failed && this.state === 'root';
  }

  private keep(text: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.pieces.push(Buffer.from(text.subarray(from, to)));
    this.rootBytes += to - from;
  }

  /** `text` starts at a line start and holds whole lines (the last one may lack its newline at the end). */
  private lines(text: Buffer, offset: number): void {
    let at = 0;
    while (at < text.length && !this.failed) {
      if (this.state === 'root') {
        const key = text.indexOf(KEY, at);
        if (key < 0) {
          this.keep(text, at, text.length);
          return;
        }
        const lineStart = text.lastIndexOf(NEWLINE, key) + 1;
        for (let k = lineStart; k < key; k++) if (text[k] !== SPACE) return this.fail();
        const open = key + KEY.length - 1;
        if (text[open + 1] !== NEWLINE) return this.fail();
        this.keep(text, at, open);
        this.pieces.push(MARKER);
        this.indent = key - lineStart;
        this.bodyFrom = offset + open;
        this.state = 'type';
        at = open + 2;
      } else if (this.state === 'type') {
        // The body's first key must be `"type": "SDFG"` on the next line, one level deeper.
        let k = at;
        while (text[k] === SPACE) k++;
        if (
          k - at <= this.indent ||
          k + TYPE_SDFG.length > text.length ||
          text.compare(TYPE_SDFG, 0, TYPE_SDFG.length, k, k + TYPE_SDFG.length) !== 0
        )
          return this.fail();
        this.state = 'body';
        at = k;
      } else {
        const close = closingBrace(text, at, this.indent);
        if (close < 0) return;
        this.ranges.push([this.bodyFrom, offset + close + 1]);
        this.state = 'root';
        at = close + 1;
      }
    }
  }
}

/**
 * The first `}` at the start of a line indented by exactly `indent` spaces, at or after `from`, in text that
 * starts at a line start. Hopping from brace to brace (memchr) beats searching for the whole "\n   …}" line,
 * which Buffer.indexOf's Boyer–Moore would crawl through one space at a time. A brace that follows a newline
 * is never inside a string.
 */
function closingBrace(text: Buffer, from: number, indent: number): number {
  for (let at = text.indexOf(CLOSE, from); at >= 0; at = text.indexOf(CLOSE, at + 1)) {
    const lineStart = at - indent;
    if (lineStart < 0 || (lineStart > 0 && text[lineStart - 1] !== NEWLINE)) continue;
    let k = lineStart;
    while (k < at && text[k] === SPACE) k++;
    if (k === at) return at;
  }
  return -1;
}
