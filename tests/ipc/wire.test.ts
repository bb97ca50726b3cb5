import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assembleParts,
  decodePagedReply,
  decodeWire,
  encodeWire,
  encodeWirePaged,
  isPagedReply,
  pageReplyForIpc,
  WireError,
} from '../../electron/ipc/wire.js';
import type { WireMessage } from '../../electron/ipc/contract.js';

describe('wire codec', () => {
  it('sends messages without bytes as JSON text and round-trips them', () => {
    const msg = { t: 'call', id: 3, method: 'analyze', req: { doc: 'd1', symbols: { N: '10' } } } as const;
    const frame = encodeWire(msg);
    expect(typeof frame).toBe('string');
    expect(decodeWire(frame)).toEqual(msg);
  });

  it('sends Uint8Arrays in one binary frame, several at any depth, without copying them into text', () => {
    const a = new Uint8Array([1, 2, 3]);
    const b = new Uint8Array(100_000).fill(7);
    const frame = encodeWire({ t: 'call', id: 1, method: 'm', req: { a, nested: [{ b }], empty: new Uint8Array(0) } });
    expect(frame).toBeInstanceOf(Uint8Array);
    expect((frame as Uint8Array).byteLength).toBeLessThan(b.byteLength + 200);
    const back = decodeWire(frame) as { req: { a: Uint8Array; nested: Array<{ b: Uint8Array }>; empty: Uint8Array } };
    expect([...back.req.a]).toEqual([1, 2, 3]);
    expect(Buffer.compare(back.req.nested[0]!.b, b)).toBe(0);
    expect(back.req.empty.byteLength).toBe(0);
  });

  it('round-trips any JSON-like request with bytes inside (property)', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.uint8Array({ maxLength: 64 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (req) => {
        const back = decodeWire(encodeWire({ t: 'call', id: 9, method: 'x', req }));
        expect(back).toEqual({ t: 'call', id: 9, method: 'x', req });
      }),
      { numRuns: 200 },
    );
  });

  it('never revives placeholders in text frames', () => {
    const msg = decodeWire(JSON.stringify({ t: 'call', id: 1, method: 'm', req: { '\u0000bytes': 0 } })) as { req: unknown };
    expect(msg.req).toEqual({ '\u0000bytes': 0 });
  });

  it('keeps a "__proto__" key a plain data property', () => {
    const frame = encodeWire({ t: 'call', id: 1, method: 'm', req: { bytes: new Uint8Array([1]) } }) as Uint8Array;
    const text = new TextDecoder().decode(frame.subarray(8, frame.byteLength - 1)).replace('"bytes"', '"__proto__"');
    const header = new TextEncoder().encode(text);
    const forged = new Uint8Array(8 + header.byteLength + 1);
    forged.set(frame.subarray(0, 4));
    new DataView(forged.buffer).setUint32(4, header.byteLength, true);
    forged.set(header, 8);
    forged[forged.byteLength - 1] = 1;
    const msg = decodeWire(forged) as { req: Record<string, unknown> };
    expect(Object.getPrototypeOf(msg.req)).toBe(Object.prototype);
    expect(Object.keys(msg.req)).toEqual(['__proto__']);
  });

  it('rejects malformed frames with a WireError', () => {
    const bad: Array<string | Uint8Array> = [
      '{oops',
      '[1]',
      JSON.stringify({ t: 'call', id: 'x', method: 'm' }),
      JSON.stringify({ t: 'nope', id: 1 }),
      new Uint8Array([1, 2, 3]),
      new Uint8Array([0x54, 0x4c, 0x42, 0x31, 0xff, 0xff, 0xff, 0x7f]),
    ];
    const good = encodeWire({ t: 'call', id: 1, method: 'm', req: { b: new Uint8Array([5, 6]) } }) as Uint8Array;
    bad.push(good.subarray(0, good.byteLength - 1), new Uint8Array([...good, 0]));
    for (const frame of bad) expect(() => decodeWire(frame)).toThrow(WireError);
  });

  /** What the page does with the frames of one paged message: decode each, keep the parts, assemble the reply. */
  const receive = (frames: Array<string | Uint8Array>): WireMessage => {
    const parts = new Map<number, unknown[]>();
    let last: WireMessage | null = null;
    for (const f of frames) {
      const m = decodeWire(f);
      if (m.t === 'part') parts.set(m.k, m.v);
      else last = m;
    }
    expect(last?.t).toBe('reply');
    const reply = last as Extract<WireMessage, { t: 'reply' }>;
    return { ...reply, reply: assembleParts(reply.reply, parts) };
  };

  it('pages a big reply into parts of at most a page, each JSON of its own, and assembles it back', () => {
    const n = 20_000;
    const value = {
      table: {
        count: n,
        id: Array.from({ length: n }, (_, i) => `0:t${i}`),
        bytes: Array.from({ length: n }, (_, i) => (i % 7 ? i * 8 : `${i}0000000000000000000`)),
        small: [1, 2, 3],
      },
      rows: [{ big: Array.from({ length: 5000 }, (_, i) => ({ i, s: 'x'.repeat(i % 20) })) }, { tiny: true }],
      text: 'y'.repeat(300),
    };
    const msg: WireMessage = { t: 'reply', id: 42, reply: { ok: true, value } };
    const frames = encodeWirePaged(msg, 16 * 1024);
    expect(frames.length).toBeGreaterThan(10);
    for (const f of frames) {
      expect(typeof f).toBe('string');
      expect((f as string).length).toBeLessThan(16 * 1024 + 100);
    }
    expect(decodeWire(frames[0]!).t).toBe('part');
    expect(receive(frames)).toEqual(msg);
  });

  it('sends small replies, calls and events whole', () => {
    const reply: WireMessage = { t: 'reply', id: 1, reply: { ok: true, value: { a: [1, 2, 3] } } };
    expect(encodeWirePaged(reply)).toEqual([encodeWire(reply)]);
    const event: WireMessage = { t: 'event', event: 'profileProgress', payload: { list: Array.from({ length: 100_000 }, (_, i) => i) } };
    expect(encodeWirePaged(event, 1024)).toEqual([encodeWire(event)]);
    const files: WireMessage = {
      t: 'reply',
      id: 2,
      reply: { ok: true, value: { files: [{ name: 'r.pdf', bytes: new Uint8Array(50_000).fill(3) }] } },
    };
    const frames = encodeWirePaged(files, 1024);
    expect(frames).toHaveLength(1);
    expect(decodeWire(frames[0]!)).toEqual(files);
  });

  it('pages any JSON-like reply and assembles it to an equal value (property)', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 12 }),
        fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 8, max: 200 }), (v, page) => {
        const msg: WireMessage = { t: 'reply', id: 5, reply: { ok: true, value: v } };
        expect(receive(encodeWirePaged(msg, page))).toEqual(JSON.parse(JSON.stringify(msg)));
      }),
    );
  });

  it('refuses a placeholder naming a missing part, and parts left unused', () => {
    const reply = { ok: true, value: { a: { '\u0000parts': [0, 1] } } };
    expect(() => assembleParts(structuredClone(reply), new Map([[0, [1]]]))).toThrow(WireError);
    expect(() => assembleParts({ ok: true, value: 1 }, new Map([[0, [1]]]))).toThrow(WireError);
    expect(() => decodeWire(JSON.stringify({ t: 'part', id: 1, k: -1, v: [] }))).toThrow(WireError);
    expect(() => decodeWire(JSON.stringify({ t: 'part', id: 1, k: 0, v: {} }))).toThrow(WireError);
  });
});

