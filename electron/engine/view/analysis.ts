/**
 * The analysis view model (`AnalysisView`, types.ts): the `analysis@1` document with its transients in
 * columns, plus what the memory views draw, computed once here instead of in every chart: memory-over-steps
 * curves per mode and storage with their peaks, workspace rectangles of both layouts, totals.
 *
 * Byte arithmetic is exact (bigint) and leaves as `JsonInteger`; the renderer turns it into plot coordinates.
 * Everything is linear in the number of transients and steps (30k transients: tens of milliseconds).
 */
import { allocatesPerCall } from '../analysis/allocation.js';
import { toAnalysisJson } from '../analysis/json.js';
import { jsonInteger, type JsonInteger } from '../json.js';
import type { Analysis, Mode, TransientInfo } from '../analysis/types.js';
import {
  ANALYSIS_VIEW_SCHEMA,
  FATES,
  type AliasJson,
  type AllocationJson,
  type AnalysisView,
  type Fate,
  type MemoryCurve,
  type ProfileCheck,
  type SdfgSummary,
  type StorageMemory,
  type StorageWorkspace,
  type TransientTable,
  type ViewMode,
  type WorkspaceRects,
} from './types.js';

const VIEW_MODES: readonly ViewMode[] = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'];

function fateOf(t: TransientInfo): Fate {
  if (t.alias) return 'alias';
  const kind = t.allocation.kind;
  if (kind === 'init') return 'init';
  if (kind === 'external') return 'workspace';
  if (!allocatesPerCall(t.allocation)) return 'none';
  if (t.eligible.EXTERNAL) return 'external';
  if (t.eligible.PERSISTENT) return 'persistent';
  return 'scoped';
}

const holdsMemory = (t: TransientInfo): boolean =>
  allocatesPerCall(t.allocation) || t.allocation.kind === 'init' || t.allocation.kind === 'external';

class Dict<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();
  constructor(private readonly key: (v: T) => string = (v) => v as unknown as string) {}
  add(v: T): number {
    const k = this.key(v);
    let i = this.index.get(k);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(v);
      this.index.set(k, i);
    }
    return i;
  }
}

function allocationJson(site: TransientInfo['allocation']): AllocationJson {
  switch (site.kind) {
    case 'sdfg':
      return { kind: 'sdfg', sdfg: site.sdfg };
    case 'state':
      return { kind: 'state', sdfg: site.sdfg, state: site.stateJsonPath };
    case 'scope':
      return { kind: 'scope', sdfg: site.sdfg, state: site.stateJsonPath, mapEntry: site.mapEntryId };
    case 'blocks':
      return { kind: 'blocks', sdfg: site.sdfg, region: site.regionJsonPath, first: site.firstJsonPath, last: site.lastJsonPath };
    case 'none':
      return { kind: 'none', why: site.why };
    default:
      return { kind: site.kind };
  }
}

function allocationKey(a: AllocationJson): string {
  switch (a.kind) {
    case 'sdfg':
      return `s${a.sdfg}`;
    case 'state':
      return `t${a.sdfg}|${a.state}`;
    case 'scope':
      return `m${a.sdfg}|${a.mapEntry}|${a.state}`;
    case 'blocks':
      return `b${a.sdfg}|${a.region}|${a.first}|${a.last ?? ''}`;
    case 'none':
      return `n${a.why}`;
    default:
      return a.kind;
  }
}

/** `jsonPath` column: '' for the usual `<sdfg>.attributes._arrays.<name>`, `~…` relative to the SDFG, else as is. */
function encodeJsonPath(path: string, sdfgPath: string | undefined, name: string): string {
  if (sdfgPath === undefined || path.startsWith('~') || !path.startsWith(sdfgPath)) return path;
  const rest = path.slice(sdfgPath.length);
  return rest === `.attributes._arrays.${name}` ? '' : `~${rest}`;
}

