/**
 * The generator stage of the structural fuzzer: what `profile` does after the analysis and before it compiles,
 * for every memory mode and both targets. A mutant that passes `findUnsupported` for a target is generated
 * (full C++ or CUDA source text, not compiled) in SCOPED, PERSISTENT, POOL and EXTERNAL with both workspace
 * layouts. Each variant may succeed or be refused with a TlabError (a symbol without a value, a packed layout
 * the analysis could not make); anything else thrown is an internal error of the generator and propagates.
 */
import { analyze } from '../../electron/engine/analysis/index.js';
import type { Analysis, Target } from '../../electron/engine/analysis/types.js';
import { findUnsupported, generateProgram, type GeneratedProgram, type GenerateOptions } from '../../electron/engine/codegen/index.js';
import { TlabError } from '../../electron/engine/errors.js';
import type { SdfgFile } from '../../electron/engine/model/sdfg.js';

const CODEGEN_TARGETS: readonly Target[] = ['cpu', 'gpu'];

/** The variants `profile --modes all --layout both` builds (the layout only matters to EXTERNAL). */
export const CODEGEN_VARIANTS: readonly GenerateOptions[] = [
  { mode: 'SCOPED', layout: 'packed' },
  { mode: 'PERSISTENT', layout: 'packed' },
  { mode: 'POOL', layout: 'packed' },
  { mode: 'EXTERNAL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'packed' },
];

export interface GeneratorReach {
  /** Targets whose findUnsupported was empty: the generator proper ran for them. */
  targets: Target[];
  /** Programs generated (at most targets × variants). */
  programs: number;
  /** Variants refused with a TlabError by generateProgram after findUnsupported passed. */
  refused: number;
  /** The first refusal, to show what the generator says. */
  firstRefusal: TlabError | null;
  /** What the subset check or the generator threw that is not a TlabError with an exit code 3, 4 or 5. */
  internal: { error: unknown; target: Target; step: string } | null;
}

// The CLI maps these kinds to exits 3/4/5; any other kind out of the generator is a bug of the generator.
const GENERATOR_KINDS: ReadonlySet<string> = new Set(['input', 'unsupported', 'build']);
const isRefusal = (error: unknown): error is TlabError => error instanceof TlabError && GENERATOR_KINDS.has(error.kind);

/**
 * Runs the generator stage on a parsed file whose analysis for its detected target is `detected`; each
 * generated program goes to `onProgram` (the compile check samples them). A refusal of one target or variant
 * does not stop the others; the first internal error ends the stage and is returned in `internal`.
 */
export function runGenerator(
  file: SdfgFile,
  detected: Analysis,
  defaultSymbol: bigint | null,
  onProgram?: (program: GeneratedProgram, target: Target) => void,
): GeneratorReach {
  const reach: GeneratorReach = { targets: [], programs: 0, refused: 0, firstRefusal: null, internal: null };
  for (const target of CODEGEN_TARGETS) {
    let analysis: Analysis;
    try {
      // The analysis is the front end's: any TlabError of it is a clear refusal (as in runFrontEnd).
      analysis = detected.target === target ? detected : analyze(file, { symbols: new Map(), defaultSymbol, target });
    } catch (error) {
      if (error instanceof TlabError) continue;
      reach.internal = { error, target, step: 'analysis' };
      return reach;
    }
    try {
      if (findUnsupported(file, target).length) continue;
    } catch (error) {
      if (isRefusal(error)) continue;
      reach.internal = { error, target, step: 'subset check' };
      return reach;
    }
    reach.targets.push(target);
    for (const variant of CODEGEN_VARIANTS) {
      let program: GeneratedProgram;
      try {
        program = generateProgram(file, analysis, variant);
      } catch (error) {
        if (!isRefusal(error)) {
          reach.internal = { error, target, step: `${variant.mode}/${variant.layout}` };
          return reach;
        }
        reach.refused++;
        reach.firstRefusal ??= error;
        continue;
      }
      reach.programs++;
      onProgram?.(program, target);
    }
  }
  return reach;
}
