/**
 * Symbol values and the translation of nested-SDFG symbols into root symbols.
 *
 * Every size and count is evaluated in terms of the ROOT SDFG's free symbols, because those are the only
 * values a caller can provide. A nested SDFG's symbol reaches the root through the NestedSDFG node's
 * `symbol_mapping` (recursively); a symbol that is assigned inside an SDFG (interstate edge, loop variable,
 * map parameter) or not mapped from outside has no root expression, so whatever uses it stays unknown.
 */
import type { ControlFlowBlock, Sdfg, SdfgFile } from '../model/sdfg.js';
import { dynamicInputConnectors } from '../model/queries.js';
import type { AnalysisOptions } from './types.js';
import { ExprCache, evaluate, rename, symExpr, type Expr } from './expr.js';
import { defaultSymbolValue } from './fortran-bounds.js';

export interface RootExpr {
  /** The expression over root free symbols, or null when some name has no root meaning. */
  expr: Expr | null;
  /** Names that could not be translated (inner symbols not mapped, loop variables, …). */
  untranslated: string[];
}

/** Names an SDFG binds itself: they are not free, whatever `symbols` declares. */
export function definedSymbols(sdfg: Sdfg): Set<string> {
  const out = new Set<string>();
  const visit = (blocks: ControlFlowBlock[]): void => {
    for (const b of blocks) {
      if (b.kind === 'state') {
        for (const n of b.nodes) if (n.kind === 'map_entry') for (const p of n.map.params) out.add(p);
        // A dynamic map range input is a value read from data at run time: never a known symbol value, so the
        // iterations of its map (and what they size) stay unknown instead of taking --default-symbol.
        for (const n of b.nodes) if (n.kind === 'map_entry') for (const c of dynamicInputConnectors(n)) out.add(c);
        for (const n of b.nodes) if (n.kind === 'consume_entry' && n.peIndex) out.add(n.peIndex);
      } else if (b.kind === 'region' || b.kind === 'loop') {
        if (b.kind === 'loop' && b.loopVariable) out.add(b.loopVariable);
        for (const e of b.edges) for (const [name] of e.assignments) out.add(name);
        visit(b.blocks);
      } else if (b.kind === 'conditional') {
        visit(b.branches.map((br) => br.body));
      }
    }
  };
  for (const e of sdfg.body.edges) for (const [name] of e.assignments) out.add(name);
  visit(sdfg.body.blocks);
  return out;
}

/**
 * The root's integer scalar constants (`constants_prop` entries whose value is a whole number). DaCe compiles
 * them into the program (`constexpr`) and drops them from its arguments, so a size over such a name has the
 * file's value, whatever --symbols or --default-symbol say: argument buffers sized otherwise would not match
 * the loops that use the constant.
 */
export function integerConstants(sdfg: Sdfg): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [name, c] of sdfg.constants) {
    if (typeof c.value === 'number' && Number.isSafeInteger(c.value)) out.set(name, BigInt(c.value));
    else if (typeof c.value === 'bigint') out.set(name, c.value);
  }
  return out;
}

export class SymbolContext {
  readonly exprs: ExprCache;
  private readonly defined = new Map<Sdfg, Set<string>>();
  private readonly translated = new Map<Sdfg, Map<string, Expr | null>>();
  private readonly env = new Map<string, bigint>();
  private readonly resolved = new Map<string, { value: bigint; source: 'user' | 'default' }>();
  private readonly unresolved = new Set<string>();
  private readonly constants: Map<string, bigint>;

  constructor(
    readonly file: SdfgFile,
    private readonly opts: AnalysisOptions,
  ) {
    this.exprs = new ExprCache(file.grammar);
    this.constants = integerConstants(file.root);
    for (const [name, value] of opts.symbols) this.resolved.set(name, { value, source: 'user' });
    // Declared root symbols are the program's parameters: ask for them even if no size uses them, so
    // that `--default-symbol` reports them and loop bounds can be counted.
    for (const name of file.root.symbols.keys()) if (!this.definedIn(file.root).has(name)) this.lookup(name);
  }

