/**
 * Harness page for the memory-view chart modules and the transients table (tests/e2e/memviews.test.ts and
 * bench/memviews.ts drive it with Playwright): mounts one view at a time, fed with real view models.
 */
import { createElement } from 'react';
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
    }) as ChartHandle<unknown>;
    flushDraws();
  },
  mountTable(view: AnalysisView, o: MountOptions): void {
    const box = reset(o);
    events.length = 0;
    document.documentElement.dataset['theme'] = o.theme;
    root = createRoot(box);
    const render = (selected: string | null): void =>
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
      );
    render(o.selected ?? null);
  },
  update(o: { selected?: string | null; theme?: ThemeName; data?: unknown }): void {
    handle?.update({ ...(o.selected !== undefined ? { selectedTransient: o.selected } : {}), ...(o.theme ? { theme: o.theme } : {}), ...(o.data ? { data: o.data } : {}) });
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
};

(window as unknown as { tlab: typeof api }).tlab = api;
document.body.dataset['ready'] = '1';
