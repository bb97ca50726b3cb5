/**
 * Browser mode's WebSocket framing, shared by the web server (electron/host-kit/web-server/) and the renderer's
 * client (renderer/src/host/). Dependency-free on purpose (no Node, no DOM beyond TextEncoder/TextDecoder, which both
 * have), so that both sides import this one file.
 *
 * A message without binary data is one text frame of JSON. A message holding Uint8Arrays (uploads) is one
 * binary frame, so that a 100 MB upload is neither inflated by base64 (+33%) nor copied through a string:
 *
 *   "TLB1" | u32 LE header length | header (UTF-8 JSON) | blob 0 | blob 1 | …
 *
 * where the header is `{ "m": message, "b": [byte length of each blob] }` and each Uint8Array inside the
 * message is replaced by `{ "\u0000bytes": index }`. Text frames never revive placeholders.
 *
 * A reply bigger than a page (`PART_CHARS`, 256 Ki characters of JSON) is paged (`encodeWirePaged`): its big arrays
 * go first as `{t:'part', id, k, v}` messages of at most a page each, then the reply with each such array
 * replaced by `{ "\u0000parts": [k, …] }`. The page decodes every message in its own task, so that the 7 MB
 * analysis of a 30k-transient file is ~30 short tasks instead of one long one (Blink's text decode plus
 * JSON.parse of the whole message: ~240 ms on an idle machine); `assembleParts` puts the arrays back.
 */
import type { PagedReply, Reply, WireMessage } from './contract.js';

const MAGIC = [0x54, 0x4c, 0x42, 0x31]; // "TLB1"
const PLACEHOLDER = '\u0000bytes';
const PARTS = '\u0000parts';
/** The most JSON characters of one paged message (a part, or what is left of the reply). */
export const PART_CHARS = 256 * 1024;
/** A header is the message minus its bytes: anything beyond this is not one of ours. */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

