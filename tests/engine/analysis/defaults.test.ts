/**
 * DaCe's default schedules and storages (analysis/defaults.ts), rule by rule, on hand-made models: the cases
 * of infer_types.set_default_schedule_and_storage_types with dtypes' SCOPEDEFAULT_* tables.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { DefaultResolution } from '../../../electron/engine/analysis/defaults.js';
import type { MapEntryNode, SdfgFile, StateBlock } from '../../../electron/engine/model/sdfg.js';
import { access, desc, file, mapEntry, mapExit, memlet, nested, sdfg, state, tasklet } from '../../../bench/lib/model-builder.js';

/** One state: an outer map (schedule `outer`) over A with a transient `t` inside, and an inner map in it. */
function twoLevels(outer: string, inner = 'Default', storage = 'Default', tShape = ['4']): { f: SdfgFile; st: StateBlock } {
  const st = state(
    's',
    [
      access('A'), // 0
      mapEntry('outer', ['i'], [['0', 'N - 1']], outer), // 1
      mapEntry('inner', ['j'], [['0', '3']], inner, 1), // 2
      tasklet('w', 'o = a', 2), // 3
      mapExit(2, 2), // 4
      access('t', 1), // 5
      mapExit(1, 1), // 6
      access('B'), // 7
    ],
    [
      memlet(0, 1, 'A', ['0:N - 1'], { dstConnector: 'IN_A' }),
      memlet(1, 2, 'A', ['i'], { srcConnector: 'OUT_A', dstConnector: 'IN_A' }),
      memlet(2, 3, 'A', ['i'], { srcConnector: 'OUT_A', dstConnector: 'a' }),
      memlet(3, 4, 't', ['j'], { srcConnector: 'o', dstConnector: 'IN_t' }),
      memlet(4, 5, 't', ['0:3'], { srcConnector: 'OUT_t' }),
      memlet(5, 6, 'B', ['i'], { dstConnector: 'IN_B' }),
      memlet(6, 7, 'B', ['0:N - 1'], { srcConnector: 'OUT_B' }),
    ],
  );
  (st.nodes[1] as MapEntryNode).exitId = 6;
  (st.nodes[2] as MapEntryNode).exitId = 4;
  const f = file(
    sdfg('two', [desc('A', ['N'], { transient: false }), desc('B', ['N'], { transient: false }), desc('t', tShape, { storage })], [st], {
      symbols: ['N'],
    }),
  );
  return { f, st };
}

const schedules = (f: SdfgFile, st: StateBlock) => {
  const d = new DefaultResolution();
  return st.nodes.filter((n): n is MapEntryNode => n.kind === 'map_entry').map((n) => d.scheduleOf(f.root, st, n));
};
const storageOf = (f: SdfgFile, name: string) =>
  analyze(f, { symbols: new Map([['N', 16n]]), defaultSymbol: null, target: null }).transients.find((t) => t.name === name)!
    .effectiveStorage;