  definedIn(sdfg: Sdfg): Set<string> {
    let hit = this.defined.get(sdfg);
    if (!hit) {
      hit = definedSymbols(sdfg);
      // A data container's name in a symbolic field (a nested SDFG's symbol mapped from a Scalar argument) is
      // that container's value at run time: never a symbol value, so --default-symbol must not give it one,
      // and what it sizes stays unknown (allocated where it is used, never at init).
      for (const name of sdfg.arrays.keys()) if (!sdfg.symbols.has(name)) hit.add(name);
      this.defined.set(sdfg, hit);
    }
    return hit;
  }

  /** Root expression of one symbol name as seen inside `sdfg`, or null. */
  translateName(sdfg: Sdfg, name: string): Expr | null {
    let table = this.translated.get(sdfg);
    if (!table) {
      table = new Map();
      this.translated.set(sdfg, table);
    }
    if (table.has(name)) return table.get(name)!;
    // Guard against mapping cycles in malformed files while this entry is being computed.
    table.set(name, null);
    let result: Expr | null = null;
    if (this.definedIn(sdfg).has(name)) result = null;
    else if (!sdfg.parent) result = symExpr(name);
    else {
      const outer = sdfg.parent.node.symbolMapping[name];
      if (outer !== undefined) {
        try {
          result = this.toRoot(sdfg.parent.sdfg, this.exprs.sym(outer)).expr;
        } catch {
          result = null;
        }
      }
    }
    table.set(name, result);
    return result;
  }

  /** Rewrites an expression of `sdfg` into root symbols. */
  toRoot(sdfg: Sdfg, e: Expr): RootExpr {
    const names = this.exprs.namesOf(e);
    if (names.size === 0) return { expr: e, untranslated: [] };
    const mapping = new Map<string, Expr>();
    const untranslated: string[] = [];
    for (const name of names) {
      const t = this.translateName(sdfg, name);
      if (t === null) untranslated.push(name);
      else if (!sdfg.parent && t !== null) continue;
      else mapping.set(name, t);
    }
    if (untranslated.length) return { expr: null, untranslated: untranslated.sort() };
    return { expr: sdfg.parent ? rename(e, mapping) : e, untranslated: [] };
  }

  /** Value of a root symbol: the file's constant, else the user's, else the default for free symbols (1 for a
   * Fortran lower bound, fortran-bounds.ts), else unknown. */
  lookup(name: string): bigint | null {
    const constant = this.constants.get(name);
    if (constant !== undefined) {
      this.env.set(name, constant);
      return constant;
    }
    const hit = this.resolved.get(name);
    if (hit) {
      this.env.set(name, hit.value);
      return hit.value;
    }
    const fallback = defaultSymbolValue(name, this.opts.defaultSymbol);
    if (fallback !== null && !this.definedIn(this.file.root).has(name)) {
      this.resolved.set(name, { value: fallback, source: 'default' });
      this.env.set(name, fallback);
      return fallback;
    }
    this.unresolved.add(name);
    return null;
  }

  /** Evaluates a root expression; records every symbol it needed. */
  valueOf(rootExpr: Expr): bigint | null {
    let missing = false;
    for (const name of this.exprs.namesOf(rootExpr)) if (this.lookup(name) === null) missing = true;
    return missing ? null : evaluate(rootExpr, this.env);
  }

  /** Parses, translates and evaluates a symbolic field of `sdfg` (null on any failure). */
  valueOfField(sdfg: Sdfg, src: string, approx = true): bigint | null {
    let e: Expr;
    try {
      e = approx ? this.exprs.size(src) : this.exprs.sym(src);
    } catch {
      return null;
    }
    const root = this.toRoot(sdfg, e);
    return root.expr ? this.valueOf(root.expr) : null;
  }

  symbolValues(): Map<string, { value: bigint; source: 'user' | 'default' }> {
    return new Map([...this.resolved].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  unresolvedSymbols(): string[] {
    return [...this.unresolved].filter((n) => !this.resolved.has(n)).sort();
  }

  defaultedSymbols(): string[] {
    return [...this.resolved]
      .filter(([, v]) => v.source === 'default')
      .map(([n]) => n)
      .sort();
  }

  /** Environment of known root values (read-only view for callers evaluating by hand). */
  get values(): ReadonlyMap<string, bigint> {
    return this.env;
  }
}
