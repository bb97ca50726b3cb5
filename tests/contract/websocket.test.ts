/**
 * The shared contract suite over browser mode's transport: a real server on 127.0.0.1:0 and the renderer's
 * WebSocket client (renderer/src/host/websocket.ts) driven from Node with the `ws` package (Node 20 has no
 * global WebSocket without a flag). Plus what only this transport has: disconnects, raw frames.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { corpusDir } from '../../electron/engine/paths.js';
import WebSocket from 'ws';
import { encodeWire, PART_CHARS } from '../../electron/ipc/wire.js';
import { startServer, type RunningServer } from '../../electron/host-kit/web-server/server.js';
import type { TransientLabService } from '../../electron/service/index.js';
import { connectWebSocket, type WebSocketLike } from '../../renderer/src/host/websocket.js';
import { makeScratch, makeService, type Scratch } from './fixtures.js';
import { contractSuite, type Connected } from './suite.js';
import { failure } from './suite-kit.js';

/** A client as the served page would open it: same origin, the session cookie. */
async function connectClient(server: RunningServer): Promise<Connected & { client: Awaited<ReturnType<typeof connectWebSocket>> }> {
  const origin = `http://127.0.0.1:${server.port}`;
  const client = await connectWebSocket(`ws://127.0.0.1:${server.port}/ws`, {
    create: (url) =>
      new WebSocket(url, { headers: { Origin: origin, Cookie: `tlab_token_${server.port}=${server.token}` } }) as unknown as WebSocketLike,
  });
  return { client, close: async () => client.close() };
}

async function serve(service: TransientLabService): Promise<RunningServer> {
  return startServer({ service, port: 0, hosts: ['127.0.0.1'], log: () => {} });
}

contractSuite({
  name: 'WebSocket',
  async connect(service) {
    const server = await serve(service);
    const conn = await connectClient(server);
    return {
      client: conn.client,
      async close() {
        await conn.close();
        await server.close();
      },
    };
  },
});

describe('WebSocket transport', () => {
  let scratch: Scratch;
  let service: TransientLabService;
  let server: RunningServer;

  beforeAll(async () => {
    scratch = await makeScratch();
    service = await makeService(scratch);
    server = await serve(service);
  });

  afterAll(async () => {
    await server?.close();
    await service?.dispose();
    await scratch?.remove();
  });

  function rawSocket(): Promise<WebSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  }

  function nextMessage(ws: WebSocket): Promise<unknown> {
    return new Promise((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))));
  }

  it('a big reply arrives in parts, each its own message, and the client puts it back whole', async () => {
    const path = join(corpusDir(), 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz');
    const bytes = new Uint8Array(await readFile(path));
    const conn = await connectClient(server);
    try {
      const doc = await conn.client.openUpload({ name: 'stage8.sdfgz', bytes });
      const view = await conn.client.analyze({ doc: doc.doc, symbols: {}, defaultSymbol: null, target: null });
      // What the server sent for the same call, frame by frame.
      const ws = await rawSocket();
      const frames: string[] = [];
      ws.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
      const send = (id: number, method: string, req: unknown) => ws.send(encodeWire({ t: 'call', id, method, req }));
      send(1, 'openUpload', { name: 'c.sdfgz', bytes });
      await vi.waitFor(() => expect(frames.length).toBe(1), { timeout: 60_000 });
      const rawDoc = (JSON.parse(frames[0]!) as { reply: { value: { doc: string } } }).reply.value.doc;
      send(2, 'analyze', { doc: rawDoc, symbols: {}, defaultSymbol: null, target: null });
      await vi.waitFor(() => expect(frames.some((f) => f.startsWith('{"t":"reply","id":2'))).toBe(true), { timeout: 60_000 });
      ws.close();
      const parts = frames.slice(1, -1);
      expect(parts.length).toBeGreaterThan(2);
      expect(parts.every((f) => f.startsWith('{"t":"part","id":2,') && f.length < PART_CHARS + 100)).toBe(true);
      const whole = JSON.stringify(view).length;
      expect(whole).toBeGreaterThan(PART_CHARS);
      expect(frames.at(-1)!.length).toBeLessThan(PART_CHARS);
      expect(view.table.count).toBe(view.table.id.length);
      expect(view.table.count).toBeGreaterThan(500);
      expect(view.order).toHaveLength(view.table.count);
    } finally {
      await conn.close();
    }
  });

  it('when the server goes away, pending and later calls fail as transport errors and `disconnected` fires', async () => {
    const own = await serve(service);
    const { client } = await connectClient(own);
    const reasons: string[] = [];
    client.on('disconnected', ({ reason }) => reasons.push(reason));
    expect((await client.environment({})).host).toBe('browser');
    const pending = failure(client.openExample({ id: 'hdiff' }));
    await own.close();
    const e = await pending;
    expect(e.kind).toBe('transport');
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/stopping/);
    const later = await failure(client.environment({}));
    expect(later.kind).toBe('transport');
    expect(later.message).toMatch(/reload the page/);
  });

  it('a call that outlives its time limit fails as a transport error', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const client = await connectWebSocket(`ws://127.0.0.1:${server.port}/ws`, {
      create: (url) =>
        new WebSocket(url, {
          headers: { Origin: origin, Cookie: `tlab_token_${server.port}=${server.token}` },
        }) as unknown as WebSocketLike,
      timeouts: { openExample: 1 },
    });
    const e = await failure(client.openExample({ id: 'vadv' }));
    expect(e).toMatchObject({ kind: 'transport', message: expect.stringMatching(/no answer .* after 0 s/) });
    expect((await client.environment({})).contract).toBe(1);
    client.close();
  });

  it('connecting without the token fails with a clear transport error', async () => {
    const e = await failure(
      connectWebSocket(`ws://127.0.0.1:${server.port}/ws`, { create: (url) => new WebSocket(url) as unknown as WebSocketLike }),
    );
    expect(e.kind).toBe('transport');
    expect(e.message).toMatch(/cannot connect/);
  });

  it('an unknown method is refused; a malformed frame closes the connection', async () => {
    const ws = await rawSocket();
    const reply = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'call', id: 1, method: 'constructor', req: {} }));
    expect(await reply).toMatchObject({ t: 'reply', id: 1, reply: { ok: false, error: { kind: 'refused' } } });
    const closed = new Promise<number>((r) => ws.once('close', (code: number) => r(code)));
    ws.send('{not json');
    expect(await closed).toBe(1007);
  });

  it('uploads travel as one binary frame (no base64), and a forged frame is refused', async () => {
    const frame = encodeWire({ t: 'call', id: 7, method: 'openUpload', req: { name: 'x.sdfg', bytes: new Uint8Array([0x7b, 0x7d]) } });
    expect(frame).toBeInstanceOf(Uint8Array);
    const ws = await rawSocket();
    const reply = nextMessage(ws);
    ws.send(frame);
    // `{}` is not an SDFG: the engine's error comes back, so the bytes arrived intact.
    expect(await reply).toMatchObject({ t: 'reply', id: 7, reply: { ok: false, error: { kind: 'input', file: 'x.sdfg' } } });
    const closed = new Promise<number>((r) => ws.once('close', (code: number) => r(code)));
    ws.send(new Uint8Array([0x54, 0x4c, 0x42, 0x31, 0xff, 0xff, 0xff, 0x7f]));
    expect(await closed).toBe(1007);
  });
});
