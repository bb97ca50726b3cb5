/**
 * The transients table's model, without React: columns, a filter language and sorting over an
 * AnalysisView's columns, producing the row order as an Int32Array. 30k rows filter and sort in a few
 * milliseconds: keys are computed once per view and compared as numbers or plain code points.
 *
 * Filter: words separated by spaces, all must match (case-insensitive).
 * - `lap`               id, name, SDFG name, storage or reason contains "lap"
 * - `storage:gpu`       that column contains "gpu" (any column key or title: id, sdfg, type, dtype, shape,
 *                       bytes, storage, lifetime, reason, live, fate)
 * - `bytes>1MiB`, `bytes<=4096`   numeric comparison (B, KiB, MiB, GiB, TiB; symbolic sizes never match)
 * - `is:external`, `is:persistent`, `is:scoped`, `is:memory`, `is:symbolic`, `is:never`   fate and kind;
 *   `is:alias` (views and references), `is:view`, `is:reference`
 * - `-word`             negation of any of the above
 */
import { FATES, formatStepRange, num, ownedBytes, type AnalysisView } from '../../../electron/engine/view/public.js';
import { sizeText, typeCellText } from '../charts/transient-info.js';

type ColumnKey =
  'id' | 'sdfg' | 'type' | 'dtype' | 'shape' | 'bytes' | 'storage' | 'lifetime' | 'persistent' | 'external' | 'reason' | 'live';

export interface Column {
  key: ColumnKey;
  title: string;
  width: number;
  align: 'left' | 'right' | 'center';
  /** Cell text. */
  text(view: AnalysisView, row: number): string;
}

const shapeText = (view: AnalysisView, row: number): string => `[${view.table.shape[row]!.join(', ')}]`;

export const COLUMNS: Column[] = [
  { key: 'id', title: 'id', width: 180, align: 'left', text: (v, i) => v.table.id[i]! },
  // A transient a library expansion created lives in that expansion's SDFG: the node it came from is what a person knows.
  {
    key: 'sdfg',
    title: 'SDFG',
    width: 170,
    align: 'left',
    text: (v, i) => {
      const from = expandedFromOf(v, i);
      return from !== null ? `from expansion of ${from}` : (v.sdfgs[v.table.sdfg[i]!]?.name ?? String(v.table.sdfg[i]));
    },
  },
  // A member of a structure says which: it is allocated with the structure, never on its own.
  { key: 'type', title: 'type', width: 200, align: 'left', text: typeCellText },
  { key: 'dtype', title: 'dtype', width: 90, align: 'left', text: (v, i) => v.table.dict.dtype[v.table.dtype[i]!]! },
  { key: 'shape', title: 'shape', width: 150, align: 'left', text: shapeText },
  // A view or reference owns no bytes: the cell says what it aliases (`view of T`) instead.
  { key: 'bytes', title: 'bytes', width: 110, align: 'right', text: sizeText },
  { key: 'storage', title: 'storage', width: 110, align: 'left', text: (v, i) => v.table.dict.storage[v.table.effectiveStorage[i]!]! },
  { key: 'lifetime', title: 'lifetime', width: 86, align: 'left', text: (v, i) => v.table.dict.lifetime[v.table.lifetime[i]!]! },
  { key: 'persistent', title: 'PERSISTENT', width: 104, align: 'center', text: (v, i) => ((v.table.eligible[i]! & 1) !== 0 ? '✓' : '✗') },
  { key: 'external', title: 'EXTERNAL', width: 96, align: 'center', text: (v, i) => ((v.table.eligible[i]! & 2) !== 0 ? '✓' : '✗') },
  { key: 'live', title: 'live range', width: 110, align: 'left', text: (v, i) => formatStepRange(v.table.first[i]!, v.table.last[i]!) },
  {
    key: 'reason',
    title: 'why not eligible',
    width: 420,
    align: 'left',
    text: (v, i) => (v.table.reason[i]! < 0 ? '' : v.table.dict.reason[v.table.reason[i]!]!),
  },
];

export interface SortSpec {
  key: ColumnKey;
  dir: 'asc' | 'desc';
}

/**
 * The table's order until the user sorts: what owns the most memory first, as the outline lists it (file order put
 * velocity_tendencies' never-accessed 4-byte scalars above its 96 KiB arrays). Unknown sizes and aliases go last.
 */
export const DEFAULT_SORT: SortSpec = { key: 'bytes', dir: 'desc' };

interface Keys {
  text: Map<ColumnKey, string[]>;
  bytes: Float64Array;
  live: Float64Array;
}

const keyCache = new WeakMap<AnalysisView, Keys>();

function keysOf(view: AnalysisView): Keys {
  let k = keyCache.get(view);
  if (k) return k;
  const n = view.table.count;
  const bytes = new Float64Array(n);
  const live = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Views and references sort with the unknown sizes and match no byte comparison: they own nothing.
    const b = view.table.alias[i]! >= 0 ? NaN : num(view.table.bytes[i]);
    bytes[i] = Number.isFinite(b) ? b : Infinity;
    const f = view.table.first[i]!;
    live[i] = f < 0 ? Infinity : f * 1e6 + view.table.last[i]!;
  }
  k = { text: new Map(), bytes, live };
  keyCache.set(view, k);
  return k;
}

