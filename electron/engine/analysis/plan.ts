/**
 * What each memory mode costs per call for the chosen target (dace-memory-abi.md §3.1):
 * - SCOPED: every heap site (sdfg/state/scope) allocates and frees once per execution;
 * - PERSISTENT: PERSISTENT-eligible transients move to init;
 * - POOL: on GPU, transient GPU_Global Arrays allocate from the stream-ordered pool (still per call);
 *   on CPU it is exactly SCOPED;
 * - EXTERNAL: EXTERNAL-eligible transients live in the caller's workspace (packed layout per storage).
 * Transients the file already makes Persistent / External keep that lifetime in every mode.
 */
import { allocatesPerCall } from './allocation.js';
import type { ModePlan, Mode, PackedStorageLayout, Target, TransientInfo } from './types.js';

function sumOrNull(values: Array<bigint | null>): bigint | null {
  let total = 0n;
  for (const v of values) {
    if (v === null) return null;
    total += v;
  }
  return total;
}

function perCallCost(allocating: TransientInfo[]): ModePlan['perCall'] {
  // A queue that outgrows its first block allocates again, as often as the data makes it (analysis/stream-footprint.ts):
  // the count per call is not known before running.
  if (allocating.some((t) => t.type === 'Stream')) return { allocs: null, frees: null, bytes: null };
  const allocs = sumOrNull(allocating.map((t) => t.executionsPerCall));
  const bytes = sumOrNull(allocating.map((t) => (t.bytes === null || t.executionsPerCall === null ? null : t.bytes * t.executionsPerCall)));
  return { allocs, frees: allocs, bytes };
}

function initCost(inInit: TransientInfo[]): ModePlan['init'] {
  return { allocs: inInit.length, bytes: sumOrNull(inInit.map((t) => t.bytes)) };
}

export function planModes(
  transients: TransientInfo[],
  target: Target,
  packed: Record<string, PackedStorageLayout | null>,
): Record<Mode, ModePlan> {
  const heap = transients.filter((t) => allocatesPerCall(t.allocation));
  const fileInit = transients.filter((t) => t.allocation.kind === 'init');
  const fileExternal = transients.filter((t) => t.allocation.kind === 'external');
  const commonNotes: string[] = [];
  if (fileExternal.length) {
    commonNotes.push(`${fileExternal.length} transient(s) are already External in the file: every mode needs a caller workspace for them`);
  }

  const plan = (stillAllocating: TransientInfo[], inInit: TransientInfo[], notes: string[]): ModePlan => ({
    perCall: perCallCost(stillAllocating),
    init: initCost(inInit),
    workspace: {},
    stillAllocating: stillAllocating.map((t) => t.id),
    pooled: 0,
    notes: [...notes, ...commonNotes],
  });

  const scoped = plan(heap, fileInit, []);

  const persistentMoves = heap.filter((t) => t.eligible.PERSISTENT);
  const persistent = plan(
    heap.filter((t) => !t.eligible.PERSISTENT),
    [...fileInit, ...persistentMoves],
    persistentMoves.length ? [`${persistentMoves.length} transient(s) move to init; they are sized with the init-time symbol values`] : [],
  );
  const persistentLeft = heap.length - persistentMoves.length;
  if (persistentLeft > 0) persistent.notes.unshift(`partially persistent: ${persistentLeft} transient(s) still allocate per call`);

  let pool: ModePlan;
  if (target === 'gpu') {
    const pooled = heap.filter((t) => t.type === 'Array' && t.effectiveStorage === 'GPU_Global');
    pool = plan(heap, fileInit, [
      `${pooled.length} GPU_Global transient(s) allocate from the stream-ordered pool (cudaMallocAsync/cudaFreeAsync); the pool keeps memory reserved between calls`,
    ]);
    pool.pooled = pooled.length;
  } else {
    pool = plan(heap, fileInit, ['CPU target: POOL changes nothing and is identical to SCOPED']);
  }

  const externalMoves = heap.filter((t) => t.eligible.EXTERNAL);
  const left = heap.filter((t) => !t.eligible.EXTERNAL);
  const external = plan(left, fileInit, left.length ? [`partially external: ${left.length} transients still allocate per call`] : []);
  const storages = new Set([...externalMoves, ...fileExternal].map((t) => t.effectiveStorage));
  for (const s of [...storages].sort()) external.workspace[s] = packed[s]?.bytes ?? null;

  return { SCOPED: scoped, PERSISTENT: persistent, POOL: pool, EXTERNAL: external };
}
