/** Words about one transient of an AnalysisView, shared by every chart's tooltip and the table. */
import {
  aliasOf,
  aliasText,
  FATES,
  formatCount,
  formatSize,
  formatStepRange,
  num,
  type AllocationJson,
  type AnalysisView,
  type Fate,
} from '../../../electron/engine/view/public.js';
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

/** The size a row owns, or, for a view or reference, what it aliases (`view of T`): it owns no bytes. */
export function sizeText(view: AnalysisView, row: number): string {
  return aliasLabel(view, row) ?? formatSize(view.table.bytes[row], view.table.bytesExpr[row]!);
}

/** `view of T`, `view of argument A`, `reference, set at run time` for a view or reference; null otherwise. */
function aliasLabel(view: AnalysisView, row: number): string | null {
  const a = aliasOf(view.table, row);
  return a ? aliasText(view.table.dict.type[view.table.type[row]!]!, a.viewOf, a.reason) : null;
}

/** The structure a member transient lives inside (its path), or null. */
export function structureOf(view: AnalysisView, row: number): string | null {
  const k = view.table.insideStructure[row] ?? -1;
  return k < 0 ? null : view.table.dict.insideStructure[k]!;
}

/** The type cell: `ArrayView in structure p_diag` for a member of a structure. */
export function typeCellText(view: AnalysisView, row: number): string {
  const type = view.table.dict.type[view.table.type[row]!]!;
  const s = structureOf(view, row);
  return s === null ? type : `${type} in structure ${s}`;
}

/** Row of the container a view or reference aliases, when it is a transient of the table; -1 otherwise. */
export function aliasTargetRow(view: AnalysisView, row: number): number {
  const id = aliasOf(view.table, row)?.viewOf;
  if (!id || !id.includes(':')) return -1;
  // A view of a member of a transient structure: the structure's row when the member has none.
  for (let at = id; ; at = at.slice(0, at.lastIndexOf('.'))) {
    const r = indexOfId(view, at);
    if (r >= 0 || !at.includes('.')) return r;
  }
}

const aliased = new WeakMap<AnalysisView, Map<number, number[]>>();

/** Per aliased container row: the views and references (rows) that alias it. Memoised per view. */
export function aliasesByTarget(view: AnalysisView): ReadonlyMap<number, readonly number[]> {
  let m = aliased.get(view);
  if (!m) {
    m = new Map();
    const t = view.table;
    for (let i = 0; i < t.count; i++) {
      if ((t.alias[i] ?? -1) < 0) continue;
      const target = aliasTargetRow(view, i);
      if (target < 0) continue;
      const list = m.get(target);
      if (list) list.push(i);
      else m.set(target, [i]);
    }
    aliased.set(view, m);
  }
  return m;
}

function typeText(view: AnalysisView, row: number): string {
  const t = view.table;
  const shape = t.shape[row]!;
  return `${t.dict.dtype[t.dtype[row]!]}${shape.length ? `[${shape.join(', ')}]` : ''}`;
}

function liveText(view: AnalysisView, row: number): string {
  const first = view.table.first[row]!;
  const last = view.table.last[row]!;
  if (first < 0) return fateOf(view, row) === 'none' ? 'never accessed' : 'no live range: held for the whole call';
  const steps = view.analysis.steps;
  const a = steps[first]?.label ?? '';
  const b = steps[last]?.label ?? '';
  return `${formatStepRange(first, last)} (${first === last ? a : `${a} … ${b}`})`;
}

function allocationText(a: AllocationJson, executions: number | string | null): string {
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
  alias: 'A view or reference: it names bytes of another container and owns none, so no sum counts it.',
};

/** `VT, VV (steps 1–3)`: the views and references of a container, at most three named. */
function viewerNames(view: AnalysisView, rows: readonly number[]): string {
  const names = rows.slice(0, 3).map((r) => view.table.name[r]!);
  const more = rows.length > 3 ? ` and ${rows.length - 3} more` : '';
  return `${names.join(', ')}${more}`;
}

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
  const alias = aliasLabel(view, row);
  const extent = formatSize(t.bytes[row], t.bytesExpr[row]!);
  const viewers = aliasesByTarget(view).get(row);
  const rows: Array<[string, string]> = [
    ['id', `${t.id[row]} (SDFG ${view.sdfgs[t.sdfg[row]!]?.name ?? t.sdfg[row]})`],
    ...(alias
      ? ([
          ['aliases', alias],
          ['size', `owns no bytes (its extent: ${extent})`],
        ] as Array<[string, string]>)
      : ([['size', Number.isFinite(bytes) && bytes >= 1024 ? `${extent} (${formatCount(t.bytes[row])} B)` : extent]] as Array<
          [string, string]
        >)),
    ...(viewers ? ([['viewed as', viewerNames(view, viewers)]] as Array<[string, string]>) : []),
    ['type', `${t.dict.type[t.type[row]!]} ${typeText(view, row)}`],
    ...(structureOf(view, row) !== null ? ([['inside', `structure ${structureOf(view, row)}`]] as Array<[string, string]>) : []),
    ['storage', written === storage ? storage : `${storage} (${written} in the file)`],
    ['live', liveText(view, row)],
    ['allocated', allocationText(t.dict.allocation[t.allocation[row]!]!, t.executionsPerCall[row]!)],
    ['PERSISTENT', eligible & 1 ? '✓ eligible' : '✗ not eligible'],
    ['EXTERNAL', eligible & 2 ? '✓ eligible' : '✗ not eligible'],
    ...extra,
  ];
  return {
    title: t.name[row]!,
    swatch: isHatch(fill) ? fill.hatch : fill === theme.fate.none.fill ? (theme.fate.none.stroke ?? undefined) : fill,
    rows,
    note: reason ? `${FATE_NOTE[fate]} Why not eligible: ${reason}` : FATE_NOTE[fate],
  };
}
