/**
 * Compiles one GeneratedProgram into a shared library, through a content-addressed cache.
 *
 * Flags: C++20 and DaCe's default CPU flags (see DACE_CXXFLAGS), which the caller may replace. A GPU program
 * (`program.gpu`, a CUDA translation unit) is compiled by nvcc instead, with DACE_CUDAFLAGS (docs/build.md).
 *
 * Cache entry: `<cacheRoot>/libs/<key>/{program.cpp, program.so, entry.json}` where key =
 * sha256(source, compiler version line (nvcc's: its release and its host compiler), flags, the host CPU when a
 * flag says `native`, the runtime headers' bytes). An entry is only trusted when
 * entry.json names the same key and the library's size and sha256: a half-written or truncated library
 * (a crash mid-copy, a full disk, someone editing the cache) is rebuilt, never loaded. Entries are built in
 * a private temporary folder and renamed into place, so readers never see a partial entry.
 *
 * The library handed to the runner is always a fresh copy under the caller's run folder: dlopen caches by
 * path, so two builds must never share one.
 */
import { makeDirectory } from '../files.js';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { arch, cpus } from 'node:os';
import type { GeneratedProgram } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { copyFileAtomic, writeFileAtomic } from '../io/atomic-write.js';
import { FileError, withFileErrors } from '../io/fs-errors.js';
import { nativeDir } from '../paths.js';
import { cacheRoot } from './cache-dir.js';
import { findCompiler, findNvcc, probeOpenMP, runProcess, type CompilerInfo } from './compiler.js';
import { libraryLinkFlags } from '../sdfg/expand/libraries.js';
import { missingLibraryError } from './missing-library.js';

const RUNTIME_HEADER = 'transient_runtime.h';
const STREAM_HEADER = 'transient_stream.h';
/** Every generated program includes it (the complex types); part of the cache key like the runtime header. */
const COMPLEX_HEADER = 'transient_complex.h';
const CACHE_HINT = ['the build cache can be moved: set TRANSIENT_LAB_CACHE (or XDG_CACHE_HOME) to a folder with room'];
const ENTRY_FORMAT = 1;

/**
 * DaCe's default optimisation flags for CPU code: `compiler.build_type` Release's -O3 plus
 * `compiler.cpu.args` without its warning switches (dace/config_schema.yml). DaCe builds as C++20
 * (`compiler.cpp_standard`) and always links OpenMP.
 */
export const DACE_CXXFLAGS: readonly string[] = [
  '-O3',
  '-march=native',
  '-fno-math-errno',
  '-fno-trapping-math',
  '-fno-signed-zeros',
  '-freciprocal-math',
];

/** What every build needs whatever the user's flags: the standard first, so that a user's -std=… wins. */
const STANDARD = '-std=c++20';
const LIBRARY_FLAGS = ['-shared', '-fPIC', '-fdiagnostics-color=never'];

/**
 * GPU programs (CUDA translation units, docs/gpu.md) are compiled by nvcc. Defaults: DaCe's
 * `compiler.cuda.args` without its warning switch (`-Xcompiler -march=native --use_fast_math`) and the Release
 * build type's -O3. `--cxxflags` replaces these as it replaces DACE_CXXFLAGS on the CPU.
 */
export const DACE_CUDAFLAGS: readonly string[] = ['-O3', '-Xcompiler=-march=native', '--use_fast_math'];
/**
 * The GPU architecture when the flags name none. DaCe's own default (`compiler.cuda.cuda_arch` 60) is below
 * what CUDA 13 supports; sm_80 also embeds compute_80 PTX, so the library loads on any newer device (the driver
 * compiles the PTX once, at first load). `--cxxflags "… -arch=sm_90"` builds for one device exactly.
 */
export const DEFAULT_CUDA_ARCH = 'sm_80';
const CUDA_STANDARD = '-std=c++17';
/** Kernel bodies are `__device__` lambdas; DaCe links the shared CUDA runtime. */
const CUDA_LIBRARY_FLAGS = ['--extended-lambda', '--expt-relaxed-constexpr', '-shared', '-Xcompiler=-fPIC', '-cudart=shared'];
const CUDA_HEADER = 'transient_cuda_runtime.h';
/** `--gpu host` (docs/gpu-host.md): the same CUDA translation unit compiled by the C++ compiler as C++17 against
 * the host CUDA runtime, with OpenMP for the blocks of a kernel. The runtime is split by concern over several
 * headers (transient_cuda_host_runtime.h includes the others): each is part of the cache key. */
