/**
 * Save Result… and Export Report… in the desktop app: the menu sends `command saveResult` (`exportReport`); the renderer serialises the result it
 * holds and downloads it, exactly as in browser mode; here that download becomes the native Save dialog. Only
 * `.json` downloads of `blob:` URLs made by our own page are accepted (Chromium writes them to a temporary
 * file and renames it into place); any other download is cancelled.
 */
import { APP_ORIGIN } from './protocol.js';
import type { RecentFiles } from './recent.js';
import type { Electron, ElectronSeam } from './seam.js';
import type { Windows } from './windows.js';

/** What each accepted extension is: Save Result… (.json) and Export Report… (.html, .pdf, .csv, .json). */
const KINDS: Record<string, { title: string; name: string }> = {
  json: { title: 'Save Result', name: 'Transient Lab results' },
  html: { title: 'Export Report', name: 'HTML report' },
  pdf: { title: 'Export Report', name: 'PDF report' },
  csv: { title: 'Export Report', name: 'CSV' },
};

function extension(filename: string): string | null {
  const m = /^[^/\\\0]{1,255}\.([a-z]+)$/i.exec(filename);
  const ext = m?.[1]?.toLowerCase() ?? null;
  return ext !== null && ext in KINDS ? ext : null;
}

export function acceptableDownload(url: string, filename: string): boolean {
  return url.startsWith(`blob:${APP_ORIGIN}/`) && extension(filename) !== null;
}

function handleDownload(
  item: Electron.DownloadItem,
  contents: Electron.WebContents,
  deps: { windows: Windows; recent: RecentFiles; log: (line: string) => void },
): void {
  if (!deps.windows.byWebContents(contents.id) || !acceptableDownload(item.getURL(), item.getFilename())) {
    deps.log(`download refused: ${item.getURL().slice(0, 200)}`);
    item.cancel();
    return;
  }
  const ext = extension(item.getFilename())!;
  item.setSaveDialogOptions({
    title: KINDS[ext]!.title,
    defaultPath: item.getFilename(),
    filters: [{ name: KINDS[ext]!.name, extensions: [ext] }],
  });
  item.once('done', (_event, state) => {
    // Only results re-open as results; reports are not recent files.
    if (state === 'completed' && ext === 'json' && !/-report\.json$/i.test(item.getFilename()))
      void deps.recent.add(item.getSavePath(), 'result');
  });
}

export function installDownloads(
  electron: ElectronSeam,
  deps: { windows: Windows; recent: RecentFiles; log: (line: string) => void },
): void {
  electron.defaultSession().on('will-download', (_event, item, contents) => handleDownload(item, contents, deps));
}
