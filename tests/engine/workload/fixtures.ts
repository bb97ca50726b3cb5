/**
 * Small workloads built in code for the workload profiler's tests: `writer` fills its transient `w` before reading
 * it; `stale` reads its transient `tmp` without ever writing it, so in EXTERNAL it reads whatever the program
 * before it left in the shared workspace (on purpose: the poisoning must catch it).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sdfgText } from '../codegen/tasklet-sdfg.js';

const WRITER = sdfgText({
  name: 'writer',
  arrays: { A: { shape: ['N'] }, C: { shape: ['N'] }, w: { shape: ['N'], transient: true } },
  states: [
    {
      label: 'fill',
      inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
      outputs: [{ conn: 'o', data: 'w', index: ['i'] }],
      code: 'o = a * 3.0',
    },
    {
      label: 'use',
      inputs: [{ conn: 'x', data: 'w', index: ['i'] }],
      outputs: [{ conn: 'o', data: 'C', index: ['i'] }],
      code: 'o = x + 1.0',
    },
  ],
});

const STALE = sdfgText({
  name: 'stale',
  arrays: { A: { shape: ['N'] }, B: { shape: ['N'] }, tmp: { shape: ['N'], transient: true } },
  states: [
    {
      label: 'read_stale',
      inputs: [
        { conn: 'a', data: 'A', index: ['i'] },
        { conn: 't', data: 'tmp', index: ['i'] },
      ],
      outputs: [{ conn: 'o', data: 'B', index: ['i'] }],
      code: 'o = a + t',
    },
  ],
});

/** Reads `C` (what writer writes) through its own transient `t`: a clean consumer of a shared array. */
const READER = sdfgText({
  name: 'reader',
  arrays: { C: { shape: ['N'] }, D: { shape: ['N'] }, t: { shape: ['N'], transient: true } },
  states: [
    {
      label: 'scale',
      inputs: [{ conn: 'c', data: 'C', index: ['i'] }],
      outputs: [{ conn: 'o', data: 't', index: ['i'] }],
      code: 'o = c * 2.0',
    },
    {
      label: 'shift',
      inputs: [{ conn: 'x', data: 't', index: ['i'] }],
      outputs: [{ conn: 'o', data: 'D', index: ['i'] }],
      code: 'o = x - 1.0',
    },
  ],
});

/** Writes writer.sdfg, reader.sdfg, stale.sdfg and workload.json (with `doc`'s fields over the defaults) to a fresh folder. */
export function writeWorkload(doc: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tlab-wl-test-'));
  writeFileSync(join(dir, 'writer.sdfg'), WRITER);
  writeFileSync(join(dir, 'reader.sdfg'), READER);
  writeFileSync(join(dir, 'stale.sdfg'), STALE);
  const path = join(dir, 'workload.json');
  writeFileSync(
    path,
    JSON.stringify({
      schema: 'transient-lab/workload@1',
      name: 'fixture',
      programs: { writer: { sdfg: 'writer.sdfg' }, stale: { sdfg: 'stale.sdfg', symbols: { N: 100 } } },
      symbols: { N: 64 },
      sequence: ['writer'],
      steps: 2,
      ...doc,
    }),
  );
  return path;
}
