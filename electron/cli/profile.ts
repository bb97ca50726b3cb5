/**
 * `transient-lab profile FILE …`: builds every requested mode, verifies that they agree and times them in a
 * runner child. Exit codes: 0 ok, 2 usage, 3 bad input, 4 unsupported SDFG, 5 build failed, 6 run failed
 * or modes diverged, 7 a PDF --report without Chromium, 130 cancelled (SIGINT).
 */
import { DACE_CXXFLAGS, parseCxxflags } from '../engine/compile/index.js';
import { parseLibraryImpl } from '../engine/sdfg/expand/impl.js';
import { join, resolve } from 'node:path';
import { MODES, type Mode } from '../engine/analysis/types.js';
import { TlabError } from '../engine/errors.js';
import { formatProfile } from '../engine/profile/format.js';
import { checkOutputFile, writeWithFallback } from '../engine/profile/outputs.js';
import { DEFAULT_PROFILE_OPTIONS, profile, type ProfileOptions, type ProfileProgress } from '../engine/profile/profile.js';
import type { LayoutChoice } from '../engine/profile/result.js';
import { profilePrebuilt, readManifest } from '../engine/profile/prebuilt.js';
import { parseGpuChoice } from '../engine/profile/gpu-backend.js';
import { findChromium, NoChromium } from '../host-kit/pdf.js';
import { probeDevices } from '../runner/devices.js';
import { analyseForReport, formatFromPath, NO_ANALYSIS, type ReportFormat } from '../engine/report/index.js';
import { NodeRunnerHost, RunCancelled } from '../runner/host-node.js';
import { checkRemoteTarget, profileRemote, type RemoteOptions } from '../runner/remote-host.js';
import { optionValue, parseArgs, parseInteger, parsePoolReleaseThreshold, parseSymbolList, type OptionSpec } from './args.js';
import type { Command } from './command.js';
import { EXIT_NO_CHROMIUM } from './failure.js';
import { writeReport } from './report.js';
import { runWorkloadProfile, workloadArgument } from './profile-workload.js';
import { daceFolderArgs } from './dace-args.js';
import { profileDaceFolders } from '../engine/dace/profile-folders.js';

const NAME = 'profile';

const SPEC: Record<string, OptionSpec> = {
  modes: { value: true },
  layout: { value: true },
  calls: { value: true },
  warmup: { value: true },
  processes: { value: true },
  symbols: { value: true, repeat: true },
  'default-symbol': { value: true },
  input: { value: true, repeat: true },
  seed: { value: true },
  'save-outputs': { value: true },
  out: { value: true },
  report: { value: true },
  chromium: { value: true },
  timeout: { value: true },
  prebuilt: { value: true },
  remote: { value: true },
  'ssh-option': { value: true, repeat: true },
  'remote-command': { value: true },
  cxxflags: { value: true },
  'pool-release-threshold': { value: true },
  'library-impl': { value: true },
  interpose: { value: false },
  gpu: { value: true },
  help: { value: false },
};