describe('default schedules', () => {
  it('a top-level map with no schedule is CPU_Multicore (SCOPEDEFAULT_SCHEDULE[None]); a map inside it Sequential', () => {
    const { f, st } = twoLevels('Default');
    expect(schedules(f, st)).toEqual(['CPU_Multicore', 'Sequential']);
  });

  it('explicit schedules stay; a Default map inside a Sequential map is Sequential', () => {
    const { f, st } = twoLevels('Sequential');
    expect(schedules(f, st)).toEqual(['Sequential', 'Sequential']);
    const explicit = twoLevels('CPU_Multicore', 'CPU_Multicore');
    expect(schedules(explicit.f, explicit.st)).toEqual(['CPU_Multicore', 'CPU_Multicore']);
  });

  it('a Default map over GPU_Global data is a kernel (STORAGEDEFAULT_SCHEDULE), its inner maps thread blocks', () => {
    const { f, st } = twoLevels('Default');
    f.root.arrays.set('A', { ...f.root.arrays.get('A')!, storage: 'GPU_Global' });
    expect(schedules(f, st)).toEqual(['GPU_Device', 'GPU_ThreadBlock']);
  });

  it('maps of a nested SDFG take the schedules around the NestedSDFG node', () => {
    const inner = () => {
      const ist = state(
        'is',
        [access('x'), mapEntry('m', ['k'], [['0', '3']]), tasklet('t', 'o = a', 1), mapExit(1, 1), access('y')],
        [
          memlet(0, 1, 'x', ['0:3'], { dstConnector: 'IN_x' }),
          memlet(1, 2, 'x', ['k'], { srcConnector: 'OUT_x', dstConnector: 'a' }),
          memlet(2, 3, 'y', ['k'], { srcConnector: 'o', dstConnector: 'IN_y' }),
          memlet(3, 4, 'y', ['0:3'], { srcConnector: 'OUT_y' }),
        ],
      );
      (ist.nodes[1] as MapEntryNode).exitId = 3;
      return { s: sdfg('inner', [desc('x', ['4'], { transient: false }), desc('y', ['4'], { transient: false })], [ist]), ist };
    };
    // At the top level of the outer state: its maps are top-level maps again.
    const a = inner();
    const top = state('o', [nested(a.s)]);
    const fa = file(sdfg('outer', [], [top]));
    expect(new DefaultResolution().scheduleOf(a.s, a.ist, a.ist.nodes[1] as MapEntryNode)).toBe('CPU_Multicore');
    void fa;
    // Inside a (Default → CPU_Multicore) map: Sequential.
    const b = inner();
    const around = state('o', [mapEntry('par', ['i'], [['0', '7']]), nested(b.s, {}, 0), mapExit(0, 0)]);
    (around.nodes[0] as MapEntryNode).exitId = 2;
    const fb = file(sdfg('outer', [], [around]));
    const d = new DefaultResolution();
    expect(d.scheduleOf(fb.root, around, around.nodes[0] as MapEntryNode)).toBe('CPU_Multicore');
    expect(d.scheduleOf(b.s, b.ist, b.ist.nodes[1] as MapEntryNode)).toBe('Sequential');
    expect(d.inParallel(b.s, b.ist, b.ist.nodes[2]!)).toBe(true);
  });
});

describe('default storages', () => {
  it('inside a CPU_Multicore map (also a resolved Default one): Register; symbolic or large: the heap', () => {
    expect(storageOf(twoLevels('Default').f, 't')).toBe('Register');
    expect(storageOf(twoLevels('CPU_Multicore').f, 't')).toBe('Register');
    expect(storageOf(twoLevels('Default', 'Default', 'Default', ['N']).f, 't')).toBe('CPU_Heap');
    expect(storageOf(twoLevels('Default', 'Default', 'Default', ['10000']).f, 't')).toBe('CPU_Heap');
  });

  it('inside a top-level Sequential map: CPU_Heap (_determine_child_storage skips Sequential scopes)', () => {
    expect(storageOf(twoLevels('Sequential').f, 't')).toBe('CPU_Heap');
  });

  it('explicit Register data of symbolic size lives on the heap on the CPU, as DaCe falls back to new[]', () => {
    expect(storageOf(twoLevels('Sequential', 'Default', 'Register', ['N']).f, 't')).toBe('CPU_Heap');
    expect(storageOf(twoLevels('Sequential', 'Default', 'Register', ['4']).f, 't')).toBe('Register');
  });

  it('inside a kernel without thread-block maps: Register (implicit GPU_ThreadBlock), with them: GPU_Shared', () => {
    const noBlocks = twoLevels('GPU_Device', 'Sequential');
    expect(storageOf(noBlocks.f, 't')).toBe('Register');
    const withBlocks = twoLevels('GPU_Device', 'GPU_ThreadBlock');
    expect(storageOf(withBlocks.f, 't')).toBe('GPU_Shared');
  });
});
