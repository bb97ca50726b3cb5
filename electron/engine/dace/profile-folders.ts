/**
 * `profile FOLDER [MORE_FOLDERS…]` on DaCe build folders (docs/dace-folders.md): what the user's own toolchain
 * compiled, run through libffi with the build's own signatures, one folder per mode, all in one run on the
 * same inputs with verification between them. A host of the profile steps like prebuilt.ts: plan each folder's
 * SDFG (its arguments and symbols), check the build's signatures against it, then rounds → verify → assemble.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { MODES } from '../analysis/types.js';
import { TlabError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { withFileErrors } from '../io/fs-errors.js';
import type { BuiltVariant } from '../profile/build-variants.js';
import type { OnProfileProgress, ProfileOptions } from '../profile/options.js';
import { checkOutputFolder } from '../profile/outputs.js';
import { planProfile, type ProfilePlan } from '../profile/plan.js';
import { runVerifyAssemble } from '../profile/profile.js';
import type { ProfileResult } from '../profile/result.js';
import { throwIfCancelled, variantLabel } from '../profile/runner-host.js';
import { builtByLine } from './built-by.js';
import { readDaceFolder, type DaceFolder } from './folder.js';
import { detectMode } from './mode.js';
import { callSpec } from './signature.js';

const short = (hash: string) => hash.slice(0, 12);

function sameArgs(a: ProfilePlan, b: ProfilePlan): boolean {
  const x = a.args;
  const y = b.args;
  return (
    x.length === y.length && x.every((p, i) => p.name === y[i]!.name && p.dtype === y[i]!.dtype && p.totalElements === y[i]!.totalElements)
  );
}

/** Plans every folder and returns the variants to run (libraries copied under `runDir`: dlopen caches by path). */
async function planDaceFolders(
  dirs: string[],
  runDir: string,
  options: Pick<ProfileOptions, 'calls' | 'symbols' | 'defaultSymbol' | 'signal'>,
  onProgress: OnProfileProgress = () => {},
): Promise<{ plan: ProfilePlan; built: BuiltVariant[]; folders: DaceFolder[]; warnings: string[] }> {
  const folders: DaceFolder[] = [];
  for (const dir of dirs) {
    throwIfCancelled(options.signal);
    onProgress({ stage: 'parse', message: `read ${dir}` });
    folders.push(await readDaceFolder(dir));
  }
  const first = folders[0]!;
  const other = folders.find((f) => f.name !== first.name);
  if (other) {
    throw new TlabError(
      'usage',
      `${first.dir} holds program ${first.name} but ${other.dir} holds ${other.name}: compare build folders of one program`,
    );
  }
  const warnings: string[] = [];
  // Each mode's build saves its own SDFG (lifetimes applied): compare what the modes leave alone.
  if (new Set(folders.map((f) => f.programHash)).size > 1) {
    warnings.push(
      `the folders come from different SDFGs (sha256 without lifetimes, storages and pool flags of transients: ${folders.map((f) => `${f.dir} ${short(f.programHash)}`).join(', ')}): outputs are compared all the same`,
    );
  }
  const plans: ProfilePlan[] = [];
  const built: BuiltVariant[] = [];
  const used = new Map<string, number>();
  for (const [i, folder] of folders.entries()) {
    const detected = detectMode(folder);
    // Our generator reads the arguments (shapes, dtypes, which are read and written) off the folder's SDFG; the
    // program itself is never compiled. Its lifetimes are the build's, so SCOPED generation keeps them.
    const plan = await planProfile(folder.sdfgPath, { ...options, modes: ['SCOPED'], layout: 'dace', devices: undefined }, onProgress);
    if (plan.analysis.target === 'gpu' || folder.gpuSources.length) refuseGpuBuild(folder);
    if (plans.length && !sameArgs(plans[0]!, plan)) {
      throw new TlabError(
        'input',
        `its program takes other arguments than ${folders[0]!.dir}'s (at these symbol values): compare build folders of one program`,
        {
          file: folder.dir,
        },
      );
    }
    plans.push(plan);
    const program = plan.variants[0]!.program;
    const call = callSpec(folder, program);
    const base = variantLabel(detected.mode, detected.mode === 'EXTERNAL' ? 'dace' : null);
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    const label = n === 1 ? base : `${base} #${n}`;
    const bytes = await withFileErrors('input', 'read', folder.libraryPath, () => readFile(folder.libraryPath));
    const libPath = join(runDir, `dace-${i}-${process.pid}.so`);
    await writeFileAtomic(libPath, bytes, { kind: 'run' });
    const flags = folder.builtBy.flags;
    const expected = plan.analysis.modes[detected.mode].perCall.allocs;
    built.push({
      mode: detected.mode,
      layout: detected.mode === 'EXTERNAL' ? 'dace' : null,
      label,
      program,
      build: {
        libPath,
        cached: true,
        ms: 0,
        key: createHash('sha256').update(bytes).digest('hex'),
        compiler: { command: [], name: folder.builtBy.compiler ?? 'DaCe build', version: '', versionLine: '' },
        openmp: false,
        flags,
        cxxflags: flags,
        entryDir: folder.dir,
        warnings: [],
      },
      dace: {
        call,
        folder: folder.dir,
        sdfgSha256: folder.sdfgHash,
        modeReason: detected.reason,
        builtBy: builtByLine(folder.builtBy),
        expectedAllocationsPerCall: expected === null ? null : Number(expected),
      },
    });
    onProgress({
      stage: 'build',
      message: `${label} ← ${relative(process.cwd(), folder.dir) || folder.dir}`,
      done: i + 1,
      total: folders.length,
    });
  }
  // Canonical mode order, as every profile: SCOPED first, the reference of the comparison.
  const order = built
    .map((v, i) => ({ v, i, plan: plans[i]!, folder: folders[i]! }))
    .sort((a, b) => MODES.indexOf(a.v.mode) - MODES.indexOf(b.v.mode) || a.i - b.i);
  return { plan: order[0]!.plan, built: order.map((o) => o.v), folders: order.map((o) => o.folder), warnings };
}