const HELP = `Usage: transient-lab profile FILE [options]
       transient-lab profile WORKLOAD.json [options]   (a workload: see profile WORKLOAD.json --help)
       transient-lab profile .dacecache/NAME [MORE_FOLDERS…] [options]

Builds the program in each memory mode, checks that all modes compute the same outputs, and times them.

Options:
  --modes LIST          modes to run, comma-separated (default scoped,persistent,pool,external)
  --layout L            EXTERNAL workspace layout: packed (default), dace, or both
  --calls N             timed calls per mode in each process (default 100)
  --warmup W            untimed calls before timing (default 5)
  --processes P         fresh runner processes per mode, calls pooled (default 3): one process can run
                        consistently faster or slower than the next on a shared machine
  --symbols N=V,…       symbol values (may be repeated)
  --default-symbol V    value for every symbol not given with --symbols
  --input NAME=F.npy    take argument NAME from a .npy file (may be repeated); others come from --seed
  --seed S              seed of the generated inputs (default 0)
  --save-outputs DIR    write DIR/<MODE>/<NAME>.npy after the verification call
  --out FILE            write the transient-lab/profile@1 JSON result
                        (both are checked before the build; if writing still fails at the end, the data
                        goes to a transient-lab-… fallback in the temp folder, and the exit code is 2)
  --report FILE         also write a report of the run (format from the extension: .html, .pdf, .csv,
                        .json; the same as \`transient-lab report\`, docs/reports.md)
  --chromium PATH       Chromium for a PDF --report (default: chromium on the PATH)
  --timeout SECONDS     kill the run after this long (default 600; 0 = no limit)
  --prebuilt DIR        run the libraries \`transient-lab build\` wrote to DIR instead of building FILE (no
                        FILE then; DIR fixes the symbols and layouts, --modes picks some of its modes)
                        (or DaCe build folders: see below)

DaCe build folders (.dacecache/NAME: program.sdfgz, include/, src/, build/libNAME.so) are profiled as DaCe
built them, through libffi with the build's own signatures; each folder is one mode, read from its SDFG and
exports; several folders are compared in one run on the same inputs. Give --symbols; --modes, --layout,
--cxxflags, --library-impl, --pool-release-threshold and --remote do not apply (docs/dace-folders.md).
  --remote [USER@]HOST  build and run on HOST over ssh (Transient Lab of the same version installed there);
                        the result comes back here. No --save-outputs with --remote.
  --ssh-option OPT      passed to ssh as -o OPT (may be repeated), e.g. Port=2222, IdentityFile=~/.ssh/gpu
  --remote-command CMD  how to start Transient Lab on HOST (default transient-lab)
  --cxxflags "FLAGS"    compiler optimisation flags for every mode, instead of DaCe's defaults
                        (${DACE_CXXFLAGS.join(' ')}); always C++20, -fopenmp
  --library-impl IMPL[,NODE=IMPL…]
                        how library nodes (MatMul, Gemm, Gemv, Dot, Reduce, Transpose, Potrf) are expanded:
                        pure (default: DaCe's loop expansions) or blas (OpenBLAS/LAPACKE calls, where one
                        exists; needs libopenblas-dev, liblapacke-dev); NODE=IMPL sets one node by its label
  --pool-release-threshold BYTES|max
                        GPU programs: the release threshold POOL's init sets on the default memory pool
                        (default max = UINT64_MAX, DaCe's; 0 returns the pool's memory at every
                        synchronisation); recorded in the result. Not for CPU programs or --prebuilt
  --interpose           measure allocations by hooking each library's calls of malloc, operator new[],
                        cudaMalloc, … (as for a library we did not generate) instead of reading the runtime
                        header's records; the result's notes say so (docs/interpose.md). Not with --remote
  --gpu auto|device|host
                        GPU programs: where the modes run. auto (default): the CUDA device, refused
                        without one; host: the same CUDA code compiled for this CPU against Transient
                        Lab's host CUDA runtime (every mode verified; times are host times of an
                        emulation, labelled so, never device times). docs/gpu-host.md

Exit codes: 0 ok, 2 usage (also: symbol values that give a negative extent or arrays that cannot fit in
memory, and --out/--save-outputs written to a fallback), 3 bad input (also: a --prebuilt folder whose
manifest or files are wrong), 4 unsupported SDFG (also: a GPU program and no CUDA device), 5 build failed,
6 run failed or modes diverged (also: --remote not installed, version mismatch or connection dropped),
7 a PDF --report and no Chromium, 130 cancelled.`;

/** `--modes scoped,pool` → canonical names, duplicates dropped (shared with `build`). */
export function parseModes(command: string, text: string): Mode[] {
  const modes: Mode[] = [];
  for (const part of text.split(',')) {
    const m = part.trim().toUpperCase();
    if (!m) continue;
    if (!(MODES as readonly string[]).includes(m)) {
      throw new TlabError('usage', `${command}: unknown mode '${part.trim()}' (modes: ${MODES.map((x) => x.toLowerCase()).join(', ')})`);
    }
    if (!modes.includes(m as Mode)) modes.push(m as Mode);
  }
  if (!modes.length) throw new TlabError('usage', `${command}: --modes is empty`);
  return modes;
}

