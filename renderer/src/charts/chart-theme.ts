/**
 * What charts draw with, derived from the shared palette (theme/index.ts): the same mode colours in every
 * chart, report and theme; transient fates in the colour of the mode that takes them furthest.
 */
import { palette, type ModeName, type Palette, type ThemeName } from '../theme/index.js';
import type { Fate } from '../../../electron/engine/view/public.js';
import type { Fill } from './painter.js';

export interface ChartTheme {
  name: ThemeName;
  palette: Palette;
  background: string;
  text: string;
  muted: string;
  grid: string;
  axis: string;
  accent: string;
  hover: string;
  modes: Record<ModeName, string>;
  modeFill: Record<ModeName, string>;
  /** Lifetime bars: fill and outline per fate. */
  fate: Record<Fate, { fill: Fill; stroke: string | null; label: string }>;
  /** Drawn over a container's bar or block where a view or reference aliases it (its steps). */
  viewed: Fill;
  /** Font sizes in px. */
  font: { small: number; base: number; title: number; big: number };
}

const cache = new Map<ThemeName, ChartTheme>();

export function chartTheme(name: ThemeName): ChartTheme {
  let t = cache.get(name);
  if (t) return t;
  const p = palette(name);
  t = {
    name,
    palette: p,
    background: p.background,
    text: p.text,
    muted: p.textMuted,
    grid: p.grid,
    axis: p.border,
    accent: p.accent,
    hover: p.hover,
    modes: p.modes,
    modeFill: p.modeFill,
    fate: {
      external: { fill: p.modes.EXTERNAL, stroke: null, label: 'to the workspace in EXTERNAL' },
      persistent: { fill: p.modes.PERSISTENT, stroke: null, label: 'to init in PERSISTENT only' },
      scoped: { fill: p.modes.SCOPED, stroke: null, label: 'allocated every call in every mode' },
      init: { fill: p.modeFill.PERSISTENT, stroke: p.modes.PERSISTENT, label: 'Persistent in the file' },
      workspace: { fill: p.modeFill.EXTERNAL, stroke: p.modes.EXTERNAL, label: 'External in the file' },
      none: { fill: p.surfaceAlt, stroke: p.border, label: 'holds no memory' },
      alias: { fill: { hatch: p.textMuted, background: p.surfaceAlt }, stroke: p.border, label: 'view or reference (no bytes of its own)' },
    },
    viewed: { hatch: p.background },
    font: { small: 11, base: 12, title: 13, big: 26 },
  };
  cache.set(name, t);
  return t;
}

/** Line dashes per mode, so that modes stay apart in grey print and for every colour vision. */
export const MODE_DASH: Record<ModeName, readonly number[] | undefined> = {
  SCOPED: undefined,
  PERSISTENT: [3, 3],
  POOL: [7, 4],
  EXTERNAL: undefined,
};

export const MODE_WIDTH: Record<ModeName, number> = { SCOPED: 2, PERSISTENT: 2.25, POOL: 2, EXTERNAL: 3.5 };
