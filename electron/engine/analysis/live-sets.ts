/**
 * Live sets per program point (docs/liveness.md §3.7): for every container, the steps where it may hold a
 * value that is still read, computed on the flow graph (flow.ts) by two bit-vector dataflow problems that
 * handle all containers at once (one bit each):
 *
 * - reached (forward): some access of the container — a write, possibly — lies on a path to the node;
 * - needed (backward): a path from the node reaches a read of the container without passing a step that
 *   overwrites all of it first (a kill).
 *
 * A container occupies step s when it is accessed there, or when a value reaches s and is needed after it:
 * `access(s) ∨ (reached-in(s) ∧ needed-out(s))`. Every value that is written at a and read at b passes only
 * steps where both hold, so two containers whose sets are disjoint never hold needed values at once. A
 * container allocated afresh by every invocation of its SDFG (`fresh`) neither enters nor leaves an
 * invocation: both problems stop at the SDFG's entry and exit nodes. A read that no access can reach (of
 * memory no write of this call or an earlier one filled) needs no value and makes nothing live.
 */
import type { Sdfg } from '../model/sdfg.js';
import type { FlowGraph } from './flow.js';

export interface StepInterval {
  first: number;
  last: number;
}

export interface ContainerUses {
  /** Steps where the container's bytes are touched (dataflow, control-flow code, callees through connectors). */
  access: StepInterval[];
  /** Steps that may read a value the container holds, at any time while the step runs (a subset of `access`). */
  reads: StepInterval[];
  /** Virtual nodes that read it (the interstate edges whose code reads it: between two steps). */
  readNodes: number[];
  /** Steps that overwrite all of it and read none of it (no read of `reads` at the same step). */
  kills: number[];
  /**
   * The SDFG whose every invocation starts the container afresh — its own for lifetimes Scope, State and SDFG,
   * the root for Global — or null (Persistent, External: within one call of the program, only the root's
   * start and end bound them).
   */
  fresh: Sdfg | null;
}

/** The steps each container occupies, as sorted disjoint intervals ([] when it occupies none). */
export function liveSegments(g: FlowGraph, containers: readonly ContainerUses[]): StepInterval[][] {
  const words = (containers.length + 31) >>> 5;
  const { steps, nodes } = g;
  const access = new Int32Array(steps * words);
  const reads = new Int32Array(nodes * words);
  const kills = new Int32Array(steps * words);
  const resets = new Map<number, Int32Array>();
  containers.forEach((c, i) => {
    const word = i >>> 5;
    const bit = 1 << (i & 31);
    const mark = (into: Int32Array, iv: StepInterval): void => {
      for (let s = Math.max(0, iv.first); s <= iv.last && s < steps; s++) into[s * words + word]! |= bit;
    };
    for (const iv of c.access) mark(access, iv);
    for (const iv of c.reads) mark(reads, iv);
    for (const n of c.readNodes) if (n >= 0 && n < nodes) reads[n * words + word]! |= bit;
    for (const s of c.kills) if (s >= 0 && s < steps) kills[s * words + word]! |= bit;
    if (c.fresh) {
      for (const at of [g.entryOf.get(c.fresh), g.exitOf.get(c.fresh)]) {
        if (at === undefined) continue;
        let mask = resets.get(at);
        if (!mask) resets.set(at, (mask = new Int32Array(words)));
        mask[word]! |= bit;
      }
    }
  });
  const reachedOut = new Int32Array(nodes * words);
  const neededIn = new Int32Array(nodes * words);
  const tmp = new Int32Array(words);

  solve(g, words, 'forward', (n) => {
    tmp.fill(0);
    for (let k = g.predStart[n]!; k < g.predStart[n + 1]!; k++) orInto(tmp, reachedOut, g.pred[k]! * words, words);
    if (n < steps) orInto(tmp, access, n * words, words);
    return update(reachedOut, n * words, resets.get(n));
  });
  solve(g, words, 'backward', (n) => {
    tmp.fill(0);
    for (let k = g.succStart[n]!; k < g.succStart[n + 1]!; k++) orInto(tmp, neededIn, g.succ[k]! * words, words);
    // A read during the step may come before its overwrite: the kill applies to what follows the step only.
    if (n < steps) for (let w = 0; w < words; w++) tmp[w] = tmp[w]! & ~kills[n * words + w]!;
    for (let w = 0; w < words; w++) tmp[w]! |= reads[n * words + w]!;
    return update(neededIn, n * words, resets.get(n));
  });

  function update(into: Int32Array, at: number, reset: Int32Array | undefined): boolean {
    let changed = false;
    for (let w = 0; w < words; w++) {
      const v = reset ? tmp[w]! & ~reset[w]! : tmp[w]!;
      if (v !== into[at + w]) {
        into[at + w] = v;
        changed = true;
      }
    }
    return changed;
  }

  // Occupied steps, collected into intervals per container.
  const out: StepInterval[][] = containers.map(() => []);
  const reachedIn = new Int32Array(words);
  const neededOut = new Int32Array(words);
  for (let s = 0; s < steps; s++) {
    reachedIn.fill(0);
    neededOut.fill(0);
    for (let k = g.predStart[s]!; k < g.predStart[s + 1]!; k++) orInto(reachedIn, reachedOut, g.pred[k]! * words, words);
    for (let k = g.succStart[s]!; k < g.succStart[s + 1]!; k++) orInto(neededOut, neededIn, g.succ[k]! * words, words);
    for (let w = 0; w < words; w++) {
      let bits = access[s * words + w]! | (reachedIn[w]! & neededOut[w]!);
      while (bits !== 0) {
        const low = bits & -bits;
        const i = (w << 5) + (31 - Math.clz32(low));
        bits ^= low;
        const list = out[i]!;
        const last = list[list.length - 1];
        if (last && last.last === s - 1) last.last = s;
        else list.push({ first: s, last: s });
      }
    }
  }
  return out;
}

function orInto(into: Int32Array, from: Int32Array, at: number, words: number): void {
  for (let w = 0; w < words; w++) into[w]! |= from[at + w]!;
}

/** Round-robin worklist in (reverse) post-order until nothing changes; `visit` says whether n's value did. */
function solve(g: FlowGraph, words: number, direction: 'forward' | 'backward', visit: (n: number) => boolean): void {
  if (words === 0) return;
  const n = g.nodes;
  const queue = new Int32Array(n);
  const queued = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const node = direction === 'forward' ? g.order[i]! : g.order[n - 1 - i]!;
    queue[i] = node;
    queued[node] = 1;
  }
  let head = 0;
  let size = n;
  const [start, edges] = direction === 'forward' ? [g.succStart, g.succ] : [g.predStart, g.pred];
  while (size > 0) {
    const node = queue[head]!;
    head = (head + 1) % n;
    size--;
    queued[node] = 0;
    if (!visit(node)) continue;
    for (let k = start[node]!; k < start[node + 1]!; k++) {
      const next = edges[k]!;
      if (queued[next]) continue;
      queued[next] = 1;
      queue[(head + size) % n] = next;
      size++;
    }
  }
}