export function parseLayout(command: string, text: string): LayoutChoice {
  if (text !== 'dace' && text !== 'packed' && text !== 'both') {
    throw new TlabError('usage', `${command}: --layout expects dace, packed or both, got '${text}'`);
  }
  return text;
}

interface ParsedProfileArgs {
  /** The SDFG file; with --prebuilt, the folder's own copy is used and this is the folder. */
  file: string;
  options: Omit<ProfileOptions, 'signal' | 'runner'>;
  out: string | null;
  /** `--prebuilt DIR`, or null. */
  prebuilt: string | null;
  /** DaCe build folders (`profile FOLDER…`), or null. */
  dace: string[] | null;
  /** `--remote`, or null. */
  remote: RemoteOptions | null;
  /** `--report FILE`: a report of the run, in the format FILE's extension names. */
  report: { path: string; format: ReportFormat; chromium: string | null } | null;
}

function parseProfileArgs(argv: string[]): ParsedProfileArgs | 'help' {
  const args = parseArgs(NAME, argv, SPEC);
  if (args.flags.has('help')) return 'help';
  const prebuilt0 = optionValue(args, 'prebuilt') ?? null;
  // DaCe build folders (docs/dace-folders.md): positional or after --prebuilt, one per mode.
  const dace = daceFolderArgs(NAME, prebuilt0, args.positionals, new Set(args.options.keys()));
  const prebuilt = dace ? null : prebuilt0;
  if (dace) {
    // Checked by daceFolderArgs.
  } else if (prebuilt !== null) {
    if (args.positionals.length)
      throw new TlabError(
        'usage',
        `${NAME}: --prebuilt DIR runs the SDFG built into DIR; give no FILE (got ${args.positionals.join(' ')})`,
      );
    for (const fixed of ['layout', 'symbols', 'default-symbol', 'cxxflags', 'pool-release-threshold', 'library-impl', 'gpu']) {
      if (args.options.has(fixed))
        throw new TlabError(
          'usage',
          `${NAME}: --${fixed} cannot be used with --prebuilt: the folder was built for fixed ones (see its manifest.json)`,
        );
    }
  } else if (args.positionals.length !== 1) {
    throw new TlabError(
      'usage',
      `${NAME}: expected exactly one SDFG file, got ${args.positionals.length}${args.positionals.length ? ` (${args.positionals.join(' ')})` : ''}`,
    );
  }
  const options: Omit<ProfileOptions, 'signal' | 'runner'> = { ...DEFAULT_PROFILE_OPTIONS, symbols: new Map(), inputs: new Map() };
  const modesText = optionValue(args, 'modes');
  if (modesText !== undefined) options.modes = parseModes(NAME, modesText);
  // With --prebuilt and no --modes: every mode in the folder.
  else if (prebuilt !== null) options.modes = [];
  const layout = optionValue(args, 'layout');
  if (layout !== undefined) options.layout = parseLayout(NAME, layout);
  const calls = optionValue(args, 'calls');
  if (calls !== undefined) options.calls = Number(parseInteger(NAME, 'calls', calls, 1n));
  const warmup = optionValue(args, 'warmup');
  if (warmup !== undefined) options.warmup = Number(parseInteger(NAME, 'warmup', warmup, 0n));
  const processes = optionValue(args, 'processes');
  if (processes !== undefined) options.processes = Number(parseInteger(NAME, 'processes', processes, 1n));
  for (const text of args.options.get('symbols') ?? []) {
    for (const [k, v] of parseSymbolList(NAME, text)) options.symbols.set(k, v);
  }
  const def = optionValue(args, 'default-symbol');
  if (def !== undefined) options.defaultSymbol = parseInteger(NAME, 'default-symbol', def);
  for (const item of args.options.get('input') ?? []) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? '' : item.slice(0, eq).trim();
    const path = eq < 0 ? '' : item.slice(eq + 1).trim();
    // A structure's leaves are arguments too: `P.inner.b`, `G.items.2.k` (codegen/structs.ts).
    if (!/^[A-Za-z_]\w*(?:\.\w+)*$/.test(name) || !path) {
      throw new TlabError('usage', `${NAME}: --input expects NAME=FILE.npy, got '${item}'`);
    }
    if (options.inputs.has(name)) throw new TlabError('usage', `${NAME}: --input ${name} given twice`);
    options.inputs.set(name, path);
  }
  const seed = optionValue(args, 'seed');
  if (seed !== undefined) {
    options.seed = parseInteger(NAME, 'seed', seed, 0n);
    if (options.seed >= 2n ** 64n) throw new TlabError('usage', `${NAME}: --seed must be below 2^64`);
  }
  options.saveOutputs = optionValue(args, 'save-outputs') ?? null;
  const timeout = optionValue(args, 'timeout');
  if (timeout !== undefined) {
    const t = Number(timeout);
    if (!/^\d+(\.\d+)?$/.test(timeout.trim()) || !Number.isFinite(t))
      throw new TlabError('usage', `${NAME}: --timeout expects seconds, got '${timeout}'`);
    options.timeoutMs = Math.round(t * 1000);
  }
  const cxxflags = optionValue(args, 'cxxflags');
  if (cxxflags !== undefined) options.cxxflags = parseCxxflags(cxxflags, `${NAME}: --cxxflags`);
  const threshold = optionValue(args, 'pool-release-threshold');
  if (threshold !== undefined) options.poolReleaseThreshold = parsePoolReleaseThreshold(NAME, threshold);
  const gpu = optionValue(args, 'gpu');
  if (gpu !== undefined) options.gpu = parseGpuChoice(gpu, NAME);
  const libraryImpl = optionValue(args, 'library-impl');
  if (libraryImpl !== undefined) options.libraryImpl = parseLibraryImpl(libraryImpl, `${NAME}: --library-impl`);
  if (args.flags.has('interpose')) options.interpose = true;
  const target = optionValue(args, 'remote');
  let remote: RemoteOptions | null = null;
  if (target !== undefined) {
    if (options.interpose) throw new TlabError('usage', `${NAME}: --interpose cannot be used with --remote yet`);
    if (prebuilt !== null)
      throw new TlabError(
        'usage',
        `${NAME}: --prebuilt and --remote cannot be combined yet: build and run on the remote machine with --remote FILE`,
      );
    if (options.saveOutputs)
      throw new TlabError('usage', `${NAME}: --save-outputs cannot be used with --remote (the outputs stay on the remote machine)`);
    checkRemoteTarget(target);
    remote = { target, sshOptions: args.options.get('ssh-option') ?? [], remoteCommand: optionValue(args, 'remote-command') };
  } else if (args.options.has('ssh-option') || args.options.has('remote-command')) {
    throw new TlabError('usage', `${NAME}: --ssh-option and --remote-command need --remote HOST`);
  }
  const reportPath = optionValue(args, 'report');
  let report: ParsedProfileArgs['report'] = null;
  if (reportPath !== undefined) {
    const format = formatFromPath(reportPath);
    if (!format)
      throw new TlabError(
        'usage',
        `${NAME}: --report ${reportPath}: the name must end in .html, .pdf, .csv or .json (the format of the report)`,
      );
    report = { path: reportPath, format, chromium: optionValue(args, 'chromium') ?? null };
  }
  return {
    file: dace?.[0] ?? prebuilt ?? args.positionals[0]!,
    options,
    out: optionValue(args, 'out') ?? null,
    prebuilt,
    dace,
    remote,
    report,
  };
}