function buildTable(transients: TransientInfo[], sdfgs: SdfgSummary[]): TransientTable {
  const n = transients.length;
  const type = new Dict<string>();
  const dtype = new Dict<string>();
  const storage = new Dict<string>();
  const lifetime = new Dict<string>();
  const reason = new Dict<string>();
  const allocation = new Dict<AllocationJson>(allocationKey);
  const alias = new Dict<AliasJson>((a) => `${a.viewOf === null ? '\u0000' : a.viewOf}|${a.reason ?? ''}`);
  const expandedFrom = new Dict<string>();
  const insideStructure = new Dict<string>();
  const fateIndex = new Map<Fate, number>(FATES.map((f, i) => [f, i]));
  // Each column's element type comes from TransientTable; the rows are filled below.
  const column = <T>(): T[] => new Array<T>(n);
  const t: TransientTable = {
    count: n,
    id: column(),
    sdfg: column(),
    name: column(),
    type: column(),
    dtype: column(),
    shape: column(),
    storage: column(),
    effectiveStorage: column(),
    lifetime: column(),
    bytes: column(),
    bytesExpr: column(),
    eligible: column(),
    reason: column(),
    first: column(),
    last: column(),
    holes: column(),
    allocation: column(),
    executionsPerCall: column(),
    jsonPath: column(),
    fate: column(),
    alias: column(),
    expandedFrom: column(),
    insideStructure: column(),
    dict: {
      type: type.values,
      dtype: dtype.values,
      storage: storage.values,
      lifetime: lifetime.values,
      reason: reason.values,
      allocation: allocation.values,
      alias: alias.values,
      expandedFrom: expandedFrom.values,
      insideStructure: insideStructure.values,
    },
  };
  for (let i = 0; i < n; i++) {
    const x = transients[i]!;
    t.id[i] = x.id;
    t.sdfg[i] = x.sdfg;
    t.name[i] = x.name;
    t.type[i] = type.add(x.type);
    t.dtype[i] = dtype.add(x.dtype);
    t.shape[i] = x.shape;
    t.storage[i] = storage.add(x.storage);
    t.effectiveStorage[i] = storage.add(x.effectiveStorage);
    t.lifetime[i] = lifetime.add(x.lifetime);
    t.bytes[i] = jsonInteger(x.bytes);
    t.bytesExpr[i] = x.bytesExpr;
    t.eligible[i] = (x.eligible.PERSISTENT ? 1 : 0) | (x.eligible.EXTERNAL ? 2 : 0);
    t.reason[i] = x.reason === null ? -1 : reason.add(x.reason);
    t.first[i] = x.live ? x.live.first : -1;
    t.last[i] = x.live ? x.live.last : -1;
    t.holes[i] = x.liveSegments && x.liveSegments.length > 1 ? x.liveSegments.flatMap((seg) => [seg.first, seg.last]) : null;
    t.allocation[i] = allocation.add(allocationJson(x.allocation));
    t.executionsPerCall[i] = jsonInteger(x.executionsPerCall);
    t.jsonPath[i] = encodeJsonPath(x.jsonPath, sdfgs[x.sdfg]?.jsonPath, x.name);
    t.fate[i] = fateIndex.get(fateOf(x))!;
    t.expandedFrom[i] = x.expandedFrom === undefined ? -1 : expandedFrom.add(x.expandedFrom);
    t.insideStructure[i] = x.insideStructure === undefined ? -1 : insideStructure.add(x.insideStructure);
    t.alias[i] = x.alias ? alias.add({ viewOf: x.alias.viewOf, reason: x.alias.viewOf === null ? x.alias.reason : null }) : -1;
  }
  return t;
}

/** Memory-holding rows first, each group by first step, then last step, then file order. */
function timelineOrder(transients: TransientInfo[], steps: number): number[] {
  const key = (t: TransientInfo): [number, number, number] => {
    const holding = holdsMemory(t) ? 0 : 1;
    if (t.live) return [holding, t.live.first, t.live.last];
    // A holding transient without a live range is held over the whole call; others go last.
    return holding === 0 ? [0, 0, Math.max(0, steps - 1)] : [1, Number.MAX_SAFE_INTEGER, 0];
  };
  const keys = transients.map(key);
  const order = [...transients.keys()];
  order.sort((a, b) => {
    const ka = keys[a]!;
    const kb = keys[b]!;
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2] || a - b;
  });
  return order;
}

interface Member {
  row: number;
  t: TransientInfo;
  bytes: bigint;
  first: number;
  last: number;
}

/** The per-mode curves of one storage (docs in `MemoryCurve`). */
function storageCurves(members: Member[], steps: number, workspaceBytes: bigint): MemoryCurve[] {
  const diff = VIEW_MODES.map(() => new Array<bigint>(steps + 1).fill(0n));
  const baseline = VIEW_MODES.map(() => 0n);
  const span = (m: number, x: Member): void => {
    diff[m]![x.first]! += x.bytes;
    diff[m]![x.last + 1]! -= x.bytes;
  };
  const [S, P, POOL, E] = [0, 1, 2, 3];
  baseline[E] = workspaceBytes;
  for (const x of members) {
    const kind = x.t.allocation.kind;
    const inWorkspace = x.t.eligible.EXTERNAL || kind === 'external';
    if (kind === 'init') {
      baseline[S]! += x.bytes;
      baseline[P]! += x.bytes;
      baseline[POOL]! += x.bytes;
      if (!inWorkspace) baseline[E] += x.bytes;
    } else if (kind === 'external') {
      baseline[S]! += x.bytes;
      baseline[P]! += x.bytes;
      baseline[POOL]! += x.bytes;
    } else {
      span(S, x);
      span(POOL, x);
      if (x.t.eligible.PERSISTENT) baseline[P]! += x.bytes;
      else span(P, x);
      if (!inWorkspace) span(E, x);
    }
  }
  return VIEW_MODES.map((mode, m) => {
    const values = new Array<JsonInteger>(steps);
    let live = baseline[m]!;
    let peak = steps > 0 ? -1n : baseline[m]!;
    let peakStep = steps > 0 ? 0 : -1;
    for (let s = 0; s < steps; s++) {
      live += diff[m]![s]!;
      values[s] = jsonInteger(live);
      if (live > peak) {
        peak = live;
        peakStep = s;
      }
    }
    return { mode, bytes: values, peak: { bytes: jsonInteger(peak), step: peakStep }, baseline: jsonInteger(baseline[m]!) };
  });
}

