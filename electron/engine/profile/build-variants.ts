/** Profile step 2, build: compile every planned variant into its own shared library under the run folder. */
import { buildProgram, type BuildOptions, type BuildResult, type GpuBackend } from '../compile/index.js';
import type { GeneratedProgram } from '../codegen/types.js';
import type { DaceVariant } from '../dace/types.js';
import type { OnProfileProgress } from './options.js';
import type { PlannedVariant } from './plan.js';
import { throwIfCancelled } from './runner-host.js';

export interface BuiltVariant extends PlannedVariant {
  build: BuildResult;
  /** A library DaCe built (docs/dace-folders.md), not one Transient Lab generated. */
  dace?: DaceVariant;
}

export type ProgramBuilder = (program: GeneratedProgram, opts: BuildOptions) => Promise<BuildResult>;

export interface BuildVariantsOptions {
  /** Folder that receives every library of this run (one folder per profile run). */
  runDir: string;
  /** The SDFG file, for compiler error messages. */
  sdfgFile: string;
  signal?: AbortSignal;
  onProgress?: OnProfileProgress;
  /** The compiler driver; tests pass a fake one. */
  build?: ProgramBuilder;
  /** Optimisation and target flags (default: DaCe's). */
  cxxflags?: readonly string[] | null;
  /** GPU programs: nvcc for the device (default) or the C++ compiler for the host emulation. */
  gpuBackend?: GpuBackend;
}

/** A label that is safe in a file name: `EXTERNAL (packed)` → `EXTERNAL-packed`. */
export function fileLabel(label: string): string {
  return label.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '');
}

/** Builds the variants one after the other (the compiler is the bottleneck; parallel builds would fight for
 * the same cores), checking for cancellation before each. The build warnings travel in each BuildResult. */
export async function buildVariants(variants: PlannedVariant[], opts: BuildVariantsOptions): Promise<BuiltVariant[]> {
  const build = opts.build ?? buildProgram;
  const built: BuiltVariant[] = [];
  for (const [i, v] of variants.entries()) {
    throwIfCancelled(opts.signal);
    opts.onProgress?.({ stage: 'build', message: `build ${v.label}`, done: i + 1, total: variants.length });
    built.push({
      ...v,
      build: await build(v.program, {
        runDir: opts.runDir,
        sdfgFile: opts.sdfgFile,
        label: fileLabel(v.label),
        ...(opts.cxxflags ? { cxxflags: opts.cxxflags } : {}),
        ...(opts.gpuBackend ? { gpuBackend: opts.gpuBackend } : {}),
      }),
    });
  }
  return built;
}
