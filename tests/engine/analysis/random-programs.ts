/**
 * Random small loop programs for the property test of live sets (live-sets.test.ts): a root SDFG over an input
 * A, an output B and a few transients of length N, with LoopRegions (constant, zero-trip, outer-variable and
 * do-while trip counts), state-machine guard loops, conditionals on loop variables, break and continue,
 * interstate edges that read a transient, and nested SDFGs (inside loops, with their own transients of every
 * lifetime) that read and write through connectors. States write whole containers, parts of them, update them
 * in place, copy one into another, accumulate with WCR, or read through a pointer connector.
 *
 * Programs are deterministic per seed (a small xorshift generator), so a failure names a seed to replay.
 */
import type { ControlFlowBlock, DataDescriptor, InterstateEdge, Sdfg, SdfgFile, StateBlock } from '../../../electron/engine/model/sdfg.js';
import {
  access,
  cond,
  desc,
  edge,
  file,
  jump,
  loop,
  mapEntry,
  mapExit,
  memlet,
  nested,
  region,
  sdfg,
  state,
  tasklet,
  type EdgeSpec,
} from '../../../bench/lib/model-builder.js';

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed * 2654435761) >>> 0 || 1;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Writes every element of `name` (or elements lo…hi), from `from[N-1-i]` when given. */
export function writes(label: string, name: string, from: string | null = null, lo = '0', hi = 'N - 1'): StateBlock {
  const nodes = [mapEntry(`${label}_m`, ['i'], [[lo, hi]]), tasklet(`${label}_t`, 'o = 1', 0), mapExit(0, 0), access(name)];
  const edges: EdgeSpec[] = [
    memlet(1, 2, name, ['i'], { srcConnector: 'o', dstConnector: `IN_${name}` }),
    memlet(2, 3, name, [`${lo}:${hi}`], { srcConnector: `OUT_${name}` }),
  ];
  if (from) {
    nodes.push(access(from));
    edges.push(
      memlet(4, 0, from, ['0:N - 1'], { dstConnector: `IN_${from}` }),
      memlet(0, 1, from, ['N - 1 - i'], { srcConnector: `OUT_${from}`, dstConnector: 'x' }),
    );
  }
  return state(label, nodes, edges);
}

/** Reads and rewrites every element of `name` in place (a value carried from before). */
const updates = (label: string, name: string): StateBlock =>
  state(
    label,
    [access(name), tasklet(`${label}_t`, 'o = x + 1'), access(name)],
    [memlet(0, 1, name, ['0:N - 1'], { dstConnector: 'x' }), memlet(1, 2, name, ['0:N - 1'], { srcConnector: 'o' })],
  );

/** Reads every element of `name` through a pointer connector and accumulates into `into[0]` (WCR). */
export const reads = (label: string, name: string, into: string): StateBlock =>
  state(
    label,
    [access(name), tasklet(`${label}_t`, 'o = x[0]'), access(into)],
    [memlet(0, 1, name, ['0:N - 1'], { dstConnector: 'x' }), memlet(1, 2, into, ['0'], { srcConnector: 'o', wcr: 'lambda a, b: a + b' })],
  );

/** Copies all of `from` into `to` (AccessNode to AccessNode). */
const copies = (label: string, from: string, to: string): StateBlock =>
  state(label, [access(from), access(to)], [memlet(0, 1, from, ['0:N - 1'], { other: ['0:N - 1'] })]);

/** A state that calls `inner` with a ← input and output → b (whole containers). */
function calls(label: string, inner: Sdfg, input: string, output: string): StateBlock {
  return state(
    label,
    [nested(inner, { N: 'N' }), access(input), access(output)],
    [memlet(1, 0, input, ['0:N - 1'], { dstConnector: 'a' }), memlet(0, 2, output, ['0:N - 1'], { srcConnector: 'b' })],
  );
}

const LIFETIMES = ['Scope', 'Scope', 'Scope', 'SDFG', 'Global', 'Persistent', 'External'];

interface Scope {
  /** Containers the states may write / read. */
  writable: string[];
  readable: string[];
  /** Enclosing loop variables (innermost last). */
  vars: string[];
  inLoop: boolean;
  depth: number;
  /** Whether nested SDFG calls may be generated here. */
  mayCall: boolean;
}

class Generator {
  private labels = 0;
  private loopVars = 0;

  constructor(private readonly rng: Rng) {}

  private label(kind: string): string {
    return `${kind}${this.labels++}`;
  }

  program(): SdfgFile {
    const count = 2 + this.rng.int(3);
    const names = Array.from({ length: count }, (_, i) => `T${i}`);
    const arrays: DataDescriptor[] = [desc('A', ['N'], { transient: false }), desc('B', ['N'], { transient: false })];
    for (const n of names) arrays.push(desc(n, ['N'], { lifetime: this.rng.pick(LIFETIMES) }));
    const scope: Scope = { writable: [...names, 'B'], readable: [...names, 'A', 'B'], vars: [], inLoop: false, depth: 0, mayCall: true };
    const blocks = this.blocks(scope, 3 + this.rng.int(4));
    // Something reads every transient at the end now and then, so values reach past loops.
    for (const n of names) if (this.rng.chance(0.3)) blocks.push(reads(this.label('tail'), n, 'B'));
    return file(sdfg('p', arrays, blocks, { symbols: ['N'] }));
  }

