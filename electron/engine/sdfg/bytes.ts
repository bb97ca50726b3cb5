/**
 * From file bytes to a parsed JSON value: content sniffing (gzip by magic bytes, never by extension), one
 * decompression, one UTF-8 decode, one JSON.parse — and precise messages when any of it fails.
 */
import { isAscii } from 'node:buffer';
import { gunzip, gunzipSync } from 'node:zlib';
import { TlabError } from '../errors.js';
import { keyPath } from './json.js';

export type SniffResult = { ok: true; compressed: boolean } | { ok: false; reason: string };

/** Files smaller than this that are not JSON are reported as placeholders rather than as broken SDFGs. */
const PLACEHOLDER_LIMIT = 1024;

export function sniffSdfg(bytes: Uint8Array): SniffResult {
  if (bytes.length === 0) return { ok: false, reason: 'the file is empty' };
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return { ok: true, compressed: true };
  const reason = rejectJsonContent(bytes, false);
  return reason === null ? { ok: true, compressed: false } : { ok: false, reason };
}

const LFS_PREFIX = 'version https://git-lfs';

/**
 * Says why `bytes` (plain or just decompressed) cannot be SDFG JSON, or returns null when they may be.
 * Only the start of the content is inspected; JSON.parse judges the rest.
 */
export function rejectJsonContent(bytes: Uint8Array, decompressed: boolean): string | null {
  const what = decompressed ? 'the decompressed content' : 'the file';
  if (bytes.length === 0) return `${what} is empty`;
  // Pickle protocols 2-5 start with PROTO (0x80) and the protocol number; DaCe writes protocol 4 or 5.
  if (bytes[0] === 0x80) {
    return `${what} is a Python pickle, not JSON: re-save with SDFG.save(path) without use_pickle`;
  }
  if (startsWithAscii(bytes, LFS_PREFIX)) {
    return `${what} is a Git LFS pointer, not the SDFG itself: run git lfs pull to fetch the real file`;
  }
  let i = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && isJsonWhitespace(bytes[i]!)) i++;
  if (i === bytes.length) return `${what} contains only whitespace`;
  const first = bytes[i]!;
  // Any JSON value may start here; a non-object root gets a precise message from the normaliser.
  if (first === 0x7b || first === 0x5b || first === 0x22 || first === 0x2d || (first >= 0x30 && first <= 0x39)) return null;
  if (startsWithAscii(bytes, 'true', i) || startsWithAscii(bytes, 'false', i) || startsWithAscii(bytes, 'null', i)) return null;
  const preview = previewBytes(bytes, i, 32);
  if (bytes.length < PLACEHOLDER_LIMIT) {
    return `${what} is not an SDFG but a ${bytes.length}-byte non-JSON placeholder starting with ${preview}`;
  }
  return `${what} is not JSON: an SDFG starts with "{", this starts with ${preview}`;
}

function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function startsWithAscii(bytes: Uint8Array, text: string, at = 0): boolean {
  if (bytes.length - at < text.length) return false;
  for (let k = 0; k < text.length; k++) if (bytes[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

function previewBytes(bytes: Uint8Array, from: number, max: number): string {
  let out = '';
  const end = Math.min(bytes.length, from + max);
  for (let k = from; k < end; k++) {
    const b = bytes[k]!;
    out += b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `"${out}${end < bytes.length ? '…' : ''}"`;
}

/** Decompresses gzip content into one Buffer; corrupt or truncated streams become input errors. */
export function gunzipContent(bytes: Uint8Array, file: string): Buffer {
  try {
    return gunzipSync(bytes, { chunkSize: inflateChunkSize(bytes) });
  } catch (error) {
    throw gunzipError(error, file);
  }
}

/** gunzipContent on libuv's thread pool. */
export function gunzipContentAsync(bytes: Uint8Array, file: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(bytes, { chunkSize: inflateChunkSize(bytes) }, (error, out) => (error ? reject(gunzipError(error, file)) : resolve(out)));
  });
}

function gunzipError(error: unknown, file: string): TlabError {
  const detail = error instanceof Error ? error.message : String(error);
  const truncated = /unexpected end/i.test(detail);
  return new TlabError(
    'input',
    truncated
      ? `the gzip data is truncated (${detail}): the file was cut off while copying or saving`
      : `the file starts like gzip but cannot be decompressed: ${detail}`,
    { file, cause: error },
  );
}

/** zlib's default 16 KiB output chunks cost one copy per chunk when they are joined: 10,000 chunks for the
 * 166 MB velocity_tendencies file, about half of its inflate time. The gzip trailer states the decompressed size
 * (mod 2^32; only a hint, a lie merely costs chunks), so one chunk usually holds it all. */
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 256 * 2 ** 20;
function inflateChunkSize(bytes: Uint8Array): number {
  // +1: zlib needs room to see the end of the stream within the chunk.
  return Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, gzipSizeHint(bytes) + 1));
}

/** The decompressed size a gzip stream's trailer states (ISIZE: mod 2^32, of its last member only; a hint). */
export function gzipSizeHint(bytes: Uint8Array): number {
  if (bytes.length < 18) return 0;
  const n = bytes.length;
  return (bytes[n - 4]! | (bytes[n - 3]! << 8) | (bytes[n - 2]! << 16) | (bytes[n - 1]! << 24)) >>> 0;
}

