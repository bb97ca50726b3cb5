/**
 * CPU_Persistent maps, as DaCe's cpu.py `_generate_MapEntry` emits them: not a loop but one OpenMP parallel
 * region, `#pragma omp parallel { … }`, whose body every thread of the team runs once. The map's range is not
 * iterated: its (single) parameter is the thread number (`omp_get_thread_num()`) and `__omp_num_threads` the
 * team size, as DaCe defines them. CPU_Multicore maps inside it (DaCe's default for maps there) share their
 * loop among the team with `#pragma omp for` instead of opening a region of their own (dataflow.ts).
 */
import type { MapEntryNode, SdfgFile } from '../model/sdfg.js';
import type { EmitCore, Env } from './core.js';
import { statesOf } from './graph.js';
import { cppIdent } from './names.js';

/** The name DaCe gives the team size inside a CPU_Persistent map. */
const NUM_THREADS = '__omp_num_threads';

/** Whether the file has a CPU_Persistent map (the program then includes omp.h). */
export function hasPersistentMap(file: SdfgFile): boolean {
  return file.sdfgs.some((s) =>
    [...statesOf(s)].some((st) => st.nodes.some((n) => n.kind === 'map_entry' && n.map.schedule === 'CPU_Persistent')),
  );
}

/** `inner`: the map body's environment (extended here); `body` emits the body inside the region. */
export function emitPersistentRegion(core: EmitCore, inner: Env, entry: MapEntryNode, body: () => void): void {
  const o = core.out;
  const map = entry.map;
  core.usesOpenMP = true;
  inner.parallel = true;
  inner.persistent = true;
  o.mark(entry.jsonPath);
  o.line(`#pragma omp parallel${map.ompNumThreads > 0 ? ` num_threads(${map.ompNumThreads})` : ''}`);
  o.openBrace();
  const tid = cppIdent(map.params[0]!);
  o.line(`const int64_t ${tid} = omp_get_thread_num();`);
  o.line(`const int64_t ${NUM_THREADS} = omp_get_num_threads();`);
  o.line(`(void)${tid}; (void)${NUM_THREADS};`);
  inner.names.set(map.params[0]!, tid);
  inner.names.set(NUM_THREADS, NUM_THREADS);
  body();
  o.close();
}
