/** Builds hand-written programs and turns them into runner jobs (shared by the runner tests). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../../electron/engine/compile/index.js';
import type { GeneratedProgram } from '../../../electron/engine/codegen/types.js';
import { prepareInputs } from '../../../electron/engine/profile/inputs.js';
import { GUARD_BYTE, GUARD_BYTES, POISON } from '../../../electron/engine/profile/verify.js';
import { variantLabel, type RunJob, type VariantJob } from '../../../electron/runner/messages.js';

export async function variantFor(program: GeneratedProgram, runDir: string, label?: string): Promise<VariantJob> {
  const built = await buildProgram(program, { runDir });
  const layout = program.mode === 'EXTERNAL' ? program.layout : null;
  return {
    label: label ?? variantLabel(program.mode, layout),
    mode: program.mode,
    layout,
    libPath: built.libPath,
    initSymbols: program.initSymbols.map((s) => program.symbols[s]!),
    args: program.args,
    transientIds: program.transientIds,
    externals: program.externals,
    symbols: Object.fromEntries(Object.entries(program.symbols).map(([k, v]) => [k, v.toString()])),
  };
}

export async function jobFor(
  programs: GeneratedProgram[],
  opts: { calls?: number; warmup?: number; settle?: number; labels?: string[] } = {},
): Promise<RunJob> {
  const runDir = await mkdtemp(join(tmpdir(), 'tlab-runner-test-'));
  const variants: VariantJob[] = [];
  for (const [i, p] of programs.entries()) variants.push(await variantFor(p, runDir, opts.labels?.[i]));
  const prepared = await prepareInputs(programs[0]!.args, programs[0]!.symbols, { seed: 0n, files: new Map() });
  return {
    variants,
    inputs: Object.fromEntries(prepared.map((p) => [p.arg.name, p.bytes])),
    calls: opts.calls ?? 5,
    warmup: opts.warmup ?? 1,
    settle: opts.settle ?? 0,
    poison: POISON,
    guardByte: GUARD_BYTE,
    guardBytes: GUARD_BYTES,
  };
}
