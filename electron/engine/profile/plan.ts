/**
 * Profile step 1, plan: parse the file, analyse its transients, check the supported subset and the target, and
 * generate one program per variant (mode, and layout for EXTERNAL). Nothing is compiled or run here.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { analyze } from '../analysis/index.js';
import { MODES, type Analysis, type Mode } from '../analysis/types.js';
import { findUnsupported, generateProgram } from '../codegen/index.js';
import type { GeneratedProgram, Layout, ProgramArg, UnsupportedFinding } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { fsCause } from '../io/fs-errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { readSdfgFile } from '../sdfg/index.js';
import { checkLibraryImpl } from '../sdfg/expand/impl.js';
import type { OnProfileProgress, ProfileOptions } from './options.js';
import { resolveGpuBackend } from './gpu-backend.js';
import type { GpuBackend } from '../compile/index.js';
import type { LayoutChoice, ProfileDevice } from './result.js';
import { throwIfCancelled, variantLabel } from './runner-host.js';
import { checkRunFits } from './memory.js';
import { MAX_CALLS } from './samples.js';

export interface PlannedVariant {
  mode: Mode;
  /** EXTERNAL: the workspace layout; null for the other modes. */
  layout: Layout | null;
  /** `SCOPED`, `EXTERNAL (packed)`, … */
  label: string;
  program: GeneratedProgram;
}

export interface ProfilePlan {
  filePath: string;
  /** sha256 (hex) of the file's bytes as read. */
  fileHash: string;
  file: SdfgFile;
  analysis: Analysis;
  /** In canonical mode order; the first is the reference of every comparison. */
  variants: PlannedVariant[];
  /** The arguments every variant takes (they are checked to be the same). */
  args: ProgramArg[];
  /** Every symbol value the programs were specialised for. */
  symbols: Record<string, bigint>;
  /** Those of `symbols` derived from the program's reads in place of --default-symbol (derive-symbols.ts). */
  derivedSymbols?: Record<string, bigint>;
  /** SDFG name. */
  name: string;
  /** GPU programs planned to run (a device probe was given, or `--gpu host`): the device they run on. */
  device?: ProfileDevice;
  /** GPU programs: built for the device (nvcc) or for the host emulation (`--gpu host`). */
  gpuBackend?: GpuBackend;
}

/** The variants in canonical mode order (SCOPED first: it is the reference of the comparison). */
export function planVariants(modes: Mode[], layout: LayoutChoice): Array<{ mode: Mode; layout: Layout | null }> {
  const wanted = new Set(modes);
  const out: Array<{ mode: Mode; layout: Layout | null }> = [];
  for (const mode of MODES) {
    if (!wanted.has(mode)) continue;
    if (mode !== 'EXTERNAL') out.push({ mode, layout: null });
    else if (layout === 'both') out.push({ mode, layout: 'dace' }, { mode, layout: 'packed' });
    else out.push({ mode, layout });
  }
  return out;
}

function unsupportedError(file: string, findings: UnsupportedFinding[]): TlabError {
  const first = findings[0]!;
  return new TlabError(
    'unsupported',
    `${findings.length} element${findings.length === 1 ? '' : 's'} outside the subset Transient Lab can generate code for`,
    {
      file,
      jsonPath: first.jsonPath,
      details: findings
        .slice(0, 20)
        .map((f) => `${f.jsonPath}: ${f.element}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`)
        .concat(findings.length > 20 ? [`… and ${findings.length - 20} more`] : []),
    },
  );
}

function sameArgs(a: ProgramArg[], b: ProgramArg[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i]!;
      return (
        x.name === y.name &&
        x.kind === y.kind &&
        x.dtype === y.dtype &&
        x.totalElements === y.totalElements &&
        x.shape.join() === y.shape.join()
      );
    })
  );
}

/** Checks the run's settings before any work: the cheapest failures first. */
function checkProfileOptions(options: Pick<ProfileOptions, 'modes' | 'calls'>): void {
  if (!options.modes.length) throw new TlabError('usage', 'no modes to profile');
  if (options.calls < 1) throw new TlabError('usage', `--calls must be at least 1, got ${options.calls}`);
  if (options.calls > MAX_CALLS) {
    throw new TlabError(
      'usage',
      `--calls must be at most ${MAX_CALLS.toLocaleString('en-US')} (timed calls per process; use --processes for more), got ${options.calls.toLocaleString('en-US')}`,
    );
  }
}

