/**
 * Build without running, run without building (docs/build.md).
 *
 *   buildFolder      plan → generate → compile every requested variant into DIR, with its source beside it,
 *                    a copy of the SDFG and manifest.json (transient-lab/build@1). Nothing runs.
 *   profilePrebuilt  reads such a folder back, checks that the libraries are the ones this Transient Lab would
 *                    build for that SDFG (same version, same generated source, same library bytes), then runs
 *                    the usual profile steps (rounds → verify → assemble) on them. No compiler is needed.
 *
 * Both are hosts of the profile steps (plan.ts, build-variants.ts, rounds.ts, verify.ts, assemble.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Mode } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import type { BuildResult } from '../compile/index.js';
import { TlabError } from '../errors.js';
import { copyFileAtomic, writeFileAtomic } from '../io/atomic-write.js';
import { fsCause, withFileErrors } from '../io/fs-errors.js';
import { jsonInteger } from '../json.js';
import { buildVariants, fileLabel, type BuiltVariant, type ProgramBuilder } from './build-variants.js';
import { profileDevice, requireDevice, type DeviceProbe } from './device.js';
import { BUILD_SCHEMA, MANIFEST_FILE, parseManifest, toolVersion, type BuildManifest, type ManifestVariant } from './manifest.js';
import type { OnProfileProgress, ProfileOptions } from './options.js';
import { checkOutputFolder } from './outputs.js';
import { planProfile, type ProfilePlan } from './plan.js';
import { runVerifyAssemble } from './profile.js';
import type { LayoutChoice, ProfileResult } from './result.js';
import { throwIfCancelled } from './runner-host.js';
import { libraryImplText, parseLibraryImpl, type LibraryImplChoice } from '../sdfg/expand/impl.js';

export interface BuildFolderOptions {
  modes: Mode[];
  layout: LayoutChoice;
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  outDir: string;
  /** Compiler optimisation flags instead of DaCe's defaults (ProfileOptions.cxxflags). */
  cxxflags?: readonly string[] | null;
  /** GPU programs: the pool release threshold set in init (null: DaCe's UINT64_MAX). */
  poolReleaseThreshold?: bigint | null;
  /** Which implementation expands each library node (ProfileOptions.libraryImpl); recorded in the manifest. */
  libraryImpl?: LibraryImplChoice;
  signal?: AbortSignal;
  /** The compiler driver; tests pass a fake one. */
  build?: ProgramBuilder;
}

export interface BuildFolderResult {
  manifest: BuildManifest;
  manifestPath: string;
}

const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Generates and compiles every requested variant into `outDir`; runs nothing. */
export async function buildFolder(
  filePath: string,
  opts: BuildFolderOptions,
  onProgress: OnProfileProgress = () => {},
): Promise<BuildFolderResult> {
  const plan = await planProfile(filePath, { ...opts, calls: 1 }, onProgress);
  const outDir = resolve(opts.outDir);
  await mkdir(outDir, { recursive: true }).catch((cause: unknown) => {
    // mkdir says EEXIST when a file sits where the folder should be.
    const why = (cause as NodeJS.ErrnoException).code === 'EEXIST' ? 'it exists and is not a folder' : fsCause(cause);
    throw new TlabError('usage', `cannot create --out ${opts.outDir}: ${why}`, { cause });
  });
  const scratch = await withFileErrors('build', 'create a folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-build-')));
  try {
    const built = await buildVariants(plan.variants, {
      runDir: scratch,
      sdfgFile: filePath,
      signal: opts.signal,
      onProgress,
      build: opts.build,
      cxxflags: opts.cxxflags,
    });
    // Under its own name: the generated source names the file it came from, and must come out the same when
    // `profile --prebuilt` generates it again from the copy.
    const sdfgCopy = basename(filePath);
    await copyFileAtomic(filePath, join(outDir, sdfgCopy));
    const variants: ManifestVariant[] = [];
    for (const v of built) {
      throwIfCancelled(opts.signal);
      const name = fileLabel(v.label);
      const library = `${name}.so`;
      const source = `${name}.${plan.analysis.target === 'gpu' ? 'cu' : 'cpp'}`;
      await copyFileAtomic(v.build.libPath, join(outDir, library));
      await writeFileAtomic(join(outDir, source), v.program.source);
      variants.push({
        mode: v.mode,
        layout: v.layout,
        label: v.label,
        target: plan.analysis.target,
        library,
        source,
        librarySha256: sha256(await withFileErrors('usage', 'read', join(outDir, library), () => readFile(join(outDir, library)))),
        sourceSha256: sha256(v.program.source),
        workspaceBytes: Object.fromEntries(v.program.externals.map((e) => [e.storage, jsonInteger(e.bytes)])),
        compiler: { name: v.build.compiler.name, version: v.build.compiler.version, versionLine: v.build.compiler.versionLine },
        flags: v.build.flags,
        cxxflags: v.build.cxxflags,
        openmp: v.build.openmp,
      });
    }
    const gpuInfo = built.find((v) => v.program.gpu)?.program.gpu ?? null;
    const manifest: BuildManifest = {
      schema: BUILD_SCHEMA,
      tool: { name: 'transient-lab', version: toolVersion() },
      sdfg: { name: plan.name, file: sdfgCopy, sha256: plan.fileHash, original: resolve(filePath) },
      target: plan.analysis.target,
      symbols: Object.fromEntries(Object.entries(plan.symbols).map(([k, v]) => [k, jsonInteger(v)])),
      createdAt: new Date().toISOString(),
      ...(gpuInfo ? { poolReleaseThreshold: gpuInfo.poolReleaseThreshold.toString() } : {}),
      ...(libraryImplText(plan.analysis.libraryImpl) === 'pure' ? {} : { libraryImpl: libraryImplText(plan.analysis.libraryImpl) }),
      variants,
    };
    const manifestPath = join(outDir, MANIFEST_FILE);
    await writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    return { manifest, manifestPath };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Reads and checks `DIR/manifest.json`. */
export async function readManifest(dir: string): Promise<BuildManifest> {
  const file = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new TlabError(
      'input',
      missing ? `no ${MANIFEST_FILE} here: not a folder written by \`transient-lab build\`` : `cannot read: ${fsCause(cause)}`,
      {
        file: missing ? dir : file,
        cause,
      },
    );
  }
  return parseManifest(text, file);
}

