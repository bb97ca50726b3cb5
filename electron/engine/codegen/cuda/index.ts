/**
 * The CUDA backend's entry: builds a `CudaBackend` for one generation (from the analysis and the memory plan)
 * or for the subset check's dry run. docs/gpu.md describes the generated code.
 */
import type { Analysis } from '../../analysis/types.js';
import type { Sdfg, SdfgFile } from '../../model/sdfg.js';
import type { MemoryPlan, Placement } from '../placement.js';
import type { GenerateOptions } from '../types.js';
import { CudaBackend } from './backend.js';
import { isDeviceStorage, UINT64_MAX } from './common.js';
import { isAliasType } from '../../analysis/aliases.js';
import { aliasRoots } from '../views.js';

export { CudaBackend } from './backend.js';
/** The storage an SDFG's argument inherits: the outer container its connector's memlet names. */
function argumentStorage(s: Sdfg, name: string, own: (s: Sdfg, name: string) => string): string | null {
  const parent = s.parent;
  if (!parent) return null;
  for (const e of parent.state.edges) {
    if (e.memlet.data === null) continue;
    if ((e.dst === parent.node.id && e.dstConnector === name) || (e.src === parent.node.id && e.srcConnector === name))
      return own(parent.sdfg, e.memlet.data);
  }
  return null;
}

function storageResolver(transientStorage: (s: Sdfg, name: string) => string | null): (s: Sdfg, name: string) => string {
  const resolve = (s: Sdfg, name: string): string => {
    const d = s.arrays.get(name);
    if (!d) return 'CPU_Heap';
    // A view or reference lives where the data it aliases lives (a reference: when all it may alias agree).
    const roots = isAliasType(d.type) ? [...new Set(aliasRoots(s, name).map((r) => resolve(s, r)))] : [];
    if (roots.length === 1) return roots[0]!;
    if (d.transient) return transientStorage(s, name) ?? (d.storage === 'Default' ? 'CPU_Heap' : d.storage);
    if (d.storage !== 'Default') return d.storage;
    return argumentStorage(s, name, resolve) ?? 'CPU_Heap';
  };
  return resolve;
}

export function cudaBackend(
  file: SdfgFile,
  analysis: Analysis,
  opts: GenerateOptions,
  placementOf: (s: Sdfg, name: string) => Placement,
): CudaBackend {
  const infos = new Map(analysis.transients.map((t) => [t.id, t]));
  const storageOf = storageResolver((s, name) => infos.get(`${s.sdfgIndex}:${name}`)?.effectiveStorage ?? null);
  const pool = opts.mode === 'POOL';
  let pooled = false;
  if (pool) {
    for (const s of file.sdfgs) {
      for (const [name, d] of s.arrays) {
        if (!d.transient || d.type !== 'Array') continue;
        const p = placementOf(s, name);
        if ((p.kind === 'heap' || p.kind === 'persistent') && isDeviceStorage(p.storage)) pooled = true;
      }
    }
  }
  return new CudaBackend({
    pool,
    pooled,
    releaseThreshold: opts.poolReleaseThreshold ?? UINT64_MAX,
    storageOf,
    isArray: (index) => analysis.transients[index]?.type === 'Array',
    transientNames: analysis.transients.map((t) => t.name),
  });
}

/** The subset check's backend: no analysis, so Default transients are taken as device-accessible. */
export function dryRunCudaBackend(_file: SdfgFile, _plan: MemoryPlan): CudaBackend {
  const storageOf = storageResolver((s, name) => {
    const d = s.arrays.get(name)!;
    return d.storage === 'Default' ? 'GPU_Global' : d.storage;
  });
  return new CudaBackend({ pool: false, pooled: false, releaseThreshold: UINT64_MAX, storageOf, isArray: () => true, transientNames: [] });
}
