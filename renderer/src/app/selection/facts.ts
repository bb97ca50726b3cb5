/**
 * Everything the analysis knows about one transient, as words and numbers for the selection panel: size, storage,
 * live steps, what each mode does with it (and why not), where each layout puts it. Pure over an AnalysisView.
 */
import {
  aliasOf,
  aliasText,
  FATES,
  formatBytes,
  formatCount,
  formatSize,
  formatStepRange,
  num,
  ownedBytes,
  type AllocationJson,
  type AnalysisView,
  type Fate,
  type JsonInt,
  type ViewMode,
} from '../../../../electron/engine/view/public.js';
import { aliasTargetRow, aliasesByTarget, structureOf } from '../../charts/transient-info.js';
import { expandedFromOf } from '../../views/transients-model.js';

interface Placement {
  storage: string;
  dace: JsonInt | null;
  packed: JsonInt | null;
}

const placements = new WeakMap<AnalysisView, Map<number, Placement>>();

/** Row → its offsets in both workspace layouts (memoised per view). */
function placementOf(view: AnalysisView, row: number): Placement | null {
  let m = placements.get(view);
  if (!m) {
    m = new Map();
    for (const ws of view.workspace) {
      const put = (rects: { row: number[]; offset: JsonInt[] } | null | undefined, key: 'dace' | 'packed') => {
        if (!rects) return;
        rects.row.forEach((r, j) => {
          const p = m!.get(r) ?? { storage: ws.storage, dace: null, packed: null };
          p[key] = rects.offset[j]!;
          m!.set(r, p);
        });
      };
      put(ws.dace.rects, 'dace');
      put(ws.packed?.rects, 'packed');
    }
    placements.set(view, m);
  }
  return m.get(row) ?? null;
}

const rowIndex = new WeakMap<AnalysisView, Map<string, number>>();

export function rowOf(view: AnalysisView, id: string | null): number {
  if (!id) return -1;
  let m = rowIndex.get(view);
  if (!m) {
    m = new Map(view.table.id.map((x, i) => [x, i]));
    rowIndex.set(view, m);
  }
  return m.get(id) ?? -1;
}

function allocationText(a: AllocationJson, stepLabel: (path: string) => string): string {
  switch (a.kind) {
    case 'sdfg':
      return 'at SDFG entry, every call';
    case 'state':
      return `in state ${stepLabel(a.state)}, every call`;
    case 'scope':
      return `inside a map scope of ${stepLabel(a.state)}, every iteration`;
    case 'blocks':
      return `before ${stepLabel(a.first)}, freed ${a.last === null ? 'at the end of its region' : `after ${stepLabel(a.last)}`}, every call (its size uses symbols the program assigns)`;
    case 'init':
      return 'once at init (Persistent in the file)';
    case 'external':
      return 'in the caller’s workspace (External in the file)';
    case 'none':
      return `holds no memory of its own: ${a.why}`;
  }
}

/**
 * The panel's headline for a transient that holds no memory of its own: why, in a few words. Its declared size
 * in big type beside "holds no memory of its own" read as a contradiction (a never-accessed 4-byte scalar).
 */
function noMemoryHeadline(why: string): string {
  if (why.startsWith('never accessed')) return 'never accessed';
  if (why.startsWith('member of structure')) return 'allocated with its structure';
  if (why.startsWith('constant')) return 'a constant, compiled in';
  if (why.startsWith('stack storage') || why.startsWith('Scalar: a local variable')) return 'on the stack';
  return 'no memory of its own';
}

const FATE_TEXT: Record<Fate, string> = {
  external: 'moves into the caller’s workspace under EXTERNAL',
  persistent: 'moves to init under PERSISTENT; EXTERNAL keeps allocating it',
  scoped: 'allocated on every call in every mode',
  init: 'already Persistent: allocated once, in every mode',
  workspace: 'already External: in the caller’s workspace, in every mode',
  none: 'holds no memory of its own',
  alias: 'a view or reference: it names another container’s bytes and owns none',
};

/** What a view or reference stands for, and the container it aliases when that is a transient of the table. */
interface AliasFacts {
  /** `view of T`, `view of argument A`, `reference, set at run time`. */
  text: string;
  /** Why it is not known statically, when it is not. */
  reason: string | null;
  /** The aliased transient: its row, name and size (its own bytes, not the view's extent). */
  target: { row: number; id: string; name: string; size: string } | null;
}

interface ModeLine {
  mode: ViewMode;
  text: string;
  /** The mode lifts the per-call allocation. */
  good: boolean;
}

export interface TransientFacts {
  row: number;
  id: string;
  name: string;
  sdfgName: string;
  declaration: string;
  size: string;
  exactBytes: string | null;
  bytesExpr: string;
  storage: string;
  effectiveStorage: string;
  lifetime: string;
  live: string;
  liveSteps: string | null;
  fate: Fate;
  fateText: string;
  eligible: { PERSISTENT: boolean; EXTERNAL: boolean };
  reason: string | null;
  allocation: string;
  executionsPerCall: string;
  modes: ModeLine[];
  placement: { storage: string; dace: string; packed: string } | null;
  jsonPath: string;
  /** A view or reference (then `size` is its extent, which it does not own); null for every other transient. */
  alias: AliasFacts | null;
  /** The views and references that alias this container (names), when there are any. */
  viewedBy: string[];
  /** A member of a structure: the structure's path (it is allocated with the structure, never on its own). */
  insideStructure: string | null;
  /** The label of the library node whose expansion created it (quoted), or null. */
  expandedFrom: string | null;
  /** Why it holds no memory, in a few words (`never accessed`, `on the stack`), or null when it holds some. */
  noMemory: string | null;
}

