/**
 * How many times a loop body or a map scope runs per program call. Only the simple, evaluable forms are
 * counted (`i = a`, `i < b` / `<=` / `>` / `>=`, `i = i ± c`); everything else is unknown (null) rather
 * than guessed.
 */
import type { LoopBlock, RangeDim, Sdfg, StateBlock } from '../model/sdfg.js';
import type { SymbolContext } from './symbols.js';

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** Removes redundant outer parentheses: `((i < N))` → `i < N`. */
export function stripParens(text: string): string {
  let s = text.trim();
  for (;;) {
    if (!s.startsWith('(') || !s.endsWith(')')) return s;
    let depth = 0;
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '(') depth++;
      else if (s[i] === ')') depth--;
      if (depth === 0 && i < s.length - 1) return s; // `(a) < (b)`: the first paren closes early
    }
    s = s.slice(1, -1).trim();
  }
}

type Comparison = '<=' | '>=' | '<' | '>';

/** Splits `lhs OP rhs` at the one top-level comparison; null for anything more complex. */
export function splitComparison(text: string): { lhs: string; op: Comparison; rhs: string } | null {
  const s = stripParens(text);
  if (/\b(and|or|not)\b/.test(s)) return null;
  let depth = 0;
  let found: { at: number; op: Comparison } | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (depth === 0 && (ch === '<' || ch === '>')) {
      if (s[i + 1] === ch) return null; // shifts
      if (found) return null; // chained comparison
      found = { at: i, op: s[i + 1] === '=' ? `${ch}=` : ch };
      if (found.op.length === 2) i++;
    } else if (depth === 0 && (ch === '=' || ch === '!') && s[i + 1] === '=') return null;
  }
  if (!found) return null;
  return { lhs: s.slice(0, found.at).trim(), op: found.op, rhs: s.slice(found.at + found.op.length).trim() };
}

const FLIP: Record<Comparison, Comparison> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

export interface LoopForm {
  start: string;
  op: Comparison;
  bound: string;
  /** Step as code, with its sign applied (`-1` for `i = i - 1`). */
  step: string;
}

/** Recognises the counted-loop form; null when the loop is anything else (while, data-dependent…). */
export function loopForm(loop: Pick<LoopBlock, 'loopVariable' | 'init' | 'condition' | 'update'>): LoopForm | null {
  const v = loop.loopVariable;
  if (!v || !loop.init || !loop.condition || !loop.update) return null;
  const init = /^\s*([A-Za-z_]\w*)\s*=\s*([^=][\s\S]*)$/.exec(loop.init);
  if (!init || init[1] !== v) return null;
  const cmp = splitComparison(loop.condition);
  if (!cmp) return null;
  let op = cmp.op;
  let bound = cmp.rhs;
  if (stripParens(cmp.lhs) !== v) {
    if (stripParens(cmp.rhs) !== v) return null;
    op = FLIP[op];
    bound = cmp.lhs;
  }
  const step = updateStep(loop.update, v);
  if (step === null) return null;
  return { start: init[2]!.trim(), op, bound, step };
}

function updateStep(update: string, v: string): string | null {
  const aug = /^\s*([A-Za-z_]\w*)\s*([+-])=\s*([\s\S]+)$/.exec(update);
  if (aug) return aug[1] === v ? (aug[2] === '-' ? `-(${aug[3]!.trim()})` : aug[3]!.trim()) : null;
  const assign = /^\s*([A-Za-z_]\w*)\s*=\s*([^=][\s\S]*)$/.exec(update);
  if (!assign || assign[1] !== v) return null;
  const rhs = stripParens(assign[2]!);
  const lead = new RegExp(`^${v}\\s*([+-])\\s*([\\s\\S]+)$`).exec(rhs);
  if (lead) return lead[1] === '-' ? `-(${lead[2]!.trim()})` : lead[2]!.trim();
  const trail = new RegExp(`^([\\s\\S]+?)\\s*\\+\\s*${v}$`).exec(rhs);
  if (trail) return trail[1]!.trim();
  return null;
}

export function tripCount(a: bigint, op: Comparison, b: bigint, c: bigint, inverted: boolean): bigint | null {
  let n: bigint;
  if (c > 0n && op === '<') n = b > a ? ceilDiv(b - a, c) : 0n;
  else if (c > 0n && op === '<=') n = b >= a ? (b - a) / c + 1n : 0n;
  else if (c < 0n && op === '>') n = a > b ? ceilDiv(a - b, -c) : 0n;
  else if (c < 0n && op === '>=') n = a >= b ? (a - b) / -c + 1n : 0n;
  else return null;
  // A do-while body runs once before the first check.
  return inverted && n < 1n ? 1n : n;
}

export class ExecutionCounter {
  constructor(private readonly symbols: SymbolContext) {}

  private valueOfCode(sdfg: Sdfg, code: string): bigint | null {
    try {
      const expr = this.symbols.exprs.py(code);
      // A container read by the code (a scalar holding the trip count) is data, not a symbol: its value is
      // not known before the run, whatever --default-symbol says.
      for (const name of this.symbols.exprs.namesOf(expr)) if (sdfg.arrays.has(name.split('.')[0]!)) return null;
      const root = this.symbols.toRoot(sdfg, expr);
      return root.expr ? this.symbols.valueOf(root.expr) : null;
    } catch {
      return null;
    }
  }

  loopTrips(loop: LoopBlock, sdfg: Sdfg): bigint | null {
    const form = loopForm(loop);
    if (!form) return null;
    const a = this.valueOfCode(sdfg, form.start);
    const b = this.valueOfCode(sdfg, form.bound);
    const c = this.valueOfCode(sdfg, form.step);
    if (a === null || b === null || c === null) return null;
    return tripCount(a, form.op, b, c, loop.inverted);
  }

  rangeElements(sdfg: Sdfg, dim: RangeDim): bigint | null {
    const start = this.symbols.valueOfField(sdfg, dim.start);
    const end = this.symbols.valueOfField(sdfg, dim.end);
    const step = this.symbols.valueOfField(sdfg, dim.step);
    const tile = this.symbols.valueOfField(sdfg, dim.tile);
    if (start === null || end === null || step === null || tile === null || step === 0n) return null;
    const n = floorDiv(end - start + step, step);
    return n > 0n ? n * tile : 0n;
  }

  /** Iterations of the scope opened by `entryId` times those of every enclosing scope. */
  scopeIterations(sdfg: Sdfg, state: StateBlock, entryId: number | null): bigint | null {
    let total = 1n;
    let id = entryId;
    let guard = 0;
    while (id !== null && guard++ <= state.nodes.length) {
      const entry = state.nodes[id];
      if (!entry) return null;
      if (entry.kind !== 'map_entry') return null; // consume scopes run data-dependently
      for (const dim of entry.map.range) {
        const n = this.rangeElements(sdfg, dim);
        if (n === null) return null;
        total *= n;
      }
      id = entry.scopeEntry;
    }
    return total;
  }
}
