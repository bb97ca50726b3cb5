/**
 * Where an open document's bytes live and how to parse them again: a file the policy allowed, a bundled
 * example, or the private copy of an upload. The cache key changes when the file does, so a file edited on
 * disk is never served from an old model.
 */
import { readFile, stat } from 'node:fs/promises';
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
  return { readPath: realPath, display: realPath, shownPath: realPath, key: `file:${st.size}:${st.mtimeMs}:${realPath}`, size: st.size, mtimeMs: st.mtimeMs, upload: null };
}

/** Reads and parses `source`; a file changed since it was opened is an error, not a silent switch. */
export async function loadSource(source: DocSource): Promise<SdfgFile> {
  return parseDecodedSdfg(await readDecoded(source));
}

/** Reads and decompresses `source`. */
export async function readDecoded(source: DocSource): Promise<DecodedSdfg> {
  return decodeSdfgBytes(await readSourceBytes(source), source.display);
}

/** The raw bytes of `source` (what a preview and the full parse share). */
export async function readSourceBytes(source: DocSource): Promise<Buffer> {
  try {
    const st = await stat(source.readPath);
    if (source.upload === null && (st.size !== source.size || st.mtimeMs !== source.mtimeMs)) {
      throw new TlabError('input', 'the file changed on disk since it was opened: open it again', { file: source.display });
    }
    return await readFile(source.readPath);
  } catch (err) {
    if (err instanceof TlabError) throw err;
    throw new TlabError('input', `cannot read the SDFG file: ${(err as Error).message}`, { file: source.display, cause: err });
  }
}