describe('paged replies over the desktop IPC', () => {
  const tick = () => Promise.resolve();
  const big = {
    ok: true as const,
    value: { rows: Array.from({ length: 4000 }, (_, i) => ({ i, name: `t${i}` })), order: Array.from({ length: 4000 }, (_, i) => i) },
  };

  it('a big reply becomes text pages and comes back whole; a small one stays a Reply', async () => {
    const paged = pageReplyForIpc(big, 4096);
    expect(isPagedReply(paged)).toBe(true);
    const frames = (paged as { paged: string[] }).paged;
    expect(frames.length).toBeGreaterThan(10);
    expect(await decodePagedReply(paged as { paged: string[] }, tick)).toEqual(big);
    const small = { ok: true as const, value: { a: 1 } };
    expect(pageReplyForIpc(small, 4096)).toBe(small);
    expect(isPagedReply(small)).toBe(false);
  });

  it('one frame per task', async () => {
    const paged = pageReplyForIpc(big, 4096) as { paged: string[] };
    let tasks = 0;
    await decodePagedReply(paged, async () => {
      tasks++;
    });
    expect(tasks).toBe(paged.paged.length - 1);
  });

  it('anything but parts then one reply is refused', async () => {
    const { paged } = pageReplyForIpc(big, 4096) as { paged: string[] };
    const bad = [
      { paged: [] },
      { paged: [paged.at(-1)!] },
      { paged: [...paged.slice(0, -1)] },
      { paged: [paged.at(-1)!, ...paged.slice(0, -1)] },
      { paged: [...paged.slice(0, -1), 42] },
      { paged: 'nope' },
      { paged: [...paged.slice(1)] },
    ];
    for (const b of bad) await expect(decodePagedReply(b as unknown as { paged: string[] }, tick)).rejects.toThrow(WireError);
  });
});
