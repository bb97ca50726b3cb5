/**
 * The packing fixtures (tests/fixtures/sdfg/pack_*.sdfg): small programs whose packed EXTERNAL workspace gives
 * several transients the same bytes, one per liveness rule of docs/liveness.md. Every temporary is read in
 * reverse order (x[N-1-i]) by the state after the one that writes it, so any sharing of bytes between two
 * transients that are live at once corrupts an output: an elementwise in-place update would hide it.
 *
 * For each: the reference computation from the math (N elements, A and B inputs, B the output), the live
 * ranges the analysis must find (N = 16) and which transients must share bytes in the packed layout.
 */
export interface PackingFixture {
  /** What it covers (docs/liveness.md section). */
  covers: string;
  /** B after one call, from A and B. */
  reference: (A: Float64Array, B: Float64Array) => Float64Array;
  /** Live ranges for N = 16 (the hull of each live set). */
  live: Record<string, [number, number]>;
  /** Live sets with holes for N = 16 (refined rules, docs/liveness.md §3.7); a transient not named here has one interval, `live`. */
  segments?: Record<string, Array<[number, number]>>;
  /** Groups of transients that must share one slot (same packed offset). */
  shared: string[][];
  /** Packed and DaCe workspace bytes for N = 16 (8-byte elements, 64-byte alignment). */
  packedBytes: bigint;
  daceBytes: bigint;
  /** Packed bytes under the baseline rules (before the refinement this fixture covers). */
  baselineBytes: bigint;
  /** Packed bytes under the interval rules (one interval per transient, issue 6: §3.1–§3.5). */
  intervalBytes: bigint;
  /** The exact bound for N = 16 (docs/liveness.md §8): the reference run's peak of needed aligned bytes. */
  exactBytes: bigint;
}

const map = (n: number, f: (i: number) => number): Float64Array<ArrayBufferLike> => Float64Array.from({ length: n }, (_, i) => f(i));