/** Text (JSON) when the message holds no Uint8Array, else one binary frame. */
export function encodeWire(message: WireMessage): string | Uint8Array {
  const blobs: Uint8Array[] = [];
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (value instanceof Uint8Array) {
      blobs.push(value);
      return { [PLACEHOLDER]: blobs.length - 1 };
    }
    return value;
  });
  if (!blobs.length) return json;
  const header = new TextEncoder().encode(JSON.stringify({ m: JSON.parse(json) as unknown, b: blobs.map((b) => b.byteLength) }));
  const total = 8 + header.byteLength + blobs.reduce((n, b) => n + b.byteLength, 0);
  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, header.byteLength, true);
  out.set(header, 8);
  let at = 8 + header.byteLength;
  for (const b of blobs) {
    out.set(b, at);
    at += b.byteLength;
  }
  return out;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function checkMessage(m: unknown): WireMessage {
  if (!isRecord(m)) throw new WireError('a message must be a JSON object');
  const id = m.id;
  switch (m.t) {
    case 'call':
      if (!Number.isSafeInteger(id) || typeof m.method !== 'string') throw new WireError('a call needs an integer id and a method name');
      return { t: 'call', id: id as number, method: m.method, req: m.req };
    case 'reply': {
      const reply = m.reply;
      if (!Number.isSafeInteger(id) || !isRecord(reply) || typeof reply.ok !== 'boolean')
        throw new WireError('a reply needs an integer id and an envelope');
      return m as WireMessage;
    }
    case 'event':
      if (typeof m.event !== 'string') throw new WireError('an event needs a name');
      return m as WireMessage;
    case 'part':
      if (!Number.isSafeInteger(id) || !Number.isSafeInteger(m.k) || (m.k as number) < 0 || !Array.isArray(m.v))
        throw new WireError('a part needs an integer id, an index and an array');
      return { t: 'part', id: id as number, k: m.k as number, v: m.v };
    default:
      throw new WireError(`unknown message type ${JSON.stringify(String(m.t)).slice(0, 40)}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new WireError('a message is not valid JSON');
  }
}

/** Parses one frame; every malformed frame is a WireError (the peer then closes the connection). */
export function decodeWire(data: string | Uint8Array): WireMessage {
  if (typeof data === 'string') return checkMessage(parseJson(data));
  if (data.byteLength < 8 || MAGIC.some((b, i) => data[i] !== b)) throw new WireError('a binary frame without the TLB1 header');
  const headerBytes = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(4, true);
  if (headerBytes > MAX_HEADER_BYTES || 8 + headerBytes > data.byteLength) throw new WireError('a binary frame with a bad header length');
  let headerText: string;
  try {
    headerText = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(8, 8 + headerBytes));
  } catch {
    throw new WireError('a binary frame whose header is not UTF-8');
  }
  const header = parseJson(headerText);
  if (!isRecord(header) || !Array.isArray(header.b) || !header.b.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) {
    throw new WireError('a binary frame header without blob lengths');
  }
  const lengths = header.b as number[];
  const blobs: Uint8Array[] = [];
  let at = 8 + headerBytes;
  for (const n of lengths) {
    if (at + n > data.byteLength) throw new WireError('a binary frame shorter than its blobs');
    blobs.push(data.subarray(at, at + n));
    at += n;
  }
  if (at !== data.byteLength) throw new WireError('a binary frame longer than its blobs');
  const revive = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(revive);
    if (!isRecord(x)) return x;
    const keys = Object.keys(x);
    if (keys.length === 1 && keys[0] === PLACEHOLDER) {
      const i = x[PLACEHOLDER];
      if (!Number.isSafeInteger(i) || (i as number) < 0 || (i as number) >= blobs.length)
        throw new WireError('a placeholder names a missing blob');
      return blobs[i as number];
    }
    // In place: an own "__proto__" key from JSON.parse stays a plain data property.
    for (const k of keys) x[k] = revive(x[k]);
    return x;
  };
  return checkMessage(revive(header.m));
}

/**
 * The frames of one message: a reply of more than `partChars` JSON characters is paged (see the top of this
 * file); anything else is `[encodeWire(message)]`. Only arrays are cut, between elements, so every part and the
 * reply stay JSON of their own. One pass: every array of more than a sixteenth of a page goes to parts (an
 * AnalysisView is a record of 20-odd columns of ~60–100 KB each), cut into pages when it is bigger than one.
 */
export function encodeWirePaged(message: WireMessage, partChars = PART_CHARS): Array<string | Uint8Array> {
  const whole = encodeWire(message);
  // Bytes (an exported report's files) go in one binary frame, as ever.
  if (message.t !== 'reply' || typeof whole !== 'string' || whole.length <= partChars) return [whole];
  const { id } = message;
  const frames: string[] = [];
  /** `items`: the JSON of the part's array elements, comma-separated. */
  const page = (items: string): number => {
    frames.push(`{"t":"part","id":${id},"k":${frames.length},"v":[${items}]}`);
    return frames.length - 1;
  };
  const placeholder = (ks: number[]): string => `{${JSON.stringify(PARTS)}:[${ks.join(',')}]}`;
  const small = partChars / 16;
  // Elements of primitives: JSON.stringify of whole slices (fast), halved until a slice fits a page.
  const pagePrimitives = (v: unknown[], text: string, ks: number[]): void => {
    if (text.length <= partChars || v.length < 2) {
      ks.push(page(text.slice(1, -1)));
      return;
    }
    const mid = v.length >> 1;
    const a = v.slice(0, mid);
    const b = v.slice(mid);
    pagePrimitives(a, JSON.stringify(a), ks);
    pagePrimitives(b, JSON.stringify(b), ks);
  };
  const enc = (v: unknown): string | undefined => {
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== 'object')) {
        const text = JSON.stringify(v);
        if (text.length <= small) return text;
        const ks: number[] = [];
        pagePrimitives(v, text, ks);
        return placeholder(ks);
      }
      const before = frames.length;
      const texts = v.map((x: unknown) => enc(x) ?? 'null');
      const size = texts.reduce((n, t) => n + t.length + 1, 1);
      // Elements that hold placeholders stay in the reply: parts are never walked for placeholders.
      if (size <= small || frames.length > before) return `[${texts.join(',')}]`;
      const ks: number[] = [];
      let start = 0;
      let run = 0;
      for (let i = 0; i < texts.length; i++) {
        if (i > start && run + texts[i]!.length + 1 > partChars) {
          ks.push(page(texts.slice(start, i).join(',')));
          start = i;
          run = 0;
        }
        run += texts[i]!.length + 1;
      }
      ks.push(page(texts.slice(start).join(',')));
      return placeholder(ks);
    }
    if (isRecord(v)) {
      const fields: string[] = [];
      for (const [k, x] of Object.entries(v)) {
        const t = enc(x);
        if (t !== undefined) fields.push(`${JSON.stringify(k)}:${t}`);
      }
      return `{${fields.join(',')}}`;
    }
    return JSON.stringify(v);
  };
  const reply = enc(message.reply)!;
  return [...frames, `{"t":"reply","id":${id},"reply":${reply}}`];
}

/** The reply of a paged message with its arrays put back from the parts received before it (by index). A
 * placeholder naming a part that never came, or parts nobody asked for, is a WireError. */
export function assembleParts<T>(reply: T, parts: ReadonlyMap<number, unknown[]>): T {
  const used = new Set<number>();
  const revive = (x: unknown): unknown => {
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) x[i] = revive(x[i]);
      return x;
    }
    if (!isRecord(x)) return x;
    const keys = Object.keys(x);
    if (keys.length === 1 && keys[0] === PARTS) {
      const ks = x[PARTS];
      if (!Array.isArray(ks)) throw new WireError('a parts placeholder without part indices');
      const arrays = ks.map((k) => {
        const v = parts.get(k as number);
        if (!v || used.has(k as number)) throw new WireError('a parts placeholder names a missing part');
        used.add(k as number);
        return v;
      });
      // The part itself when there is one (most columns), else one native concat: no element-wise copy.
      return arrays.length === 1 ? arrays[0]! : ([] as unknown[]).concat(...arrays);
    }
    for (const k of keys) x[k] = revive(x[k]);
    return x;
  };
  const out = revive(reply) as T;
  if (used.size !== parts.size) throw new WireError('a paged reply that leaves parts unused');
  return out;
}

/** `reply` as the desktop's IPC sends it: itself, or paged when its JSON is longer than a page. A reply JSON
 * cannot carry (a bug on the host side) goes as it is: structured clones carry more than JSON. */
export function pageReplyForIpc(reply: Reply<unknown>, partChars = PART_CHARS): Reply<unknown> | PagedReply {
  let frames: Array<string | Uint8Array>;
  try {
    frames = encodeWirePaged({ t: 'reply', id: 0, reply }, partChars);
  } catch {
    return reply;
  }
  return frames.length > 1 && frames.every((f) => typeof f === 'string') ? { paged: frames } : reply;
}

/** Whether a bridge answer is a PagedReply (anything else is unwrapped as a Reply). */
export function isPagedReply(x: unknown): x is PagedReply {
  return typeof x === 'object' && x !== null && 'paged' in x && !('ok' in x);
}

/**
 * The reply of a PagedReply, decoding one frame per task (`nextTask`) so that no single task parses more than
 * a page. Anything but parts followed by one reply is a WireError.
 */
export async function decodePagedReply(paged: PagedReply, nextTask: () => Promise<void>): Promise<Reply<unknown>> {
  const frames: unknown = paged.paged;
  if (!Array.isArray(frames) || frames.length < 2) throw new WireError('a paged reply needs parts and a reply');
  const parts = new Map<number, unknown[]>();
  for (let i = 0; i < frames.length; i++) {
    const frame: unknown = frames[i];
    if (typeof frame !== 'string') throw new WireError('a paged reply holds text frames only');
    if (i > 0) await nextTask();
    const m = decodeWire(frame);
    const last = i === frames.length - 1;
    if (m.t === 'part' && !last) parts.set(m.k, m.v);
    else if (m.t === 'reply' && last) return assembleParts(m.reply, parts);
    else throw new WireError('a paged reply is parts followed by one reply');
  }
  throw new WireError('a paged reply without its reply');
}
