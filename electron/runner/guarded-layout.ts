/**
 * The workspace layout of EXTERNAL verification calls (docs/profile.md): guard bytes around the slots so that
 * an overrun shows, while slots that share bytes in the library's own layout (the packed layout gives
 * transients with disjoint live ranges the same bytes) keep sharing them exactly as they do there. A packing
 * bug — two transients live at once in the same bytes — then corrupts a value during verification, and the
 * outputs diverge from SCOPED's, instead of hiding behind separate slots.
 *
 * Slots whose byte ranges overlap (transitively) form one *region*; regions keep their internal offsets and
 * are separated from each other and from the workspace ends by at least `guardBytes`.
 */

export interface LayoutSlot {
  id: string;
  bytes: bigint;
  /** Offset in the library's own layout. */
  offset: bigint;
}

export interface GuardedRegion {
  /** [start, end) in the guarded workspace. */
  start: number;
  end: number;
  /** Slots in the region, by index into the input. */
  slots: number[];
  /** The slot at the region's start: the one named when the guard before the first region changes. */
  first: string;
  /** The slot that ends last in the region: the one named when the guard after the region changes. */
  last: string;
}

export interface GuardedLayout {
  /** Total bytes, guards included. */
  size: number;
  /** Offset of every slot in the guarded workspace, in input order. */
  offsets: number[];
  /** Regions in address order. */
  regions: GuardedRegion[];
}

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

export function guardedLayout(slots: readonly LayoutSlot[], guardBytes: number, alignment: number): GuardedLayout {
  const order = slots
    .map((_, i) => i)
    .sort((a, b) => {
      const d = slots[a]!.offset - slots[b]!.offset;
      return d < 0n ? -1 : d > 0n ? 1 : a - b;
    });
  // Group by overlap of [offset, offset + bytes); an empty slot shares nothing.
  const groups: number[][] = [];
  let groupEnd = -1n;
  for (const i of order) {
    const s = slots[i]!;
    const current = groups[groups.length - 1];
    if (current && s.bytes > 0n && s.offset < groupEnd) {
      current.push(i);
      if (s.offset + s.bytes > groupEnd) groupEnd = s.offset + s.bytes;
    } else {
      groups.push([i]);
      groupEnd = s.offset + s.bytes;
    }
  }
  const offsets = new Array<number>(slots.length).fill(0);
  const regions: GuardedRegion[] = [];
  let cursor = alignUp(guardBytes, alignment);
  for (const g of groups) {
    const base = slots[g[0]!]!.offset;
    let end = cursor;
    let last = g[0]!;
    for (const i of g) {
      const s = slots[i]!;
      // Relative offsets of the library's layout are multiples of its alignment already: kept as they are.
      offsets[i] = cursor + Number(s.offset - base);
      const slotEnd = offsets[i] + Number(s.bytes);
      if (slotEnd >= end) {
        end = slotEnd;
        last = i;
      }
    }
    regions.push({ start: cursor, end, slots: g, first: slots[g[0]!]!.id, last: slots[last]!.id });
    cursor = alignUp(end + guardBytes, alignment);
  }
  return { size: cursor, offsets, regions };
}

/**
 * The argument arena (docs/profile.md, "Argument guards"): every array argument the runner hands a program lies
 * in one buffer the runner owns, between a guard before and a guard after it of its own (guard pattern bytes),
 * so that a write past an argument's end lands in guard bytes the runner checks, never in the allocator's
 * metadata of some other block (which glibc would find later as `free(): invalid size`, far from the cause).
 *
 * A guard is as long as the array it guards, at least ARG_GUARD_MIN and at most ARG_GUARD_MAX bytes: tiles that
 * do not fit the sizes overrun by up to a tile's worth of rows, which scales with the array.
 */
export const ARG_GUARD_MIN = 4096;
export const ARG_GUARD_MAX = 64 * 2 ** 20;

interface ArgumentPlacement {
  name: string;
  /** [start, start + bytes) in the arena. */
  start: number;
  bytes: number;
  /** The guards: [from, to) in the arena, right before `start` and right after `start + bytes`. */
  before: [number, number];
  after: [number, number];
}

export interface ArgumentLayout {
  size: number;
  arrays: ArgumentPlacement[];
}

function argumentGuardBytes(bytes: number): number {
  return Math.min(ARG_GUARD_MAX, Math.max(ARG_GUARD_MIN, bytes));
}

/** `maxSize`: the largest buffer the arena may be (a typed array's limit); guards shrink to ARG_GUARD_MIN when
 * the usual ones would pass it. */
export function argumentLayout(
  arrays: ReadonlyArray<{ name: string; bytes: number }>,
  alignment: number,
  maxSize = Infinity,
): ArgumentLayout {
  const usual = placeArguments(arrays, alignment, argumentGuardBytes);
  return usual.size <= maxSize ? usual : placeArguments(arrays, alignment, () => ARG_GUARD_MIN);
}

function placeArguments(
  arrays: ReadonlyArray<{ name: string; bytes: number }>,
  alignment: number,
  guardFor: (bytes: number) => number,
): ArgumentLayout {
  const placed: ArgumentPlacement[] = [];
  let cursor = 0;
  for (const a of arrays) {
    const guard = guardFor(a.bytes);
    const start = alignUp(cursor + guard, alignment);
    const end = start + a.bytes;
    const next = alignUp(end + guard, alignment);
    placed.push({ name: a.name, start, bytes: a.bytes, before: [cursor, start], after: [end, next] });
    cursor = next;
  }
  return { size: cursor, arrays: placed };
}