export function transientFacts(view: AnalysisView, row: number): TransientFacts {
  const t = view.table;
  const a = view.analysis;
  const id = t.id[row]!;
  const storage = t.dict.storage[t.storage[row]!]!;
  const effective = t.dict.storage[t.effectiveStorage[row]!]!;
  const first = t.first[row]!;
  const last = t.last[row]!;
  const stepLabel = (i: number) => a.steps[i]?.label ?? `step ${i}`;
  const byPath = (path: string) => a.steps.find((s) => s.label.includes(path))?.label ?? path;
  const fate = FATES[t.fate[row]!]!;
  const eligible = { PERSISTENT: (t.eligible[row]! & 1) !== 0, EXTERNAL: (t.eligible[row]! & 2) !== 0 };
  const reason = t.reason[row]! < 0 ? null : t.dict.reason[t.reason[row]!]!;
  const alloc = t.dict.allocation[t.allocation[row]!]!;
  const perCall = alloc.kind === 'sdfg' || alloc.kind === 'state' || alloc.kind === 'scope' || alloc.kind === 'blocks';
  const gpu = effective.startsWith('GPU_Global');
  const modes: ModeLine[] = (['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const).map((mode) => {
    if (!perCall)
      return {
        mode,
        text: alloc.kind === 'none' ? 'nothing to allocate' : alloc.kind === 'init' ? 'once at init' : 'caller’s workspace',
        good: alloc.kind !== 'none',
      };
    const still = a.modes[mode].stillAllocating.includes(id);
    switch (mode) {
      case 'SCOPED':
        return { mode, text: 'malloc + free every call', good: false };
      case 'POOL':
        return gpu
          ? { mode, text: 'cudaMallocAsync from the pool every call', good: false }
          : { mode, text: 'as SCOPED (pooling is GPU-only)', good: false };
      case 'PERSISTENT':
        return still
          ? { mode, text: `still every call${reason ? `: ${reason}` : ''}`, good: false }
          : { mode, text: 'once at init', good: true };
      case 'EXTERNAL':
        return still
          ? { mode, text: `still every call${reason ? `: ${reason}` : ''}`, good: false }
          : { mode, text: 'offset into the workspace', good: true };
    }
  });
  const place = placementOf(view, row);
  const bytes = t.bytes[row]!;
  const shape = t.shape[row]!;
  const dtype = t.dict.dtype[t.dtype[row]!]!;
  const type = t.dict.type[t.type[row]!]!;
  const path = t.jsonPath[row]!;
  const sdfg = view.sdfgs[t.sdfg[row]!];
  return {
    row,
    id,
    name: t.name[row]!,
    sdfgName: sdfg?.name ?? `SDFG ${t.sdfg[row]}`,
    declaration: `${type === 'Array' ? '' : `${type} `}${dtype}${shape.length ? `[${shape.join(', ')}]` : ''}`,
    size: formatSize(bytes, t.bytesExpr[row]!),
    exactBytes: bytes === null ? null : `${formatCount(num(bytes))} B`,
    bytesExpr: t.bytesExpr[row]!,
    storage,
    effectiveStorage: effective,
    lifetime: t.dict.lifetime[t.lifetime[row]!]!,
    live: formatStepRange(first, last),
    liveSteps: first < 0 ? null : first === last ? stepLabel(first) : `${stepLabel(first)} → ${stepLabel(last)}`,
    fate,
    fateText: FATE_TEXT[fate],
    eligible,
    reason,
    expandedFrom: expandedFromOf(view, row),
    allocation: allocationText(alloc, byPath),
    executionsPerCall: t.executionsPerCall[row] === null ? 'depends on symbols' : formatCount(num(t.executionsPerCall[row])),
    modes,
    placement: place
      ? {
          storage: place.storage,
          dace:
            place.dace === null ? '–' : typeof place.dace === 'string' && !/^\d+$/.test(place.dace) ? place.dace : formatOffset(place.dace),
          packed: place.packed === null ? '–' : formatOffset(place.packed),
        }
      : null,
    jsonPath: path.startsWith('~') && sdfg ? `${sdfg.jsonPath}${path.slice(1)}` : path,
    alias: aliasFactsOf(view, row, type),
    viewedBy: (aliasesByTarget(view).get(row) ?? []).map((r) => t.name[r]!),
    insideStructure: structureOf(view, row),
    noMemory: alloc.kind === 'none' ? noMemoryHeadline(alloc.why) : null,
  };
}

function aliasFactsOf(view: AnalysisView, row: number, type: string): AliasFacts | null {
  const a = aliasOf(view.table, row);
  if (!a) return null;
  const r = aliasTargetRow(view, row);
  const t = view.table;
  return {
    text: aliasText(type, a.viewOf, a.reason),
    reason: a.viewOf === null ? a.reason : null,
    target: r < 0 ? null : { row: r, id: t.id[r]!, name: t.name[r]!, size: formatSize(t.bytes[r], t.bytesExpr[r]!) },
  };
}

function formatOffset(v: JsonInt): string {
  const n = num(v);
  return n === 0 ? '0' : `${formatCount(n)} B (${formatBytes(n)})`;
}

/** What an element's transients own together; views and references are counted apart, never added. */
export function memoryOf(view: AnalysisView | null, ids: readonly string[]): { bytes: number; symbolic: number; aliases: number } {
  const out = { bytes: 0, symbolic: 0, aliases: 0 };
  if (!view) return out;
  for (const id of ids) {
    const r = rowOf(view, id);
    if (r < 0) continue;
    if (view.table.alias[r]! >= 0) {
      out.aliases++;
      continue;
    }
    const b = ownedBytes(view.table, r);
    if (Number.isNaN(b)) out.symbolic++;
    else out.bytes += b;
  }
  return out;
}
