/**
 * Security rules every web contents gets, installed on `web-contents-created` so that no window (nor a
 * devtools or a future one) escapes them. Numbers are the items of Electron's security checklist
 * (https://www.electronjs.org/docs/latest/tutorial/security; docs/electron.md has the whole table).
 *
 * - 13: no navigation. The renderer is a single page; reload is not a navigation (`will-navigate` is not
 *   emitted for it), so every `will-navigate`, `will-frame-navigate` of a subframe and `will-redirect` is
 *   refused. A dropped file does not navigate either (`navigateOnDragDrop: false` in windows.ts).
 * - 14: no new windows: `setWindowOpenHandler` always answers `deny`.
 * - 15: `shell.openExternal` only for the fixed https documentation links below, compared whole (never a
 *   prefix, never a URL from a file or a program).
 * - 12: no `<webview>`: `will-attach-webview` is refused (and `webviewTag` is off).
 * - 5: permission requests and checks are denied, except writing text to the clipboard from our own page
 *   (the error panel's "copy details").
 */
import { isAppUrl } from './protocol.js';
import type { Electron, ElectronSeam } from './seam.js';

/** The only URLs the app opens in the user's browser. */
export const DOC_LINKS: ReadonlySet<string> = new Set([
  'https://spcldace.readthedocs.io/en/latest/',
  'https://spcldace.readthedocs.io/en/latest/sdfg/ir.html',
  'https://gridtools.github.io/gt4py/latest/',
  'https://www.electronjs.org/docs/latest/tutorial/security',
]);

/** Permissions granted to our own page; everything else is denied. */
const GRANTED: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** Opens `url` in the user's browser when it is one of DOC_LINKS; returns whether it did. */
export function openDocLink(shell: ElectronSeam['shell'], url: string): boolean {
  // Electronegativity's OPEN_EXTERNAL_JS_CHECK asks for a review of the call below: it only ever gets one of
  // the fixed https DOC_LINKS, compared whole.
  if (!DOC_LINKS.has(url)) return false;
  void shell.openExternal(url);
  return true;
}

export interface SecurityLog {
  (line: string): void;
}

/** Navigation, new windows and webviews for one web contents (14: every new window is denied). */
function secureWebContents(contents: Electron.WebContents, shell: ElectronSeam['shell'], log: SecurityLog): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    log(`navigation refused: ${url.slice(0, 200)}`);
  });
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return; // main frame navigations arrive as will-navigate too (refused above)
    event.preventDefault();
    log(`subframe navigation refused: ${event.url.slice(0, 200)}`);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    log(`redirect refused: ${url.slice(0, 200)}`);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('webview refused');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (!openDocLink(shell, url)) log(`new window refused: ${url.slice(0, 200)}`);
    return { action: 'deny' };
  });
}

type PermissionRequestHandler = Parameters<Electron.Session['setPermissionRequestHandler']>[0] & {};
type PermissionCheckHandler = Parameters<Electron.Session['setPermissionCheckHandler']>[0] & {};

/** 5: the session's permission handlers. */
const permissionRequestHandler: PermissionRequestHandler = (contents, permission, callback) => {
  callback(GRANTED.has(permission) && isAppUrl(contents.getURL()));
};

const permissionCheckHandler: PermissionCheckHandler = (_contents, permission, requestingOrigin) => {
  return GRANTED.has(permission) && isAppUrl(requestingOrigin);
};

/** Installs every rule (call once the app is ready). */
export function installSecurity(electron: ElectronSeam, log: SecurityLog): void {
  const ses = electron.defaultSession();
  ses.setPermissionRequestHandler(permissionRequestHandler);
  ses.setPermissionCheckHandler(permissionCheckHandler);
  ses.setDevicePermissionHandler(() => false);
  electron.app.on('web-contents-created', (_event, contents) => secureWebContents(contents, electron.shell, log));
}
