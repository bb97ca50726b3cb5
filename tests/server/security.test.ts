/**
 * Browser mode's gate, from the outside: raw HTTP requests (node:http, so that Host and Origin can be forged)
 * and WebSocket handshakes against a real server on 127.0.0.1:0 serving a scratch renderer folder.
 */
import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { reportPreviewCspSources } from '../../electron/engine/report/assets.js';
import { RootsFileAccess } from '../../electron/host-kit/file-access.js';
import { startServer, type RunningServer } from '../../electron/host-kit/web-server/server.js';
import { TransientLabService } from '../../electron/service/index.js';
import { copyFile } from 'node:fs/promises';
import { NodeRunnerHost } from '../../electron/runner/host-node.js';
import { examplesDir } from '../../electron/engine/paths.js';
import { decodeWire, encodeWire } from '../../electron/ipc/wire.js';
import type { ContractError, Reply } from '../../electron/ipc/contract.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: RunningServer;
let service: TransientLabService;
let base: string;

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const cookie = (): Record<string, string> => ({ Cookie: `tlab_token_${server.port}=${server.token}` });

/** Resolves 'open' or the HTTP status the handshake was refused with. */
function handshake(path: string, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => {});
  });
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'tlab-sec-'));
  const renderer = join(base, 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>t</title><script type="module" src="./assets/app.js"></script>');
  await writeFile(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(renderer, 'assets', 'style.css'), 'body{}');
  await writeFile(join(base, 'secret.txt'), 'SECRET');
  await symlink(join(base, 'secret.txt'), join(renderer, 'assets', 'leak.js'));
  await mkdir(join(base, 'root'));
  service = await TransientLabService.create({
    host: 'browser',
    files: await RootsFileAccess.create([join(base, 'root')]),
    createRunner: () => {
      throw new Error('no runs here');
    },
  });
  server = await startServer({ service, port: 0, hosts: ['127.0.0.1'], rendererDir: renderer, log: () => {} });
});

