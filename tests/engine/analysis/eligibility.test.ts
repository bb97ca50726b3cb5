import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { access, desc, file, loop, mapEntry, mapExit, nested, scalar, sdfg, state } from '../../../bench/lib/model-builder.js';

const run = (root: ReturnType<typeof sdfg>, symbols: Record<string, bigint> = {}, target: 'cpu' | 'gpu' | null = null): Analysis =>
  analyze(file(root), { symbols: new Map(Object.entries(symbols)), defaultSymbol: null, target });
const get = (a: Analysis, id: string) => a.transients.find((t) => t.id === id)!;

describe('eligibility for PERSISTENT and EXTERNAL', () => {
  it('accepts a top-level Array and resolves Default storage to CPU_Heap', () => {
    const t = get(run(sdfg('m', [desc('T', ['N'])], [state('s', [access('T')])], { symbols: ['N'] })), '0:T');
    expect(t.eligible).toEqual({ PERSISTENT: true, EXTERNAL: true });
    expect(t.reason).toBeNull();
    expect(t.effectiveStorage).toBe('CPU_Heap');
  });

  it('rejects transients accessed inside a map, naming the map and the state', () => {
    const root = sdfg(
      'm',
      [desc('T', ['10'], { storage: 'CPU_Heap' })],
      [state('compute', [mapEntry('inner_map', ['i'], [['0', '9']]), access('T', 0), mapExit(0, 0)])],
    );
    const t = get(run(root), '0:T');
    expect(t.eligible).toEqual({ PERSISTENT: false, EXTERNAL: false });
    expect(t.reason).toMatch(/inside map 'inner_map' in state 'compute'/);
  });

  it('rejects views, Register storage, constants and already Persistent/External transients', () => {
    const root = sdfg(
      'm',
      [
        desc('V', ['4'], { type: 'ArrayView' }),
        desc('R', ['4'], { storage: 'Register' }),
        desc('C', ['4']),
        desc('P', ['4'], { lifetime: 'Persistent' }),
        desc('X', ['4'], { lifetime: 'External' }),
      ],
      [
        state(
          's',
          ['V', 'R', 'C', 'P', 'X'].map((n) => access(n)),
        ),
      ],
    );
    root.constants.set('C', { descriptor: null, value: [1, 2, 3, 4] });
    const a = run(root);
    expect(get(a, '0:V').reason).toMatch(/type ArrayView is not exactly Array or Scalar/);
    expect(get(a, '0:R').reason).toMatch(/storage Register/);
    expect(get(a, '0:C').reason).toMatch(/constants_prop/);
    expect(get(a, '0:P').reason).toMatch(/already Persistent/);
    expect(get(a, '0:X').reason).toMatch(/already External/);
    expect(get(a, '0:P').allocation).toEqual({ kind: 'init' });
    expect(get(a, '0:X').allocation).toEqual({ kind: 'external' });
    // Constants are compiled into the program (as DaCe does): nothing to allocate, in any mode.
    expect(get(a, '0:C').allocation).toEqual({ kind: 'none', why: expect.stringMatching(/constants_prop/) });
    expect(a.modes.SCOPED.stillAllocating).not.toContain('0:C');
    for (const id of ['0:V', '0:R', '0:C', '0:P', '0:X']) expect(get(a, id).eligible).toEqual({ PERSISTENT: false, EXTERNAL: false });
  });

  it('keeps CPU scalars out of EXTERNAL only', () => {
    const t = get(run(sdfg('m', [scalar('s')], [state('a', [access('s')])])), '0:s');
    expect(t.eligible).toEqual({ PERSISTENT: true, EXTERNAL: false });
    expect(t.reason).toMatch(/EXTERNAL only: a Scalar on the CPU/);
    expect(t.allocation.kind).toBe('none');
  });

  it('accepts GPU_Global scalars for EXTERNAL', () => {
    const t = get(run(sdfg('m', [scalar('s', { storage: 'GPU_Global' })], [state('a', [access('s')])])), '0:s');
    expect(t.eligible).toEqual({ PERSISTENT: true, EXTERNAL: true });
  });

  it('rejects sizes that use a symbol assigned inside the SDFG (loop variable)', () => {
    const root = sdfg('m', [desc('T', ['i + 1'])], [loop('L', 'i', 'i = 0', 'i < 4', 'i = i + 1', [state('s', [access('T')])])]);
    expect(get(run(root), '0:T').reason).toMatch(/total_size uses 'i', assigned inside SDFG 'm'/);
  });

  it('translates nested sizes through symbol_mapping and rejects unmapped inner symbols', () => {
    const inner = sdfg('inner', [desc('a', ['K']), desc('b', ['Q'])], [state('i0', [access('a'), access('b')])], { symbols: ['K', 'Q'] });
    const root = sdfg('outer', [], [state('s', [nested(inner, { K: '2*N' })])], { symbols: ['N'] });
    const a = run(root, { N: 8n });
    expect(get(a, '1:a').bytes).toBe(8n * 16n);
    expect(get(a, '1:a').eligible.EXTERNAL).toBe(true);
    expect(get(a, '1:b').bytes).toBeNull();
    expect(get(a, '1:b').reason).toMatch(/inner symbol 'Q' of nested SDFG 'inner' that is not mapped/);
  });

  it('rejects transients of a nested SDFG that runs inside a map (safety rule)', () => {
    const inner = sdfg('body', [desc('t', ['100000'])], [state('i0', [access('t')])]);
    const root = sdfg(
      'outer',
      [],
      [state('s', [mapEntry('par', ['i'], [['0', '7']], 'CPU_Multicore'), nested(inner, {}, 0), mapExit(0, 0)])],
    );
    const t = get(run(root), '1:t');
    expect(t.eligible).toEqual({ PERSISTENT: false, EXTERNAL: false });
    expect(t.reason).toMatch(/runs inside map 'par' in state 's'/);
  });
});