function rects(entries: Array<{ row: number; offset: bigint; size: bigint; first: number; last: number }>): WorkspaceRects {
  return {
    row: entries.map((e) => e.row),
    offset: entries.map((e) => jsonInteger(e.offset)),
    size: entries.map((e) => jsonInteger(e.size)),
    first: entries.map((e) => e.first),
    last: entries.map((e) => e.last),
  };
}

/** `profile`: the code generator's verdict for the analysis' target, computed by the host (codegen profileCheck). */
export function buildAnalysisView(a: Analysis, profile?: ProfileCheck): AnalysisView {
  const steps = a.steps.length;
  const fullLast = Math.max(0, steps - 1);
  // The document head is exactly what `analyze --json` writes, minus the transients (they go in columns).
  const head = toAnalysisJson({ ...a, transients: [] });
  const { transients: _omitted, sdfgs, ...analysis } = head;
  const table = buildTable(a.transients, sdfgs);
  const rowOf = new Map(a.transients.map((t, i) => [t.id, i]));

  // Memory curves, per effective storage of the memory-holding transients.
  const groups = new Map<string, number[]>();
  a.transients.forEach((t, i) => {
    if (!holdsMemory(t)) return;
    const g = groups.get(t.effectiveStorage);
    if (g) g.push(i);
    else groups.set(t.effectiveStorage, [i]);
  });
  const memory: StorageMemory[] = [...groups.keys()].sort().map((storage) => {
    const rowsOf = groups.get(storage)!;
    const unknown = rowsOf.filter((i) => a.transients[i]!.bytes === null);
    if (unknown.length) {
      return {
        storage,
        rows: rowsOf.length,
        curves: null,
        symbolic: { count: unknown.length, example: a.transients[unknown[0]!]!.bytesExpr },
      };
    }
    const members: Member[] = rowsOf.map((row) => {
      const t = a.transients[row]!;
      return { row, t, bytes: t.bytes!, first: t.live ? t.live.first : 0, last: t.live ? t.live.last : fullLast };
    });
    const workspace = a.layouts.packed[storage]?.bytes ?? 0n;
    return { storage, rows: rowsOf.length, curves: storageCurves(members, steps, workspace), symbolic: null };
  });

  // Workspace rectangles of both layouts: one per interval of a live set (docs/liveness.md §3.7), so that two
  // transients sharing bytes in the packed layout never draw over each other.
  const spansOf = (row: number): Array<{ first: number; last: number }> =>
    a.transients[row]!.liveSegments ?? [{ first: 0, last: fullLast }];
  const storages = [...new Set([...Object.keys(a.layouts.dace), ...Object.keys(a.layouts.packed)])].sort();
  const workspace: StorageWorkspace[] = storages.map((storage) => {
    const d = a.layouts.dace[storage];
    const p = a.layouts.packed[storage] ?? null;
    let daceRects: WorkspaceRects | null = null;
    if (d && d.bytes !== null && d.order.every((id) => typeof d.offsets.get(id) === 'bigint')) {
      daceRects = rects(
        d.order.flatMap((id) => {
          const row = rowOf.get(id)!;
          return spansOf(row).map((span) => ({ row, offset: d.offsets.get(id) as bigint, size: a.transients[row]!.bytes ?? 0n, ...span }));
        }),
      );
    }
    const packed = p
      ? {
          bytes: jsonInteger(p.bytes),
          alignment: p.alignment,
          lowerBound: jsonInteger(p.lowerBound),
          alignedSum: jsonInteger(p.alignedSum),
          rects: rects(
            [...p.offsets].flatMap(([id, offset]) => {
              const row = rowOf.get(id)!;
              return spansOf(row).map((span) => ({ row, offset, size: a.transients[row]!.bytes ?? 0n, ...span }));
            }),
          ),
        }
      : null;
    const daceBytes = d?.bytes ?? null;
    const savings =
      p && daceBytes !== null
        ? { bytes: jsonInteger(daceBytes - p.bytes), fraction: daceBytes > 0n ? Number(daceBytes - p.bytes) / Number(daceBytes) : 0 }
        : null;
    return {
      storage,
      dace: { bytes: jsonInteger(daceBytes), bytesExpr: d?.bytesExpr ?? '0', rects: daceRects },
      packed,
      savings,
    };
  });

  const fates = FATES.map(() => 0);
  for (const f of table.fate) fates[f]!++;
  const modeCount = (m: Mode): number => a.transients.filter((t) => t.eligible[m as 'PERSISTENT' | 'EXTERNAL']).length;
  return {
    schema: ANALYSIS_VIEW_SCHEMA,
    analysis: profile ? { ...analysis, profile } : analysis,
    sdfgs,
    table,
    order: timelineOrder(a.transients, steps),
    memory,
    workspace,
    totals: {
      transients: a.transients.length,
      holdingMemory: a.transients.filter(holdsMemory).length,
      eligible: { PERSISTENT: modeCount('PERSISTENT'), EXTERNAL: modeCount('EXTERNAL') },
      fates,
    },
  };
}
