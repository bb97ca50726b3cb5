/**
 * A whole profile run: parse → analyse → check the supported subset → generate and build every requested
 * mode (and layout) → one runner job that verifies and times them all → cross-mode comparison → result.
 * Generated code only ever runs in the runner child (electron/runner), never in this process.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, release, tmpdir, type as osType, arch } from 'node:os';
import { basename, join } from 'node:path';
import { MODES, type Analysis, type Mode } from '../analysis/types.js';
import { analyze } from '../analysis/index.js';
import { findUnsupported, generateProgram } from '../codegen/index.js';
import type { GeneratedProgram, Layout, ProgramArg, UnsupportedFinding } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { readSdfgFile } from '../sdfg/index.js';
import { neverWrittenTransients } from '../model/queries.js';
import { buildProgram, type BuildResult } from '../build/index.js';
import { findCompiler } from '../build/compiler.js';
import { NodeRunnerHost, RunCancelled } from '../../runner/host-node.js';
import { variantLabel, type RunnerHost, type RunnerProgress, type RunJob, type VariantJob, type VariantResult } from '../../runner/messages.js';
import { GUARD_BYTE, GUARD_BYTES, POISON, verify } from './verify.js';
import { gatherCOrder, prepareInputs } from './inputs.js';
import { checkRunFits } from './memory.js';
import { checkOutputFolder, saveOutputs } from './outputs.js';
import { jsonInteger, PROFILE_SCHEMA, type LayoutChoice, type ModeResult, type ProfileResult } from './result.js';
import { summarize } from './stats.js';

export interface ProfileOptions {
  modes: Mode[];
  layout: LayoutChoice;
  calls: number;
  warmup: number;
  /** Fresh runner processes per mode; `calls` are timed in each and pooled. */
  processes: number;
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  seed: bigint;
  /** `--input NAME=F.npy`. */
  inputs: Map<string, string>;
  /** `--save-outputs DIR`, or null. */
  saveOutputs: string | null;
  /** Runner job limit in ms (0 = none). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** For tests and embedding hosts: another runner entry script. */
  runnerEntry?: string;
  /** The process host that runs each job (Electron passes its utilityProcess host); default: a Node child. */
  runner?: RunnerHost;
}

export type ProfileStage = 'parse' | 'analyse' | 'generate' | 'build' | 'verify' | 'calls' | 'compare';

export interface ProfileProgress {
  stage: ProfileStage;
  message: string;
  done?: number;
  total?: number;
}

export const DEFAULT_PROFILE_OPTIONS: Omit<ProfileOptions, 'signal' | 'runnerEntry' | 'runner'> = {
  modes: [...MODES],
  layout: 'packed',
  calls: 100,
  warmup: 5,
  processes: 3,
  symbols: new Map(),
  defaultSymbol: null,
  seed: 0n,
  inputs: new Map(),
  saveOutputs: null,
  timeoutMs: 600_000,
};

interface Variant {
  mode: Mode;
  layout: Layout | null;
  label: string;
  program: GeneratedProgram;
  build?: BuildResult;
}

function unsupportedError(file: string, findings: UnsupportedFinding[]): TlabError {
  const first = findings[0]!;
  return new TlabError('unsupported', `${findings.length} element${findings.length === 1 ? '' : 's'} outside the subset Transient Lab can generate code for`, {
    file,
    jsonPath: first.jsonPath,
    details: findings.slice(0, 20).map((f) => `${f.jsonPath}: ${f.element}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`).concat(
      findings.length > 20 ? [`… and ${findings.length - 20} more`] : [],
    ),
  });
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

function sameArgs(a: ProgramArg[], b: ProgramArg[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i]!;
      return x.name === y.name && x.kind === y.kind && x.dtype === y.dtype && x.totalElements === y.totalElements && x.shape.join() === y.shape.join();
    })
  );
}

