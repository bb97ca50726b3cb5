/** Words about one transient of an AnalysisView, shared by every chart's tooltip and the table. */
import { num } from '../../../electron/engine/view/analysis-doc.js';
import { formatCount, formatSize, formatStepRange } from '../../../electron/engine/view/format.js';
import { FATES, type AllocationJson, type AnalysisView, type Fate } from '../../../electron/engine/view/types.js';
import type { TooltipContent } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import { isHatch } from './painter.js';

const indexes = new WeakMap<AnalysisView, Map<string, number>>();

/** Row of transient `id` in the view's table, or -1 (memoised map: 30k lookups per frame stay cheap). */
export function indexOfId(view: AnalysisView, id: string | null | undefined): number {
  if (!id) return -1;
  let m = indexes.get(view);
  if (!m) {
    m = new Map(view.table.id.map((x, i) => [x, i]));
    indexes.set(view, m);
  }
  return m.get(id) ?? -1;
}

export function fateOf(view: AnalysisView, row: number): Fate {
  return FATES[view.table.fate[row]!]!;
}

export function storageOf(view: AnalysisView, row: number): string {
  return view.table.dict.storage[view.table.effectiveStorage[row]!]!;
}

export function sizeText(view: AnalysisView, row: number): string {
  return formatSize(view.table.bytes[row], view.table.bytesExpr[row]!);
}

export function typeText(view: AnalysisView, row: number): string {
  const t = view.table;
  const shape = t.shape[row]!;
  return `${t.dict.dtype[t.dtype[row]!]}${shape.length ? `[${shape.join(', ')}]` : ''}`;
}

export function liveText(view: AnalysisView, row: number): string {
  const first = view.table.first[row]!;
  const last = view.table.last[row]!;
  if (first < 0) return fateOf(view, row) === 'none' ? 'never accessed' : 'no live range: held for the whole call';
  const steps = view.analysis.steps;
  const a = steps[first]?.label ?? '';
  const b = steps[last]?.label ?? '';
  return `${formatStepRange(first, last)} (${first === last ? a : `${a} … ${b}`})`;
}

export function allocationText(a: AllocationJson, executions: number | string | null): string {
  const times = executions === null ? 'unknown times' : `${formatCount(executions)}× per call`;
  switch (a.kind) {
    case 'sdfg':
      return `at SDFG start (${times})`;
    case 'state':
      return `at its state (${times})`;
    case 'scope':
      return `inside map scope #${a.mapEntry} (${times})`;
    case 'blocks':
      return `after the symbols of its size are assigned (${times})`;
    case 'init':
      return 'once, in init';
    case 'external':
      return "in the caller's workspace";
    case 'none':
      return `nothing: ${a.why}`;
  }
}

const FATE_NOTE: Record<Fate, string> = {
  external: 'EXTERNAL moves it into the workspace; PERSISTENT allocates it once at init.',
  persistent: 'PERSISTENT allocates it once at init; EXTERNAL still allocates it on every call.',
  scoped: 'Allocated on every call in every mode.',
  init: 'Persistent in the file: allocated once at init in every mode.',
  workspace: "External in the file: in the caller's workspace in every mode.",
  none: 'Holds no memory of its own.',
};

/** The tooltip card of a transient. */
export function transientTooltip(view: AnalysisView, row: number, theme: ChartTheme, extra: Array<[string, string]> = []): TooltipContent {
  const t = view.table;
  const fate = fateOf(view, row);
  const fill = theme.fate[fate].fill;
  const storage = storageOf(view, row);
  const written = t.dict.storage[t.storage[row]!]!;
  const bytes = num(t.bytes[row]);
  const reason = t.reason[row]! >= 0 ? t.dict.reason[t.reason[row]!]! : null;
  const eligible = t.eligible[row]!;
  const rows: Array<[string, string]> = [
    ['id', `${t.id[row]} (SDFG ${view.sdfgs[t.sdfg[row]!]?.name ?? t.sdfg[row]})`],
    ['size', Number.isFinite(bytes) && bytes >= 1024 ? `${sizeText(view, row)} (${formatCount(t.bytes[row])} B)` : sizeText(view, row)],
    ['type', `${t.dict.type[t.type[row]!]} ${typeText(view, row)}`],
    ['storage', written === storage ? storage : `${storage} (${written} in the file)`],
    ['live', liveText(view, row)],
    ['allocated', allocationText(t.dict.allocation[t.allocation[row]!]!, t.executionsPerCall[row]!)],
    ['PERSISTENT', eligible & 1 ? '✓ eligible' : '✗ not eligible'],
    ['EXTERNAL', eligible & 2 ? '✓ eligible' : '✗ not eligible'],
    ...extra,
  ];
  return {
    title: t.name[row]!,
    swatch: isHatch(fill) ? fill.hatch : fill === theme.fate.none.fill ? theme.fate.none.stroke ?? undefined : fill,
    rows,
    note: reason ? `${FATE_NOTE[fate]} Why not eligible: ${reason}` : FATE_NOTE[fate],
  };
}
