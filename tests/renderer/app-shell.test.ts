// @vitest-environment jsdom
/** The app shell without a browser: opening by path routes results and SDFGs, the shortcuts, the store. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResultDoc, TransientLabClient } from '../../electron/ipc/contract.js';
import type { AnalysisView, DocInfo, GraphRegion } from '../../electron/engine/view/types.js';
import { graphHandle } from '../../renderer/src/app/graph/handle.js';
import { analysisDrawn, graphFirstFrame, graphMounted, openPath } from '../../renderer/src/app/open/index.js';
import { currentOpen } from '../../renderer/src/app/open/marks.js';
import type { GraphView } from '../../renderer/src/graph/view.js';
import { handleKey } from '../../renderer/src/app/keyboard.js';
import { initialState, store } from '../../renderer/src/app/state.js';
import { createStore } from '../../renderer/src/app/store.js';
import { profileFixture } from './fixtures.js';

afterEach(() => {
  store.set(initialState());
  graphHandle.current = null;
});

const result = {
  schema: 'transient-lab/profile@1',
  program: { name: 'hdiff', file: 'hdiff.sdfg', hash: 'x' },
  modes: [],
} as unknown as ResultDoc['result'];

function fakeClient(): TransientLabClient & { openFile: ReturnType<typeof vi.fn>; openResult: ReturnType<typeof vi.fn> } {
  const refused = () => Promise.reject(Object.assign(new Error('not in this test'), { kind: 'refused' }));
  return {
    openFile: vi.fn(refused),
    openResult: vi.fn(async (req: { path?: string }) => ({ name: 'r.json', path: req.path ?? null, result })),
    on: () => () => {},
  } as unknown as TransientLabClient & { openFile: ReturnType<typeof vi.fn>; openResult: ReturnType<typeof vi.fn> };
}

const key = (k: string, init: KeyboardEventInit = {}) => new KeyboardEvent('keydown', { key: k, ...init });

describe('openPath', () => {
  it('opens a result .json as a result (the Profile tab shows it), never as an SDFG', async () => {
    const c = fakeClient();
    store.set({ client: c });
    await openPath('runs/R.JSON');
    expect(c.openResult).toHaveBeenCalledWith({ path: 'runs/R.JSON' });
    expect(c.openFile).not.toHaveBeenCalled();
    expect(store.get().result?.path).toBe('runs/R.JSON');
    expect(store.get().dockTab).toBe('profile');
    expect(store.get().compare).toHaveLength(1);
  });

  it('opens anything else as an SDFG and shows the host error with the file name', async () => {
    const c = fakeClient();
    store.set({ client: c });
    await openPath('deep/dir/prog.sdfgz');
    expect(c.openFile).toHaveBeenCalledWith({ path: 'deep/dir/prog.sdfgz' });
    expect(c.openResult).not.toHaveBeenCalled();
    expect(store.get().error?.title).toBe('Could not open prog.sdfgz');
  });
});

describe('opening an SDFG', () => {
  const info = { doc: 'd1', name: 'prog.sdfg', symbols: [], preview: false } as unknown as DocInfo;
  const region = { id: 'root', kind: 'cfg', sdfg: 0, label: '', nodes: [], edges: [] } as unknown as GraphRegion;
  function docClient(graph: () => Promise<GraphRegion>): TransientLabClient {
    const refused = () => Promise.reject(Object.assign(new Error('not in this test'), { kind: 'refused' }));
    return {
      openFile: vi.fn(async () => info),
      graph: vi.fn(graph),
      analyze: vi.fn(refused),
      closeDoc: vi.fn(async () => {}),
      on: () => () => {},
    } as unknown as TransientLabClient;
  }
  /** A graph view that records what it was given, mounted where the graph pane mounts it. */
  function fakeView(): { open: ReturnType<typeof vi.fn>; replaceRoot: ReturnType<typeof vi.fn> } {
    const view = { open: vi.fn(async () => {}), replaceRoot: vi.fn(async () => {}) };
    graphHandle.current = view as unknown as GraphView;
    graphMounted();
    return view;
  }
  /** When the document was committed, and whether the graph's layout had started by the first microtask after
   * that store change (React renders a store change in a microtask at the earliest). */
  function whenDocCommitted(view: {
    open: ReturnType<typeof vi.fn>;
  }): Promise<{ at: number; rootRegion: Promise<GraphRegion> | null; layoutBeforeRender: boolean }> {
    return new Promise((resolve) => {
      const off = store.subscribe(() => {
        const s = store.get();
        if (!s.doc) return;
        off();
        const at = performance.now();
        queueMicrotask(() => resolve({ at, rootRegion: s.rootRegion, layoutBeforeRender: view.open.mock.calls.length > 0 }));
      });
    });
  }

  it('commits the document with its root region already in, and starts the layout from it before React renders', async () => {
    const c = docClient(async () => region);
    store.set({ client: c });
    const view = fakeView();
    const committed = whenDocCommitted(view);
    void openPath('prog.sdfg');
    const { rootRegion, layoutBeforeRender } = await committed;
    expect(c.graph).toHaveBeenCalledWith({ doc: 'd1', region: null });
    expect(rootRegion).not.toBeNull();
    expect(layoutBeforeRender).toBe(true);
    expect(view.open).toHaveBeenCalledWith(region);
  });

  it('does not hold the document back for a root region that is slow to come, and draws the region when it comes', async () => {
    let arrive: (r: GraphRegion) => void = () => {};
    const c = docClient(() => new Promise<GraphRegion>((resolve) => (arrive = resolve)));
    store.set({ client: c });
    const view = fakeView();
    const committed = whenDocCommitted(view);
    const asked = performance.now();
    void openPath('prog.sdfg');
    const { at, layoutBeforeRender } = await committed;
    // The wait is bounded (150 ms), far below what a user would take for a hang.
    expect(at - asked).toBeLessThan(2000);
    expect(layoutBeforeRender).toBe(false);
    arrive(region);
    await vi.waitFor(() => expect(view.open).toHaveBeenCalledWith(region));
  });

  it('a root region that comes after a newer open is not drawn', async () => {
    let arrive: (r: GraphRegion) => void = () => {};
    const c = docClient(() => new Promise<GraphRegion>((resolve) => (arrive = resolve)));
    store.set({ client: c });
    const view = fakeView();
    const committed = whenDocCommitted(view);
    void openPath('prog.sdfg');
    await committed;
    void openPath('runs/other.json');
    void openPath('second.sdfg');
    arrive(region);
    await new Promise((r) => setTimeout(r, 50));
    expect(view.open).not.toHaveBeenCalled();
  });

  it('marks tlab:first-frame once, for the open the graph shows', async () => {
    const c = docClient(async () => region);
    store.set({ client: c });
    const view = fakeView();
    const committed = whenDocCommitted(view);
    void openPath('prog.sdfg');
    await committed;
    graphFirstFrame();
    graphFirstFrame();
    const marks = performance.getEntriesByName('tlab:first-frame', 'mark') as PerformanceMark[];
    expect(marks).toHaveLength(1);
    expect((marks[0]!.detail as { seq: number }).seq).toBe(currentOpen());
  });
});

