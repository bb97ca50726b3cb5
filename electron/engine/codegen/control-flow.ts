/**
 * Control flow: every region (the SDFG body, ControlFlowRegions, loop bodies, branches) as labelled blocks
 * with `goto`, which is correct for any CFG; a block whose only successor comes next falls through.
 * LoopRegions become `for (;;)` with their init/condition/update; ConditionalBlocks become if/else chains.
 */
import type { ControlFlowBlock, InterstateEdge, LoopBlock, Sdfg } from '../model/sdfg.js';
import { isTrueCondition } from '../model/queries.js';
import { parsePython, parsePythonStatements, type Stmt } from '../symbolic/index.js';
import type { EmitCore, Env, FnCtx, LoopLabels } from './core.js';
import { emitState } from './dataflow.js';
import { ExprError, statementNames } from './expr.js';
import { emitSiteAllocations, emitSiteFrees } from './memory.js';
import type { SiteKey } from './placement.js';
import { blocksOf } from './graph.js';

type Region = { blocks: ControlFlowBlock[]; edges: InterstateEdge[]; start: number | null; jsonPath: string; label: string };

/** Symbols assigned inside an SDFG's own control flow: interstate assignments and loop statements. */
export function localSymbols(core: EmitCore, s: Sdfg): string[] {
  const names = new Set<string>();
  for (const b of blocksOf(s)) {
    if (b.kind === 'region' || b.kind === 'loop') for (const e of b.edges) for (const [k] of e.assignments) names.add(k);
    if (b.kind === 'loop') {
      if (b.loopVariable) names.add(b.loopVariable);
      for (const st of [b.init, b.update]) {
        if (!st) continue;
        const parsed = core.guard(b.jsonPath, `loop ${b.label}`, () => parsePythonStatements(st));
        statementNames(parsed, new Set(), names);
      }
    }
  }
  return [...names];
}

function emitBlock(core: EmitCore, ctx: FnCtx, env: Env, b: ControlFlowBlock, loop: LoopLabels | null): void {
  const o = core.out;
  switch (b.kind) {
    case 'state':
      emitState(core, ctx, env, b);
      return;
    case 'region':
      emitRegion(core, ctx, env, b, loop);
      return;
    case 'loop':
      emitLoop(core, ctx, env, b);
      return;
    case 'conditional': {
      o.mark(b.jsonPath);
      b.branches.forEach((br, i) => {
        const cond =
          br.condition === null
            ? null
            : core.guard(b.jsonPath, `conditional ${b.label}`, () => core.code(ctx, env, parsePython(br.condition!)));
        const head = i === 0 ? `if (${cond ?? 'true'})` : cond === null ? '} else' : `} else if (${cond})`;
        if (i === 0) o.open(head);
        else o.reopen(`${head} {`);
        emitRegion(core, ctx, env, br.body, loop);
      });
      if (b.branches.length) o.close();
      return;
    }
    case 'break':
    case 'continue':
      if (!loop) throw new Error(`internal: ${b.kind} outside a loop at ${b.jsonPath} (the subset check refuses it)`);
      o.mark(b.jsonPath);
      o.line(`goto ${b.kind === 'break' ? loop.brk : loop.cont};`);
      return;
    case 'return':
      o.mark(b.jsonPath);
      o.line(`goto ${ctx.exitLabel};`);
      return;
  }
}