afterAll(async () => {
  await server?.close();
  await service?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('the token', () => {
  it('prints one URL with a long random token', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{43}$`));
  });

  it('refuses a missing or wrong token, for every path', async () => {
    for (const path of [
      '/',
      '/index.html',
      '/assets/app.js',
      '/ws',
      '/?token=',
      `/?token=${server.token}x`,
      `/?token=${server.token.slice(1)}`,
    ]) {
      const a = await get(path);
      expect(a.status, path).toBe(403);
      expect(a.body).not.toContain('<title>');
    }
    expect((await get('/', { Cookie: `tlab_token_${server.port}=wrong` })).status).toBe(403);
    // A cookie of another port's server is not ours.
    expect((await get('/', { Cookie: `tlab_token_1=${server.token}` })).status).toBe(403);
  });

  it('trades a right token for an HttpOnly SameSite=Strict cookie and drops it from the URL', async () => {
    const a = await get(`/?token=${server.token}&open=sub%2Fx.sdfg`);
    expect(a.status).toBe(303);
    expect(a.headers.location).toBe('/?open=sub%2Fx.sdfg');
    expect(a.headers['set-cookie']).toEqual([`tlab_token_${server.port}=${server.token}; Path=/; HttpOnly; SameSite=Strict`]);
    const page = await get('/', cookie());
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>t</title>');
  });
});

describe('Host and Origin', () => {
  it('refuses a foreign Host (DNS rebinding), even with the right token', async () => {
    for (const host of ['evil.example:' + server.port, `127.0.0.1:${server.port + 1}`, '127.0.0.1', 'localhost.evil.example']) {
      expect((await get(`/?token=${server.token}`, { Host: host })).status, host).toBe(403);
      expect((await get('/', { Host: host, ...cookie() })).status, host).toBe(403);
    }
    expect((await get('/', { Host: `localhost:${server.port}`, ...cookie() })).status).toBe(200);
  });

  it('refuses requests from other origins and other sites, but not a followed link', async () => {
    expect((await get('/', { Origin: 'http://evil.example', ...cookie() })).status).toBe(403);
    expect((await get('/', { Origin: `http://127.0.0.1:${server.port + 1}`, ...cookie() })).status).toBe(403);
    expect((await get('/', { Origin: 'null', ...cookie() })).status).toBe(403);
    expect((await get('/assets/app.js', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', ...cookie() })).status).toBe(403);
    expect((await get('/assets/app.js', { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors', ...cookie() })).status).toBe(403);
    expect((await get('/', { Origin: `http://127.0.0.1:${server.port}`, ...cookie() })).status).toBe(200);
    expect((await get(`/?token=${server.token}`, { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' })).status).toBe(303);
  });

  it('WebSocket: needs the token, our Host and our Origin', async () => {
    const own = `http://127.0.0.1:${server.port}`;
    expect(await handshake('/ws', { Origin: own, ...cookie() })).toBe('open');
    expect(await handshake(`/ws?token=${server.token}`, {})).toBe('open');
    expect(await handshake('/ws', { Origin: own })).toBe(403);
    expect(await handshake('/ws?token=nope', { Origin: own })).toBe(403);
    expect(await handshake('/ws', { Origin: 'http://evil.example', ...cookie() })).toBe(403);
    expect(await handshake('/ws', { Origin: own, Host: `evil.example:${server.port}`, ...cookie() })).toBe(403);
    expect(await handshake('/other', { Origin: own, ...cookie() })).toBe(403);
  });
});

describe('responses', () => {
  it('carry a strict CSP and hardening headers, refusals included', async () => {
    for (const a of [await get('/', cookie()), await get('/')]) {
      const csp = String(a.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      // The export preview (a srcdoc iframe inheriting this policy) may run the report's runtime and stylesheet only.
      const preview = reportPreviewCspSources();
      expect(preview).not.toBeNull();
      expect(csp).toContain(`script-src 'self' ${preview!.script};`);
      expect(csp).toContain(`style-src 'self' ${preview!.style};`);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers['referrer-policy']).toBe('no-referrer');
      expect(a.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serve the right MIME types and only GET/HEAD', async () => {
    expect((await get('/', cookie())).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get('/assets/app.js', cookie())).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get('/assets/style.css', cookie())).headers['content-type']).toBe('text/css; charset=utf-8');
    const head = await get('/assets/app.js', cookie(), 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await get('/', cookie(), method)).status).toBe(405);
  });

  it('never serve a file outside the renderer folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
      '/assets/leak.js',
      '/%00',
      '/assets/app.js%00.html',
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      `/${'%2e%2e/'.repeat(10)}etc/passwd`,
    ]) {
      const a = await get(path, cookie());
      expect(a.status, path).toBe(404);
      expect(a.body, path).not.toContain('SECRET');
      expect(a.body, path).not.toContain('root:');
    }
  });
});

describe('remote hosts', () => {
  /** Calls `method` over a real WebSocket of `srv` with its token, as a page would. */
  async function call(srv: RunningServer, method: string, req: unknown): Promise<Reply<unknown>> {
    const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/ws?token=${srv.token}`, { headers: { Origin: `http://127.0.0.1:${srv.port}` } });
    await new Promise((r, j) => (ws.on('open', r), ws.on('error', j)));
    try {
      const answer = new Promise<Reply<unknown>>((resolve) =>
        ws.on('message', (data: Buffer, binary: boolean) => {
          const m = decodeWire(binary ? new Uint8Array(data) : data.toString());
          if (m.t === 'reply' && m.id === 1) resolve(m.reply);
        }),
      );
      ws.send(encodeWire({ t: 'call', id: 1, method, req }));
      return await answer;
    } finally {
      ws.close();
    }
  }

  const request = (doc: string, remote: unknown) => ({
    doc,
    job: 'j1',
    modes: ['SCOPED'],
    layout: 'packed',
    calls: 1,
    warmup: 0,
    processes: 1,
    symbols: {},
    defaultSymbol: null,
    seed: '0',
    inputs: {},
    timeoutS: 0,
    remote,
  });

  it('a page can make the server ssh only to a host it was started with (serve --remote), never another', async () => {
    await copyFile(join(examplesDir(), 'chain.sdfg'), join(base, 'root', 'chain.sdfg'));
    const asked: string[] = [];
    const remoteService = await TransientLabService.create({
      host: 'browser',
      files: await RootsFileAccess.create([join(base, 'root')]),
      createRunner: () => new NodeRunnerHost(),
      remote: {
        hosts: ['me@gpu-node'],
        run: async (_file, _options, target) => {
          asked.push(target);
          throw new Error('no ssh in this test');
        },
      },
    });
    const srv = await startServer({
      service: remoteService,
      port: 0,
      hosts: ['127.0.0.1'],
      rendererDir: join(base, 'renderer'),
      log: () => {},
    });
    try {
      expect(await call(srv, 'environment', {})).toMatchObject({ ok: true, value: { remoteHosts: ['me@gpu-node'] } });
      // Every request runs on a fresh connection (a session of its own): open the file in the same one.
      for (const host of ['evil.example.org', 'gpu-node', 'me@gpu-node ', 'ME@gpu-node', '-oProxyCommand=sh', 'me@gpu-node;id']) {
        const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/ws?token=${srv.token}`, {
          headers: { Origin: `http://127.0.0.1:${srv.port}` },
        });
        await new Promise((r, j) => (ws.on('open', r), ws.on('error', j)));
        const replies = new Map<number, Reply<unknown>>();
        const waiting = new Map<number, () => void>();
        ws.on('message', (data: Buffer, binary: boolean) => {
          const m = decodeWire(binary ? new Uint8Array(data) : data.toString());
          if (m.t === 'reply') {
            replies.set(m.id, m.reply);
            waiting.get(m.id)?.();
          }
        });
        const send = (id: number, method: string, req: unknown) =>
          new Promise<Reply<unknown>>((resolve) => {
            waiting.set(id, () => resolve(replies.get(id)!));
            ws.send(encodeWire({ t: 'call', id, method, req }));
          });
        const opened = (await send(1, 'openFile', { path: 'chain.sdfg' })) as { ok: true; value: { doc: string } };
        expect(opened.ok).toBe(true);
        const refused = await send(2, 'profile', request(opened.value.doc, host));
        expect(refused.ok, host).toBe(false);
        const e = (refused as { error: ContractError }).error;
        expect(e.kind, host).toBe('refused');
        expect(e.jsonPath).toBe('$.remote');
        expect(e.message).toContain(`'${host}'`);
        // The listed host does reach the remote runner (which here refuses to do anything).
        if (host === 'gpu-node') {
          const allowed = await send(3, 'profile', request(opened.value.doc, 'me@gpu-node'));
          expect(allowed.ok).toBe(false);
        }
        ws.close();
      }
      expect(asked).toEqual(['me@gpu-node']);
    } finally {
      await srv.close();
      await remoteService.dispose();
    }
  });

  it('a server started without --remote refuses every remote host', async () => {
    expect(await call(server, 'environment', {})).toMatchObject({ ok: true, value: { remoteHosts: [] } });
    const r = await call(server, 'profile', request('d1', '127.0.0.1'));
    expect(r.ok).toBe(false);
  });
});