describe('an open is ready when its first analysis is drawn', () => {
  it('marks tlab:analysis and tlab:ready for the open whose first analysis a view drew, and for nothing else', async () => {
    const info = { doc: 'd2', name: 'prog.sdfg', symbols: [], preview: false } as unknown as DocInfo;
    const region = { id: 'root', kind: 'cfg', sdfg: 0, label: '', nodes: [], edges: [] } as unknown as GraphRegion;
    const view = { table: { id: [] } } as unknown as AnalysisView;
    const c = {
      openFile: vi.fn(async () => info),
      graph: vi.fn(async () => region),
      analyze: vi.fn(async () => view),
      closeDoc: vi.fn(async () => {}),
      on: () => () => {},
    } as unknown as TransientLabClient;
    store.set({ client: c });
    graphHandle.current = { open: vi.fn(async () => {}), replaceRoot: vi.fn(async () => {}) } as unknown as GraphView;
    graphMounted();
    const opened = openPath('prog.sdfg');
    await vi.waitFor(() => expect(store.get().doc).not.toBeNull());
    // The analysis waits for the graph's first frame.
    expect(c.analyze).not.toHaveBeenCalled();
    graphFirstFrame();
    await opened;
    expect(store.get().analysis).toBe(view);
    expect(performance.getEntriesByName('tlab:analysis', 'mark')).toHaveLength(1);
    analysisDrawn({ table: { id: [] } } as unknown as AnalysisView);
    expect(performance.getEntriesByName('tlab:ready', 'mark')).toHaveLength(0);
    analysisDrawn(view);
    analysisDrawn(view);
    const ready = performance.getEntriesByName('tlab:ready', 'mark') as PerformanceMark[];
    expect(ready).toHaveLength(1);
    expect((ready[0]!.detail as { seq: number }).seq).toBe(currentOpen());
  });
});

