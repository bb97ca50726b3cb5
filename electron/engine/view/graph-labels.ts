/**
 * Short display strings for the graph view: ranges in Python slice notation, memlet labels, WCR names,
 * tasklet code previews. Symbolic text is printed through engine/symbolic so that both grammars read the same
 * (`$N - 1` and `N - 1` both show `N - 1`); anything that does not parse is shown as written.
 */
import type { Grammar, RangeDim, Subset, Sym } from '../model/sdfg.js';
import { parseSym, show, simplify } from '../symbolic/index.js';
import type { Expr } from '../symbolic/index.js';

const ONE: Expr = { k: 'int', v: 1n };

/** Memoised printing of one file's symbolic strings (labels repeat the same few expressions thousands of times). */
export class SymText {
  private readonly shown = new Map<string, string>();
  private readonly plusOne = new Map<string, string>();

  constructor(private readonly grammar: Grammar) {}

  show(s: Sym): string {
    let out = this.shown.get(s);
    if (out === undefined) {
      out = this.tryParse(s, (e) => show(e)) ?? s.trim();
      this.shown.set(s, out);
    }
    return out;
  }

  /** `end + 1`, simplified: inclusive range ends become the exclusive ends of slice notation. */
  showPlusOne(s: Sym): string {
    let out = this.plusOne.get(s);
    if (out === undefined) {
      out = this.tryParse(s, (e) => show(simplify({ k: 'bin', op: '+', a: e, b: ONE }))) ?? `${s.trim()} + 1`;
      this.plusOne.set(s, out);
    }
    return out;
  }

  private tryParse(s: Sym, f: (e: Expr) => string): string | null {
    try {
      return f(parseSym(s, this.grammar));
    } catch {
      return null;
    }
  }
}

/** One dimension in slice notation: `i`, `0:N`, `0:N:2`. */
function dimText(d: RangeDim, sym: SymText): string {
  const start = sym.show(d.start);
  const end = sym.show(d.end);
  if (start === end) return start;
  const step = sym.show(d.step);
  return step === '1' ? `${start}:${sym.showPlusOne(d.end)}` : `${start}:${sym.showPlusOne(d.end)}:${step}`;
}

function subsetText(subset: Subset, sym: SymText): string {
  switch (subset.kind) {
    case 'range':
      return subset.dims.map((d) => dimText(d, sym)).join(', ');
    case 'indices':
      return subset.indices.map((i) => sym.show(i)).join(', ');
    case 'union':
      return subset.subsets.map((s) => `[${subsetText(s, sym)}]`).join(' ∪ ');
  }
}

/** `i = 0:N` for each map parameter. */
export function mapParams(params: string[], range: RangeDim[], sym: SymText): string[] {
  return params.map((p, i) => (range[i] ? `${p} = ${dimText(range[i], sym)}` : p));
}

const WCR_NAMES: Array<[RegExp, string]> = [
  [/^\(?(\w+)\+(\w+)\)?$/, 'sum'],
  [/^\(?(\w+)\*(\w+)\)?$/, 'product'],
  [/^\(?min\((\w+),(\w+)\)\)?$/, 'min'],
  [/^\(?max\((\w+),(\w+)\)\)?$/, 'max'],
];

/** `(lambda a, b: (a + b))` → `sum`; other lambdas → their body. */
export function wcrName(wcr: string): string {
  const m = /lambda\s*([^:]*):(.*)$/s.exec(wcr.trim().replace(/^\(/, '').replace(/\)$/, ''));
  if (!m) return wcr.trim();
  const body = m[2]!.trim();
  const compact = body.replace(/\s+/g, '');
  for (const [re, name] of WCR_NAMES) {
    const r = re.exec(compact);
    if (r && r[1] !== r[2]) return name;
  }
  return body;
}

/** Keeps a label readable on a node: at most `max` characters, with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The first `lines` lines of tasklet code, each clipped; blank lines dropped. */
export function codePreview(code: string, lines = 4, width = 60): { text: string; lines: number } {
  const all = code.split(/\r?\n/).filter((l) => l.trim() !== '');
  return {
    text: all
      .slice(0, lines)
      .map((l) => clip(l.trimEnd(), width))
      .join('\n'),
    lines: all.length,
  };
}

/** `A[i, 0:N]` (+ ` → [j]` for a copy with re-indexing), ` (dyn)` when dynamic, ` (CR: sum)` with WCR. */
export function memletLabel(
  m: { data: string | null; subset: Subset | null; otherSubset: Subset | null; wcr: string | null; dynamic: boolean },
  sym: SymText,
): string {
  if (m.data === null) return '';
  let text = m.subset === null ? m.data : `${m.data}[${subsetText(m.subset, sym)}]`;
  if (m.otherSubset !== null) text += ` → [${subsetText(m.otherSubset, sym)}]`;
  if (m.dynamic) text += ' (dyn)';
  if (m.wcr !== null) text += ` (CR: ${wcrName(m.wcr)})`;
  return text;
}
