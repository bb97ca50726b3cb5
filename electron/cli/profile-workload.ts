/**
 * `transient-lab profile workload.json …` (docs/workload.md, "Profiling"): every program of the workload in one
 * runner, one shared workspace per storage in EXTERNAL, verification against SCOPED at every position, then the
 * timed steps. Exit codes as `profile`: 0 ok, 2 usage, 3 bad input, 4 unsupported, 5 build, 6 run failed or a
 * mode differs from SCOPED (or reads stale workspace bytes), 130 cancelled.
 */
import { open, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MODES, type Mode } from '../engine/analysis/types.js';
import { parseCxxflags } from '../engine/compile/index.js';
import { TlabError } from '../engine/errors.js';
import { encodeNpy } from '../engine/profile/npy.js';
import { gatherCOrder } from '../engine/profile/inputs.js';
import { checkOutputFile, checkOutputFolder, writeWithFallback } from '../engine/profile/outputs.js';
import type { LayoutChoice } from '../engine/profile/result.js';
import { writeFileAtomic } from '../engine/io/atomic-write.js';
import { withFileErrors } from '../engine/io/fs-errors.js';
import { sniffWorkload } from '../engine/workload/schema.js';
import { advise } from '../engine/advise/index.js';
import { loadSubject } from '../engine/advise/subject.js';
import { workloadReportHtml } from '../engine/report/workload.js';
import { fileLabel } from '../engine/profile/build-variants.js';
import { formatWorkload } from '../engine/workload/format.js';
import { profileWorkload, type WorkloadRun } from '../engine/workload/profile.js';
import { RunCancelled } from '../runner/host-node.js';
import { NodeWorkloadHost } from '../runner/workload-host.js';
import { optionValue, parseArgs, parseInteger, parseSymbolList, type OptionSpec } from './args.js';

const NAME = 'profile';

const SPEC: Record<string, OptionSpec> = {
  modes: { value: true },
  layout: { value: true },
  steps: { value: true },
  calls: { value: true },
  warmup: { value: true },
  processes: { value: true },
  symbols: { value: true, repeat: true },
  'default-symbol': { value: true },
  seed: { value: true },
  'save-outputs': { value: true },
  out: { value: true },
  report: { value: true },
  timeout: { value: true },
  cxxflags: { value: true },
  help: { value: false },
};

const WORKLOAD_HELP = `Usage: transient-lab profile WORKLOAD.json [options]

Runs a workload (docs/workload.md): every program loaded in one runner, one shared workspace per storage in
EXTERNAL, every call checked against SCOPED at every position of --steps steps, then timed steps.

Options:
  --modes LIST          modes to time (default scoped,persistent,pool,external); SCOPED always verifies
  --layout L            EXTERNAL workspace layout: packed (default), dace, or both
  --steps N             verification steps (default: the workload's steps)
  --warmup W            untimed steps before timing (default 2)
  --calls N             timed steps per mode in each process (default 20)
  --processes P         fresh runner processes per mode (default 3)
  --symbols N=V,…       override the workload's shared symbols
  --default-symbol V    value for every symbol given nowhere else
  --seed S              seed of the generated arrays (default 0)
  --save-outputs DIR    write DIR/<MODE>/<ARRAY>.npy of every shared array after the verification steps
  --out FILE            write the transient-lab/workload-result@1 JSON
  --report OUT.html     write the workload report: the measured table, the memory each mode holds over the
                        step, the programs' workspace needs and the advisor's recommendation (docs/reports.md)
  --timeout SECONDS     limit for each runner process (default 600; 0 = none)
  --cxxflags "FLAGS"    compiler optimisation flags for every program and mode`;

interface Parsed {
  file: string;
  modes: Mode[];
  layout: LayoutChoice;
  steps: number | null;
  warmup: number;
  calls: number;
  processes: number;
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  seed: bigint;
  saveOutputs: string | null;
  out: string | null;
  report: string | null;
  timeoutMs: number;
  cxxflags: readonly string[] | null;
}

function parse(argv: string[]): Parsed | 'help' {
  const args = parseArgs(NAME, argv, SPEC);
  if (args.flags.has('help')) return 'help';
  if (args.positionals.length !== 1)
    throw new TlabError('usage', `${NAME}: expected exactly one workload file, got ${args.positionals.length}`);
  const modes: Mode[] = [];
  for (const part of (optionValue(args, 'modes') ?? MODES.join(',')).split(',')) {
    const m = part.trim().toUpperCase();
    if (!m) continue;
    if (!(MODES as readonly string[]).includes(m))
      throw new TlabError('usage', `${NAME}: unknown mode '${part.trim()}' (modes: ${MODES.map((x) => x.toLowerCase()).join(', ')})`);
    if (!modes.includes(m as Mode)) modes.push(m as Mode);
  }
  if (!modes.length) throw new TlabError('usage', `${NAME}: --modes is empty`);
  const layout = optionValue(args, 'layout') ?? 'packed';
  if (layout !== 'dace' && layout !== 'packed' && layout !== 'both')
    throw new TlabError('usage', `${NAME}: --layout expects dace, packed or both, got '${layout}'`);
  const int = (name: string, fallback: number, min: bigint) => {
    const v = optionValue(args, name);
    return v === undefined ? fallback : Number(parseInteger(NAME, name, v, min));
  };
  const symbols = new Map<string, bigint>();
  for (const text of args.options.get('symbols') ?? []) for (const [k, v] of parseSymbolList(NAME, text)) symbols.set(k, v);
  const def = optionValue(args, 'default-symbol');
  const seed = optionValue(args, 'seed');
  const timeout = optionValue(args, 'timeout');
  if (timeout !== undefined && !/^\d+(\.\d+)?$/.test(timeout.trim()))
    throw new TlabError('usage', `${NAME}: --timeout expects seconds, got '${timeout}'`);
  const steps = optionValue(args, 'steps');
  const cxxflags = optionValue(args, 'cxxflags');
  return {
    file: args.positionals[0]!,
    modes,
    layout,
    steps: steps === undefined ? null : Number(parseInteger(NAME, 'steps', steps, 1n)),
    warmup: int('warmup', 2, 0n),
    calls: int('calls', 20, 1n),
    processes: int('processes', 3, 1n),
    symbols,
    defaultSymbol: def === undefined ? null : parseInteger(NAME, 'default-symbol', def),
    seed: seed === undefined ? 0n : parseInteger(NAME, 'seed', seed, 0n),
    saveOutputs: optionValue(args, 'save-outputs') ?? null,
    out: optionValue(args, 'out') ?? null,
    report: reportOption(optionValue(args, 'report')),
    timeoutMs: timeout === undefined ? 600_000 : Math.round(Number(timeout) * 1000),
    cxxflags: cxxflags === undefined ? null : parseCxxflags(cxxflags, `${NAME}: --cxxflags`),
  };
}