/** Generates every variant of an already analysed file. */
function generateVariants(
  filePath: string,
  file: SdfgFile,
  analysis: Analysis,
  options: Pick<ProfileOptions, 'modes' | 'layout'> & { poolReleaseThreshold?: bigint | null },
  onProgress: OnProfileProgress = () => {},
): PlannedVariant[] {
  // GPU programs are checked against the CUDA generator's subset (docs/gpu.md), CPU ones against the C++ one.
  const findings = findUnsupported(file, analysis.target, analysis.libraryImpl);
  if (findings.length) throw unsupportedError(filePath, findings);
  // Missing symbol values are reported by the generator, which knows which symbols the program needs.
  const plan = planVariants(options.modes, options.layout);
  const variants: PlannedVariant[] = [];
  for (const [i, v] of plan.entries()) {
    const label = variantLabel(v.mode, v.layout);
    onProgress({ stage: 'generate', message: `generate ${label}`, done: i + 1, total: plan.length });
    const threshold = options.poolReleaseThreshold ?? null;
    const program = generateProgram(file, analysis, {
      mode: v.mode,
      layout: v.layout ?? 'packed',
      ...(threshold !== null ? { poolReleaseThreshold: threshold } : {}),
    });
    variants.push({ ...v, label, program });
  }
  const reference = variants[0]!;
  for (const v of variants) {
    if (!sameArgs(v.program.args, reference.program.args)) {
      throw new Error(`internal: ${v.label} has different program arguments than ${reference.label}`);
    }
  }
  return variants;
}

/** Parse, analyse, check and generate: everything a profile run decides before it compiles anything. */
export async function planProfile(
  filePath: string,
  options: Pick<
    ProfileOptions,
    'modes' | 'layout' | 'calls' | 'symbols' | 'defaultSymbol' | 'signal' | 'devices' | 'libraryImpl' | 'gpu'
  > & {
    /** GPU programs: the default pool's release threshold init sets (null: DaCe's UINT64_MAX). */
    poolReleaseThreshold?: bigint | null;
  },
  onProgress: OnProfileProgress = () => {},
): Promise<ProfilePlan> {
  checkProfileOptions(options);
  onProgress({ stage: 'parse', message: `parse ${basename(filePath)}` });
  const fileBytes = await readFile(filePath).catch((cause: unknown) => {
    throw new TlabError('input', `cannot read: ${fsCause(cause)}`, { file: filePath, cause });
  });
  const file = await readSdfgFile(filePath);
  throwIfCancelled(options.signal);

  onProgress({ stage: 'analyse', message: 'analyse transients' });
  if (options.libraryImpl) checkLibraryImpl(file, options.libraryImpl);
  const analysis = analyze(file, {
    symbols: options.symbols,
    defaultSymbol: options.defaultSymbol,
    target: null,
    ...(options.libraryImpl ? { libraryImpl: options.libraryImpl } : {}),
  });
  const threshold = options.poolReleaseThreshold ?? null;
  if (threshold !== null && analysis.target !== 'gpu') {
    throw new TlabError(
      'usage',
      '--pool-release-threshold applies to GPU programs (the stream-ordered pool of POOL mode); this is a CPU program',
      { file: filePath },
    );
  }
  const gpu = options.gpu ?? 'auto';
  if (gpu !== 'auto' && analysis.target !== 'gpu')
    throw new TlabError('usage', `--gpu ${gpu} applies to GPU programs; this is a CPU program`, { file: filePath });
  // A host that runs the program passes a device probe (`build` does not: it compiles GPU programs anywhere).
  // A GPU program on a machine without a device stops here, before anything is generated or compiled, unless
  // it is to be emulated on the host (`--gpu host`).
  let device: ProfileDevice | undefined;
  let gpuBackend: GpuBackend | undefined;
  if (analysis.target === 'gpu') ({ backend: gpuBackend, device } = await resolveGpuBackend(gpu, options.devices, filePath));
  checkRunFits(file, analysis, { symbols: options.symbols, defaultSymbol: options.defaultSymbol, target: null });
  const variants = generateVariants(filePath, file, analysis, options, onProgress);
  const reference = variants[0]!.program;
  return {
    filePath,
    fileHash: createHash('sha256').update(fileBytes).digest('hex'),
    file,
    analysis,
    variants,
    args: reference.args,
    symbols: reference.symbols,
    name: reference.name,
    ...(device ? { device } : {}),
    ...(gpuBackend ? { gpuBackend } : {}),
  };
}
