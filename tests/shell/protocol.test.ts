/**
 * The app:// protocol handler (electron/shell/protocol.ts) over a scratch renderer build: it serves the build,
 * with the CSP, and refuses every way out of it — `..` (plain, encoded as %2e%2e or with an encoded slash),
 * absolute paths, backslashes, NUL, drive letters, links leading out — as well as other hosts and methods.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_CSP,
  APP_SCHEME_PRIVILEGES,
  appCsp,
  appProtocolHandler,
  isAppUrl,
  registerAppScheme,
  resolveAppRequest,
} from '../../electron/shell/protocol.js';
import { contentSecurityPolicy } from '../../electron/host-kit/web-security.js';
import { fakeElectron } from './fake-electron.js';

const SECRET = 'top secret: never served';
let base: string;
let root: string;
let handler: (req: Request) => Promise<Response>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'tlab-app-protocol-'));
  root = join(base, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Transient Lab</title>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(root, 'assets', 'style.css'), 'body{}');
  await writeFile(join(base, 'secret.txt'), SECRET);
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'x.js'), SECRET);
  await symlink(join(root, 'assets', 'app.js'), join(root, 'inside-link.js'));
  await symlink(join(base, 'secret.txt'), join(root, 'link-out.txt'));
  await symlink(join(base, 'outside'), join(root, 'dir-out'));
  handler = appProtocolHandler(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function get(url: string, method = 'GET'): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await handler(new Request(url, { method }));
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('app:// protocol', () => {
  it('is registered as standard and secure, never bypassing the CSP', () => {
    const electron = fakeElectron(base);
    registerAppScheme(electron.seam.protocol);
    expect(electron.protocol.schemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP');
  });

  it('serves the build with its MIME type, the CSP and nosniff; / is index.html; HEAD has no body', async () => {
    const index = await get('app://transient-lab/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Transient Lab</title>');
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(appCsp());
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('app://transient-lab/index.html?open=%2Fa%2Fb.sdfg')).status).toBe(200);
    const js = await get('app://transient-lab/assets/app.js');
    expect(js).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://transient-lab/inside-link.js')).status).toBe(200);
    expect(await get('app://transient-lab/assets/style.css', 'HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('refuses traversal: .., %2e%2e, encoded slashes, absolute paths, backslashes, NUL, drive letters', async () => {
    const attempts = [
      'app://transient-lab/../secret.txt',
      'app://transient-lab/assets/../../secret.txt',
      'app://transient-lab/%2e%2e/secret.txt',
      'app://transient-lab/%2E%2E/%2e%2e/secret.txt',
      'app://transient-lab/..%2fsecret.txt',
      'app://transient-lab/assets/..%2F..%2Fsecret.txt',
      'app://transient-lab/%2e%2e%2fsecret.txt',
      'app://transient-lab//etc/passwd',
      `app://transient-lab/${encodeURIComponent(join(base, 'secret.txt'))}`,
      'app://transient-lab/..%5csecret.txt',
      'app://transient-lab/index.html%00.js',
      'app://transient-lab/C:/Windows/win.ini',
      'app://transient-lab/%252e%252e/secret.txt',
      'app://transient-lab/%',
    ];
    for (const url of attempts) {
      const r = await get(url);
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      expect(r.body, url).not.toContain(SECRET);
    }
    // The decoded forms are refused as traversal outright (not merely "not found").
    for (const url of [
      'app://transient-lab/..%2fsecret.txt',
      'app://transient-lab//etc/passwd',
      'app://transient-lab/..%5csecret.txt',
      'app://transient-lab/index.html%00.js',
      'app://transient-lab/C:/x',
    ]) {
      expect((await get(url)).status, url).toBe(403);
    }
  });

  it('refuses links leading out of the build', async () => {
    expect(await get('app://transient-lab/link-out.txt')).toMatchObject({ status: 403 });
    const viaDir = await get('app://transient-lab/dir-out/x.js');
    expect(viaDir.status).toBe(403);
    expect(viaDir.body).not.toContain(SECRET);
  });

  it('answers only its own host and GET/HEAD', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://transient-lab:8080/index.html')).status).toBe(404);
    expect(await resolveAppRequest(root, 'GET', 'app://user@transient-lab/index.html')).toMatchObject({ status: 404 });
    expect((await get('app://transient-lab/index.html', 'POST')).status).toBe(405);
    expect((await get('app://transient-lab/missing.js')).status).toBe(404);
    expect((await get('app://transient-lab/assets')).status).toBe(404);
    expect(await resolveAppRequest(root, 'GET', 'not a url')).toMatchObject({ status: 400 });
  });

  it('isAppUrl compares scheme and host, not prefixes', () => {
    expect(isAppUrl('app://transient-lab/index.html')).toBe(true);
    expect(isAppUrl('app://transient-lab.evil.com/index.html')).toBe(false);
    expect(isAppUrl('app://transient-labx/')).toBe(false);
    expect(isAppUrl('https://transient-lab/')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('garbage')).toBe(false);
  });

  it("the CSP is browser mode's, without its WebSocket", () => {
    const browser = contentSecurityPolicy('127.0.0.1:8686').split('; ');
    const app = APP_CSP.split('; ');
    expect(app.filter((d) => !d.startsWith('connect-src'))).toEqual(browser.filter((d) => !d.startsWith('connect-src')));
    expect(app).toContain("connect-src 'self'");
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it("the export preview: both CSPs allow exactly the report's runtime and stylesheet hashes, nothing inline", () => {
    const preview = { script: "'sha256-c2NyaXB0'", style: "'sha256-c3R5bGU='" };
    const browser = contentSecurityPolicy('127.0.0.1:8686', preview).split('; ');
    const app = appCsp(preview).split('; ');
    expect(app.filter((d) => !d.startsWith('connect-src'))).toEqual(browser.filter((d) => !d.startsWith('connect-src')));
    expect(app).toContain("script-src 'self' 'sha256-c2NyaXB0'");
    expect(app).toContain("style-src 'self' 'sha256-c3R5bGU='");
    expect(appCsp(preview)).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(appCsp(null)).toBe(APP_CSP);
  });
});
