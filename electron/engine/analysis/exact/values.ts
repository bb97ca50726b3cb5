/**
 * What the reference run (interpret.ts) evaluates: symbolic fields and Python code for concrete symbol
 * values (refusing, with the file and JSON path, whatever reads data or has no value), the boxes a subset
 * names and the indices of a box, and the per-element record of one transient's writes and reads.
 */
import { TlabError } from '../../errors.js';
import type { Sdfg, SdfgFile, Subset } from '../../model/sdfg.js';
import { UnboundSymbolError, evaluate, freeSymbols, parsePython, parseSym, type Expr, type Value } from '../../symbolic/index.js';

/** Where code is evaluated: the SDFG (whose containers are data) and its symbols' values. */
export interface Scope {
  sdfg: Sdfg;
  env: ReadonlyMap<string, bigint>;
  /** Symbols assigned from data: their values are unknown, and control flow that uses them is refused. */
  opaque: ReadonlySet<string>;
}

/** One dimension of a box, evaluated. */
export interface Dim {
  start: bigint;
  end: bigint;
  step: bigint;
  tile: bigint;
}

export class Values {
  private readonly parsed = new Map<string, Expr>();

  constructor(private readonly file: SdfgFile) {}

  py(code: string, where: string): Expr {
    const key = `py:${code}`;
    let e = this.parsed.get(key);
    if (!e) {
      try {
        e = parsePython(code);
      } catch (err) {
        this.refuse(`code '${code}' does not parse: ${(err as Error).message}`, where);
      }
      this.parsed.set(key, e);
    }
    return e;
  }

  sym(code: string, where: string): Expr {
    const key = `sym:${code}`;
    let e = this.parsed.get(key);
    if (!e) {
      try {
        e = parseSym(code, this.file.grammar);
      } catch (err) {
        this.refuse(`'${code}' does not parse: ${(err as Error).message}`, where);
      }
      this.parsed.set(key, e);
    }
    return e;
  }

  value(frame: Scope, e: Expr, where: string): Value {
    const data = [...freeSymbols(e)].find((n) => frame.sdfg.arrays.has(n.split('.')[0]!));
    if (data !== undefined) this.refuse(`cannot evaluate: reads data container '${data}' (data-dependent control flow)`, where);
    try {
      return evaluate(e, (name) => {
        if (frame.opaque.has(name)) throw new Error(`uses '${name}', assigned from data (data-dependent control flow)`);
        return frame.env.get(name);
      });
    } catch (err) {
      const why = err instanceof UnboundSymbolError ? `no value for ${err.message}` : (err as Error).message;
      this.refuse(`cannot evaluate: ${why}`, where);
    }
  }

  truth(frame: Scope, code: string, where: string): boolean {
    const c = code.trim();
    if (c === '' || c === '1' || c === 'True') return true;
    const v = this.value(frame, this.py(c, where), where);
    return v.k === 'bool' ? v.v : v.k === 'float' ? v.v !== 0 : v.n !== 0n;
  }

  integer(frame: Scope, e: Expr, where: string): bigint {
    const v = this.value(frame, e, where);
    if (v.k === 'rat' && v.d === 1n) return v.n;
    if (v.k === 'float' && Number.isInteger(v.v)) return BigInt(v.v);
    if (v.k === 'bool') return v.v ? 1n : 0n;
    this.refuse('expected an integer value', where);
  }

  refuse(why: string, jsonPath: string): never {
    throw new TlabError('unsupported', `the reference run cannot follow this program: ${why}`, { file: this.file.path, jsonPath });
  }

  /** The boxes `subset` names, evaluated in `frame` with `env` (a union names several). */
  boxes(frame: Scope, subset: Subset, env: ReadonlyMap<string, bigint>, where: string): Dim[][] {
    const f = { ...frame, env };
    switch (subset.kind) {
      case 'range':
        return [
          subset.dims.map((d) => ({
            start: this.integer(f, this.sym(d.start, where), where),
            end: this.integer(f, this.sym(d.end, where), where),
            step: this.integer(f, this.sym(d.step, where), where),
            tile: this.integer(f, this.sym(d.tile, where), where),
          })),
        ];
      case 'indices':
        return [
          subset.indices.map((i) => {
            const v = this.integer(f, this.sym(i, where), where);
            return { start: v, end: v, step: 1n, tile: 1n };
          }),
        ];
      case 'union':
        return subset.subsets.flatMap((s) => this.boxes(frame, s, env, where));
    }
  }

  /** Whether `subset` names exactly one element (a definite write). */
  singleElement(frame: Scope, subset: Subset | null, env: ReadonlyMap<string, bigint>, where: string): boolean {
    if (subset === null) return false;
    let count = 0;
    for (const dims of this.boxes(frame, subset, env, where)) forEachIndex(dims, () => count++);
    return count === 1;
  }

  /** The first index of the one box `subset` names (where a nested SDFG's argument pointer points). */
  subsetStart(frame: Scope, subset: Subset | null, env: ReadonlyMap<string, bigint>, data: string, where: string): number[] {
    if (subset === null) return frame.sdfg.arrays.get(data)?.shape.map(() => 0) ?? [];
    const boxes = this.boxes(frame, subset, env, where);
    if (boxes.length !== 1) this.refuse('a nested SDFG argument given by a union of subsets', where);
    return boxes[0]!.map((d) => Number(d.start));
  }
}

/** Element `idx` of a name whose elements start at `base` with these strides. */
export function flat(base: number, strides: number[], idx: bigint[]): number {
  let f = base;
  for (let i = 0; i < idx.length; i++) f += Number(idx[i]!) * (strides[i] ?? 0);
  return f;
}

/** Calls `visit` with every index of a box (each dimension start…end by step, `tile` elements from each). */
export function forEachIndex(dims: Dim[], visit: (idx: bigint[]) => void): void {
  const lists = dims.map((d) => {
    if (d.step <= 0n || d.tile <= 0n) return [];
    const out: bigint[] = [];
    for (let v = d.start; v <= d.end; v += d.step) for (let k = 0n; k < d.tile; k++) out.push(v + k);
    return out;
  });
  const idx = new Array<bigint>(dims.length);
  const rec = (i: number): void => {
    if (i === dims.length) return visit(idx.slice());
    for (const v of lists[i]!) {
      idx[i] = v;
      rec(i + 1);
    }
  };
  rec(0);
}

/** The run's record of one transient (by id): when each element was last written, and what was read. */
export class Instance {
  /** Point of the last write of each element (-1: none); grows with the elements touched (sizes may vary). */
  lastWrite = new Int32Array(0);
  /** write point → furthest read point of a value written there. */
  readonly spans = new Map<number, number>();
  readonly accessed = new Set<number>();
  constructor(readonly id: string) {}

  reset(): void {
    this.lastWrite.fill(-1);
  }

  grow(size: number): void {
    if (size <= this.lastWrite.length) return;
    const next = new Int32Array(Math.max(size, 2 * this.lastWrite.length)).fill(-1);
    next.set(this.lastWrite);
    this.lastWrite = next;
  }
}