/** `profile FOLDER…`: the profile steps after build, on the folders' own libraries. */
export async function profileDaceFolders(
  dirs: string[],
  options: ProfileOptions,
  onProgress: OnProfileProgress = () => {},
): Promise<ProfileResult> {
  if (options.saveOutputs) await checkOutputFolder(options.saveOutputs);
  const runDir = await withFileErrors('run', 'create a run folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-dace-')));
  try {
    const { plan, built, folders, warnings } = await planDaceFolders(dirs, runDir, options, onProgress);
    const result = await runVerifyAssemble(plan, built, folders[0]!.sdfgPath, { ...options, layout: 'dace' }, onProgress);
    return { ...result, warnings: [...warnings, ...result.warnings] };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/**
 * DaCe's GPU builds are refused on every machine, with or without a GPU: their libraries need the CUDA runtime and
 * a device, and Transient Lab cannot re-target DaCe's nvcc-compiled code to its host backend (`--gpu host`
 * emulates the code our generator writes from an SDFG, docs/gpu-host.md). What the user can do instead is said.
 */
function refuseGpuBuild(folder: DaceFolder): never {
  const why = folder.gpuSources.length ? `it holds DaCe's CUDA code (${folder.gpuSources.join(', ')})` : 'its SDFG runs on the GPU';
  throw new TlabError(
    'unsupported',
    `a GPU DaCe build: ${why}. Profiling DaCe-built GPU libraries is not supported yet, on any machine (CPU builds only); --gpu host cannot run DaCe's own CUDA code. To see this program's transients emulated on this machine, profile the SDFG DaCe saved with our generator: transient-lab profile ${folder.sdfgPath} --gpu host`,
    { file: folder.dir },
  );
}
