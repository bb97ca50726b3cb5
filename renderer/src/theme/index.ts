/**
 * One palette for every view (graph, charts, tables) and every theme. Pure data: no DOM, no React, so the
 * graph module, the chart modules and their tests all import it.
 *
 * Mode colours follow the team convention (SCOPED grey, PERSISTENT blue, POOL orange, EXTERNAL green),
 * taken from the Okabe–Ito colour-blind-safe set and darkened/lightened per theme so that every one reaches
 * WCAG AA text contrast (≥ 4.5:1) on its theme's background:
 *   light (#ffffff): 4.8 / 5.2 / 4.6 / 4.9      dark (#16181d): 7.0 / 7.7 / 7.9 / 7.7
 * The `dace` and `packed` workspace layouts share EXTERNAL's green: `dace` hatched, `packed` solid.
 */

export type ThemeName = 'light' | 'dark';

export const MODE_NAMES = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const;
export type ModeName = (typeof MODE_NAMES)[number];

/** Storage families the graph tints transients by (StorageType names fold into these, see `storageFamily`). */
export type StorageFamily = 'cpu' | 'gpuGlobal' | 'gpuShared' | 'register' | 'other';

export interface Palette {
  name: ThemeName;
  /** Page / canvas background. */
  background: string;
  /** Panels, cards, graph boxes. */
  surface: string;
  /** A second surface level (nested boxes, table stripes). */
  surfaceAlt: string;
  text: string;
  textMuted: string;
  border: string;
  grid: string;
  /** Selection outline and focus rings. */
  accent: string;
  /** Hover outline. */
  hover: string;
  /** Search-match outline. */
  match: string;
  danger: string;
  /** Strong mode colours: lines, marks, text. */
  modes: Record<ModeName, string>;
  /** Soft mode tints: area fills, bar backgrounds. */
  modeFill: Record<ModeName, string>;
  /** Fill tints of data containers by storage family. */
  storage: Record<StorageFamily, string>;
  /** Graph element colours. */
  graph: {
    state: string;
    stateBorder: string;
    region: string;
    regionBorder: string;
    loop: string;
    loopBorder: string;
    branch: string;
    map: string;
    mapBorder: string;
    scopeInterior: string;
    tasklet: string;
    taskletBorder: string;
    access: string;
    accessBorder: string;
    nested: string;
    nestedBorder: string;
    library: string;
    libraryBorder: string;
    jump: string;
    unknown: string;
    edge: string;
    interstate: string;
    edgeLabel: string;
    connector: string;
    badge: string;
    badgeText: string;
    minimapView: string;
  };
}

const LIGHT: Palette = {
  name: 'light',
  background: '#ffffff',
  surface: '#f7f8fa',
  surfaceAlt: '#eef0f4',
  text: '#1c1f24',
  textMuted: '#5b6270',
  border: '#c9ced6',
  grid: '#e6e8ec',
  accent: '#3b5bdb',
  hover: '#7c8cff',
  match: '#d6336c',
  danger: '#c92a2a',
  modes: { SCOPED: '#6b7280', PERSISTENT: '#0072b2', POOL: '#b85c00', EXTERNAL: '#008060' },
  modeFill: { SCOPED: '#e5e7eb', PERSISTENT: '#d3e8f5', POOL: '#f8e1c8', EXTERNAL: '#cdeee2' },
  storage: { cpu: '#fbf3e4', gpuGlobal: '#ece5fa', gpuShared: '#fbe4ef', register: '#fff7c2', other: '#eceff3' },
  graph: {
    state: '#ffffff',
    stateBorder: '#8b93a1',
    region: '#fafbfc',
    regionBorder: '#a4abb7',
    loop: '#f5f8fc',
    loopBorder: '#7d8da6',
    branch: '#fbfaf5',
    map: '#e9eefb',
    mapBorder: '#5c6f99',
    scopeInterior: 'rgba(92, 111, 153, 0.05)',
    tasklet: '#fff6e0',
    taskletBorder: '#a68a3d',
    access: '#ffffff',
    accessBorder: '#3f4654',
    nested: '#f4f1fb',
    nestedBorder: '#6f61a0',
    library: '#e8f4f0',
    libraryBorder: '#4d8574',
    jump: '#fde8e8',
    unknown: '#eeeeee',
    edge: '#6b7280',
    interstate: '#4b5563',
    edgeLabel: '#404652',
    connector: '#8b93a1',
    badge: '#eef0f4',
    badgeText: '#404652',
    minimapView: 'rgba(59, 91, 219, 0.18)',
  },
};

const DARK: Palette = {
  name: 'dark',
  background: '#16181d',
  surface: '#1e2128',
  surfaceAlt: '#262a33',
  text: '#e6e8ec',
  textMuted: '#a0a7b4',
  border: '#3a404c',
  grid: '#2b3039',
  accent: '#8ca2ff',
  hover: '#6272d6',
  match: '#ff6b9a',
  danger: '#ff8787',
  modes: { SCOPED: '#9ca3af', PERSISTENT: '#56b4e9', POOL: '#e69f00', EXTERNAL: '#3fbf94' },
  modeFill: { SCOPED: '#343842', PERSISTENT: '#1d3a4d', POOL: '#4a3615', EXTERNAL: '#163f33' },
  storage: { cpu: '#3a3326', gpuGlobal: '#342c48', gpuShared: '#432b38', register: '#3f3b1f', other: '#2c3039' },
  graph: {
    state: '#1e2128',
    stateBorder: '#6b7384',
    region: '#1b1e24',
    regionBorder: '#5a6271',
    loop: '#1a2029',
    loopBorder: '#6d7f9c',
    branch: '#1f1e1a',
    map: '#243049',
    mapBorder: '#8799c4',
    scopeInterior: 'rgba(135, 153, 196, 0.06)',
    tasklet: '#3a321c',
    taskletBorder: '#c2a65a',
    access: '#1e2128',
    accessBorder: '#c9ced6',
    nested: '#2a2540',
    nestedBorder: '#a193d6',
    library: '#1d3530',
    libraryBorder: '#7cbfa9',
    jump: '#4a2222',
    unknown: '#30333a',
    edge: '#8b93a1',
    interstate: '#a0a7b4',
    edgeLabel: '#c3c8d1',
    connector: '#7b8494',
    badge: '#2b3039',
    badgeText: '#c3c8d1',
    minimapView: 'rgba(140, 162, 255, 0.22)',
  },
};

export function palette(theme: ThemeName): Palette {
  return theme === 'dark' ? DARK : LIGHT;
}

/** Folds a DaCe StorageType name (open set) into the family the graph tints by. */
export function storageFamily(storage: string): StorageFamily {
  if (storage === 'GPU_Global') return 'gpuGlobal';
  if (storage === 'GPU_Shared') return 'gpuShared';
  if (storage === 'Register' || storage === 'CPU_ThreadLocal') return 'register';
  if (storage.startsWith('CPU_') || storage === 'Default') return 'cpu';
  return 'other';
}

/** Font stacks shared by canvas drawing and CSS. */
export const FONT_SANS = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif';
export const FONT_MONO = 'ui-monospace, "SF Mono", "DejaVu Sans Mono", "Noto Sans Mono", monospace';
