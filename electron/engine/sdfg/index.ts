/**
 * SDFG file parser: bytes → sniff → gunzip → UTF-8 → JSON.parse → normalised model (engine/model/sdfg.ts).
 * Every failure on bad input is a TlabError('input') naming the file and, where it applies, the JSON path.
 */
import { readFile } from 'node:fs/promises';
import { TlabError } from '../errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { decodeUtf8, gunzipContent, gunzipContentAsync, parseJsonText, rejectJsonContent, sniffSdfg } from './bytes.js';
import { normaliseSdfg } from './normalise.js';

export { sniffSdfg } from './bytes.js';

/** A file's JSON bytes, decompressed and checked, before they are parsed (what a preview and the full parse share). */
export interface DecodedSdfg {
  json: Buffer;
  compressed: boolean;
  /** The file as errors name it. */
  path: string;
}

export async function readSdfgFile(path: string): Promise<SdfgFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'the file does not exist'
        : code === 'EISDIR'
          ? 'this is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : error instanceof Error
              ? error.message
              : String(error);
    throw new TlabError('input', `cannot read the SDFG file: ${why}`, { file: path, cause: error });
  }
  return parseSdfgBytes(bytes, path);
}

export function parseSdfgBytes(bytes: Uint8Array, path: string): SdfgFile {
  // The decompressed bytes are garbage once the text exists: no need to hold both while JSON.parse allocates.
  const { text, jsonBytes, compressed } = decodeText(decodeSdfgBytes(bytes, path));
  return parseSdfgJson(parseJsonText(text, path), path, jsonBytes, compressed);
}

function decodeText(decoded: DecodedSdfg): { text: string; jsonBytes: number; compressed: boolean } {
  return { text: decodeUtf8(decoded.json, decoded.path), jsonBytes: decoded.json.length, compressed: decoded.compressed };
}

/** Sniff, gunzip and reject what is not JSON; the text is decoded by the parse that needs it. */
export function decodeSdfgBytes(bytes: Uint8Array, path: string): DecodedSdfg {
  const sniff = sniffSdfg(bytes);
  if (!sniff.ok) throw new TlabError('input', sniff.reason, { file: path });
  if (sniff.compressed) return decompressed(gunzipContent(bytes, path), path);
  const json = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { json, compressed: false, path };
}

/** Inflated gzip content, refused when it is not JSON either (a gzipped pickle, say). */
function decompressed(json: Buffer, path: string): DecodedSdfg {
  const reason = rejectJsonContent(json, true);
  if (reason !== null) throw new TlabError('input', `gzip-compressed, but ${reason}`, { file: path });
  return { json, compressed: true, path };
}

/** decodeSdfgBytes with the gunzip on libuv's thread pool, off the calling thread. */
export async function decodeSdfgBytesAsync(bytes: Uint8Array, path: string): Promise<DecodedSdfg> {
  const sniff = sniffSdfg(bytes);
  if (!sniff.ok || !sniff.compressed) return decodeSdfgBytes(bytes, path);
  return decompressed(await gunzipContentAsync(bytes, path), path);
}

/** The full model of bytes decoded earlier (after a preview of them, say). */
export function parseDecodedSdfg(decoded: DecodedSdfg): SdfgFile {
  const { text, jsonBytes, compressed } = decodeText(decoded);
  return parseSdfgJson(parseJsonText(text, decoded.path), decoded.path, jsonBytes, compressed);
}

export function parseSdfgJson(root: unknown, path: string, jsonBytes: number, compressed: boolean): SdfgFile {
  return normaliseSdfg(root, path, jsonBytes, compressed);
}