const CUDA_HOST_HEADERS = [
  'transient_cuda_host_runtime.h',
  'transient_cuda_host_regions.h',
  'transient_cuda_host_memory.h',
  'transient_cuda_host_streams.h',
  'transient_cuda_host_kernels.h',
  'transient_cuda_host_device.h',
];
const CUDA_HOST_FLAGS = ['-std=c++17', '-DTLAB_CUDA_HOST'];
const ARCH_FLAG = /^(-arch|--gpu-architecture|-gencode|--generate-code|-code|--gpu-code)(=|$)/;

/** Flags that would change what the compiler produces or where: the build stage owns these. */
const RESERVED = /^-(o|c|S|E|M|MM|MD|MMD|x|shared|fPIC|fpic|-shared|cudart|-cudart|cudart=.*|-cudart=.*|ccbin|-compiler-bindir)$/;

/**
 * Checks user compiler flags: each must be one option (starting with '-', no white space), and none may
 * take over the build's own output options. Returns the flags, or throws TlabError('usage').
 */
function checkCxxflags(flags: readonly string[], what = '--cxxflags'): string[] {
  for (const f of flags) {
    if (!f.startsWith('-') || /\s/.test(f) || f.length < 2) {
      throw new TlabError(
        'usage',
        `${what}: '${f}' is not a compiler option (every flag starts with '-'; write -Dname=value, -Ipath as one word)`,
      );
    }
    if (RESERVED.test(f)) throw new TlabError('usage', `${what}: ${f} is set by the build itself and cannot be changed`);
  }
  return [...flags];
}

/** Splits a flag string as a shell would split words without quotes (`"-O2 -march=znver3"`). */
export function parseCxxflags(text: string, what = '--cxxflags'): string[] {
  return checkCxxflags(text.split(/\s+/).filter(Boolean), what);
}

let hostCpu: string | null = null;

/** What `-march=native` means on this machine: the CPU model and its feature flags. */
async function nativeTarget(): Promise<string> {
  if (hostCpu === null) {
    let features = '';
    try {
      const info = await readFile('/proc/cpuinfo', 'utf8');
      features = /^flags\s*:(.*)$/m.exec(info)?.[1]?.trim() ?? '';
    } catch {
      // No /proc (macOS): the model name alone.
    }
    hostCpu = `${cpus()[0]?.model ?? 'unknown cpu'} ${arch()} ${features}`;
  }
  return hostCpu;
}

export interface BuildOptions {
  /** Folder that receives the per-build copy of the library (one folder per profile run). */
  runDir: string;
  /** The SDFG file the program came from, for error messages. */
  sdfgFile?: string;
  /** Folder holding transient_runtime.h; defaults to the package's native/include. */
  includeDir?: string;
  /** Short label for file names and messages, e.g. `EXTERNAL-packed`. Defaults to mode(-layout). */
  label?: string;
  /** Compiler time limit (default 10 minutes): a runaway compile must not hang a profile. */
  timeoutMs?: number;
  /** Optimisation and target flags; default DACE_CXXFLAGS. The standard, -shared/-fPIC and -fopenmp are
   * the build's own. */
  cxxflags?: readonly string[];
  /** GPU programs: `device` (nvcc, default) or `host` (the C++ compiler and the host CUDA runtime). */
  gpuBackend?: GpuBackend;
}

/** Where a GPU program runs: on a CUDA device, or emulated on the host CPU (`--gpu host`). */
export type GpuBackend = 'device' | 'host';

export interface BuildResult {
  /** `cpp` (the C++ compiler), `cuda` (nvcc) or `cuda-host` (a GPU program compiled by the C++ compiler
   * against the host CUDA runtime, `--gpu host`). */
  language?: 'cpp' | 'cuda' | 'cuda-host';
  /** A path no other build shares (dlopen caches by path). */
  libPath: string;
  cached: boolean;
  /** Wall time of this build step (cache lookup + compile or copy). */
  ms: number;
  key: string;
  compiler: CompilerInfo;
  /** Whether -fopenmp was used. */
  openmp: boolean;
  /** Every flag the compiler got, in order (without -I, -o and the source). */
  flags: string[];
  /** The optimisation and target part of `flags`: DACE_CXXFLAGS (DACE_CUDAFLAGS for nvcc) or the caller's. */
  cxxflags: string[];
  /** Cache entry folder (holds program.cpp for inspection). */
  entryDir: string;
  warnings: string[];
}

