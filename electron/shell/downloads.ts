/**
 * Save Result… in the desktop app: the menu sends `command saveResult`; the renderer serialises the result it
 * holds and downloads it, exactly as in browser mode; here that download becomes the native Save dialog. Only
 * `.json` downloads of `blob:` URLs made by our own page are accepted (Chromium writes them to a temporary
 * file and renames it into place); any other download is cancelled.
 */
import { APP_ORIGIN } from './protocol.js';
import type { RecentFiles } from './recent.js';
import type { Electron, ElectronSeam } from './seam.js';
import type { Windows } from './windows.js';

export function acceptableDownload(url: string, filename: string): boolean {
  return url.startsWith(`blob:${APP_ORIGIN}/`) && /^[^/\\\0]{1,255}\.json$/i.test(filename);
}

export function handleDownload(item: Electron.DownloadItem, contents: Electron.WebContents, deps: { windows: Windows; recent: RecentFiles; log: (line: string) => void }): void {
  if (!deps.windows.byWebContents(contents.id) || !acceptableDownload(item.getURL(), item.getFilename())) {
    deps.log(`download refused: ${item.getURL().slice(0, 200)}`);
    item.cancel();
    return;
  }
  item.setSaveDialogOptions({
    title: 'Save Result',
    defaultPath: item.getFilename(),
    filters: [{ name: 'Transient Lab results', extensions: ['json'] }],
  });
  item.once('done', (_event, state) => {
    if (state === 'completed') void deps.recent.add(item.getSavePath(), 'result');
  });
}

export function installDownloads(electron: ElectronSeam, deps: { windows: Windows; recent: RecentFiles; log: (line: string) => void }): void {
  electron.defaultSession().on('will-download', (_event, item, contents) => handleDownload(item, contents, deps));
}
