/**
 * Where an open document's bytes live and how to parse them again: a file the policy allowed, a bundled
 * example, or the private copy of an upload. The cache key changes when the file does, so a file edited on
 * disk is never served from an old model.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { TlabError } from '../engine/errors.js';
import type { SdfgFile } from '../engine/model/sdfg.js';
import { decodeSdfgBytes, parseDecodedSdfg, type DecodedSdfg } from '../engine/sdfg/index.js';

export interface DocSource {
  /** The bytes to read: a real path, or the upload's private copy. */
  readPath: string;
  /** How errors and the renderer name the file: the path, or the upload's own name. */
  display: string;
  /** The path the renderer sees in DocInfo; null for an upload. */
  shownPath: string | null;
  /** Model cache key. */
  key: string;
  size: number;
  mtimeMs: number;
  /** Upload content hash (sha256, hex), or null for files. */
  upload: string | null;
}

export async function fileSource(realPath: string): Promise<DocSource> {
  const st = await stat(realPath);
  return {
    readPath: realPath,
    display: realPath,
    shownPath: realPath,
    key: `file:${st.size}:${st.mtimeMs}:${realPath}`,
    size: st.size,
    mtimeMs: st.mtimeMs,
    upload: null,
  };
}

/** Reads and parses `source`; a file changed since it was opened is an error, not a silent switch. */
export async function loadSource(source: DocSource): Promise<SdfgFile> {
  return parseDecodedSdfg(await readDecoded(source));
}

/** Reads and decompresses `source`. */
async function readDecoded(source: DocSource): Promise<DecodedSdfg> {
  return decodeSdfgBytes(await readSourceBytes(source), source.display);
}

/**
 * The raw bytes of `source` (what a preview and the full parse share), read in one synchronous call: while a
 * window opens on this project's 2-core machine, every thread-pool round trip of `readFile` (one per 512 KiB)
 * waited 10–40 ms for a core, and velocity_tendencies' 3.5 MB took 60–260 ms instead of 10. The parse that
 * follows holds this thread far longer than the read.
 */
export async function readSourceBytes(source: DocSource): Promise<Buffer> {
  try {
    const fd = openSync(source.readPath, 'r');
    try {
      const st = fstatSync(fd);
      if (source.upload === null && (st.size !== source.size || st.mtimeMs !== source.mtimeMs)) {
        throw new TlabError('input', 'the file changed on disk since it was opened: open it again', { file: source.display });
      }
      const bytes = Buffer.allocUnsafe(st.size);
      let got = 0;
      for (let n = 1; got < bytes.length && n > 0; got += n) n = readSync(fd, bytes, got, bytes.length - got, got);
      return got < bytes.length ? bytes.subarray(0, got) : bytes;
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (err instanceof TlabError) throw err;
    throw new TlabError('input', `cannot read the SDFG file: ${(err as Error).message}`, { file: source.display, cause: err });
  }
}

const hashes = new Map<string, string>();
const MAX_HASHES = 256;

/**
 * sha256 (hex) of the bytes `source` reads: what a profile of it records as `program.hash` (an upload's is its
 * content hash already). Remembered per cache key, which changes with the file's size and mtime; `bytes` are the
 * source's bytes when the caller has them in hand.
 */
export async function sourceSha256(source: DocSource, bytes?: Uint8Array): Promise<string> {
  if (source.upload !== null) return source.upload;
  const known = hashes.get(source.key);
  if (known) return known;
  const hash = createHash('sha256')
    .update(bytes ?? (await readSourceBytes(source)))
    .digest('hex');
  if (hashes.size >= MAX_HASHES) hashes.delete(hashes.keys().next().value!);
  hashes.set(source.key, hash);
  return hash;
}