interface EntryRecord {
  format: number;
  key: string;
  libBytes: number;
  libSha256: string;
  compiler: string;
  flags: string[];
}

let copyCounter = 0;

function defaultIncludeDir(): string {
  return resolve(nativeDir(), 'include');
}

export function libsDir(): string {
  return join(cacheRoot(), 'libs');
}

export async function buildProgram(program: GeneratedProgram, opts: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const label = opts.label ?? (program.mode === 'EXTERNAL' ? `${program.mode}-${program.layout}` : program.mode);
  const includeDir = opts.includeDir ?? defaultIncludeDir();
  const gpuHost = program.gpu?.language === 'cuda' && opts.gpuBackend === 'host';
  const cuda = program.gpu?.language === 'cuda' && !gpuHost;
  const headers: Buffer[] = [];
  const headerNames = [RUNTIME_HEADER, COMPLEX_HEADER, ...(cuda ? [CUDA_HEADER] : gpuHost ? [CUDA_HEADER, ...CUDA_HOST_HEADERS] : [])];
  // Programs with streams include the stream runtime (codegen/streams.ts): its text is part of their cache key.
  if (program.source.includes(`#include "${STREAM_HEADER}"`)) headerNames.push(STREAM_HEADER);
  for (const name of headerNames) {
    const headerPath = join(includeDir, name);
    try {
      headers.push(await readFile(headerPath));
    } catch (cause) {
      throw new TlabError(
        'build',
        `the runtime header ${headerPath} is missing: the native part of Transient Lab is not installed (run npm run build)`,
        { cause },
      );
    }
  }
  const compiler = cuda ? await findNvcc() : await findCompiler();
  const warnings: string[] = [];
  let openmp = false;
  // The host runtime runs a kernel's blocks on OpenMP threads.
  if (program.usesOpenMP || gpuHost) {
    // nvcc hands host code to g++ (compiler.ts): probe that one for a GPU program.
    const host = cuda ? { command: ['g++'], name: 'g++', version: '', versionLine: compiler.versionLine } : compiler;
    openmp = await probeOpenMP(host);
    if (!openmp)
      warnings.push(
        `${host.name}${host.version ? ` ${host.version}` : ''} cannot compile with -fopenmp: ${label} runs its parallel maps sequentially`,
      );
  }
  const cxxflags = checkCxxflags(opts.cxxflags ?? (cuda ? DACE_CUDAFLAGS : DACE_CXXFLAGS));
  const flags = cuda
    ? [
        CUDA_STANDARD,
        ...cxxflags,
        ...(cxxflags.some((f) => ARCH_FLAG.test(f)) ? [] : [`-arch=${DEFAULT_CUDA_ARCH}`]),
        ...CUDA_LIBRARY_FLAGS,
        ...(openmp ? ['-Xcompiler=-fopenmp', '-lgomp'] : []),
      ]
    : [...(gpuHost ? CUDA_HOST_FLAGS : [STANDARD]), ...cxxflags, ...LIBRARY_FLAGS, ...(openmp ? ['-fopenmp'] : [])];
  // `-march=native` builds for this CPU: a cache shared by machines of different CPUs (an HPC home folder
  // seen from login and compute nodes) must not hand one machine's library to another.
  const native = flags.some((f) => /=native$/.test(f)) ? await nativeTarget() : '';
  // After the source: a linker that drops libraries not needed so far would drop them before it.
  const links = libraryLinkFlags(program.libraries);
  const hash = createHash('sha256')
    .update(program.source)
    .update('\0')
    .update(compiler.versionLine)
    .update('\0')
    .update(flags.join(' '))
    .update('\0')
    .update(links.join(' '))
    .update('\0')
    .update(native);
  for (const h of headers) hash.update('\0').update(h);
  const key = hash.digest('hex');

  const entryDir = join(libsDir(), key);
  let cached = await isValidEntry(entryDir, key);
  if (!cached) await compileEntry(program, { key, entryDir, compiler, flags, links, includeDir, label, opts, cuda });

  await withFileErrors('build', 'create the run folder', opts.runDir, () => makeDirectory(opts.runDir));
  const libPath = join(opts.runDir, `${label}-${key.slice(0, 12)}-${process.pid}-${++copyCounter}.so`);
  await copyFileAtomic(join(entryDir, 'program.so'), libPath, { kind: 'build' });
  // A valid entry may still vanish between the check and the copy (another process pruning the cache):
  // only claim a hit for what was actually verified.
  cached = cached && existsSync(libPath);
  return {
    language: cuda ? 'cuda' : gpuHost ? 'cuda-host' : 'cpp',
    libPath,
    cached,
    ms: performance.now() - started,
    key,
    compiler,
    openmp,
    flags,
    cxxflags,
    entryDir,
    warnings,
  };
}

