/**
 * Save Result… (electron/shell/downloads.ts): the renderer's download of the result it holds becomes the native
 * Save dialog; any other download is cancelled.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../electron/ipc/contract-schema.js';
import { acceptableDownload, installDownloads } from '../../electron/shell/downloads.js';
import { RecentFiles } from '../../electron/shell/recent.js';
import { WindowStateStore } from '../../electron/shell/window-state.js';
import { Windows } from '../../electron/shell/windows.js';
import { fakeElectron, FakeWebContents, type FakeElectron, type FakeWindow } from './fake-electron.js';

class FakeDownload extends EventEmitter {
  cancelled = false;
  dialog: Record<string, unknown> | null = null;
  constructor(
    private readonly url: string,
    private readonly name: string,
  ) {
    super();
  }
  getURL() {
    return this.url;
  }
  getFilename() {
    return this.name;
  }
  getSavePath() {
    return `/home/me/${this.name}`;
  }
  cancel() {
    this.cancelled = true;
  }
  setSaveDialogOptions(o: Record<string, unknown>) {
    this.dialog = o;
  }
}

let dir: string;
let electron: FakeElectron;
let recent: RecentFiles;
let contents: FakeWebContents;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-downloads-'));
  electron = fakeElectron(dir);
  recent = await RecentFiles.load(dir, () => {});
  const windows = new Windows({
    electron: electron.seam,
    backend: {
      openSession: () => {
        throw new Error('unused');
      },
    },
    limits: DEFAULT_LIMITS,
    preload: '/p.cjs',
    devTools: false,
    icon: null,
    state: await WindowStateStore.load(dir, () => {}),
    log: () => {},
  });
  installDownloads(electron.seam, { windows, recent, log: () => {} });
  contents = (windows.open().win as unknown as FakeWindow).webContents;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function download(url: string, name: string, from: FakeWebContents = contents): FakeDownload {
  const item = new FakeDownload(url, name);
  electron.session.emit('will-download', {}, item, from);
  return item;
}

describe('Save Result…', () => {
  it("turns our page's .json blob download into the native Save dialog, then remembers the file", async () => {
    const item = download('blob:app://transient-lab/2f1c', 'hdiff-profile.json');
    expect(item.cancelled).toBe(false);
    expect(item.dialog).toMatchObject({ title: 'Save Result', defaultPath: 'hdiff-profile.json', filters: [{ extensions: ['json'] }] });
    item.emit('done', {}, 'completed');
    await recent.flush();
    expect(recent.list()[0]).toEqual({ path: '/home/me/hdiff-profile.json', kind: 'result' });
  });

  it("Export Report…: the report's .html, .pdf and .csv downloads become the Save dialog, and are not recent results", async () => {
    for (const [name, ext] of [
      ['hdiff-report.html', 'html'],
      ['hdiff-report.pdf', 'pdf'],
      ['hdiff-report.csv', 'csv'],
      ['hdiff-report.summary.csv', 'csv'],
    ] as const) {
      const item = download('blob:app://transient-lab/9a', name);
      expect(item.cancelled, name).toBe(false);
      expect(item.dialog, name).toMatchObject({ title: 'Export Report', defaultPath: name, filters: [{ extensions: [ext] }] });
      item.emit('done', {}, 'completed');
    }
    const json = download('blob:app://transient-lab/9b', 'hdiff-report.json');
    expect(json.dialog).toMatchObject({ defaultPath: 'hdiff-report.json', filters: [{ extensions: ['json'] }] });
    json.emit('done', {}, 'completed');
    await recent.flush();
    expect(
      recent
        .list()
        .map((r) => r.path)
        .filter((p) => p.includes('report')),
    ).toEqual([]);
  });

  it('cancels every other download', () => {
    expect(download('blob:app://transient-lab/1', 'report.html.exe').cancelled).toBe(true);
    expect(download('blob:app://transient-lab/1', 'report.svg').cancelled).toBe(true);
    expect(download('https://example.com/x.json', 'x.json').cancelled).toBe(true);
    expect(download('blob:https://example.com/1', 'x.json').cancelled).toBe(true);
    expect(download('blob:app://transient-lab/1', 'payload.exe').cancelled).toBe(true);
    expect(download('blob:app://transient-lab/1', 'x.json', new FakeWebContents()).cancelled).toBe(true);
    expect(acceptableDownload('blob:app://transient-lab/1', '../x.json')).toBe(false);
    expect(acceptableDownload('blob:app://transient-lab.evil/1', 'x.json')).toBe(false);
  });
});
