/** Which backend the program is meant for: any GPU storage or GPU schedule anywhere makes it a GPU program. */
import type { SdfgFile } from '../model/sdfg.js';
import type { Target } from './types.js';
import { forEachState } from './walk.js';

const GPU_SCHEDULES = new Set(['GPU_Device', 'GPU_ThreadBlock', 'GPU_ThreadBlock_Dynamic', 'GPU_Persistent', 'GPU_Default']);

export const isGpuStorage = (storage: string): boolean => storage.startsWith('GPU_');
export const isGpuSchedule = (schedule: string): boolean => GPU_SCHEDULES.has(schedule);

export function detectTarget(file: SdfgFile, override: Target | null): { target: Target; reason: string } {
  const evidence = findGpuEvidence(file);
  if (override) {
    const detected = evidence ? `detected gpu: ${evidence}` : 'detected cpu: no GPU storage or schedule';
    return { target: override, reason: `--target ${override} (${detected})` };
  }
  return evidence
    ? { target: 'gpu', reason: evidence }
    : { target: 'cpu', reason: 'no GPU storage or GPU schedule anywhere in the program' };
}

function findGpuEvidence(file: SdfgFile): string | null {
  for (const sdfg of file.sdfgs) {
    for (const desc of sdfg.arrays.values()) {
      if (isGpuStorage(desc.storage)) return `container '${desc.name}' of SDFG '${sdfg.name}' has storage ${desc.storage}`;
    }
  }
  let found: string | null = null;
  for (const sdfg of file.sdfgs) {
    forEachState(sdfg.body, (state) => {
      if (found) return;
      for (const n of state.nodes) {
        const schedule =
          n.kind === 'map_entry'
            ? n.map.schedule
            : n.kind === 'consume_entry' || n.kind === 'library' || n.kind === 'nested_sdfg'
              ? n.schedule
              : null;
        if (schedule && isGpuSchedule(schedule)) {
          const what = n.kind === 'map_entry' ? `map '${n.map.label}'` : `${n.kind.replace('_', ' ')} '${n.label}'`;
          found = `${what} in state '${state.label}' of SDFG '${sdfg.name}' has schedule ${schedule}`;
          return;
        }
      }
    });
    if (found) return found;
  }
  return null;
}
