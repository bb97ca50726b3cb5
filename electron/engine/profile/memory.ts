/**
 * Refuses a profile run whose arrays cannot fit before anything is built or allocated: the inputs are made in
 * this process (one Node.js buffer per argument), and the runner child holds the arguments and the transients
 * at the same time (PERSISTENT holds every transient at once). A run that cannot fit would otherwise end in
 * `RangeError: Invalid typed array length`, in swapping, or in the kernel's OOM killer after a long build.
 */
import { constants as bufferConstants } from 'node:buffer';
import { freemem, totalmem } from 'node:os';
import { argumentSizes, describeSymbolTypeProblem, symbolTypeProblems } from '../analysis/extents.js';
import type { Analysis, AnalysisOptions } from '../analysis/types.js';
import { TlabError } from '../errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { keyPath } from '../sdfg/json.js';

export interface MemoryLimits {
  /** Physical memory (os.totalmem). */
  totalBytes: number;
  /** Memory the kernel can give without swapping now (os.freemem: MemAvailable on Linux). */
  availableBytes: number;
  /** cgroup limit of this process (process.constrainedMemory), null when there is none. */
  constrainedBytes: number | null;
  /** The largest Node.js buffer (buffer.constants.MAX_LENGTH): each input argument is one, and so is each
   * message to and from the runner child (all inputs in one; the outputs of both verification calls in one). */
  maxBufferBytes: number;
}

export function machineLimits(): MemoryLimits {
  const constrained = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : undefined;
  const totalBytes = totalmem();
  return {
    totalBytes,
    availableBytes: freemem(),
    // Without a limit libuv reports 0 or a huge number (2^63 rounded), neither of which constrains anything.
    constrainedBytes: constrained !== undefined && constrained > 0 && constrained < totalBytes ? constrained : null,
    maxBufferBytes: bufferConstants.MAX_LENGTH,
  };
}

export interface MemoryNeed {
  arguments: Array<{ name: string; bytes: bigint }>;
  transients: Array<{ name: string; bytes: bigint }>;
  argumentBytes: bigint;
  transientBytes: bigint;
  /** A lower bound of the bytes a run holds at once: every argument and every allocated transient. */
  totalBytes: bigint;
}