/**
 * Decodes UTF-8 once. Buffer decoding is fast and lenient (invalid bytes become U+FFFD), so a strict check
 * runs only when a U+FFFD shows up — which a valid file may also contain legitimately.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text: string;
  // SDFG JSON is almost always pure ASCII (json.dumps escapes the rest): then one vectorised check proves it
  // valid UTF-8 and a Latin-1 copy is the exact text, with no decoding and no U+FFFD scan.
  const ascii = isAscii(buffer);
  try {
    text = buffer.toString(ascii ? 'latin1' : 'utf8');
  } catch (error) {
    // V8 strings stop at ~512 MiB (2^29 - 24 characters).
    throw new TlabError('input', `the JSON text (${buffer.length} bytes) is larger than this runtime can hold as one string`, {
      file,
      cause: error,
    });
  }
  if (!ascii && text.includes('\uFFFD')) {
    const bad = firstInvalidUtf8(buffer);
    if (bad >= 0) {
      let line = 1;
      let lineStart = 0;
      for (let k = buffer.indexOf(0x0a); k >= 0 && k < bad; k = buffer.indexOf(0x0a, k + 1)) {
        line++;
        lineStart = k + 1;
      }
      throw new TlabError(
        'input',
        `the file is not valid UTF-8: byte 0x${buffer[bad]!.toString(16).padStart(2, '0')} at offset ${bad} (line ${line}, byte ${bad - lineStart + 1} of the line) does not start a valid UTF-8 sequence; SDFG files are UTF-8 JSON`,
        { file },
      );
    }
  }
  // A byte order mark is not JSON, but editors add it; it carries no meaning here.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) return i;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** JSON.parse with a message that says where (line, column, JSON path) and whether the file looks cut off. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw describeJsonSyntaxError(text, error, file);
  }
}

function describeJsonSyntaxError(text: string, error: unknown, file: string): TlabError {
  const engineMessage = error instanceof Error ? error.message : String(error);
  // V8 sometimes quotes the start of the input in its message; that preview is noise in a file error.
  const reason = engineMessage.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
  const located = locateJsonSyntaxError(text);
  const engineAt = /position (\d+)/.exec(engineMessage);
  const position = located?.position ?? (engineAt ? Number(engineAt[1]) : text.length);
  const { line, column } = lineAndColumn(text, position);
  const atEnd = position >= text.trimEnd().length;
  const message =
    `the file is not valid JSON: ${reason} at line ${line}, column ${column}` +
    (atEnd ? '; the file looks truncated (the JSON text ends before the document is complete)' : '');
  return new TlabError('input', message, { file, jsonPath: located?.path ?? null, cause: error });
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < position; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: position - lineStart + 1 };
}

interface Frame {
  array: boolean;
  index: number;
  /** Key of the member being read; null while the key itself is being read. */
  key: string | null;
}

/**
 * Finds the first syntax error of `text` with the JSON path of the value being read there. Runs only after
 * JSON.parse failed, so it favours clarity over speed; it is iterative, so nesting depth cannot overflow it.
 * Returns null when it finds no error (JSON.parse failed for another reason).
 */
function locateJsonSyntaxError(text: string): { position: number; path: string } | null {
  const n = text.length;
  const stack: Frame[] = [];
  let i = 0;
  let expectValue = true;
  const fail = () => ({ position: Math.min(i, n), path: framesToPath(stack) });
  const skipWhitespace = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  /** Advances past a string starting at `i`; returns false on a syntax error (i is left at the problem). */
  const scanString = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return false;
      } else i++;
    }
    return false;
  };
  const scanKey = (frame: Frame): boolean => {
    frame.key = null;
    skipWhitespace();
    if (text[i] !== '"') return false;
    const start = i + 1;
    if (!scanString()) return false;
    frame.key = text.slice(start, i - 1);
    skipWhitespace();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  for (;;) {
    skipWhitespace();
    if (expectValue) {
      if (i >= n) return fail();
      const c = text[i]!;
      if (c === '{') {
        i++;
        skipWhitespace();
        if (text[i] === '}') {
          i++;
          expectValue = false;
          continue;
        }
        const frame: Frame = { array: false, index: 0, key: null };
        stack.push(frame);
        if (!scanKey(frame)) return fail();
        continue;
      }
      if (c === '[') {
        i++;
        skipWhitespace();
        if (text[i] === ']') {
          i++;
          expectValue = false;
          continue;
        }
        stack.push({ array: true, index: 0, key: null });
        continue;
      }
      if (c === '"') {
        if (!scanString()) return fail();
      } else if (c === '-' || (c >= '0' && c <= '9')) {
        numberPattern.lastIndex = i;
        if (!numberPattern.test(text)) return fail();
        i = numberPattern.lastIndex;
      } else if (text.startsWith('true', i)) i += 4;
      else if (text.startsWith('false', i)) i += 5;
      else if (text.startsWith('null', i)) i += 4;
      else return fail();
      expectValue = false;
      continue;
    }
    const top = stack[stack.length - 1];
    if (!top) return i < n ? fail() : null;
    if (i >= n) return fail();
    const c = text[i];
    if (c === ',') {
      i++;
      if (top.array) top.index++;
      else if (!scanKey(top)) return fail();
      expectValue = true;
    } else if ((top.array && c === ']') || (!top.array && c === '}')) {
      i++;
      stack.pop();
    } else return fail();
  }
}

function framesToPath(stack: Frame[]): string {
  let path = '$';
  for (const frame of stack) {
    if (frame.array) path = `${path}[${frame.index}]`;
    else if (frame.key !== null) path = keyPath(path, frame.key);
  }
  return path;
}