export const PACKING_FIXTURES: Record<string, PackingFixture> = {
  pack_chain: {
    covers: 'straight-line code: each temporary dies when the next is born (§3)',
    reference: (A) => {
      const n = A.length;
      const t1 = map(n, (i) => A[n - 1 - i]! * 2.0);
      const t2 = map(n, (i) => t1[n - 1 - i]! + 1.0);
      const t3 = map(n, (i) => t2[n - 1 - i]! * 3.0);
      const t4 = map(n, (i) => t3[n - 1 - i]! - A[i]!);
      return map(n, (i) => t4[n - 1 - i]!);
    },
    live: { '0:t1': [0, 1], '0:t2': [1, 2], '0:t3': [2, 3], '0:t4': [3, 4] },
    shared: [
      ['0:t1', '0:t3'],
      ['0:t2', '0:t4'],
    ],
    packedBytes: 256n,
    daceBytes: 512n,
    baselineBytes: 256n,
    intervalBytes: 256n,
    exactBytes: 256n,
  },
  pack_branch: {
    covers:
      'branches one after another: the temporaries of two branches share bytes; a value read after the conditional stays live across it (§1)',
    reference: (A) => {
      const n = A.length;
      const t0 = map(n, (i) => A[n - 1 - i]! + 1.0);
      let B: Float64Array;
      if (n > 8) {
        const t1 = map(n, (i) => t0[n - 1 - i]! * 2.0);
        B = map(n, (i) => t1[n - 1 - i]! + t0[i]!);
      } else {
        const t2 = map(n, (i) => t0[n - 1 - i]! * 3.0);
        B = map(n, (i) => t2[n - 1 - i]! - t0[i]!);
      }
      const t3 = map(n, (i) => B[n - 1 - i]! + t0[n - 1 - i]!);
      return map(n, (i) => t3[n - 1 - i]!);
    },
    live: { '0:t0': [0, 5], '0:t1': [1, 2], '0:t2': [3, 4], '0:t3': [5, 6] },
    shared: [['0:t1', '0:t2', '0:t3']],
    packedBytes: 256n,
    daceBytes: 512n,
    baselineBytes: 256n,
    intervalBytes: 256n,
    exactBytes: 256n,
  },
  pack_cycle: {
    covers:
      'a state-machine cycle (§3.2, §3.7): g, t1 and t2 are overwritten first in every iteration and used only inside it; carry is read before it is rewritten and last is read after the loop (left through the guard, which writes g): both are carried across the back edge, but each is dead in part of the iteration (1.333× the exact bound under the interval rules)',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      let carry: Float64Array<ArrayBufferLike> = new Float64Array(n);
      let last: Float64Array<ArrayBufferLike> = new Float64Array(n);
      for (let k = 0; k < 3; k++) {
        const g = map(n, (i) => A[i]! * 2.0);
        const t1 = map(n, (i) => g[n - 1 - i]! + B[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + t1[n - 1 - i]! * 0.5;
        if (k > 0) for (let i = 0; i < n; i++) B[i] = B[i]! + carry[n - 1 - i]! * 0.25;
        const t2 = map(n, (i) => B[n - 1 - i]! * 0.5 + A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + t2[n - 1 - i]!;
        carry = map(n, (i) => B[n - 1 - i]! * 0.5);
        last = map(n, (i) => B[n - 1 - i]! + 1.0);
      }
      return map(n, (i) => B[i]! + last[n - 1 - i]!);
    },
    // steps: before 0, guard 1, make_t1 2, use_t1 3, later/carried/use_carry 4, make_t2 5, use_t2 6, make_carry 7,
    // make_last 8, after 9
    // carry is dead between its read (4) and its rewrite (7); last is needed only from its write (8) to the
    // read after the loop (9), through the guard (1) where the loop is left: t1 and t2 fit in those holes.
    live: { '0:g': [1, 2], '0:t1': [2, 3], '0:t2': [5, 6], '0:carry': [1, 8], '0:last': [1, 9] },
    segments: {
      '0:carry': [
        [1, 4],
        [7, 8],
      ],
      '0:last': [
        [1, 1],
        [8, 9],
      ],
    },
    // t2 in carry's hole, t1 in last's.
    shared: [
      ['0:carry', '0:t2'],
      ['0:t1', '0:last'],
    ],
    packedBytes: 384n,
    daceBytes: 640n,
    baselineBytes: 640n,
    intervalBytes: 512n,
    exactBytes: 384n,
  },
  pack_nested: {
    covers: 'nested SDFGs (§2.1): an argument dies after its last read inside the callee and is born at its first write there',
    reference: (A) => {
      const n = A.length;
      const t1 = map(n, (i) => A[n - 1 - i]! * 2.0);
      const u1 = map(n, (i) => t1[n - 1 - i]! + 1.0);
      const t2 = map(n, (i) => u1[n - 1 - i]! * 3.0);
      const u2 = map(n, (i) => t2[n - 1 - i]! + 2.0);
      const t3 = map(n, (i) => u2[n - 1 - i]! * 0.5);
      return map(n, (i) => t3[n - 1 - i]! + A[i]!);
    },
    // steps: make_t1 0 | call_first 1: read_a 2, write_b 3 | call_second 4: read_a 5, write_b 6 | make_B 7
    // The first callee's u (M + 8 elements) is the largest buffer and is placed first: an input that died a step
    // early or an output born a step late would take its bytes while it is used.
    live: { '0:t1': [0, 2], '0:t2': [3, 5], '0:t3': [6, 7], '1:u': [2, 3], '2:u': [5, 6] },
    shared: [
      ['0:t1', '0:t2'],
      ['1:u', '2:u'],
    ],
    packedBytes: 320n,
    daceBytes: 704n,
    baselineBytes: 448n,
    intervalBytes: 320n,
    exactBytes: 320n,
  },
  pack_nested_loop: {
    covers:
      'a loop around a nested-SDFG call (§3.4, §3.5): the callee’s own temporary is not carried between calls, and the callee’s output is overwritten first in every iteration',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      for (let k = 0; k < 3; k++) {
        const t1 = map(n, (i) => B[n - 1 - i]! + A[i]!);
        const u = map(n, (i) => t1[n - 1 - i]! + 1.0);
        const t2 = map(n, (i) => u[n - 1 - i]! * 0.5);
        for (let i = 0; i < n; i++) B[i] = B[i]! + t2[n - 1 - i]!;
      }
      return B;
    },
    // steps: steps/make_t1 0 | call 1: read_a 2, write_b 3 | accumulate 4
    // u (M + 8 elements) is placed first; t1 and t2 share the slot above it.
    live: { '0:t1': [0, 2], '0:t2': [3, 4], '1:u': [2, 3] },
    shared: [['0:t1', '0:t2']],
    packedBytes: 320n,
    daceBytes: 448n,
    baselineBytes: 448n,
    intervalBytes: 320n,
    exactBytes: 320n,
  },
  pack_inner_loop: {
    covers:
      'first writes inside inner loops (§3.3): t is written first by a loop that certainly runs, so the outer loop does not carry it; s is written by a loop that runs 2 - k times (not at all in the last outer iteration), so it stays live over the outer loop',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      let s: Float64Array<ArrayBufferLike> = new Float64Array(n);
      for (let k = 0; k < 3; k++) {
        for (let j = 0; j < 2; j++) {
          const t = map(n, (i) => A[n - 1 - i]! * 2.0 + B[i]!);
          for (let i = 0; i < n; i++) B[i] = B[i]! + t[n - 1 - i]! * 0.5;
        }
        for (let j = 0; j < 2 - k; j++) s = map(n, (i) => B[n - 1 - i]! * 0.5);
        for (let i = 0; i < n; i++) B[i] = B[i]! + s[n - 1 - i]!;
        const u = map(n, (i) => B[n - 1 - i]! - A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + u[n - 1 - i]! * 0.25;
      }
      return B;
    },
    // steps: outer: first: make_t 0, use_t 1 | shrinking: make_s 2 | use_s 3, make_u 4, use_u 5
    live: { '0:t': [0, 1], '0:s': [0, 5], '0:u': [4, 5] },
    shared: [['0:t', '0:u']],
    packedBytes: 256n,
    daceBytes: 384n,
    baselineBytes: 384n,
    intervalBytes: 256n,
    exactBytes: 256n,
  },
  pack_not_first_write: {
    covers:
      'soundness (§3.1): a write inside a conditional, or to part of a container, is no first write; both temporaries carry values across the back edge',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      const tc = A.slice();
      const tp = map(n, (i) => A[n - 1 - i]!);
      for (let k = 0; k < 4; k++) {
        if (k < 2) {
          const next = map(n, (i) => A[n - 1 - i]! * 2.0);
          tc.set(next);
        }
        const lower = map(n - 8, (i) => B[n - 1 - i]! + 1.0);
        tp.set(lower);
        const nextB = map(n, (i) => B[i]! + tc[n - 1 - i]! * 0.5 + tp[n - 1 - i]! * 0.25);
        B.set(nextB);
        const u = map(n, (i) => B[n - 1 - i]! * 0.125 + A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! - u[n - 1 - i]!;
      }
      const v1 = map(n, (i) => B[n - 1 - i]! * 2.0);
      const v2 = map(n, (i) => v1[n - 1 - i]! + 1.0);
      return map(n, (i) => v2[n - 1 - i]!);
    },
    // steps: init_tc 0, init_tp 1 | steps: early/rewrite/rewrite_tc 2, rewrite_tp 3, use_both 4, make_u 5, use_u 6 |
    // make_v1 7, make_v2 8, make_B 9
    live: { '0:tc': [0, 6], '0:tp': [1, 6], '0:u': [5, 6], '0:v1': [7, 8], '0:v2': [8, 9] },
    shared: [
      ['0:tc', '0:v1'],
      ['0:tp', '0:v2'],
    ],
    packedBytes: 384n,
    daceBytes: 640n,
    baselineBytes: 384n,
    intervalBytes: 384n,
    exactBytes: 384n,
  },
  pack_loop_carried: {
    covers:
      'a loop-carried array dead in part of the loop (§3.7): carry is read first in each iteration and rewritten last; t lives in between, in its bytes',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      let carry = map(n, (i) => A[n - 1 - i]! * 2.0);
      for (let k = 0; k < 3; k++) {
        for (let i = 0; i < n; i++) B[i] = B[i]! + carry[n - 1 - i]! * 0.5;
        const t = map(n, (i) => B[n - 1 - i]! + A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + t[n - 1 - i]! * 0.25;
        carry = map(n, (i) => B[n - 1 - i]! * 0.5 - A[i]!);
      }
      return B;
    },
    // steps: init_carry 0 | steps: use_carry 1, make_t 2, use_t 3, make_carry 4
    live: { '0:carry': [0, 4], '0:t': [2, 3] },
    segments: {
      '0:carry': [
        [0, 1],
        [4, 4],
      ],
    },
    shared: [['0:carry', '0:t']],
    packedBytes: 128n,
    daceBytes: 256n,
    baselineBytes: 256n,
    intervalBytes: 256n,
    exactBytes: 128n,
  },
  pack_private: {
    covers:
      'a private per-iteration array (§3.7): t is written before it is read in every iteration, in either branch of a conditional (no single first write), so it is not live across the back edge and u takes its bytes',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      for (let k = 0; k < 4; k++) {
        for (let i = 0; i < n; i++) B[i] = B[i]! * 0.5 + A[i]!;
        const t = k < 2 ? map(n, (i) => B[n - 1 - i]! * 2.0) : map(n, (i) => B[n - 1 - i]! * 3.0 + A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + t[n - 1 - i]! * 0.25;
        const u = map(n, (i) => B[n - 1 - i]! - A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + u[n - 1 - i]! * 0.125;
      }
      return B;
    },
    // steps: steps: pre 0, pick: make_t_even 1 | make_t_odd 2, use_t 3, make_u 4, use_u 5
    live: { '0:t': [1, 3], '0:u': [4, 5] },
    shared: [['0:t', '0:u']],
    packedBytes: 128n,
    daceBytes: 256n,
    baselineBytes: 256n,
    intervalBytes: 256n,
    exactBytes: 128n,
  },
  pack_nested_private: {
    covers:
      'the private nested-loop case (§3.7): a is private to the outer iteration, b to the inner one, whose loop runs k times (not at all at first, so it is no certain first write), c again to the outer one; all three share one slot',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      for (let k = 0; k < 3; k++) {
        const a = map(n, (i) => B[n - 1 - i]! + A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + a[n - 1 - i]! * 0.5;
        for (let j = 0; j < k; j++) {
          const b = map(n, (i) => B[n - 1 - i]! * 0.25);
          for (let i = 0; i < n; i++) B[i] = B[i]! + b[n - 1 - i]!;
        }
        const c = map(n, (i) => B[n - 1 - i]! - A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + c[n - 1 - i]! * 0.125;
      }
      return B;
    },
    // steps: outer: make_a 0, use_a 1, inner: make_b 2, use_b 3 | make_c 4, use_c 5
    live: { '0:a': [0, 1], '0:b': [2, 3], '0:c': [4, 5] },
    shared: [['0:a', '0:b', '0:c']],
    packedBytes: 128n,
    daceBytes: 384n,
    baselineBytes: 256n,
    intervalBytes: 256n,
    exactBytes: 128n,
  },
  pack_edge_read: {
    covers:
      'a state boundary (§3.7): an interstate assignment reads s between make_s and make_t, so s is dead when make_t writes t; the rules before counted the read in make_t too, and s and t overlapped there',
    reference: (A, B0) => {
      const n = A.length;
      const B = B0.slice();
      for (let k = 0; k < 3; k++) {
        const s = map(n, (i) => i + k + 1);
        const x = s[0]!;
        const t = map(n, (i) => B[n - 1 - i]! + A[i]!);
        for (let i = 0; i < n; i++) B[i] = B[i]! + t[n - 1 - i]! * 0.25 + x;
      }
      return B;
    },
    // steps: steps: make_s 0, (x = s[0]) make_t 1, use_t 2
    live: { '0:s': [0, 0], '0:t': [1, 2] },
    shared: [['0:s', '0:t']],
    packedBytes: 128n,
    daceBytes: 256n,
    baselineBytes: 256n,
    intervalBytes: 256n,
    exactBytes: 128n,
  },
};