function textKeys(view: AnalysisView, key: ColumnKey): string[] {
  const keys = keysOf(view);
  let t = keys.text.get(key);
  if (!t) {
    const col = COLUMNS.find((c) => c.key === key)!;
    t = new Array(view.table.count);
    for (let i = 0; i < view.table.count; i++) t[i] = col.text(view, i).toLowerCase();
    keys.text.set(key, t);
  }
  return t;
}

const UNITS: Record<string, number> = {
  b: 1,
  kib: 1024,
  kb: 1024,
  k: 1024,
  mib: 2 ** 20,
  mb: 2 ** 20,
  m: 2 ** 20,
  gib: 2 ** 30,
  gb: 2 ** 30,
  g: 2 ** 30,
  tib: 2 ** 40,
  tb: 2 ** 40,
};

type Test = (i: number) => boolean;

function term(view: AnalysisView, raw: string): Test | null {
  const word = raw.toLowerCase();
  const cmp = /^bytes\s*(<=|>=|<|>|=)\s*([\d.]+)\s*([a-z]*)$/.exec(word);
  if (cmp) {
    const unit = UNITS[cmp[3] || 'b'];
    if (unit === undefined) return null;
    const limit = Number(cmp[2]) * unit;
    const { bytes } = keysOf(view);
    const op = cmp[1];
    return (i) => {
      const b = bytes[i]!;
      if (b === Infinity) return false;
      return op === '<' ? b < limit : op === '<=' ? b <= limit : op === '>' ? b > limit : op === '>=' ? b >= limit : b === limit;
    };
  }
  const is = /^is:(\w+)$/.exec(word);
  if (is) {
    const t = view.table;
    const fate = (i: number): string => FATES[t.fate[i]!]!;
    switch (is[1]) {
      case 'memory':
        return (i) => fate(i) !== 'none';
      case 'symbolic':
        return (i) => t.bytes[i] === null;
      case 'never':
        return (i) => t.first[i]! < 0;
      case 'view':
      case 'reference': {
        const want = is[1] === 'reference';
        return (i) => t.alias[i]! >= 0 && /Reference/.test(t.dict.type[t.type[i]!]!) === want;
      }
      default:
        if ((FATES as readonly string[]).includes(is[1]!)) return (i) => fate(i) === is[1];
        return null;
    }
  }
  const field = /^([a-z]+):(.+)$/.exec(word);
  if (field) {
    const col = COLUMNS.find((c) => c.key === field[1] || c.title.toLowerCase() === field[1]);
    if (col) {
      const keys = textKeys(view, col.key);
      const needle = field[2]!;
      return (i) => keys[i]!.includes(needle);
    }
    if (field[1] === 'fate') return (i) => FATES[view.table.fate[i]!]!.includes(field[2]!);
  }
  const cols = (['id', 'sdfg', 'storage', 'reason'] as ColumnKey[]).map((c) => textKeys(view, c));
  return (i) => cols.some((k) => k[i]!.includes(word));
}

/** Parses a filter; unknown `is:`/units make the word a plain text search. */
export function parseFilter(view: AnalysisView, query: string): Test {
  const tests: Test[] = [];
  for (const raw of query.trim().split(/\s+/).filter(Boolean)) {
    const negate = raw.startsWith('-') && raw.length > 1;
    const word = negate ? raw.slice(1) : raw;
    const t = term(view, word) ?? term(view, word.replace(/^\w+:/, ''))!;
    tests.push(negate ? (i) => !t(i) : t);
  }
  return (i) => tests.every((t) => t(i));
}

/** What the rows own together (every table total): views and references are counted apart, never summed. */
export function ownedTotal(view: AnalysisView, rows: ArrayLike<number>): { bytes: number; symbolic: number; aliases: number } {
  const out = { bytes: 0, symbolic: 0, aliases: 0 };
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    if (view.table.alias[i]! >= 0) out.aliases++;
    else {
      const b = ownedBytes(view.table, i);
      if (Number.isFinite(b)) out.bytes += b;
      else out.symbolic++;
    }
  }
  return out;
}

/** Rows (transient indices) matching `query`, in `sort` order (file order when null). */
export function tableRows(view: AnalysisView, query: string, sort: SortSpec | null): Int32Array {
  const n = view.table.count;
  const test = query.trim() ? parseFilter(view, query) : null;
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (!test || test(i)) rows.push(i);
  if (sort) {
    const sign = sort.dir === 'asc' ? 1 : -1;
    const keys = keysOf(view);
    if (sort.key === 'bytes' || sort.key === 'live') {
      const k = sort.key === 'bytes' ? keys.bytes : keys.live;
      // Unknown (symbolic, never accessed) last in both directions.
      rows.sort((a, b) => {
        const x = k[a]!;
        const y = k[b]!;
        if (x === y) return a - b;
        if (x === Infinity) return 1;
        if (y === Infinity) return -1;
        return (x - y) * sign;
      });
    } else {
      const k = textKeys(view, sort.key);
      rows.sort((a, b) => {
        const x = k[a]!;
        const y = k[b]!;
        return x === y ? a - b : (x < y ? -1 : 1) * sign;
      });
    }
  }
  return Int32Array.from(rows);
}

/** The library node (its label) whose expansion created transient `i`, or null for the file's own transients. */
export function expandedFromOf(view: AnalysisView, i: number): string | null {
  const k = view.table.expandedFrom[i] ?? -1;
  return k < 0 ? null : `'${view.table.dict.expandedFrom[k]!}'`;
}