  private blocks(scope: Scope, n: number): ControlFlowBlock[] {
    const out: ControlFlowBlock[] = [];
    for (let i = 0; i < n; i++) out.push(this.block(scope));
    return out;
  }

  private block(scope: Scope): ControlFlowBlock {
    const control = scope.depth < 3 ? this.rng.int(10) : 10;
    if (control < 2) return this.forLoop(scope);
    if (control < 3) return this.guardLoop(scope);
    if (control < 4) return this.conditional(scope);
    if (control < 5 && scope.inLoop)
      return cond(this.label('jump'), [[this.condition(scope), [jump(this.rng.pick(['break', 'continue'] as const))]]]);
    return this.stateBlock(scope);
  }

  private stateBlock(scope: Scope): StateBlock {
    const label = this.label('s');
    const w = this.rng.pick(scope.writable);
    const r = this.rng.pick(scope.readable.filter((x) => x !== w));
    switch (this.rng.int(scope.mayCall ? 8 : 7)) {
      case 0:
      case 1:
        return writes(label, w, this.rng.chance(0.7) ? r : null);
      case 2:
        return writes(label, w, this.rng.chance(0.5) ? r : null, this.rng.pick(['0', '1']), this.rng.pick(['N - 2', 'N - 1']));
      case 3:
        return updates(label, w);
      case 4:
        return reads(label, this.rng.pick(scope.readable), this.rng.pick(scope.writable));
      case 5:
        return copies(label, r, w);
      case 6:
        return state(label);
      default:
        return calls(label, this.callee(), this.rng.pick(scope.readable), w);
    }
  }

  /** A callee over a (input), b (output) and its own transient u, with loops of its own. */
  private callee(): Sdfg {
    const scope: Scope = { writable: ['b', 'u'], readable: ['a', 'b', 'u'], vars: [], inLoop: false, depth: 1, mayCall: false };
    const blocks = this.blocks(scope, 2 + this.rng.int(3));
    return sdfg(
      'callee',
      [
        desc('a', ['N'], { transient: false }),
        desc('b', ['N'], { transient: false }),
        desc('u', ['N'], { lifetime: this.rng.pick(LIFETIMES) }),
      ],
      blocks,
      {
        symbols: ['N'],
      },
    );
  }

  private bound(scope: Scope): string {
    const outer = scope.vars[scope.vars.length - 1];
    const options = ['0', '1', '2', '3', '2'];
    if (outer) options.push(`${outer} + 1`, `2 - ${outer}`, outer);
    return this.rng.pick(options);
  }

  private condition(scope: Scope): string {
    const v = scope.vars.length ? this.rng.pick(scope.vars) : null;
    return v ? this.rng.pick([`(${v} > 0)`, `(${v} == 1)`, `(${v} < 2)`, `(${v} == 0)`]) : this.rng.pick(['(N > 3)', '(N < 3)']);
  }

  private inner(scope: Scope, v: string): Scope {
    return { ...scope, vars: [...scope.vars, v], inLoop: true, depth: scope.depth + 1 };
  }

  private forLoop(scope: Scope): ControlFlowBlock {
    const v = `k${this.loopVars++}`;
    const body = this.blocks(this.inner(scope, v), 1 + this.rng.int(4));
    const inverted = this.rng.chance(0.15);
    const l = loop(this.label('L'), v, `${v} = 0`, `(${v} < ${this.bound(scope)})`, `${v} = (${v} + 1)`, body, inverted);
    if (inverted) l.updateBeforeCondition = true;
    return l;
  }

  /** before → guard ⇄ body…, guard → after; now and then an edge that reads a transient into a symbol. */
  private guardLoop(scope: Scope): ControlFlowBlock {
    const v = `k${this.loopVars++}`;
    const inside: Scope = { ...this.inner(scope, v), inLoop: false }; // break/continue belong to LoopRegions
    const body = this.blocks(inside, 1 + this.rng.int(3));
    const blocks: ControlFlowBlock[] = [state(this.label('init')), state(this.label('guard')), ...body, state(this.label('after'))];
    const n = body.length;
    const bound = this.bound(scope);
    const edges: InterstateEdge[] = [edge(0, 1, '1', [[v, '0']]), edge(1, 2, `(${v} < ${bound})`)];
    for (let i = 0; i + 1 < n; i++) edges.push(edge(2 + i, 3 + i));
    edges.push(edge(n + 1, 1, '1', [[v, `(${v} + 1)`]]), edge(1, n + 2, `(not (${v} < ${bound}))`));
    if (this.rng.chance(0.4)) {
      const t = this.rng.pick(scope.readable.filter((x) => x.startsWith('T') || x === 'u'));
      if (t) this.rng.pick(edges).assignments.push(['x', `${t}[0]`]);
    }
    return region(this.label('R'), blocks, edges);
  }

  private conditional(scope: Scope): ControlFlowBlock {
    const branches: Array<[string | null, ControlFlowBlock[]]> = [[this.condition(scope), this.blocks(scope, 1 + this.rng.int(2))]];
    if (this.rng.chance(0.5)) branches.push([null, this.blocks(scope, 1 + this.rng.int(2))]);
    return cond(this.label('C'), branches);
  }
}

export function randomProgram(seed: number): SdfgFile {
  return new Generator(new Rng(seed)).program();
}