function memoryNeed(file: SdfgFile, analysis: Analysis, opts: AnalysisOptions): MemoryNeed {
  const args = argumentSizes(file, opts)
    .filter((a): a is { name: string; bytes: bigint } => a.bytes !== null)
    .map((a) => ({ name: a.name, bytes: a.bytes }));
  const transients = analysis.transients
    .filter((t) => t.allocation.kind !== 'none' && t.bytes !== null)
    .map((t) => ({ name: t.sdfg === 0 ? t.name : t.id, bytes: t.bytes! }));
  const sum = (xs: Array<{ bytes: bigint }>): bigint => xs.reduce((s, x) => s + x.bytes, 0n);
  const argumentBytes = sum(args);
  const transientBytes = sum(transients);
  return { arguments: args, transients, argumentBytes, transientBytes, totalBytes: argumentBytes + transientBytes };
}

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** `4.00 GiB`, `7.28 TiB`; sizes beyond the units (`N=10^12` squared) as `8.00e+24 B`. */
function bytesText(b: bigint | number): string {
  const n = Number(b);
  if (n < 1024) return `${n} B`;
  let unit = -1;
  let v = n;
  while (v >= 1024 && unit < UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  return v >= 1024 ? `${n.toExponential(2)} B` : `${v.toFixed(2)} ${UNITS[unit]}`;
}

function largest(need: MemoryNeed, count = 8): string[] {
  const all = [
    ...need.arguments.map((a) => ({ ...a, what: 'argument' })),
    ...need.transients.map((t) => ({ ...t, what: 'transient' })),
  ].sort((a, b) => (b.bytes > a.bytes ? 1 : b.bytes < a.bytes ? -1 : 0));
  const lines = all.slice(0, count).map((x) => `${x.what} ${x.name}: ${bytesText(x.bytes)}`);
  if (all.length > count) lines.push(`… and ${all.length - count} more arrays`);
  return lines;
}

/** Everything that must hold before a run is generated and built: symbol values the program can receive,
 * and arrays that fit. Throws TlabError('usage'). */
export function checkRunFits(
  file: SdfgFile,
  analysis: Analysis,
  opts: AnalysisOptions,
  limits: MemoryLimits = machineLimits(),
): MemoryNeed {
  const problems = symbolTypeProblems(file, analysis.symbols).map(describeSymbolTypeProblem);
  // Arrays that cannot fit are named first (with the total); a symbol out of its type's range is said too.
  const need = checkRunMemory(
    file,
    analysis,
    opts,
    limits,
    problems.map((p) => `also: ${p}`),
  );
  if (problems.length) {
    throw new TlabError('usage', problems[0]!, {
      file: file.path,
      jsonPath: keyPath('$.attributes.symbols', symbolTypeProblems(file, analysis.symbols)[0]!.name),
      details: [...problems.slice(1), 'give a value in range (--symbols NAME=V)'],
    });
  }
  return need;
}

/**
 * Throws TlabError('usage') when the arrays of this run cannot fit: an argument larger than one buffer, or
 * arguments plus transients beyond the machine's memory (or its cgroup limit), or beyond what is available now.
 */
export function checkRunMemory(
  file: SdfgFile,
  analysis: Analysis,
  opts: AnalysisOptions,
  limits: MemoryLimits = machineLimits(),
  moreDetails: string[] = [],
): MemoryNeed {
  const need = memoryNeed(file, analysis, opts);
  const summary = `arguments ${bytesText(need.argumentBytes)} + transients ${bytesText(need.transientBytes)} = ${bytesText(need.totalBytes)}`;
  const symbols = [...analysis.symbols].map(([n, v]) => `${n}=${v.value}`).join(', ');
  const fail = (message: string, extra: string[] = []): never => {
    throw new TlabError('usage', message, {
      file: file.path,
      details: [
        `the run holds at least ${summary} at once${symbols ? ` (${symbols})` : ''}; largest:`,
        ...largest(need).map((l) => `  ${l}`),
        ...extra,
        ...moreDetails,
        'profile with smaller symbol values (--symbols NAME=V); `transient-lab analyze` shows the sizes for any values without running anything',
      ],
    });
  };
  const tooBig = need.arguments.filter((a) => a.bytes > BigInt(limits.maxBufferBytes));
  if (tooBig.length) {
    fail(
      `argument${tooBig.length === 1 ? '' : 's'} ${tooBig.map((a) => `${a.name} (${bytesText(a.bytes)})`).join(', ')} ` +
        `cannot be allocated: one input buffer holds at most ${bytesText(limits.maxBufferBytes)} in this Node.js (buffer.constants.MAX_LENGTH)`,
    );
  }
  // host-node sends the job (every input) in one IPC message, and the runner answers with the outputs of both
  // verification calls (every array argument, twice) in one: each message is one serialisation buffer.
  if (2n * need.argumentBytes > BigInt(limits.maxBufferBytes)) {
    fail(
      `the arguments (${bytesText(need.argumentBytes)}) cannot be passed to the runner: it receives all inputs in one message and sends back the ` +
        `outputs of two verification calls in one, and a message holds at most ${bytesText(limits.maxBufferBytes)} in this Node.js`,
    );
  }
  const physical = limits.constrainedBytes ?? limits.totalBytes;
  const physicalName =
    limits.constrainedBytes !== null ? 'the memory limit (cgroup) of this process' : 'the physical memory of this machine';
  if (need.totalBytes > BigInt(physical)) {
    fail(`the arrays need ${bytesText(need.totalBytes)}, more than ${physicalName} (${bytesText(physical)})`);
  }
  if (need.totalBytes > BigInt(limits.availableBytes)) {
    fail(
      `the arrays need ${bytesText(need.totalBytes)}, more than the memory available now (${bytesText(limits.availableBytes)} of ${bytesText(physical)}, os.freemem)`,
      ['running anyway would swap or be killed by the kernel; free memory (other programs) or use smaller sizes'],
    );
  }
  return need;
}
