/**
 * Mounts one chart module (renderer/src/charts/) in React: created once, then fed new data, theme and the shared
 * selection through `update`; its clicks and hovers go back to the store. Draw times of interactive frames
 * (wheel, drag) are kept for the bench.
 */
import { useEffect, useRef } from 'react';
import type { ChartHandle, ChartOptions } from '../../charts/index.js';
import { hoverTransient, selectTransient } from '../actions.js';
import { registerFrames } from '../perf.js';
import { store, type Selection } from '../state.js';
import { useSelect } from '../store.js';

export interface ChartMountProps<D> {
  mount: (el: HTMLElement, o: ChartOptions<D>) => ChartHandle<D>;
  data: D;
  source: Selection['source'];
  testid: string;
  /** Called after the first frame that shows `data`. */
  onDrawn?: (data: D) => void;
  /** Name under which interactive frame times are recorded (window.tlabPerf). */
  frames?: string;
  className?: string;
  /** Fixed height in px (default: the container's). */
  height?: number;
}

export function ChartMount<D>({ mount, data, source, testid, onDrawn, frames, className, height }: ChartMountProps<D>): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartHandle<D> | null>(null);
  const theme = useSelect(store, (s) => s.theme);
  const selected = useSelect(store, (s) => s.selection?.transient ?? null);
  const drawnRef = useRef(onDrawn);
  drawnRef.current = onDrawn;

  useEffect(() => {
    const el = host.current!;
    const c = mount(el, {
      data,
      ...(height ? { height } : {}),
      theme: store.get().theme,
      selectedTransient: store.get().selection?.transient ?? null,
      onSelect: (id) => selectTransient(id, source),
      onHover: (id) => {
        if (store.get().hoverTransient !== id) hoverTransient(id);
      },
    });
    chart.current = c;
    const times: number[] = [];
    let pending = false;
    const sample = (): void => {
      if (pending) return;
      pending = true;
      const before = c.stats.draws;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          pending = false;
          if (c.stats.draws !== before) {
            times.push(c.stats.lastDrawMs);
            if (times.length > 600) times.shift();
          }
        }),
      );
    };
    if (frames) {
      el.addEventListener('wheel', sample, { capture: true, passive: true });
      el.addEventListener('pointermove', sample, { capture: true, passive: true });
      registerFrames(frames, () => times);
    }
    return () => {
      if (frames) registerFrames(frames, null);
      el.removeEventListener('wheel', sample, { capture: true });
      el.removeEventListener('pointermove', sample, { capture: true });
      c.destroy();
      chart.current = null;
    };
    // One chart per mount; data and options flow through update() below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mount]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.update({ data });
    if (!drawnRef.current) return;
    const before = c.stats.draws;
    let tries = 0;
    const check = (): void => {
      if (chart.current !== c) return;
      if (c.stats.draws > before || tries++ > 10) drawnRef.current?.(data);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, [data]);

  useEffect(() => chart.current?.update({ theme }), [theme]);
  useEffect(() => chart.current?.update({ selectedTransient: selected }), [selected]);

  return <div className={`chart-host ${className ?? ''}`} ref={host} data-testid={testid} />;
}
