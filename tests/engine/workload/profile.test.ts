import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { advise } from '../../../electron/engine/advise/index.js';
import { loadSubject } from '../../../electron/engine/advise/subject.js';
import { examplesDir } from '../../../electron/engine/paths.js';
import { profileWorkload, type WorkloadProfileOptions } from '../../../electron/engine/workload/profile.js';
import { NodeWorkloadHost } from '../../../electron/runner/workload-host.js';
import { writeWorkload } from './fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function options(over: Partial<WorkloadProfileOptions> = {}): WorkloadProfileOptions {
  return {
    modes: ['SCOPED', 'PERSISTENT', 'EXTERNAL'],
    layout: 'packed',
    steps: null,
    warmup: 1,
    calls: 6,
    processes: 1,
    symbols: new Map(),
    defaultSymbol: null,
    seed: 0n,
    keepOutputs: false,
    timeoutMs: 120_000,
    cxxflags: ['-O1'],
    host: new NodeWorkloadHost(),
    ...over,
  };
}

function fixture(doc: Record<string, unknown>): string {
  const path = writeWorkload(doc);
  dirs.push(dirname(path));
  return path;
}

describe('profile workload.json', () => {
  it('sizes one shared workspace to the largest program and PERSISTENT to the sum (computed by hand)', async () => {
    // writer holds w (N = 64 doubles), stale holds tmp (N = 100 doubles): one transient each.
    const path = fixture({ sequence: ['writer', 'writer'] });
    const { result } = await profileWorkload(path, options());
    const w = 64 * 8;
    expect(result.footprint['EXTERNAL (packed)']).toEqual({ CPU_Heap: w });
    expect(result.footprint.PERSISTENT).toEqual({ CPU_Heap: w });
    expect(result.perProgram.writer).toEqual({ workspace: { CPU_Heap: w }, persistent: { CPU_Heap: w } });
    expect(result.programs[0]!.positions).toEqual([0, 1]);
    expect(result.verification['EXTERNAL (packed)']!.map((c) => [c.step, c.position, c.ok])).toEqual([
      [0, 0, true],
      [0, 1, true],
      [1, 0, true],
      [1, 1, true],
    ]);
    expect(result.perStep.SCOPED!.samples).toBe(6);
    expect(result.perStep.SCOPED!.allocs).toBe(2);
    expect(result.perStep['EXTERNAL (packed)']!.allocs).toBe(0);
    expect(result.perCallByProgram.SCOPED!.writer!.samples).toBe(12);
    expect(result.findings.filter((f) => /stale|reads workspace/.test(f))).toEqual([]);
  }, 300_000);

  it('matches the advisor on the bundled example: EXTERNAL the largest need, PERSISTENT the sum', async () => {
    const path = join(examplesDir(), 'workload-dycore.json');
    const symbols = new Map([
      ['I', 16n],
      ['J', 16n],
      ['K', 8n],
      ['N', 4096n],
    ]);
    const { result } = await profileWorkload(path, options({ symbols, steps: 1, calls: 2 }));
    const subject = await loadSubject(path, { symbols, defaultSymbol: null, target: null });
    const a = advise(subject, { symbols, defaultSymbol: null, target: null, layout: 'packed' });
    const ext = a.footprint.EXTERNAL.CPU_Heap;
    const persistent = a.footprint.PERSISTENT.CPU_Heap;
    expect(result.footprint['EXTERNAL (packed)']!.CPU_Heap).toBe(Number(ext));
    expect(result.footprint.PERSISTENT!.CPU_Heap).toBe(Number(persistent));
    expect(
      Object.values(result.verification)
        .flat()
        .every((c) => c.ok),
    ).toBe(true);
  }, 600_000);

  it('names a program that reads workspace bytes another program left behind, without crashing', async () => {
    const path = fixture({
      sequence: ['writer', 'stale'],
      symbols: { N: 100 },
      programs: { writer: { sdfg: 'writer.sdfg' }, stale: { sdfg: 'stale.sdfg' } },
    });
    const { result } = await profileWorkload(path, options({ modes: ['SCOPED', 'EXTERNAL'] }));
    const checks = result.verification['EXTERNAL (packed)']!;
    expect(checks.filter((c) => c.program === 'writer').every((c) => c.ok && !c.staleWorkspace)).toBe(true);
    const stale = checks.filter((c) => c.program === 'stale');
    expect(stale.length).toBe(2);
    expect(stale.every((c) => c.staleWorkspace === true && !c.ok)).toBe(true);
    expect(
      result.findings.some((f) => f.startsWith('EXTERNAL (packed): program stale (position 1) reads workspace bytes it did not write')),
    ).toBe(true);
  }, 300_000);

  it('reports a later, larger call of a program whose workspace gt4py configured at its first call', async () => {
    const path = fixture({ sequence: ['writer', { program: 'writer', symbols: { N: 256 } }] });
    const { result } = await profileWorkload(path, options({ modes: ['SCOPED', 'EXTERNAL'] }));
    expect(result.overruns).toEqual([
      {
        variant: 'EXTERNAL (packed)',
        program: 'writer',
        position: 1,
        storage: 'CPU_Heap',
        neededBytes: 256 * 8,
        configuredBytes: 64 * 8,
        guardWritten: true,
      },
    ]);
    // Run as the profiler runs it (each call's own layout), the larger call is fine and the workspace covers it.
    expect(result.footprint['EXTERNAL (packed)']).toEqual({ CPU_Heap: 256 * 8 });
    expect(
      Object.values(result.verification)
        .flat()
        .every((c) => c.ok),
    ).toBe(true);
    expect(
      result.findings.some((f) =>
        /writer at position 1 needs 2(\.0+)? KiB of CPU_Heap, but its first call configured 512 B: the guard bytes/.test(f),
      ),
    ).toBe(true);
  }, 300_000);
});
