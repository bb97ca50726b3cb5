/**
 * Browser mode survives any frame. One real `serve` process; a page stays connected through the whole file. Each
 * test sends something malformed — through a real `ws` client where `ws` can produce it, as raw TCP bytes where
 * it cannot (invalid UTF-8, reserved opcodes and bits, unmasked frames, impossible lengths, broken fragment
 * sequences, sockets cut mid-frame or reset mid-handshake) — and then checks that the server answered that one
 * client with the right close code, that the process is alive, and that the page connected all along and a new
 * one both still work. A client dropped mid-profile takes its runner process with it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { examplesDir } from '../../electron/engine/paths.js';
import { decodeWire, encodeWire } from '../../electron/ipc/wire.js';
import { connectWebSocket, type WebSocketClient, type WebSocketLike } from '../../renderer/src/host/websocket.js';
import { failure } from '../contract/suite-kit.js';
import { OP, closePayload, frame, rawConnect, type RawClient } from './raw-ws.js';
import { connect, pageHeaders, profileUntilRunning, runnersGone, serve, type Serve } from './serve-process.js';

let s: Serve;
let page: WebSocketClient;

beforeAll(async () => {
  s = await serve(['--root', examplesDir()]);
  page = await connect(s);
});

afterAll(async () => {
  page?.close();
  if (s && s.child.exitCode === null) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
});

/** After every test: the server is alive, the page connected all along still works, and so does a new one. */
afterEach(async () => {
  expect(s.child.exitCode).toBeNull();
  expect((await page.environment({})).roots).toEqual([examplesDir()]);
  const fresh = await connect(s);
  expect((await fresh.environment({})).roots).toEqual([examplesDir()]);
  fresh.close();
  expect(s.stderr()).not.toMatch(/Unhandled|internal error|^\s+at /m);
});

const raw = (): Promise<RawClient> => rawConnect({ port: s.port, headers: pageHeaders(s) });