describe('handleKey', () => {
  const withDoc = () => store.set({ doc: { doc: 'd1' } as never });

  it('1–5 switch the dock tabs only with a document open, and never while typing', () => {
    expect(handleKey(key('2'))).toBe(false);
    withDoc();
    expect(handleKey(key('2'))).toBe(true);
    expect(store.get().dockTab).toBe('lifetimes');
    const input = document.createElement('input');
    document.body.appendChild(input);
    const typed = key('3');
    Object.defineProperty(typed, 'target', { value: input });
    expect(handleKey(typed)).toBe(false);
    expect(store.get().dockTab).toBe('lifetimes');
    input.remove();
  });

  it('Esc closes the error first, then the dialog, then clears the selection', () => {
    withDoc();
    store.set({
      error: { title: 't', context: 'c', error: { kind: 'input', message: 'm', file: null, jsonPath: null, details: [] } },
      dialog: 'open',
      selection: { transient: '0:a', element: null, source: 'table' },
    });
    handleKey(key('Escape'));
    expect(store.get().error).toBeNull();
    expect(store.get().dialog).toBe('open');
    handleKey(key('Escape'));
    expect(store.get().dialog).toBeNull();
    expect(store.get().selection).not.toBeNull();
    handleKey(key('Escape'));
    expect(store.get().selection).toBeNull();
  });

  it('Ctrl+O opens the dialog; Ctrl+E exports once there is a result, and says why not before', () => {
    expect(handleKey(key('o', { ctrlKey: true }))).toBe(true);
    expect(store.get().dialog).toBe('open');
    store.set({ dialog: null, result: null });
    expect(handleKey(key('e', { ctrlKey: true }))).toBe(true);
    expect(store.get().dialog).toBeNull();
    expect(store.get().toasts.at(-1)?.text).toMatch(/No result to export yet/);
    store.set({ result: { name: 'r.json', path: null, result: {} as never } });
    handleKey(key('e', { ctrlKey: true }));
    expect(store.get().dialog).toBe('export');
    store.set({ dialog: null, result: null });
  });
});

describe('createStore', () => {
  it('notifies subscribers once per set, and only when something changed', () => {
    const s = createStore({ a: 1, b: 2 });
    const seen: number[] = [];
    const off = s.subscribe(() => seen.push(s.get().a));
    s.set({ a: 3 });
    s.set((x) => ({ b: x.b + 1 }));
    s.set({ a: 3 });
    off();
    s.set({ a: 9 });
    expect(seen).toEqual([3, 3]);
    expect(s.get()).toEqual({ a: 9, b: 3 });
  });
});

describe('the profile headline', () => {
  it('writes large factors as plain numbers, never in exponent form', async () => {
    const { headlineBig } = await import('../../renderer/src/app/profile/ProfileTab.js');
    const { headlineFor } = await import('../../electron/engine/view/verdict.js');
    const { summarize } = await import('../../electron/engine/profile/stats.js');
    const r = profileFixture('vadv-cpu-clean.json');
    const pool = r.modes.find((m) => m.label === 'POOL')!;
    const ext = r.modes.find((m) => m.label === 'EXTERNAL (packed)')!;
    const h = (factor: number) => {
      const calls = { ...pool.calls, totalNs: pool.calls.totalNs.map((t) => t / factor) };
      return headlineFor({ ...ext, calls, summary: summarize(calls) }, pool);
    };
    expect(headlineBig(h(1546.2))).toBe('1546× faster per call');
    expect(headlineBig(h(1.3712))).toBe('1.37× faster per call');
    expect(headlineBig(h(0.5))).toBe('2.00× slower per call');
  });
});