describe('allocation sites and executions per call', () => {
  it('allocates a one-state transient per state execution, multiplied by loop trip counts', () => {
    const root = sdfg('m', [desc('T', ['N'])], [loop('L', 'i', 'i = 0', '(i < N)', 'i = (i + 2)', [state('s', [access('T')])])], {
      symbols: ['N'],
    });
    const t = get(run(root, { N: 9n }), '0:T');
    expect(t.allocation.kind).toBe('state');
    expect(t.executionsPerCall).toBe(5n);
  });

  it('allocates a multi-state transient once per SDFG invocation', () => {
    const root = sdfg('m', [desc('T', ['4'])], [state('a', [access('T')]), state('b', [access('T')])]);
    const t = get(run(root), '0:T');
    expect(t.allocation).toEqual({ kind: 'sdfg', sdfg: 0 });
    expect(t.executionsPerCall).toBe(1n);
  });

  it('allocates a map-local heap transient once per map iteration (nested maps multiply)', () => {
    const root = sdfg(
      'm',
      [desc('T', ['N'], { storage: 'CPU_Heap' })],
      [
        state('s', [
          mapEntry('outer', ['i'], [['0', '3']]),
          mapEntry('inner', ['j'], [['0', 'N - 1']], 'Default', 0),
          access('T', 1),
          mapExit(1, 1),
          mapExit(0, 0),
        ]),
      ],
      { symbols: ['N'] },
    );
    const t = get(run(root, { N: 5n }), '0:T');
    expect(t.allocation).toMatchObject({ kind: 'scope', mapEntryId: 1 });
    expect(t.executionsPerCall).toBe(20n);
  });

  it('puts small constant Default arrays inside CPU maps on the stack', () => {
    const root = sdfg('m', [desc('T', ['16'])], [state('s', [mapEntry('k', ['i'], [['0', '9']]), access('T', 0), mapExit(0, 0)])]);
    const t = get(run(root), '0:T');
    expect(t.effectiveStorage).toBe('Register');
    expect(t.allocation).toEqual({ kind: 'none', why: 'stack storage (Register)' });
  });

  // DaCe adds an implicit GPU_ThreadBlock to the scope chain of a kernel without thread-block maps before it
  // picks storages (analysis/defaults.ts), so a Default transient there is per-thread Register, not GPU_Shared.
  it('resolves Default inside a GPU_Device map without thread-block maps to Register and detects the GPU target', () => {
    const root = sdfg(
      'm',
      [desc('T', ['16'])],
      [state('s', [mapEntry('kernel', ['i'], [['0', '9']], 'GPU_Device'), access('T', 0), mapExit(0, 0)])],
    );
    const a = run(root);
    expect(a.target).toBe('gpu');
    expect(a.targetReason).toMatch(/map 'kernel'.*GPU_Device/);
    expect(get(a, '0:T').effectiveStorage).toBe('Register');
  });

  it('hoists GPU_Global allocations out of kernels', () => {
    const root = sdfg(
      'm',
      [desc('T', ['16'], { storage: 'GPU_Global' })],
      [state('s', [mapEntry('kernel', ['i'], [['0', '9']], 'GPU_Device'), access('T', 0), mapExit(0, 0)])],
    );
    const t = get(run(root), '0:T');
    expect(t.allocation.kind).toBe('state');
    expect(t.executionsPerCall).toBe(1n);
  });

  it('reports unknown executions for data-dependent loops with a warning', () => {
    const root = sdfg('m', [desc('T', ['4'])], [loop('W', '', null, '(x > 0)', null, [state('s', [access('T')])])], { symbols: ['x'] });
    const a = run(root);
    expect(get(a, '0:T').executionsPerCall).toBeNull();
    expect(a.modes.SCOPED.perCall.allocs).toBeNull();
    expect(a.warnings.some((w) => /executions per call unknown for 1 transient/.test(w))).toBe(true);
  });
});
