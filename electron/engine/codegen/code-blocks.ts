/**
 * SDFG-level code blocks (`global_code`, `init_code`, `exit_code`: target → C++), pasted where DaCe's frame
 * code puts them (dace/codegen/targets/framecode.py): global code at file scope after the state struct, init
 * code in `__dace_init_<n>` after the state is created and before persistent memory is allocated, exit code
 * in `__dace_exit_<n>` after the persistent frees, for every SDFG of the file (root first). The target keys
 * DaCe reads: `frame` and none (`null` in JSON); a GPU program's init/exit code also takes `cuda` (cuda.py's
 * `__dace_init_cuda`). Code for any other target is ignored, as DaCe ignores it.
 */
import type { CodeBlock, Sdfg, SdfgFile } from '../model/sdfg.js';
import type { EmitCore } from './core.js';

export type CodeBlockKind = 'global' | 'init' | 'exit';

const FIELDS: Record<CodeBlockKind, 'globalCode' | 'initCode' | 'exitCode'> = { global: 'globalCode', init: 'initCode', exit: 'exitCode' };
const ATTRIBUTES: Record<CodeBlockKind, string> = { global: 'global_code', init: 'init_code', exit: 'exit_code' };

/** The targets DaCe pastes for `kind`, one group per target generator in its order (CUDA's init runs before
 * the frame's); each group goes over every SDFG. Code without a target is pasted once, with the frame's. */
function targetGroups(kind: CodeBlockKind, gpu: boolean): string[][] {
  return kind !== 'global' && gpu ? [['cuda'], ['null', 'frame']] : [['null', 'frame']];
}

interface CodeBlockUse {
  target: string;
  block: CodeBlock;
  jsonPath: string;
}

/** The non-empty code blocks of `kind` that `sdfg` contributes to a program, for the target groups `groups`. */
export function codeBlocksOf(sdfg: Sdfg, kind: CodeBlockKind, gpu: boolean, groups = targetGroups(kind, gpu)): CodeBlockUse[] {
  const uses: CodeBlockUse[] = [];
  for (const target of groups.flat()) {
    const block = sdfg[FIELDS[kind]][target];
    if (block && block.code.trim()) uses.push({ target, block, jsonPath: `${sdfg.jsonPath}.attributes.${ATTRIBUTES[kind]}.${target}` });
  }
  return uses;
}

/** Every code block of `kind` the program pastes, in DaCe's order. */
export function codeBlocks(file: SdfgFile, kind: CodeBlockKind, gpu: boolean): CodeBlockUse[] {
  return targetGroups(kind, gpu).flatMap((group) => file.sdfgs.flatMap((sdfg) => codeBlocksOf(sdfg, kind, gpu, [group])));
}

/** Pastes the code blocks of `kind` at the current position of the output. */
export function emitCodeBlocks(core: EmitCore, kind: CodeBlockKind): void {
  const o = core.out;
  for (const use of codeBlocks(core.file, kind, core.backend !== null)) {
    o.mark(use.jsonPath);
    if (kind === 'global') o.raw(use.block.code);
    else for (const line of use.block.code.split('\n')) o.line(line);
  }
}