function progressPrinter(): (p: ProfileProgress) => void {
  if (!process.stderr.isTTY) return () => {};
  return (p) => {
    const step = p.stage === 'build' && p.total ? `build ${p.done}/${p.total}: ${p.message.replace(/^build /, '')}` : p.message;
    process.stderr.write(`\r\x1b[2K${step}`);
  };
}

export const profileCommand: Command = {
  name: NAME,
  usage:
    'profile FILE|WORKLOAD|DACE_FOLDER [--modes …] [--layout dace|packed|both] [--calls N] [--warmup W] [--processes P] [--symbols N=V,…] [--default-symbol V] [--input NAME=F.npy] [--seed S] [--save-outputs DIR] [--out FILE] [--report OUT.html|pdf|csv|json] [--timeout S] [--cxxflags "FLAGS"] [--pool-release-threshold BYTES|max] [--gpu auto|device|host] [--interpose] [--library-impl pure|blas[,NODE=IMPL…]] [--prebuilt DIR] [--remote [USER@]HOST]',
  async run(argv: string[]): Promise<number> {
    // A workload file (docs/workload.md) has its own options and run.
    const valueOptions = new Set(Object.entries(SPEC).flatMap(([k, o]) => (o.value ? [k] : [])));
    if (await workloadArgument(argv, valueOptions)) return runWorkloadProfile(argv);
    const parsed = parseProfileArgs(argv);
    if (parsed === 'help') {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    // Checked before the build: a long run must not be lost to a mistyped --out (--save-outputs: in profile()).
    if (parsed.out) await checkOutputFile(parsed.out);
    if (parsed.report) await checkOutputFile(parsed.report.path, '--report');
    // A PDF report needs Chromium: say so before minutes of building and timing, not after.
    if (parsed.report?.format === 'pdf') {
      try {
        findChromium(parsed.report.chromium);
      } catch (err) {
        if (!(err instanceof NoChromium)) throw err;
        process.stderr.write(`transient-lab ${NAME}: --report ${parsed.report.path}: ${err.message}\n`);
        return EXIT_NO_CHROMIUM;
      }
    }
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const progress = progressPrinter();
    try {
      const runOptions = { ...parsed.options, signal: controller.signal, runner: new NodeRunnerHost(), devices: () => probeDevices() };
      const result = parsed.dace
        ? await profileDaceFolders(parsed.dace, runOptions, progress)
        : parsed.remote
          ? await profileRemote(parsed.file, runOptions, parsed.remote, progress)
          : parsed.prebuilt
            ? await profilePrebuilt(parsed.prebuilt, runOptions, progress)
            : await profile(parsed.file, runOptions, progress);
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
      process.stdout.write(`${formatProfile(result)}\n`);
      let lost = false;
      if (parsed.out) {
        const saved = await writeWithFallback(parsed.out, `${JSON.stringify(result, null, 2)}\n`, 'result', result.program.name);
        if (saved.fallbackReason) {
          process.stderr.write(
            `transient-lab ${NAME}: cannot write --out ${parsed.out} (${saved.fallbackReason}); the result was saved to ${saved.path} instead\n`,
          );
          lost = true;
        }
      }
      if (parsed.report) {
        const r = parsed.report;
        const results = [{ label: result.program.name, result, source: null }];
        const wantsAnalysis = r.format === 'html' || r.format === 'pdf';
        // A prebuilt folder holds its own copy of the SDFG (manifest sdfg.file); the report analyses that one.
        const sdfgFile = parsed.dace
          ? result.program.file
          : parsed.prebuilt
            ? join(parsed.prebuilt, (await readManifest(parsed.prebuilt)).sdfg.file)
            : parsed.file;
        const analysis = wantsAnalysis ? await analyseForReport(result, [resolve(sdfgFile)], { explicit: true }) : NO_ANALYSIS;
        const written = await writeReport(results, { format: r.format, out: r.path, analysis, chromium: r.chromium });
        process.stdout.write(`report: ${written.map((w) => resolve(w)).join(', ')}\n`);
      }
      if (result.savedOutputs?.fallbackReason) {
        process.stderr.write(
          `transient-lab ${NAME}: cannot write --save-outputs ${result.savedOutputs.requested} (${result.savedOutputs.fallbackReason}); the outputs were saved to ${result.savedOutputs.dir} instead\n`,
        );
        lost = true;
      }
      // A result that is not where it was asked for is a failed request (exit 2), even though nothing is lost.
      return !result.verification.ok ? 6 : lost ? 2 : 0;
    } catch (err) {
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
      if (err instanceof RunCancelled || controller.signal.aborted) {
        process.stderr.write(`transient-lab ${NAME}: cancelled\n`);
        return 130;
      }
      throw err;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};