/** A `ws` client with the page's headers; resolves once open. */
function wsClient(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws`, { headers: pageHeaders(s) });
    ws.on('open', () => resolve(ws));
    ws.on('error', reject);
  });
}

const closeCode = (ws: WebSocket): Promise<number> => new Promise((r) => ws.on('close', (code) => r(code)));

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const CALL = encodeWire({ t: 'call', id: 1, method: 'environment', req: {} }) as string;

describe('frames a client must never send, as raw bytes: that client is closed with the right code', () => {
  const cases: Array<[string, Buffer[], number]> = [
    ['invalid UTF-8 in a text frame (0xff 0xfe)', [frame(OP.text, Buffer.from([0xff, 0xfe]))], 1007],
    [
      'invalid UTF-8 split across two fragments',
      [frame(OP.text, Buffer.from([0x7b, 0xe2]), { fin: false }), frame(OP.continuation, Buffer.from([0x28, 0xa1]))],
      1007,
    ],
    ['a reserved data opcode (0x3)', [frame(OP.reserved3, 'x')], 1002],
    ['a reserved control opcode (0xB)', [frame(OP.reservedB, 'x')], 1002],
    ['RSV1 without a negotiated extension', [frame(OP.text, CALL, { rsv: 0b100 })], 1002],
    ['RSV2', [frame(OP.text, CALL, { rsv: 0b010 })], 1002],
    ['RSV3', [frame(OP.binary, 'x', { rsv: 0b001 })], 1002],
    ['an unmasked client frame', [frame(OP.text, CALL, { mask: false })], 1002],
    ['a length header beyond 2^53', [frame(OP.binary, '', { claimedLength: 2n ** 62n })], 1009],
    ['a length header beyond the largest message (300 MiB)', [frame(OP.binary, '', { claimedLength: 300n * 2n ** 20n })], 1009],
    ['a continuation frame with no message to continue', [frame(OP.continuation, 'x')], 1002],
    ['a new text frame inside an unfinished fragmented message', [frame(OP.text, '{"t":', { fin: false }), frame(OP.text, CALL)], 1002],
    ['a fragmented control frame (ping without FIN)', [frame(OP.ping, 'x', { fin: false })], 1002],
    ['a control frame longer than 125 bytes', [frame(OP.ping, Buffer.alloc(126))], 1002],
    ['a close frame with an invalid code (999)', [frame(OP.close, closePayload(999))], 1002],
    ['a close frame of one byte', [frame(OP.close, Buffer.from([3]))], 1002],
    ['a close frame whose reason is not UTF-8', [frame(OP.close, closePayload(1000, Buffer.from([0xc3, 0x28])))], 1007],
    ['a binary frame where a call is expected (not TLB1)', [frame(OP.binary, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]))], 1007],
    ['a text frame that is not JSON', [frame(OP.text, '{"t":"call",')], 1007],
    ['JSON that is not a call', [frame(OP.text, '{"t":"reply","id":1,"reply":{"ok":true,"value":1}}')], 1008],
  ];
  for (const [name, frames, code] of cases) {
    it(name, async () => {
      const c = await raw();
      for (const f of frames) c.send(f);
      expect(await c.closed).toBe(code);
    });
  }

  it('the same bytes one at a time (the parser resumes mid-header): still 1007', async () => {
    const c = await raw();
    for (const b of frame(OP.text, Buffer.from([0xff, 0xfe]))) {
      c.send(Buffer.from([b]));
      await wait(2);
    }
    expect(await c.closed).toBe(1007);
  });

  it('a fragmented call in three raw frames is answered', async () => {
    const c = await raw();
    c.send(frame(OP.text, CALL.slice(0, 5), { fin: false }));
    c.send(frame(OP.ping, 'mid-message ping'));
    c.send(frame(OP.continuation, CALL.slice(5, 20), { fin: false }));
    c.send(frame(OP.continuation, CALL.slice(20)));
    for (let i = 0; i < 200 && !c.texts.length; i++) await wait(25);
    const reply = decodeWire(c.texts[0]!);
    expect(reply).toMatchObject({ t: 'reply', id: 1, reply: { ok: true } });
    c.socket.destroy();
  });
});

describe('clients that vanish: the server drops them and goes on', () => {
  it('a socket destroyed in the middle of a frame header', async () => {
    const c = await raw();
    c.send(frame(OP.text, CALL).subarray(0, 1));
    await wait(20);
    c.socket.destroy();
    expect(await c.closed).toBeNull();
  });

  it('a socket destroyed in the middle of a payload', async () => {
    const c = await raw();
    c.send(frame(OP.text, CALL).subarray(0, 12));
    await wait(20);
    c.socket.destroy();
    expect(await c.closed).toBeNull();
  });

  it('a connection reset (RST) in the middle of a large binary frame', async () => {
    const c = await raw();
    c.send(frame(OP.binary, Buffer.alloc(4 * 2 ** 20, 7)).subarray(0, 2 * 2 ** 20));
    await wait(20);
    c.socket.resetAndDestroy();
    expect(await c.closed).toBeNull();
  });

  it('connections reset mid-handshake, and refused handshakes whose client already reset, 40 times each', async () => {
    const { connect: tcp } = await import('node:net');
    const once = (request: string) =>
      new Promise<void>((done) => {
        const sock = tcp(s.port, '127.0.0.1', () => {
          sock.write(request);
          sock.resetAndDestroy();
        });
        sock.on('error', () => {});
        sock.on('close', () => done());
      });
    const handshake = (token: string, cut = false) => {
      const text = `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nOrigin: http://127.0.0.1:${s.port}\r\nCookie: tlab_token_${s.port}=${token}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
      return cut ? text.slice(0, 60) : text;
    };
    for (let i = 0; i < 40; i++) {
      await once(handshake('wrong-token'));
      await once(handshake(s.token, true));
      await once(handshake(s.token));
    }
    await wait(100);
  });

  it('garbage instead of an HTTP request gets a 400 and the connection is dropped', async () => {
    const { connect: tcp } = await import('node:net');
    const answer = await new Promise<string>((done) => {
      let got = '';
      const sock = tcp(s.port, '127.0.0.1', () => sock.write('\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03 not http\r\n\r\n'));
      sock.on('data', (c: Buffer) => (got += c.toString('latin1')));
      sock.on('error', () => {});
      sock.on('close', () => done(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe('malformed messages through a real ws client', () => {
  it('binary where text is expected: 1007', async () => {
    const ws = await wsClient();
    const code = closeCode(ws);
    ws.send(Buffer.from('not a TLB1 frame'), { binary: true });
    expect(await code).toBe(1007);
  });

  it('a text frame that is not JSON: 1007; JSON that is not a call: 1008', async () => {
    const a = await wsClient();
    const codeA = closeCode(a);
    a.send('{"t":"call"');
    expect(await codeA).toBe(1007);
    const b = await wsClient();
    const codeB = closeCode(b);
    b.send('{"t":"event","event":"x","payload":{}}');
    expect(await codeB).toBe(1008);
  });

  it('a call sent in fragments is answered', async () => {
    const ws = await wsClient();
    const reply = new Promise<unknown>((r) => ws.once('message', (data: Buffer) => r(decodeWire(data.toString('utf8')))));
    ws.send(CALL.slice(0, 7), { fin: false });
    ws.send(CALL.slice(7, 15), { fin: false });
    ws.send(CALL.slice(15), { fin: true });
    expect(await reply).toMatchObject({ t: 'reply', id: 1, reply: { ok: true } });
    ws.close();
  });

  it('more fragments than the server buffers: 1008', async () => {
    const ws = await wsClient();
    const code = closeCode(ws);
    for (let i = 0; i < 16 * 1024 + 1; i++) ws.send('x', { fin: false });
    ws.send('x', { fin: true });
    expect(await code).toBe(1008);
  });

  it('a text message over the 64 MiB limit: 1009', async () => {
    const ws = await wsClient();
    const code = closeCode(ws);
    ws.send('x'.repeat(64 * 2 ** 20 + 1));
    expect(await code).toBe(1009);
  });

  it('a client that vanishes between two fragments of a message', async () => {
    const ws = await wsClient();
    ws.send(CALL.slice(0, 10), { fin: false });
    await wait(20);
    ws.terminate();
    await wait(50);
  });
});

describe('a client dropped mid-profile takes its runner with it', () => {
  /** A page whose `ws` socket the test can reach, to write raw bytes into it or cut it. */
  async function pageWithSocket(): Promise<{ client: WebSocketClient; ws: WebSocket }> {
    let ws!: WebSocket;
    const client = await connectWebSocket(`ws://127.0.0.1:${s.port}/ws`, {
      create: (url) => (ws = new WebSocket(url, { headers: pageHeaders(s) })) as unknown as WebSocketLike,
    });
    return { client, ws };
  }
  const socketOf = (ws: WebSocket) => (ws as unknown as { _socket: import('node:net').Socket })._socket;

  it('invalid UTF-8 from a page whose profile is running: 1007, its runner is ended', { timeout: 600_000 }, async () => {
    const { client, ws } = await pageWithSocket();
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);
    const code = closeCode(ws);
    socketOf(ws).write(frame(OP.text, Buffer.from([0xff, 0xfe])));
    expect(await code).toBe(1007);
    expect((await failure(result)).kind).toBe('transport');
    expect(await runnersGone(runners)).toBe(true);
  });

  it('a page whose socket is cut while its profile runs: its runner is ended', { timeout: 600_000 }, async () => {
    const { client, ws } = await pageWithSocket();
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);
    socketOf(ws).resetAndDestroy();
    expect((await failure(result)).kind).toBe('transport');
    expect(await runnersGone(runners)).toBe(true);
  });
});
