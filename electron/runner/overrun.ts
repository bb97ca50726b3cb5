/**
 * The words of an out-of-bounds report, shared by the runner child (a changed argument guard, runner-helpers.ts)
 * and the host (a child that died of a signal, supervised-host.ts): which argument, which side, how far, with
 * which symbols, and the advice. No engine runtime import: the Electron main process's host imports this file.
 */
import type { Phase, VariantJob } from '../engine/profile/runner-host.js';

/** A write outside an argument, found in its guard. */
export interface ArgumentOverrun {
  array: string;
  side: 'before' | 'after';
  /** How far the write reached: bytes past the array's end (after) or before its start (before). */
  bytes: number;
  /** The whole guard changed: the write may reach further. */
  whole: boolean;
  arrayBytes: number;
}

const count = (n: number, unit: string): string => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;

function overrunWords(o: ArgumentOverrun): string {
  const reach = `${o.whole ? 'at least ' : ''}${count(o.bytes, 'byte')}`;
  return o.side === 'after' ? `${reach} past the end of argument ${o.array}` : `${reach} before the start of argument ${o.array}`;
}

/** What the symbols were, for messages: `symbols K=16, M=16, N=16`. */
function symbolWords(v: Pick<VariantJob, 'symbols'> | undefined): string {
  const entries = Object.entries(v?.symbols ?? {});
  return entries.length ? `symbols ${entries.map(([k, x]) => `${k}=${x}`).join(', ')}` : 'these symbol values';
}

/** The advice every out-of-bounds report ends with. */
const OVERRUN_ADVICE =
  "these sizes may not fit the program's tiling or loop bounds; try larger symbol values (--symbols NAME=V, --default-symbol V)";

/** The error an argument overrun stops the variant with (one line; the host prefixes the mode and the step). */
export function argumentOverrunMessage(found: readonly ArgumentOverrun[], v: Pick<VariantJob, 'symbols'>): string {
  const [first, ...rest] = found;
  if (!first) throw new Error('argumentOverrunMessage: nothing was found');
  const also = rest.length ? `; also ${rest.map(overrunWords).join(', ')}` : '';
  return `out-of-bounds write: the program wrote ${overrunWords(first)} (${first.array} has ${count(first.arrayBytes, 'byte')}${also}) with ${symbolWords(v)}: ${OVERRUN_ADVICE}`;
}

const CALL_PHASES: ReadonlySet<Phase> = new Set(['verify-1', 'verify-2', 'first-call', 'warmup', 'calls']);
/** What glibc prints when it finds its heap metadata overwritten (malloc.c's malloc_printerr messages). */
const HEAP_CORRUPTION =
  /(free|malloc|realloc|calloc|munmap_chunk|malloc_consolidate)\(\)[^\n]*|double free or corruption[^\n]*|corrupted (size|double-linked list|top size|unsorted chunks)[^\n]*/;

/** The host CUDA runtime's fault line (native/include/transient_cuda_host_runtime.h). */
const DEVICE_FAULT = /transient-lab: (device memory fault: [^\n]*)/;

/**
 * After a child died of `signal` in a program call: why, when it is likely an out-of-bounds access (glibc's
 * heap-corruption abort, a segmentation fault or bus error), else null. The runner's own guards could not
 * report it (the write went past them, or into memory the program allocated), so this names the likely cause
 * and the advice instead of glibc's words alone.
 */
export function crashHint(signal: string, phase: Phase | null, output: string, v: Pick<VariantJob, 'symbols'> | undefined): string | null {
  if (!phase || !CALL_PHASES.has(phase)) return null;
  const heap = HEAP_CORRUPTION.exec(output);
  if (signal === 'SIGABRT' && heap) {
    return `glibc found its heap corrupted (${heap[0].trim()}): an out-of-bounds write by the program is the likely cause, with ${symbolWords(v)}: ${OVERRUN_ADVICE}`;
  }
  // The host CUDA runtime (`--gpu host`) names the device array and what touched it before the process dies.
  const device = DEVICE_FAULT.exec(output);
  if (device && (signal === 'SIGSEGV' || signal === 'SIGBUS')) return `${device[1]!.trim()}, with ${symbolWords(v)}: ${OVERRUN_ADVICE}`;
  if (signal === 'SIGSEGV' || signal === 'SIGBUS') {
    return `an out-of-bounds access by the program is the likely cause, with ${symbolWords(v)}: ${OVERRUN_ADVICE}`;
  }
  return null;
}
