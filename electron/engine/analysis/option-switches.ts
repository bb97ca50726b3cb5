/**
 * Option switches: integer scalar arguments that a program only ever compares for equality with integer
 * constants (`nssopt == 0`, `nssopt == 1`, … in interstate conditions and assignments, loop and branch
 * conditions). Such an argument selects one of several code paths, as Fortran physics options do
 * (CLOUDSC's NSSOPT ∈ {0, 1, 2, 3}); a value outside the compared constants takes none of an `if … elif …`
 * chain's branches, and whatever those branches assign is read uninitialised afterwards. A caller never
 * passes such a value, so generated inputs draw the argument from its compared constants instead
 * (profile/index-inputs.ts).
 *
 * Conservative: any other use of the name (a memlet or access node that reads the scalar, a tasklet, a
 * subset, a map range, a size, a nested SDFG's symbol mapping, a comparison with anything but an integer
 * literal, a truth test) makes it no switch. Fewer than two distinct constants is no switch either: with one
 * constant every other value is the `else` branch, which is as valid an input as the constant.
 *
 * Pure: no file system, no process.
 */
import { exprChildren } from '../symbolic/ast.js';
import { parsePython, type Expr } from '../symbolic/index.js';
import { blocksOf } from '../model/queries.js';
import type { SdfgFile, StateBlock } from '../model/sdfg.js';

/** One option switch: the argument and the constants the program compares it with, ascending. */
export interface OptionSwitch {
  argument: string;
  values: bigint[];
}

interface Uses {
  values: Set<bigint>;
  /** Some use is not an equality with an integer literal. */
  other: boolean;
}

/** The option switches among `names` (integer scalar arguments of the root SDFG), sorted by name. */
export function optionSwitches(file: SdfgFile, names: Iterable<string>): OptionSwitch[] {
  const root = file.root;
  const uses = new Map<string, Uses>();
  for (const n of names) {
    const d = root.arrays.get(n);
    if (d && !d.transient && !d.arrayLike) uses.set(n, { values: new Set(), other: false });
  }
  if (!uses.size) return [];
  const word = new RegExp(`\\b(${[...uses.keys()].map(escape).join('|')})\\b`, 'g');
  // A mention in text that is not an equality test (sizes, ranges, tasklet code, mappings): no switch.
  const mentioned = (text: string | null | undefined): void => {
    if (!text) return;
    for (const m of text.matchAll(word)) uses.get(m[1]!)!.other = true;
  };
  // A condition or assignment: equality tests collect constants, anything else disqualifies.
  const code = (text: string | null | undefined): void => {
    if (!text) return;
    word.lastIndex = 0;
    if (!word.test(text)) return;
    let x: Expr;
    try {
      x = parsePython(text);
    } catch {
      mentioned(text);
      return;
    }
    classify(x, uses);
  };
  for (const [, d] of root.arrays) [...d.shape, ...d.strides, ...d.offset, d.totalSize].forEach(mentioned);
  for (const b of blocksOf(root)) {
    if (b.kind === 'region' || b.kind === 'loop') {
      for (const e of b.edges) {
        code(e.condition);
        for (const [, v] of e.assignments) code(v);
      }
    }
    if (b.kind === 'loop') [b.init, b.condition, b.update].forEach(code);
    else if (b.kind === 'conditional') for (const br of b.branches) code(br.condition);
    else if (b.kind === 'state') stateUses(b, uses, mentioned);
  }
  const out: OptionSwitch[] = [];
  for (const [argument, u] of uses) {
    if (u.other || u.values.size < 2) continue;
    out.push({ argument, values: [...u.values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) });
  }
  return out.sort((a, b) => (a.argument < b.argument ? -1 : a.argument > b.argument ? 1 : 0));
}

/** Dataflow reads the scalar's value (memlets, access nodes) or may name it (code, ranges, mappings). */
function stateUses(st: StateBlock, uses: Map<string, Uses>, mentioned: (text: string | null | undefined) => void): void {
  for (const n of st.nodes) {
    if (n.kind === 'access') {
      const u = uses.get(n.data);
      if (u) u.other = true;
    } else if (n.kind === 'tasklet') {
      mentioned(n.code.code);
    } else if (n.kind === 'map_entry') {
      for (const r of n.map.range) [r.start, r.end, r.step].forEach(mentioned);
    } else if (n.kind === 'nested_sdfg') {
      Object.values(n.symbolMapping).forEach(mentioned);
    } else if (n.kind === 'consume_entry') {
      mentioned(n.numPes);
      mentioned(n.condition);
    } else if (n.kind === 'library' || n.kind === 'unknown') {
      mentioned(JSON.stringify(n.attributes));
    }
  }
  for (const e of st.edges) {
    const m = e.memlet;
    if (m.data !== null) {
      const u = uses.get(m.data);
      if (u) u.other = true;
    }
    mentioned(JSON.stringify([m.subset, m.otherSubset, m.volume]));
  }
}

/** Records each occurrence of a watched name: the constant of `name == c` / `name != c`, or a disqualifying use. */
function classify(root: Expr, uses: Map<string, Uses>): void {
  const stack: Expr[] = [root];
  while (stack.length) {
    const e = stack.pop()!;
    if (e.k === 'bin' && (e.op === '==' || e.op === '!=')) {
      const [name, c] = equality(e.a, e.b) ?? equality(e.b, e.a) ?? [null, null];
      const u = name !== null ? uses.get(name) : undefined;
      if (u && c !== null) {
        u.values.add(c);
        continue;
      }
    }
    if (e.k === 'sym') {
      const u = uses.get(e.name);
      if (u) u.other = true;
    }
    for (const c of exprChildren(e)) stack.push(c);
  }
}

/** `name == c` with `c` an integer literal (possibly negated): the name and the constant. */
function equality(a: Expr, b: Expr): [string, bigint] | null {
  if (a.k !== 'sym') return null;
  if (b.k === 'int') return [a.name, b.v];
  if (b.k === 'un' && b.op === '-' && b.a.k === 'int') return [a.name, -b.a.v];
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