/** Whether the entry is complete and matches its record (size, sha256, ELF magic). */
async function isValidEntry(entryDir: string, key: string): Promise<boolean> {
  try {
    const rec = JSON.parse(await readFile(join(entryDir, 'entry.json'), 'utf8')) as Partial<EntryRecord>;
    if (rec.format !== ENTRY_FORMAT || rec.key !== key) return false;
    const lib = await readFile(join(entryDir, 'program.so'));
    if (lib.length !== rec.libBytes || lib.length < 4) return false;
    if (lib[0] !== 0x7f || lib[1] !== 0x45 || lib[2] !== 0x4c || lib[3] !== 0x46) return false;
    return createHash('sha256').update(lib).digest('hex') === rec.libSha256;
  } catch {
    return false;
  }
}

async function compileEntry(
  program: GeneratedProgram,
  ctx: {
    key: string;
    entryDir: string;
    compiler: CompilerInfo;
    flags: string[];
    links: string[];
    includeDir: string;
    label: string;
    opts: BuildOptions;
    /** nvcc compiles it (a `.cu` file); false for CPU programs and for GPU programs built for the host. */
    cuda: boolean;
  },
): Promise<void> {
  const root = libsDir();
  await withFileErrors('build', 'create the build cache folder', root, () => makeDirectory(root), [
    'set TRANSIENT_LAB_CACHE (or XDG_CACHE_HOME) to a writable folder',
  ]);
  const work = join(root, `.tmp-${ctx.key.slice(0, 16)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await withFileErrors('build', 'create the folder', work, () => mkdir(work), CACHE_HINT);
  try {
    const src = join(work, sourceName(ctx.cuda));
    const lib = join(work, 'program.so');
    await writeFileAtomic(src, program.source, { kind: 'build', details: CACHE_HINT });
    const argv = [...ctx.compiler.command, ...ctx.flags, '-I', ctx.includeDir, '-o', lib, src, ...ctx.links];
    const res = await runProcess(argv, { cwd: work, timeoutMs: ctx.opts.timeoutMs ?? 600_000 });
    if (res.code !== 0 || res.signal) {
      const missing = missingLibraryError(program, `${res.stderr}\n${res.stdout}`, ctx.opts.sdfgFile ?? null);
      if (missing) throw missing;
      const keptSource = join(await keepFailedSource(root, ctx.key, work), sourceName(ctx.cuda));
      throw compileError(program, res, { ...ctx, keptSource });
    }
    const bytes = await withFileErrors('build', 'read', lib, () => readFile(lib));
    const record: EntryRecord = {
      format: ENTRY_FORMAT,
      key: ctx.key,
      libBytes: bytes.length,
      libSha256: createHash('sha256').update(bytes).digest('hex'),
      compiler: ctx.compiler.versionLine,
      flags: ctx.flags,
    };
    await writeFileAtomic(join(work, 'entry.json'), JSON.stringify(record, null, 2), { kind: 'build', details: CACHE_HINT });
    await rm(ctx.entryDir, { recursive: true, force: true });
    try {
      await rename(work, ctx.entryDir);
    } catch (err) {
      // Another process finished the same key first: keep theirs if it is sound.
      if (!(await isValidEntry(ctx.entryDir, ctx.key)))
        throw new FileError('build', 'move the built library into', ctx.entryDir, err, { details: CACHE_HINT });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function keepFailedSource(root: string, key: string, work: string): Promise<string> {
  const dir = join(root, 'failed', key);
  await rm(dir, { recursive: true, force: true });
  await withFileErrors('build', 'keep the failed source in', dir, async () => {
    await makeDirectory(join(root, 'failed'));
    await rename(work, dir);
  });
  return dir;
}

interface Diagnostic {
  line: number;
  column: number;
  severity: string;
  message: string;
}

const DIAGNOSTIC = /^(.*?):(\d+):(\d+): (fatal error|error): (.*)$/;
/** nvcc's front end: `program.cu(12): error: …` (the column is not given). */
const NVCC_DIAGNOSTIC = /^(.*?)\((\d+)\): (catastrophic error|error): (.*)$/;

/** The generated source's name in a cache entry: program.cpp, or program.cu for a CUDA translation unit. */
function sourceName(cuda: boolean): string {
  return cuda ? 'program.cu' : 'program.cpp';
}

function parseDiagnostic(text: string, source: string): Diagnostic | null {
  const m = DIAGNOSTIC.exec(text);
  if (m && basename(m[1]!) === source) return { line: Number(m[2]), column: Number(m[3]), severity: m[4]!, message: m[5]! };
  const n = NVCC_DIAGNOSTIC.exec(text);
  if (n && basename(n[1]!) === source) return { line: Number(n[2]), column: 0, severity: n[3]!, message: n[4]! };
  return null;
}
const MAX_DIAGNOSTICS = 5;

/** The compiler's first errors, each with the generated line it points at and the SDFG element behind it. */
function compileError(
  program: GeneratedProgram,
  res: Awaited<ReturnType<typeof runProcess>>,
  ctx: { compiler: CompilerInfo; label: string; keptSource: string; opts: BuildOptions; cuda: boolean },
): TlabError {
  const compilerName = `${ctx.compiler.name}${ctx.compiler.version ? ` ${ctx.compiler.version}` : ''}`;
  if (res.error) {
    return new TlabError('build', `could not run ${compilerName} for ${ctx.label}: ${res.error.message}`, {
      file: ctx.opts.sdfgFile ?? null,
      details: [`generated source kept at ${ctx.keptSource}`],
    });
  }
  if (res.signal) {
    return new TlabError('build', `${compilerName} was killed (${res.signal}) while compiling ${ctx.label}: compile time limit exceeded?`, {
      file: ctx.opts.sdfgFile ?? null,
      details: [`generated source kept at ${ctx.keptSource}`],
    });
  }
  const sourceLines = program.source.split('\n');
  const source = sourceName(ctx.cuda);
  const diagnostics: Diagnostic[] = [];
  for (const text of `${res.stderr}\n${res.stdout}`.split('\n')) {
    const d = parseDiagnostic(text, source);
    if (!d) continue;
    diagnostics.push(d);
    if (diagnostics.length >= MAX_DIAGNOSTICS) break;
  }
  const details: string[] = [];
  let firstOrigin: string | null = null;
  for (const d of diagnostics) {
    details.push(`${source}:${d.line}${d.column ? `:${d.column}` : ''}: ${d.severity}: ${d.message}`);
    const text = sourceLines[d.line - 1];
    if (text !== undefined) details.push(`    ${d.line} | ${text.trimEnd()}`);
    const origin = originOf(program.lineOrigins, d.line);
    if (origin) {
      details.push(`    generated from SDFG element ${origin}`);
      firstOrigin ??= origin;
    }
  }
  if (!diagnostics.length) {
    // Linker errors and unusual formats: show the compiler's own first lines rather than nothing.
    details.push(
      ...res.stderr
        .split('\n')
        .filter((l) => l.trim())
        .slice(0, 20),
    );
  }
  details.push(`generated source kept at ${ctx.keptSource}`);
  const count = `${res.stderr}\n${res.stdout}`.split('\n').filter((l) => parseDiagnostic(l, source)).length;
  return new TlabError(
    'build',
    `${compilerName} failed to compile the generated ${ctx.label} program ${program.name} (${count || 'no parsable'} error${count === 1 ? '' : 's'}, exit ${res.code})`,
    { file: ctx.opts.sdfgFile ?? null, jsonPath: firstOrigin, details },
  );
}

/** The origin of `line`, or of the closest line above it that has one (a statement spans lines). */
function originOf(origins: Map<number, string>, line: number): string | null {
  for (let l = line; l >= 1 && line - l < 50; l--) {
    const o = origins.get(l);
    if (o) return o;
  }
  return null;
}