/** A build folder, read and checked: built by this version, its SDFG copy unchanged since. */
interface OpenedPrebuilt {
  manifest: BuildManifest;
  manifestPath: string;
  /** The folder's copy of the SDFG (code generated from it names it as the build did). */
  sdfgPath: string;
}

export async function openPrebuilt(dir: string): Promise<OpenedPrebuilt> {
  const manifest = await readManifest(dir);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (manifest.tool.version !== toolVersion()) {
    throw new TlabError(
      'input',
      `built by Transient Lab ${manifest.tool.version}, this is ${toolVersion()}: rebuild the folder with this version (transient-lab build)`,
      {
        file: manifestPath,
        jsonPath: '$.tool.version',
      },
    );
  }
  const sdfgPath = join(dir, manifest.sdfg.file);
  const sdfgBytes = await readFile(sdfgPath).catch((cause: unknown) => {
    throw new TlabError('input', `the SDFG the folder was built from is missing: ${(cause as Error).message}`, {
      file: manifestPath,
      jsonPath: '$.sdfg.file',
      cause,
    });
  });
  if (sha256(sdfgBytes) !== manifest.sdfg.sha256) {
    throw new TlabError('input', `${manifest.sdfg.file} changed after the build (its sha256 differs from the manifest's)`, {
      file: manifestPath,
      jsonPath: '$.sdfg.sha256',
    });
  }
  return { manifest, manifestPath, sdfgPath };
}

/**
 * The folder's library of `manifest.variants[index]`, checked against `source` (what this Transient Lab
 * generates for it now) and copied to `libPath` (dlopen caches by path).
 */
export async function prebuiltLibrary(
  dir: string,
  manifest: BuildManifest,
  index: number,
  source: string,
  libPath: string,
): Promise<BuildResult> {
  const manifestPath = join(dir, MANIFEST_FILE);
  const v = manifest.variants[index]!;
  const at = `$.variants[${index}]`;
  if (sha256(source) !== v.sourceSha256) {
    throw new TlabError(
      'input',
      `${v.label}: this Transient Lab generates different code for the folder's SDFG and symbols than the library was built from; rebuild the folder`,
      {
        file: manifestPath,
        jsonPath: `${at}.sourceSha256`,
      },
    );
  }
  const libFile = join(dir, v.library);
  const lib = await readFile(libFile).catch((cause: unknown) => {
    throw new TlabError('input', `${v.label}: library ${v.library} is missing: ${(cause as Error).message}`, {
      file: manifestPath,
      jsonPath: `${at}.library`,
      cause,
    });
  });
  if (sha256(lib) !== v.librarySha256) {
    throw new TlabError('input', `${v.label}: library ${v.library} changed after the build (its sha256 differs from the manifest's)`, {
      file: manifestPath,
      jsonPath: `${at}.librarySha256`,
    });
  }
  await writeFileAtomic(libPath, lib, { kind: 'run' });
  return {
    libPath,
    cached: true,
    ms: 0,
    // Same source, compiler and flags → same key, as buildProgram's cache key (POOL = SCOPED is noted).
    key: sha256(`${v.sourceSha256}\0${v.compiler.versionLine}\0${v.flags.join(' ')}`),
    compiler: { command: [], name: v.compiler.name, version: v.compiler.version, versionLine: v.compiler.versionLine },
    openmp: v.openmp,
    flags: v.flags,
    cxxflags: v.cxxflags,
    entryDir: dir,
    warnings: [],
  };
}