/** Any CFG, as labelled blocks with `goto` (correct for arbitrary state machines). */
export function emitRegion(core: EmitCore, ctx: FnCtx, env: Env, region: Region, loop: LoopLabels | null): void {
  if (region.start === null || region.blocks.length === 0) return;
  const uid = core.newLabelId();
  const label = (i: number) => `__tlab_r${uid}_b${i}`;
  const endLabel = `__tlab_r${uid}_end`;
  // Reachable blocks in breadth-first order from the start block: the usual straight line falls through.
  const order: number[] = [];
  const seen = new Set<number>([region.start]);
  const queue = [region.start];
  while (queue.length) {
    const b = queue.shift()!;
    order.push(b);
    for (const e of region.edges)
      if (e.src === b && !seen.has(e.dst)) {
        seen.add(e.dst);
        queue.push(e.dst);
      }
  }
  // Targets must be known before labels are printed: every edge that does not fall through is a jump.
  const targets = new Set<number>();
  order.forEach((b, pos) => {
    for (const e of region.edges) if (e.src === b && (e.dst !== order[pos + 1] || !isTrueCondition(e.condition))) targets.add(e.dst);
  });
  const o = core.out;
  // Transients sized by symbols this SDFG assigns live from right before one block of the region until
  // right after another (or the region's end): allocated after the assignments that lead into the block.
  const spans = (which: 'first' | 'last', blockPath: string | null) => (s: SiteKey) =>
    s.kind === 'blocks' && s.regionJsonPath === region.jsonPath && (which === 'first' ? s.firstJsonPath : s.lastJsonPath) === blockPath;
  o.openBrace();
  order.forEach((b, pos) => {
    const next = order[pos + 1];
    if (targets.has(b)) o.line(`${label(b)}:;`);
    const block = region.blocks[b]!;
    emitSiteAllocations(core, ctx, env, spans('first', block.jsonPath));
    o.openBrace();
    core.recover(block.jsonPath, `${block.kind} ${block.label}`, () => emitBlock(core, ctx, env, block, loop));
    o.close();
    emitSiteFrees(core, ctx, spans('last', block.jsonPath));
    let unconditional = false;
    for (const e of region.edges.filter((x) => x.src === b)) {
      o.mark(e.jsonPath);
      const assigns: string[] = [];
      for (const [k, v] of e.assignments) {
        core.recover(e.jsonPath, `interstate assignment ${k}`, () => {
          const target = env.names.get(k);
          if (!target) throw new ExprError(`assignment to '${k}', which is not a symbol of this SDFG`);
          assigns.push(`${target} = ${core.code(ctx, env, parsePython(v))};`);
        });
      }
      const jump = e.dst === next ? null : `goto ${label(e.dst)};`;
      if (isTrueCondition(e.condition)) {
        for (const a of assigns) o.line(a);
        if (jump) o.line(jump);
        unconditional = true;
        break;
      }
      let cond = 'false';
      core.recover(e.jsonPath, 'interstate condition', () => {
        cond = core.code(ctx, env, parsePython(e.condition));
      });
      o.open(`if (${cond})`);
      for (const a of assigns) o.line(a);
      o.line(`goto ${label(e.dst)};`);
      o.close();
    }
    if (!unconditional && next !== undefined) o.line(`goto ${endLabel};`);
  });
  o.line(`${endLabel}:;`);
  emitSiteFrees(core, ctx, spans('last', null));
  o.close();
}

function emitLoop(core: EmitCore, ctx: FnCtx, env: Env, b: LoopBlock): void {
  const o = core.out;
  const uid = core.newLabelId();
  const labels: LoopLabels = { brk: `__tlab_l${uid}_break`, cont: `__tlab_l${uid}_continue` };
  const element = `loop ${b.label}`;
  const stmts = (src: string | null) =>
    src ? core.guard(b.jsonPath, element, () => statements(core, ctx, env, parsePythonStatements(src))) : [];
  const cond = b.condition ? core.guard(b.jsonPath, element, () => core.code(ctx, env, parsePython(b.condition!))) : 'true';
  o.mark(b.jsonPath);
  o.openBrace();
  for (const s of stmts(b.init)) o.line(s);
  o.open('for (;;)');
  if (!b.inverted) o.line(`if (!(${cond})) break;`);
  emitRegion(core, ctx, env, b, labels);
  o.line(`${labels.cont}:;`);
  if (b.inverted && b.updateBeforeCondition) {
    for (const s of stmts(b.update)) o.line(s);
    o.line(`if (!(${cond})) break;`);
  } else if (b.inverted) {
    o.line(`if (!(${cond})) break;`);
    for (const s of stmts(b.update)) o.line(s);
  } else for (const s of stmts(b.update)) o.line(s);
  o.close();
  o.line(`${labels.brk}:;`);
  o.close();
}

/** Interstate-style statements (loop init/update): assignments to symbols only. */
function statements(core: EmitCore, ctx: FnCtx, env: Env, stmts: readonly Stmt[]): string[] {
  const lines: string[] = [];
  for (const s of stmts) {
    if (s.k === 'assign') {
      const value = core.code(ctx, env, s.value);
      for (const t of s.targets) {
        if (t.k !== 'sym' || !env.names.has(t.name)) throw new ExprError('loop statements may only assign symbols');
        lines.push(`${env.names.get(t.name)} = ${value};`);
      }
    } else if (s.k === 'augassign') {
      if (s.target.k !== 'sym' || !env.names.has(s.target.name)) throw new ExprError('loop statements may only assign symbols');
      const t = env.names.get(s.target.name)!;
      lines.push(`${t} = ${core.code(ctx, env, { k: 'bin', op: s.op, a: s.target, b: s.value })};`);
    } else if (s.k === 'pass') continue;
    else throw new ExprError('unsupported loop statement');
  }
  return lines;
}
