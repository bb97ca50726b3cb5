/**
 * Mounts a chart module whose clicks are not transients (the Workload view's programs, the sweep's points): created
 * once, then fed new data and the theme; a click calls `onPick` with the hit's id.
 */
import { useEffect, useRef } from 'react';
import type { ChartHandle, ChartOptions } from '../../charts/index.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';

interface ChartBoxProps<D> {
  mount: (el: HTMLElement, o: ChartOptions<D>) => ChartHandle<D>;
  data: D;
  testid: string;
  className?: string;
  height?: number;
  onPick?: (id: string) => void;
}

export function ChartBox<D>({ mount, data, testid, className, height, onPick }: ChartBoxProps<D>): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartHandle<D> | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const theme = useSelect(store, (s) => s.theme);

  useEffect(() => {
    const c = mount(host.current!, {
      data,
      theme: store.get().theme,
      ...(height ? { height } : {}),
      onSelect: (id) => {
        if (id) pick.current?.(id);
      },
    });
    chart.current = c;
    return () => {
      c.destroy();
      chart.current = null;
    };
    // Mounted once; data and theme arrive through update below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mount]);

  useEffect(() => {
    chart.current?.update({ data, theme, ...(height ? { height } : {}) });
  }, [data, theme, height]);

  // A fixed height is the box's own (the chart fills its container); without one the chart sizes the box itself.
  return <div ref={host} className={className ?? 'chart-box'} data-testid={testid} style={height ? { height } : undefined} />;
}
