/**
 * The shell's state files (electron/shell/store.ts, recent.ts, window-state.ts): written atomically, read back
 * defensively (a missing, corrupt or foreign file is the defaults), and saves in a burst collapse in order.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeWriteFs, type WriteFs } from '../../electron/engine/io/atomic-write.js';
import { MAX_RECENT, RecentFiles } from '../../electron/shell/recent.js';
import { JsonFile, readJson, writeJsonAtomic } from '../../electron/shell/store.js';
import { DEFAULT_STATE, onScreen, WindowStateStore } from '../../electron/shell/window-state.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-store-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('state files', () => {
  it('are replaced whole through a temporary file, leaving no temporary behind', async () => {
    const file = join(dir, 'a', 'state.json');
    await writeJsonAtomic(file, { n: 1 });
    await writeJsonAtomic(file, { n: 2 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ n: 2 });
    expect(await readdir(join(dir, 'a'))).toEqual(['state.json']);
  });

  it("a disk that fills up mid-write keeps the old settings byte for byte (the engine's atomic writer)", async () => {
    const file = join(dir, 'settings.json');
    await writeJsonAtomic(file, { theme: 'dark', recent: ['/a.sdfg'] });
    const before = await readFile(file);
    const full: WriteFs = {
      ...nodeWriteFs,
      async open(path, flags, mode) {
        const h = await nodeWriteFs.open(path, flags, mode);
        if (!path.endsWith('.tmp')) return h;
        return {
          ...h,
          write: async (b, o, l, p) =>
            l > 8 ? Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC', syscall: 'write' })) : h.write(b, o, l, p),
          read: h.read.bind(h),
          sync: h.sync.bind(h),
          chmod: h.chmod.bind(h),
          close: h.close.bind(h),
        };
      },
    };
    await expect(writeJsonAtomic(file, { theme: 'light', recent: [] }, full)).rejects.toThrow(
      `cannot write ${file}: no space left on the device`,
    );
    expect(Buffer.compare(await readFile(file), before)).toBe(0);
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('a burst of saves ends with the last value on disk, each write whole', async () => {
    const file = join(dir, 'burst.json');
    const errors: unknown[] = [];
    const f = new JsonFile<{ n: number }>(file, (e) => errors.push(e));
    for (let n = 0; n < 50; n++) void f.save({ n });
    await f.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ n: 49 });
    expect(errors).toEqual([]);
  });

  it('read as the defaults when missing, corrupt or of another schema', async () => {
    const check = (x: unknown) =>
      typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === true ? (x as { ok: boolean }) : null;
    expect(await readJson(join(dir, 'none.json'), check, { ok: false })).toEqual({ ok: false });
    await writeFile(join(dir, 'corrupt.json'), '{"ok": tr');
    expect(await readJson(join(dir, 'corrupt.json'), check, { ok: false })).toEqual({ ok: false });
    await writeFile(join(dir, 'good.json'), '{"ok": true}');
    expect(await readJson(join(dir, 'good.json'), check, { ok: false })).toEqual({ ok: true });
  });

  it('recent files: newest first, no duplicates, bounded, kept across loads', async () => {
    const user = await mkdtemp(join(dir, 'user-'));
    const r = await RecentFiles.load(user, () => {});
    let changes = 0;
    r.onChange(() => changes++);
    for (let i = 0; i < MAX_RECENT + 3; i++) await r.add(`/p/f${i}.sdfg`, 'sdfg');
    await r.add('/p/f5.sdfg', 'sdfg');
    await r.add('/p/run.json', 'result');
    await r.flush();
    const again = await RecentFiles.load(user, () => {});
    expect(again.list()).toHaveLength(MAX_RECENT);
    expect(again.list().slice(0, 2)).toEqual([
      { path: '/p/run.json', kind: 'result' },
      { path: '/p/f5.sdfg', kind: 'sdfg' },
    ]);
    expect(again.list().filter((e) => e.path === '/p/f5.sdfg')).toHaveLength(1);
    expect(changes).toBe(MAX_RECENT + 5);
    await writeFile(
      join(user, 'recent.json'),
      JSON.stringify({
        schema: 'transient-lab/recent@1',
        files: [{ path: '/ok.sdfg', kind: 'sdfg' }, { path: 7 }, { path: '/x', kind: 'evil' }],
      }),
    );
    expect((await RecentFiles.load(user, () => {})).list()).toEqual([{ path: '/ok.sdfg', kind: 'sdfg' }]);
  });

  it('window state: validated, clamped, and dropped off screens that are gone', async () => {
    const user = await mkdtemp(join(dir, 'win-'));
    expect((await WindowStateStore.load(user, () => {})).get()).toEqual(DEFAULT_STATE);
    await writeFile(
      join(user, 'window-state.json'),
      JSON.stringify({ schema: 'transient-lab/window-state@1', x: 10, y: 20, width: 100, height: 'tall' }),
    );
    expect((await WindowStateStore.load(user, () => {})).get()).toEqual(DEFAULT_STATE);
    const s = await WindowStateStore.load(user, () => {});
    await s.remember({ x: 3000, y: 40, width: 200, height: 300 }, true);
    await s.flush();
    const back = (await WindowStateStore.load(user, () => {})).get();
    expect(back).toEqual({ x: 3000, y: 40, width: 640, height: 420, maximized: true });
    const screens = [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
    expect(onScreen(back, screens)).toMatchObject({ x: null, y: null, maximized: true });
    expect(onScreen({ ...back, x: 100, y: 100 }, screens)).toMatchObject({ x: 100, y: 100 });
    expect(onScreen(back, [...screens, { workArea: { x: 1920, y: 0, width: 2560, height: 1440 } }])).toMatchObject({ x: 3000, y: 40 });
  });
});
