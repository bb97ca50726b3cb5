/**
 * Which memory mode a DaCe build is, read from what the build is (docs/dace-folders.md), never from the folder's
 * name: the lifetimes and `pool` flags of the SDFG DaCe saved after code generation, and the External functions
 * its sources define. A DaCe library is built in one mode; comparing modes takes one folder per mode.
 */
import type { Mode } from '../analysis/types.js';
import { TlabError } from '../errors.js';
import type { DaceFolder } from './folder.js';

export interface DetectedMode {
  mode: Mode;
  /** How it was decided, for the output: `3 External transients (CPU_Heap), __dace_get_external_memory_size_CPU_Heap`. */
  reason: string;
}

const list = (names: string[]) => (names.length > 4 ? `${names.slice(0, 4).join(', ')}, …` : names.join(', '));

export function detectMode(folder: DaceFolder): DetectedMode {
  const external: Array<{ name: string; storage: string }> = [];
  const persistent: string[] = [];
  const pooled: string[] = [];
  for (const s of folder.file.sdfgs) {
    for (const [name, d] of s.arrays) {
      if (!d.transient) continue;
      if (d.lifetime === 'External') external.push({ name, storage: d.storage === 'Default' ? 'CPU_Heap' : d.storage });
      else if (d.lifetime === 'Persistent') persistent.push(name);
      if (d.pool) pooled.push(name);
    }
  }
  const sdfgStorages = [...new Set(external.map((e) => e.storage))].sort();
  if (external.length || folder.storages.length) {
    const missing = sdfgStorages.filter((s) => !folder.storages.includes(s));
    if (!folder.storages.length || missing.length) {
      throw new TlabError(
        'input',
        `the SDFG has External transients in ${missing.join(', ')} (${list(external.map((e) => e.name))}), but the build's sources define no __dace_get_external_memory_size_${missing[0]}: the SDFG and the build disagree`,
        { file: folder.sdfgPath },
      );
    }
    if (!external.length) {
      throw new TlabError(
        'input',
        `the build defines ${folder.storages.map((s) => `__dace_get_external_memory_size_${s}`).join(', ')}, but no transient of the SDFG is External: the SDFG and the build disagree`,
        { file: folder.sdfgPath },
      );
    }
    return {
      mode: 'EXTERNAL',
      reason: `${external.length} External transient${external.length === 1 ? '' : 's'} (${list(external.map((e) => e.name))}); exports ${folder.storages.map((s) => `__dace_get_external_memory_size_${s}`).join(', ')}`,
    };
  }
  if (persistent.length) {
    return {
      mode: 'PERSISTENT',
      reason: `${persistent.length} Persistent transient${persistent.length === 1 ? '' : 's'} (${list(persistent)}), allocated in init`,
    };
  }
  if (pooled.length)
    return { mode: 'POOL', reason: `${pooled.length} pooled transient${pooled.length === 1 ? '' : 's'} (${list(pooled)})` };
  return { mode: 'SCOPED', reason: 'no Persistent, External or pooled transient' };
}
