/**
 * Harness page for the memory-view chart modules and the transients table (tests/e2e/memviews.test.ts and
 * bench/memviews.ts drive it with Playwright): mounts one view at a time, fed with real view models.
 */
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { flushDraws } from '../../../../renderer/src/charts/frame.js';
import { CHARTS, type ChartKind } from '../../../../renderer/src/charts/index.js';
import type { ChartHandle } from '../../../../renderer/src/charts/chart.js';
import { TransientsTable } from '../../../../renderer/src/views/TransientsTable.js';
import type { AnalysisView } from '../../../../electron/engine/view/types.js';
import type { ThemeName } from '../../../../renderer/src/theme/index.js';
import { palette } from '../../../../renderer/src/theme/index.js';

interface MountOptions {
  theme: ThemeName;
  width: number;
  height?: number;
  backend?: 'canvas' | 'svg';
  selected?: string | null;
}

const stage = document.getElementById('stage')!;
let handle: ChartHandle<unknown> | null = null;
let root: Root | null = null;
const events: string[] = [];

function reset(o: MountOptions): HTMLDivElement {
  handle?.destroy();
  handle = null;
  root?.unmount();
  root = null;
  stage.replaceChildren();
  document.body.style.margin = '0';
  document.body.style.background = palette(o.theme).background;
  const box = document.createElement('div');
  box.id = 'view';
  box.style.width = `${o.width}px`;
  if (o.height) box.style.height = `${o.height}px`;
  stage.appendChild(box);
  return box;
}

const api = {
  mountChart(kind: ChartKind, data: unknown, o: MountOptions): void {
    const box = reset(o);
    events.length = 0;
    handle = CHARTS[kind].mount(box, {
      data: data as never,
      theme: o.theme,
      backend: o.backend ?? 'canvas',
      height: o.height,
      selectedTransient: o.selected ?? null,
      onHover: (id) => events.push(`hover:${id}`),
      onSelect: (id) => {
        events.push(`select:${id}`);
        handle?.update({ selectedTransient: id });
      },
    });
    flushDraws();
  },
  mountTable(view: AnalysisView, o: MountOptions): void {
    const box = reset(o);
    events.length = 0;
    document.documentElement.dataset['theme'] = o.theme;
    root = createRoot(box);
    // flushSync: the table is in the DOM when this returns (callers measure right after).
    const render = (selected: string | null): void =>
      flushSync(() =>
        root!.render(
          createElement(TransientsTable, {
            view,
            theme: o.theme,
            selectedTransient: selected,
            onSelect: (id: string | null) => {
              events.push(`select:${id}`);
              render(id);
            },
            onHover: (id: string | null) => events.push(`hover:${id}`),
          }),
        ),
      );
    render(o.selected ?? null);
  },
  update(o: { selected?: string | null; theme?: ThemeName; data?: unknown }): void {
    handle?.update({
      ...(o.selected !== undefined ? { selectedTransient: o.selected } : {}),
      ...(o.theme ? { theme: o.theme } : {}),
      ...(o.data ? { data: o.data } : {}),
    });
    flushDraws();
  },
  svg(): string {
    return handle?.toSVG() ?? '';
  },
  stats(): { draws: number; lastDrawMs: number } {
    return handle?.stats ?? { draws: 0, lastDrawMs: 0 };
  },
  events(): string[] {
    return [...events];
  },
  /**
   * Frame costs of the mounted chart under `n` interactions (hover sweeps over the rows, ctrl+wheel zoom in
   * and out, wheel scrolls): `drawMs` is the chart's own draw (JS); `frameMs` runs from the event to the
   * canvas pixels being there (event handling, the draw, and the raster forced by reading one pixel back).
   */
  async frames(n: number): Promise<{ drawMs: number[]; frameMs: number[] }> {
    const el = handle!.element;
    const r = el.getBoundingClientRect();
    const canvas = el.querySelector('canvas');
    const ctx = canvas?.getContext('2d') ?? null;
    const drawMs: number[] = [];
    const frameMs: number[] = [];
    const raf = (): Promise<number> => new Promise((ok) => requestAnimationFrame(ok));
    for (let i = 0; i < n; i++) {
      const x = r.left + r.width * (0.3 + (0.4 * ((i * 37) % 100)) / 100);
      const y = r.top + r.height * (0.1 + (0.45 * ((i * 53) % 100)) / 100);
      const kind = i % 4;
      const t0 = performance.now();
      const draws = handle!.stats.draws;
      if (kind === 0 || kind === 1) el.dispatchEvent(new PointerEvent('pointermove', { clientX: x, clientY: y, bubbles: true }));
      else
        el.dispatchEvent(
          new WheelEvent('wheel', {
            clientX: x,
            clientY: y,
            deltaY: i % 8 < 4 ? -120 : 120,
            ctrlKey: kind === 2,
            bubbles: true,
            cancelable: true,
          }),
        );
      flushDraws();
      ctx?.getImageData(0, 0, 1, 1);
      const t1 = performance.now();
      if (handle!.stats.draws > draws) {
        drawMs.push(handle!.stats.lastDrawMs);
        frameMs.push(t1 - t0);
      }
      // Let the browser paint between interactions, as a user's frames would.
      await raf();
    }
    return { drawMs, frameMs };
  },
  /**
   * Frame intervals of the mounted table while it scrolls `px` per frame: at 60 Hz they stay near 16.7 ms
   * as long as each frame's work (React commit of the visible rows, layout, paint) fits in a frame.
   */
  async tableFrames(n: number, px: number): Promise<number[]> {
    const grid = stage.querySelector<HTMLElement>('[role="grid"]')!;
    const out: number[] = [];
    const raf = (): Promise<number> => new Promise((ok) => requestAnimationFrame(ok));
    let last = await raf();
    for (let i = 0; i < n; i++) {
      grid.scrollTop += px;
      const now = await raf();
      out.push(now - last);
      last = now;
    }
    return out;
  },
};

(window as unknown as { tlab: typeof api }).tlab = api;
document.body.dataset['ready'] = '1';