function reportOption(path: string | undefined): string | null {
  if (path === undefined) return null;
  if (!/\.html?$/i.test(path))
    throw new TlabError('usage', `${NAME}: --report for a workload writes HTML: give a path ending in .html, got '${path}'`);
  return path;
}

/** The report beside the measured result: the advisor's static figures of the same workload and symbols. */
async function writeReport(p: Parsed, run: WorkloadRun): Promise<void> {
  const subject = await loadSubject(p.file, { symbols: p.symbols, defaultSymbol: p.defaultSymbol, target: null });
  const advice = advise(subject, {
    symbols: p.symbols,
    defaultSymbol: p.defaultSymbol,
    target: null,
    layout: p.layout === 'dace' ? 'dace' : 'packed',
  });
  const files = Object.fromEntries(run.result.programs.map((e) => [e.key, e.source]));
  const html = await workloadReportHtml(run.result, { advice, files, steps: run.result.settings.steps });
  await writeFileAtomic(p.report!, html);
}

/** DIR/<MODE>/<ARRAY>.npy: each shared array in the shape of the first argument bound to it (flat otherwise). */
async function saveOutputs(dir: string, run: WorkloadRun): Promise<void> {
  for (const [label, arrays] of Object.entries(run.outputs ?? {})) {
    await withFileErrors('usage', 'create', join(dir, fileLabel(label)), () => mkdir(join(dir, fileLabel(label)), { recursive: true }));
    for (const [name, bytes] of Object.entries(arrays)) {
      const a = run.arrays[name]!;
      const argBytes = (a.arg.kind === 'array' ? Number(a.arg.totalElements) : 1) * a.arg.elementBytes;
      const npy =
        a.arg.kind === 'array' && argBytes === bytes.length
          ? gatherCOrder(a.arg, bytes)
          : { dtype: a.dtype, shape: [bytes.length / a.arg.elementBytes], data: bytes };
      await writeFileAtomic(join(dir, fileLabel(label), `${name}.npy`), encodeNpy(npy));
    }
  }
}

/**
 * The file `profile` was given, when it is a workload (sniffed from its first bytes, as `advise` does): option
 * values are skipped by the options of both forms that take one.
 */
export async function workloadArgument(argv: string[], valueOptions: ReadonlySet<string>): Promise<boolean> {
  let file: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const name = a.slice(2).split('=')[0]!;
      if (!a.includes('=') && (valueOptions.has(name) || SPEC[name]?.value)) i++;
      continue;
    }
    file = a;
    break;
  }
  if (file === null) return false;
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return sniffWorkload(buf.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}

export async function runWorkloadProfile(argv: string[]): Promise<number> {
  const p = parse(argv);
  if (p === 'help') {
    process.stdout.write(`${WORKLOAD_HELP}\n`);
    return 0;
  }
  if (p.out) await checkOutputFile(p.out);
  if (p.report) await checkOutputFile(p.report, '--report');
  if (p.saveOutputs) await checkOutputFolder(p.saveOutputs);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const tty = process.stderr.isTTY;
  try {
    const run = await profileWorkload(
      p.file,
      {
        ...p,
        keepOutputs: p.saveOutputs !== null,
        host: new NodeWorkloadHost(),
        signal: controller.signal,
      },
      (m) => {
        if (tty) process.stderr.write(`\r\x1b[2K${m}`);
      },
    );
    if (tty) process.stderr.write('\r\x1b[2K');
    process.stdout.write(`${formatWorkload(run.result)}\n`);
    if (p.saveOutputs) await saveOutputs(p.saveOutputs, run);
    let lost = false;
    if (p.out) {
      const saved = await writeWithFallback(p.out, `${JSON.stringify(run.result, null, 2)}\n`, 'result', run.result.name);
      if (saved.fallbackReason) {
        process.stderr.write(
          `transient-lab ${NAME}: cannot write --out ${p.out} (${saved.fallbackReason}); the result was saved to ${saved.path} instead\n`,
        );
        lost = true;
      }
    }
    if (p.report) {
      await writeReport(p, run);
      process.stderr.write(`report: ${p.report}\n`);
    }
    const ok = Object.values(run.result.verification).every((cs) => cs.every((c) => c.ok));
    return !ok ? 6 : lost ? 2 : 0;
  } catch (err) {
    if (tty) process.stderr.write('\r\x1b[2K');
    if (err instanceof RunCancelled || controller.signal.aborted) {
      process.stderr.write(`transient-lab ${NAME}: cancelled\n`);
      return 130;
    }
    throw err;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
