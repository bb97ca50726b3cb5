/**
 * SDFG file parser: bytes → sniff → gunzip → UTF-8 → JSON.parse → normalised model (engine/model/sdfg.ts).
 * Every failure on bad input is a TlabError('input') naming the file and, where it applies, the JSON path.
 */
import { readFile } from 'node:fs/promises';
import { TlabError } from '../errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { decodeUtf8, gunzipContent, parseJsonText, rejectJsonContent, sniffSdfg } from './bytes.js';
import { normaliseSdfg } from './normalise.js';

export { sniffSdfg, type SniffResult } from './bytes.js';

export async function readSdfgFile(path: string): Promise<SdfgFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'the file does not exist'
      : code === 'EISDIR' ? 'this is a folder, not a file'
      : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
      : error instanceof Error ? error.message : String(error);
    throw new TlabError('input', `cannot read the SDFG file: ${why}`, { file: path, cause: error });
  }
  return parseSdfgBytes(bytes, path);
}

export function parseSdfgBytes(bytes: Uint8Array, path: string): SdfgFile {
  const sniff = sniffSdfg(bytes);
  if (!sniff.ok) throw new TlabError('input', sniff.reason, { file: path });
  const { root, jsonBytes } = parseContent(bytes, sniff.compressed, path);
  return parseSdfgJson(root, path, jsonBytes, sniff.compressed);
}

export function parseSdfgJson(root: unknown, path: string, jsonBytes: number, compressed: boolean): SdfgFile {
  return normaliseSdfg(root, path, jsonBytes, compressed);
}

/** Kept separate from decoding so that the decompressed bytes are garbage once the text exists. */
function parseContent(bytes: Uint8Array, compressed: boolean, path: string): { root: unknown; jsonBytes: number } {
  const { text, jsonBytes } = decodeContent(bytes, compressed, path);
  return { root: parseJsonText(text, path), jsonBytes };
}

function decodeContent(bytes: Uint8Array, compressed: boolean, path: string): { text: string; jsonBytes: number } {
  const json = compressed ? gunzipContent(bytes, path) : bytes;
  if (compressed) {
    const reason = rejectJsonContent(json, true);
    if (reason !== null) throw new TlabError('input', `gzip-compressed, but ${reason}`, { file: path });
  }
  return { text: decodeUtf8(json, path), jsonBytes: json.length };
}
