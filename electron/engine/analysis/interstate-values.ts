/**
 * Values of the symbols an SDFG's interstate edges assign, for the index-range analysis (index-ranges.ts).
 *
 * Only free symbols have values under `--default-symbol`; a name the program assigns itself is unknown, so
 * every read indexed by it goes unchecked. ICON's velocity_tendencies sets `nlev = ptr_patch[0].nlev` (a member
 * the init code also copies into `tmp_struct_symbol_0`) and reads `z_w_con_c(jc, nlev + 1)` from an array of
 * `tmp_struct_symbol_1` levels, and it sets the row bound `i_endidx = 48` (nproma) on the paths of interior
 * blocks, `end_index(…)` on the others, then loops `jv = 1 … i_endidx` over arrays of `SA_…_d_0` rows. So:
 * - a name whose every assignment has the same known value holds it (`known`): a member read is the value of
 *   the symbol the init code copies that member into, as the caller passes both (profile/inputs.ts);
 * - a name some of whose assignments have known values reaches them on those paths (`reach`, the smallest and
 *   largest): loops and maps bounded by it run that far there, so the arrays they index must be that large.
 * A loop variable of a loop region is not a name its edges assign; a counter of an edge loop (`i = 2` … `i = i +
 * 1`) reaches its first value, and that is all it claims.
 */
import type { ControlFlowBlock, RegionBlock, Sdfg } from '../model/sdfg.js';
import { evalInt, freeSymbols, parsePython, type Expr } from '../symbolic/index.js';

type Ranges = ReadonlyMap<string, [bigint, bigint]>;
/** Names with at most this many distinct ranged names are evaluated at every corner of their ranges. */
const MAX_RANGED = 3;

export interface InterstateValues {
  /** Names whose every assignment has this one value. */
  known: Map<string, bigint>;
  /** Names only some of whose assignments have known values: the smallest and largest of those. */
  reach: Map<string, [bigint, bigint]>;
}

/** `a.b[0].c` as `a.b.c` (the Fortran frontend's spelling of a structure member in interstate code). */
function memberPath(e: Expr): string | null {
  if (e.k === 'subscript' && e.index.length === 1 && e.index[0]!.k === 'int' && e.index[0].v === 0n) return memberPath(e.base);
  if (e.k === 'attr') {
    const base = memberPath(e.base);
    return base === null ? null : `${base}.${e.name}`;
  }
  return e.k === 'sym' ? e.name : null;
}

/** `e` with each structure member read that has a value in `members` replaced by that value. */
function withMembers(e: Expr, members: ReadonlyMap<string, bigint>): Expr {
  if (e.k === 'attr') {
    const path = memberPath(e);
    const v = path === null ? undefined : members.get(path);
    if (v !== undefined) return { k: 'int', v };
  }
  switch (e.k) {
    case 'bin':
      return { ...e, a: withMembers(e.a, members), b: withMembers(e.b, members) };
    case 'un':
      return { ...e, a: withMembers(e.a, members) };
    case 'call':
      return { ...e, args: e.args.map((a) => withMembers(a, members)) };
    case 'ternary':
      return { ...e, cond: withMembers(e.cond, members), then: withMembers(e.then, members), else: withMembers(e.else, members) };
    default:
      return e;
  }
}

function tryEval(e: Expr, env: ReadonlyMap<string, bigint>): bigint | null {
  try {
    return evalInt(e, env);
  } catch {
    return null;
  }
}

/**
 * The smallest and largest value of `e` over its names' ranges (each at both ends of its range: exact for
 * linear `e`), names with a value in `env` at that value. Null when a name has neither, or too many are ranged.
 */
export function valueRange(e: Expr, env: ReadonlyMap<string, bigint>, ranges: Ranges): [bigint, bigint] | null {
  const ranged = [...freeSymbols(e)].filter((n) => !env.has(n));
  if (ranged.length > MAX_RANGED || ranged.some((n) => !ranges.has(n))) return null;
  let corners: Array<Map<string, bigint>> = [new Map(env)];
  for (const n of ranged) {
    const [lo, hi] = ranges.get(n)!;
    corners = corners.flatMap((c) => (lo === hi ? [new Map([...c, [n, lo]])] : [new Map([...c, [n, lo]]), new Map([...c, [n, hi]])]));
  }
  let out: [bigint, bigint] | null = null;
  for (const c of corners) {
    const v = tryEval(e, c);
    if (v === null) return null;
    out = out === null ? [v, v] : [v < out[0] ? v : out[0], v > out[1] ? v : out[1]];
  }
  return out;
}

function collectAssignments(
  region: RegionBlock | Extract<ControlFlowBlock, { kind: 'loop' }>,
  out: Map<string, string[]>,
  loops: Set<string>,
): void {
  for (const e of region.edges)
    for (const [name, rhs] of e.assignments) {
      const list = out.get(name) ?? [];
      list.push(rhs);
      out.set(name, list);
    }
  for (const b of region.blocks) {
    if (b.kind === 'region') collectAssignments(b, out, loops);
    else if (b.kind === 'loop') {
      if (b.loopVariable) loops.add(b.loopVariable);
      collectAssignments(b, out, loops);
    } else if (b.kind === 'conditional') for (const br of b.branches) collectAssignments(br.body, out, loops);
  }
}

/**
 * The interstate values of `sdfg`'s own assignments (not its nested SDFGs'). `env`: the values its free symbols
 * have; `ranges`: the ranges of names it receives from its caller's loops; `members`: structure member leaves
 * (`ptr_patch.nlev`, this SDFG's names) and the values the caller passes for them.
 */
export function interstateValues(
  sdfg: Sdfg,
  env: ReadonlyMap<string, bigint>,
  ranges: Ranges,
  members: ReadonlyMap<string, bigint>,
): InterstateValues {
  const assigned = new Map<string, string[]>();
  const loops = new Set<string>();
  collectAssignments(sdfg.body, assigned, loops);
  const parsed = new Map<string, Array<Expr | null>>();
  for (const [name, rhs] of assigned) {
    if (env.has(name) || loops.has(name)) continue;
    parsed.set(
      name,
      rhs.map((src) => {
        try {
          return withMembers(parsePython(src), members);
        } catch {
          return null;
        }
      }),
    );
  }
  const known = new Map<string, bigint>();
  const at = new Map(env);
  // A value may come from another assigned name (`nlevp1 = nlev + 1`): a few passes reach such chains.
  for (let pass = 0; pass < 4; pass++) {
    let grew = false;
    for (const [name, xs] of parsed) {
      if (known.has(name)) continue;
      const vs = xs.map((x) => (x ? tryEval(x, at) : null));
      if (vs.some((v) => v === null) || vs.some((v) => v !== vs[0])) continue;
      known.set(name, vs[0]!);
      at.set(name, vs[0]!);
      grew = true;
    }
    if (!grew) break;
  }
  const reach = new Map<string, [bigint, bigint]>();
  const around = new Map(ranges);
  // Twice: a name may reach what another reaches (`i_endidx = i_end + 0`).
  for (let pass = 0; pass < 2; pass++)
    for (const [name, xs] of parsed) {
      if (known.has(name)) continue;
      let r: [bigint, bigint] | null = null;
      for (const x of xs) {
        // An update of the name itself (`i = i + 1`) says nothing about how far it goes.
        const v = x && !freeSymbols(x).has(name) ? valueRange(x, at, around) : null;
        if (v) r = r === null ? v : [v[0] < r[0] ? v[0] : r[0], v[1] > r[1] ? v[1] : r[1]];
      }
      if (r) {
        reach.set(name, r);
        around.set(name, r);
      }
    }
  return { known, reach };
}
