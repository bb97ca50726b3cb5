/**
 * Which ABI `__dace_init_<n>` has. Mainline DaCe's takes the used symbols only (sdfg.py `init_signature`);
 * the DaCe that ICON's Fortran frontend builds with (the f2dace branches of spcl/dace, framecode.py
 * `generate_code`: `initparams = sdfg.signature(arglist=self.arglist)`) gives it the program's whole argument
 * list, because that frontend's init code reads structure arguments (`tmp_struct_symbol_0 = ptr_patch->nlev;`).
 * The generator follows the first unless an init code block reads an argument, then the second. Exit takes
 * the state only in both, so exit code that reads an argument stays outside the subset (subset.ts).
 */
import type { Sdfg, SdfgFile } from '../model/sdfg.js';
import { codeBlocks, type CodeBlockKind } from './code-blocks.js';

/** C++ without comments and string or character literals (so a name inside them is not a read). */
function codeOnly(code: string): string {
  return code.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, ' ');
}

/** The root's arguments (non-transient data: arrays, scalars, structures) that C++ `code` names, in order of
 * first use. A member after `.`, `->` or `::` is not one (`x.config` does not read argument `config`). */
export function argumentsReadBy(root: Sdfg, code: string): string[] {
  const found = new Set<string>();
  for (const m of codeOnly(code).matchAll(/(?<![\w.]|->|::)[A-Za-z_]\w*/g)) {
    const d = root.arrays.get(m[0]);
    if (d && !d.transient) found.add(m[0]);
  }
  return [...found];
}

/** Whether the code blocks of `kind` (every SDFG, every target the program pastes) read an argument. */
function blocksReadArguments(file: SdfgFile, kind: CodeBlockKind, gpu: boolean): boolean {
  return codeBlocks(file, kind, gpu).some((use) => argumentsReadBy(file.root, use.block.code).length > 0);
}

/** `__dace_init_<n>` takes the program's arguments (the Fortran frontend's ABI) rather than the symbols only. */
export function initTakesArguments(file: SdfgFile, gpu: boolean): boolean {
  return blocksReadArguments(file, 'init', gpu);
}

/**
 * Structure members the init code copies into symbols, as the Fortran frontend writes them
 * (`tmp_struct_symbol_0 = ptr_patch->nlev;`, `__f2dace_SA_x_d_0_s_5_config_0 = config->__f2dace_SA_x_d_0_s_5;`):
 * leaf path (`ptr_patch.nlev`) → symbol. In the program that DaCe's Fortran caller runs, the member and the
 * symbol hold the same value; the runner's inputs keep them so (profile/inputs.ts), or init would size
 * Persistent memory from one value and the program index it with another.
 */
export function leavesCopiedIntoSymbols(file: SdfgFile, gpu: boolean): Map<string, string> {
  return new Map([...symbolsCopiedFromLeaves(file, gpu)].map(([leaf, symbols]) => [leaf, symbols[symbols.length - 1]!]));
}

/**
 * Every symbol the init code copies each structure member into, in order (velocity_tendencies copies
 * `ptr_patch->nlev` into seven `tmp_struct_symbol_*`): symbols of one member hold one value in any real run.
 */
export function symbolsCopiedFromLeaves(file: SdfgFile, gpu: boolean): Map<string, string[]> {
  const root = file.root;
  const out = new Map<string, string[]>();
  for (const use of codeBlocks(file, 'init', gpu)) {
    for (const m of codeOnly(use.block.code).matchAll(/(?<![\w.]|->)([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*(?:\s*->\s*[A-Za-z_]\w*)+)\s*;/g)) {
      const parts = m[2]!.split('->').map((p) => p.trim());
      const d = root.arrays.get(parts[0]!);
      if (!root.symbols.has(m[1]!) || !d || d.transient) continue;
      const leaf = parts.join('.');
      const list = out.get(leaf) ?? [];
      // The last copy wins where one symbol is copied twice (leavesCopiedIntoSymbols takes the last).
      if (list.includes(m[1]!)) list.splice(list.indexOf(m[1]!), 1);
      list.push(m[1]!);
      out.set(leaf, list);
    }
  }
  return out;
}
