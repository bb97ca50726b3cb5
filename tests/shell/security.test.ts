/**
 * The rules every web contents gets (electron/shell/security.ts), installed on the fake Electron: navigation,
 * redirects, subframe navigation, webviews and new windows are refused; only the fixed documentation links
 * reach shell.openExternal; permission requests and checks are denied but for clipboard writes from our page.
 */
import { describe, expect, it } from 'vitest';
import { DOC_LINKS, installSecurity, openDocLink } from '../../electron/shell/security.js';
import { fakeElectron, FakeWindow } from './fake-electron.js';

function setup() {
  const electron = fakeElectron('/nonexistent');
  const log: string[] = [];
  installSecurity(electron.seam, (l) => log.push(l));
  const win = electron.seam.createWindow({}) as unknown as FakeWindow;
  return { electron, log, contents: win.webContents };
}

function event(extra: Record<string, unknown> = {}) {
  let prevented = false;
  return {
    ...extra,
    preventDefault() {
      prevented = true;
    },
    get prevented() {
      return prevented;
    },
  };
}

describe('security rules', () => {
  it('refuse every navigation and redirect, and subframe navigations', () => {
    const { contents, log } = setup();
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'app://transient-lab/index.html', 'javascript:alert(1)']) {
      const e = event();
      contents.emit('will-navigate', e, url);
      expect(e.prevented, url).toBe(true);
    }
    const r = event();
    contents.emit('will-redirect', r, 'https://example.com/');
    expect(r.prevented).toBe(true);
    const sub = event({ isMainFrame: false, url: 'https://example.com/' });
    contents.emit('will-frame-navigate', sub);
    expect(sub.prevented).toBe(true);
    const webview = event();
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.prevented).toBe(true);
    expect(log.filter((l) => /refused/.test(l))).toHaveLength(7);
  });

  it('deny every new window; only the fixed documentation links open in the browser', () => {
    const { contents, electron } = setup();
    const handler = contents.openHandler!;
    for (const url of [
      'https://example.com/',
      'http://spcldace.readthedocs.io/en/latest/',
      'https://spcldace.readthedocs.io/en/latest/../../evil',
      'https://spcldace.readthedocs.io/en/latest/x',
      'file:///etc/passwd',
      'app://transient-lab/index.html',
    ]) {
      expect(handler({ url, disposition: 'new-window' })).toEqual({ action: 'deny' });
    }
    expect(electron.opened).toEqual([]);
    const doc = [...DOC_LINKS][0]!;
    expect(handler({ url: doc, disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
    expect(electron.opened).toEqual([doc]);
    expect(openDocLink(electron.seam.shell, 'https://evil.example/')).toBe(false);
    expect([...DOC_LINKS].every((u) => u.startsWith('https://'))).toBe(true);
  });

  it('deny permission requests and checks by default', () => {
    const { electron } = setup();
    const ses = electron.session;
    const ours = { getURL: () => 'app://transient-lab/index.html' };
    const theirs = { getURL: () => 'https://example.com/' };
    const asked = (contents: unknown, permission: string) => {
      let granted: boolean | null = null;
      (ses.requestHandler as unknown as (c: unknown, p: string, cb: (g: boolean) => void) => void)(
        contents,
        permission,
        (g) => (granted = g),
      );
      return granted;
    };
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'hid',
      'serial',
      'usb',
      'unknown',
    ]) {
      expect(asked(ours, p), p).toBe(false);
    }
    expect(asked(ours, 'clipboard-sanitized-write')).toBe(true);
    expect(asked(theirs, 'clipboard-sanitized-write')).toBe(false);
    const check = ses.checkHandler as unknown as (c: unknown, p: string, origin: string) => boolean;
    expect(check(ours, 'media', 'app://transient-lab')).toBe(false);
    expect(check(ours, 'clipboard-read', 'app://transient-lab')).toBe(false);
    expect(check(ours, 'clipboard-sanitized-write', 'app://transient-lab')).toBe(true);
    expect(check(theirs, 'clipboard-sanitized-write', 'https://example.com')).toBe(false);
    expect((ses.deviceHandler as unknown as () => boolean)()).toBe(false);
  });
});

describe('remote hosts of the desktop app', () => {
  it('are only the --remote=HOST switches it was started with, well-formed, each once', async () => {
    const { remoteHostsFromArgv, filesFromArgv } = await import('../../electron/shell/argv.js');
    const argv = [
      '/opt/tl/transient-lab',
      '--remote=me@gpu-node',
      '--remote=gpu2',
      '--remote=me@gpu-node',
      '--remote=-oProxyCommand=sh',
      '--remote=a;b',
      '--remote=',
      'x.sdfg',
      '--',
      '--remote=after',
    ];
    expect(remoteHostsFromArgv(argv)).toEqual(['me@gpu-node', 'gpu2']);
    expect(filesFromArgv(argv, true, '/w')).toEqual(['/w/x.sdfg', '/w/--remote=after']);
  });
});