export async function profile(filePath: string, options: ProfileOptions, onProgress: (p: ProfileProgress) => void = () => {}): Promise<ProfileResult> {
  if (!options.modes.length) throw new TlabError('usage', 'no modes to profile');
  if (options.calls < 1) throw new TlabError('usage', `--calls must be at least 1, got ${options.calls}`);
  if (options.saveOutputs) await checkOutputFolder(options.saveOutputs);
  const checkCancelled = () => {
    if (options.signal?.aborted) throw new RunCancelled('before the run started');
  };

  onProgress({ stage: 'parse', message: `parse ${basename(filePath)}` });
  const fileBytes = await readFile(filePath).catch((cause: unknown) => {
    throw new TlabError('input', `cannot read: ${(cause as Error).message}`, { file: filePath, cause });
  });
  const file = await readSdfgFile(filePath);
  checkCancelled();

  onProgress({ stage: 'analyse', message: 'analyse transients' });
  const analysis: Analysis = analyze(file, { symbols: options.symbols, defaultSymbol: options.defaultSymbol, target: null });
  const findings = findUnsupported(file);
  if (findings.length) throw unsupportedError(filePath, findings);
  if (analysis.target !== 'cpu') {
    throw new TlabError('unsupported', `this is a ${analysis.target.toUpperCase()} program (${analysis.targetReason}); profiling runs CPU programs only`, { file: filePath });
  }
  // Missing symbol values are reported by the generator, which knows which symbols the program needs.
  checkRunFits(file, analysis, { symbols: options.symbols, defaultSymbol: options.defaultSymbol, target: null });

  const variants: Variant[] = [];
  const plan = planVariants(options.modes, options.layout);
  for (const [i, v] of plan.entries()) {
    const label = variantLabel(v.mode, v.layout);
    onProgress({ stage: 'generate', message: `generate ${label}`, done: i + 1, total: plan.length });
    const program = generateProgram(file, analysis, { mode: v.mode, layout: v.layout ?? 'packed' });
    variants.push({ ...v, label, program });
  }
  const reference = variants[0]!.program;
  for (const v of variants) {
    if (!sameArgs(v.program.args, reference.args)) {
      throw new Error(`internal: ${v.label} has different program arguments than ${variants[0]!.label}`);
    }
  }

  const runDir = await mkdtemp(join(tmpdir(), 'tlab-run-'));
  try {
    const warnings = [...analysis.warnings];
    for (const [i, v] of variants.entries()) {
      checkCancelled();
      onProgress({ stage: 'build', message: `build ${v.label}`, done: i + 1, total: variants.length });
      v.build = await buildProgram(v.program, { runDir, sdfgFile: filePath, label: v.label.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '') });
      warnings.push(...v.build.warnings);
    }

    const prepared = await prepareInputs(reference.args, reference.symbols, { seed: options.seed, files: options.inputs });
    const inputs: Record<string, Uint8Array> = {};
    for (const p of prepared) inputs[p.arg.name] = p.bytes;

    const job: RunJob = {
      variants: variants.map((v): VariantJob => ({
        label: v.label,
        mode: v.mode,
        layout: v.layout,
        libPath: v.build!.libPath,
        initSymbols: v.program.initSymbols.map((name) => {
          const value = v.program.symbols[name];
          if (value === undefined) throw new TlabError('usage', `init symbol ${name} has no value: give --symbols ${name}=V`, { file: filePath });
          return value;
        }),
        args: v.program.args,
        transientIds: v.program.transientIds,
        externals: v.program.externals,
      })),
      inputs,
      calls: options.calls,
      warmup: options.warmup,
      chunk: Math.max(1, Math.ceil(options.calls / 20)),
      poison: POISON,
      guardByte: GUARD_BYTE,
      guardBytes: GUARD_BYTES,
    };
    // One fresh runner process per variant: glibc adapts its mmap/trim thresholds to the frees it has seen,
    // so a mode measured after SCOPED in the same process would inherit a heap that no longer faults and
    // look cheaper than it is (measured: SCOPED 11.8k faults per call, the identical POOL code after it 0).
    // Timings taken while other work competes for the cores (OpenMP regions suffer most) can be several times
    // off; say so rather than print confident numbers.
    const busy = busyMachineWarning(await foreignCpuBusy());
    if (busy) warnings.push(busy);
    const host = options.runner ?? new NodeRunnerHost(options.runnerEntry);
    const deadline = Date.now() + options.timeoutMs;
    // Several processes per mode, taken round-robin: on a shared VM one process can run 1.4× slower than the
    // next for its whole life (identical code, tight per-call spread), so one process per mode can rank modes
    // wrongly. Verification runs in the first process only; the timed calls of all of them are pooled.
    const processes = Math.max(1, options.processes);
    const runs: VariantResult[][] = job.variants.map(() => []);
    for (let round = 0; round < processes; round++) {
      for (const [i, variant] of job.variants.entries()) {
        checkCancelled();
        const where = processes > 1 ? ` (process ${round + 1}/${processes})` : '';
        const [result] = await host.run(
          { ...job, variants: [variant], skipVerification: round > 0 || job.skipVerification },
          {
            timeoutMs: Math.max(1000, deadline - Date.now()),
            signal: options.signal,
            onProgress: (p: RunnerProgress) => {
              if (p.phase === 'calls') {
                onProgress({ stage: 'calls', message: `${p.variant}${where} calls ${p.done ?? 0}/${p.total ?? options.calls}`, done: p.done ?? 0, total: p.total ?? options.calls });
              } else if (p.phase === 'verify-1' || p.phase === 'verify-2') {
                onProgress({ stage: 'verify', message: `verify ${p.variant}` });
              }
            },
          },
        );
        runs[i]!.push(result!);
      }
    }
    const results = runs.map(poolRuns);

    onProgress({ stage: 'compare', message: 'compare outputs' });
    const verification = verify(variants, results, reference.args, new Set(neverWrittenTransients(file)));
    const saved = options.saveOutputs ? await saveOutputs(options.saveOutputs, variants, results, reference.args, reference.name) : null;
    if (saved?.fallbackReason) warnings.push(`--save-outputs: cannot write into ${saved.requested} (${saved.fallbackReason}): the outputs were saved to ${saved.dir} instead`);

    const notes: string[] = [];
    const scoped = variants.find((v) => v.mode === 'SCOPED');
    const pool = variants.find((v) => v.mode === 'POOL');
    if (scoped && pool && scoped.build!.key === pool.build!.key) {
      notes.push('POOL generated the same code as SCOPED: on CPU, pooling only applies to GPU_Global arrays, so POOL and SCOPED time the same program.');
    }

    const compiler = await findCompiler();
    const cpuList = cpus();
    const modes: ModeResult[] = variants.map((v, i) => modeResult(v, results[i]!, reference.args));
    return {
      schema: PROFILE_SCHEMA,
      program: { name: reference.name, file: filePath, hash: createHash('sha256').update(fileBytes).digest('hex') },
      machine: {
        cpu: cpuList[0]?.model.trim() ?? 'unknown',
        cores: cpuList.length,
        compiler: `${compiler.name} ${compiler.version}`.trim(),
        os: `${osType()} ${release()} ${arch()}`,
        node: process.version,
      },
      settings: {
        modes: [...new Set(variants.map((v) => v.mode))],
        layout: options.layout,
        calls: options.calls,
        warmup: options.warmup,
        processes: Math.max(1, options.processes),
        symbols: Object.fromEntries(Object.entries(reference.symbols).map(([k, v]) => [k, jsonInteger(v)])),
        seed: jsonInteger(options.seed),
        inputs: Object.fromEntries(options.inputs),
      },
      modes,
      verification,
      notes,
      warnings,
      ...(saved ? { savedOutputs: saved } : {}),
    };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

function modeResult(v: Variant, r: VariantResult, args: ProgramArg[]): ModeResult {
  const checksums: Record<string, string> = {};
  if (r.outputs) {
    for (const arg of args) {
      const bytes = r.outputs[arg.name];
      if (bytes) checksums[arg.name] = createHash('sha256').update(gatherCOrder(arg, bytes).data).digest('hex');
    }
  }
  const t = r.timing;
  return {
    mode: v.mode,
    layout: v.layout,
    label: v.label,
    build: { ms: v.build!.ms, cached: v.build!.cached },
    initNs: r.initNs,
    exitNs: r.exitNs,
    firstCallNs: r.firstCallNs,
    calls: {
      totalNs: t.totalNs,
      allocNs: t.allocNs,
      freeNs: t.freeNs,
      allocs: t.allocs,
      frees: t.frees,
      allocBytes: t.allocBytes,
      minorFaults: t.minorFaults,
    },
    eventsOverflowed: t.overflowed,
    runnerOverheadNsPerCall: t.totalNs.length ? (t.batchWallNs - t.totalNs.reduce((a, b) => a + b, 0)) / t.totalNs.length : NaN,
    summary: summarize(t),
    workspaceBytes: Object.fromEntries(Object.entries(r.workspaceBytes).map(([k, b]) => [k, Number(b)])),
    outputChecksums: checksums,
  };
}

/**
 * Fraction of all cores that OTHER processes keep busy, sampled from /proc/stat while this process sleeps
 * (the builds are done by then). The load average is no use here: it still counts our own compiles.
 * Returns null where /proc/stat does not exist.
 */
export async function foreignCpuBusy(sampleMs = 250): Promise<number | null> {
  const read = async (): Promise<{ busy: number; total: number } | null> => {
    try {
      const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
      const v = line.trim().split(/\s+/).slice(1).map(Number);
      const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
      const idle = (v[3] ?? 0) + (v[4] ?? 0);
      return { busy: total - idle, total };
    } catch {
      return null;
    }
  };
  const a = await read();
  await new Promise((r) => setTimeout(r, sampleMs));
  const b = await read();
  if (!a || !b || b.total <= a.total) return null;
  return (b.busy - a.busy) / (b.total - a.total);
}

/** A warning when other processes keep a noticeable share of the cores busy. */
export function busyMachineWarning(busyFraction: number | null, cores = cpus().length): string | null {
  if (busyFraction === null || busyFraction <= 0.2) return null;
  return `other processes kept ${(busyFraction * 100).toFixed(0)}% of the ${cores} cores busy just before timing: times can be inflated and noisy (OpenMP regions suffer most); rerun on a quiet machine for numbers to quote`;
}

const PER_CALL_COLUMNS = ['totalNs', 'allocNs', 'freeNs', 'allocs', 'frees', 'allocBytes', 'minorFaults'] as const;

/** One variant's runs in several processes as one result: the first run's verification, the init, first
 * call and exit of a run without verification where there is one, and every run's timed calls. */
export function poolRuns(runs: VariantResult[]): VariantResult {
  const [first, ...rest] = runs;
  if (!first) throw new Error('poolRuns: no runs');
  const timing = { ...first.timing };
  for (const column of PER_CALL_COLUMNS) timing[column] = [...first.timing[column], ...rest.flatMap((r) => r.timing[column])];
  timing.overflowed = runs.some((r) => r.timing.overflowed);
  timing.batchWallNs = runs.reduce((sum, r) => sum + r.timing.batchWallNs, 0);
  // The verifying process poisons PERSISTENT's allocations inside init and runs two calls before the "first"
  // one: a process that skipped verification has the clean init and the truly cold first call.
  const clean = rest.find((r) => r.outputs === null);
  return clean ? { ...first, initNs: clean.initNs, firstCallNs: clean.firstCallNs, exitNs: clean.exitNs, timing } : { ...first, timing };
}