interface PrebuiltPlan {
  manifest: BuildManifest;
  manifestPath: string;
  plan: ProfilePlan;
  /** The folder's libraries, copied under `runDir` (dlopen caches by path). */
  built: BuiltVariant[];
}

/**
 * Plans the folder's SDFG again with the manifest's symbols and checks every library against it. `modes`
 * (optional) selects a subset of the folder's variants.
 */
async function planPrebuilt(
  dir: string,
  runDir: string,
  opts: { modes?: Mode[] | null; signal?: AbortSignal; devices?: DeviceProbe },
  onProgress: OnProfileProgress = () => {},
): Promise<PrebuiltPlan> {
  const { manifest, manifestPath, sdfgPath } = await openPrebuilt(dir);
  let chosen = manifest.variants.map((v, index) => ({ v, index }));
  if (opts.modes?.length) {
    const missing = opts.modes.filter((m) => !manifest.variants.some((v) => v.mode === m));
    if (missing.length) {
      throw new TlabError(
        'usage',
        `the folder has no ${missing.join(', ')} build (it holds ${manifest.variants.map((v) => v.label).join(', ')})`,
        { file: manifestPath, jsonPath: '$.variants' },
      );
    }
    chosen = chosen.filter(({ v }) => opts.modes!.includes(v.mode));
  }
  // A GPU folder on a machine without a device: refuse before reading anything else.
  let device: ReturnType<typeof profileDevice> | undefined;
  if (manifest.target === 'gpu' && opts.devices) {
    const report = await opts.devices();
    device = profileDevice(report, requireDevice(report, manifestPath));
  }
  const modes = [...new Set(chosen.map(({ v }) => v.mode))];
  const layouts = new Set(chosen.map(({ v }) => v.layout).filter((l): l is Layout => l !== null));
  const layout: LayoutChoice = layouts.size === 2 ? 'both' : ([...layouts][0] ?? 'packed');
  const symbols = new Map(Object.entries(manifest.symbols).map(([k, v]) => [k, BigInt(v)]));
  const poolReleaseThreshold = manifest.poolReleaseThreshold === undefined ? null : BigInt(manifest.poolReleaseThreshold);
  const planned = await planProfile(
    sdfgPath,
    {
      modes,
      layout,
      calls: 1,
      symbols,
      defaultSymbol: null,
      signal: opts.signal,
      poolReleaseThreshold,
      ...(manifest.libraryImpl === undefined ? {} : { libraryImpl: parseLibraryImpl(manifest.libraryImpl) }),
    },
    onProgress,
  );
  const plan: ProfilePlan = device ? { ...planned, device } : planned;

  const built: BuiltVariant[] = [];
  for (const pv of plan.variants) {
    const { index } = chosen.find(({ v }) => v.mode === pv.mode && v.layout === pv.layout)!;
    const libPath = join(runDir, `${fileLabel(manifest.variants[index]!.label)}-${process.pid}.so`);
    built.push({ ...pv, build: await prebuiltLibrary(dir, manifest, index, pv.program.source, libPath) });
  }
  return { manifest, manifestPath, plan, built };
}

/** `profile --prebuilt DIR`: the profile steps after build, on the folder's libraries. */
export async function profilePrebuilt(
  dir: string,
  options: ProfileOptions,
  onProgress: OnProfileProgress = () => {},
): Promise<ProfileResult> {
  // As profile(): an output folder that cannot be written stops the run before it starts.
  if (options.saveOutputs) await checkOutputFolder(options.saveOutputs);
  if (options.poolReleaseThreshold !== undefined && options.poolReleaseThreshold !== null) {
    throw new TlabError(
      'usage',
      '--pool-release-threshold cannot be used with --prebuilt: the folder was built with a fixed one (its manifest.json poolReleaseThreshold); rebuild it with transient-lab build --pool-release-threshold',
      { file: dir },
    );
  }
  const runDir = await withFileErrors('run', 'create a run folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-run-')));
  try {
    const { plan, built, manifest } = await planPrebuilt(
      dir,
      runDir,
      { modes: options.modes, signal: options.signal, devices: options.devices },
      onProgress,
    );
    const sdfgFile = join(dir, manifest.sdfg.file);
    const layout =
      plan.variants.some((v) => v.layout === 'dace') && plan.variants.some((v) => v.layout === 'packed')
        ? 'both'
        : (plan.variants.find((v) => v.layout)?.layout ?? options.layout);
    return await runVerifyAssemble(plan, built, sdfgFile, { ...options, layout }, onProgress);
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}
