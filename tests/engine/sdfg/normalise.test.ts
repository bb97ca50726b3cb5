/** Normalisation rules on small hand-written SDFGs: omitted defaults, legacy shapes, open enums and types. */
import { describe, expect, it } from 'vitest';
import type { DataDescriptor, LoopBlock, SdfgFile, StateBlock } from '../../../electron/engine/model/sdfg.js';
import { parseSdfgBytes, parseSdfgJson } from '../../../electron/engine/sdfg/index.js';

const FILE = 'synthetic.sdfg';

function sdfgWith(parts: {
  arrays?: Record<string, unknown>;
  nodes?: unknown[];
  edges?: unknown[];
  blocks?: unknown[];
  interstate?: unknown[];
  extra?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    type: 'SDFG',
    attributes: { name: 'p', _arrays: parts.arrays ?? {} },
    nodes: parts.blocks ?? [{ type: 'SDFGState', label: 's', nodes: parts.nodes ?? [], edges: parts.edges ?? [] }],
    edges: parts.interstate ?? [],
    ...parts.extra,
  };
}

function parse(sdfg: unknown): SdfgFile {
  return parseSdfgJson(sdfg, FILE, 0, false);
}

function descriptor(raw: unknown, name = 'x'): DataDescriptor {
  return parse(sdfgWith({ arrays: { [name]: raw } })).root.arrays.get(name)!;
}

function firstState(model: SdfgFile): StateBlock {
  return model.root.body.blocks[0] as StateBlock;
}

describe('omitted-default properties (sdfg-format.md §2.2)', () => {
  it('fills dtype int32, contiguous strides, total size, zero offsets, Default/Scope', () => {
    expect(descriptor({ type: 'Array', attributes: { shape: ['N', 'M + 1', '4'] } })).toMatchObject({
      type: 'Array',
      arrayLike: true,
      dtype: { kind: 'scalar', name: 'int32', bytes: 4 },
      shape: ['N', 'M + 1', '4'],
      strides: ['4*(M + 1)', '4', '1'],
      totalSize: '4*N*(M + 1)',
      offset: ['0', '0', '0'],
      transient: false,
      storage: 'Default',
      lifetime: 'Scope',
      pool: false,
      mayAlias: false,
      alignment: 0,
      startOffset: 0,
      bufferSize: null,
      members: null,
      jsonPath: '$.attributes._arrays.x',
    });
  });

  it('keeps stored strides and total size (padding) and treats total_size 0 as unset', () => {
    const padded = descriptor({ type: 'Array', attributes: { shape: ['N'], strides: ['2'], total_size: '2*N', dtype: 'float64' } });
    expect(padded).toMatchObject({ strides: ['2'], totalSize: '2*N', dtype: { name: 'float64', bytes: 8 } });
    expect(descriptor({ type: 'Array', attributes: { shape: [4, 8], total_size: 0 } }).totalSize).toBe('32');
  });

  it('gives a Scalar the shape ["1"] and a Stream its buffer size', () => {
    expect(descriptor({ type: 'Scalar', attributes: { dtype: 'bool_' } })).toMatchObject({
      shape: ['1'],
      totalSize: '1',
      strides: ['1'],
      dtype: { name: 'bool', bytes: 1 },
    });
    expect(descriptor({ type: 'Stream', attributes: { shape: ['1'] } }).bufferSize).toBe('0');
    expect(descriptor({ type: 'Stream', attributes: { shape: ['1'], buffer_size: 32 } }).bufferSize).toBe('32');
  });

  it('fills memlet, map and interstate-edge defaults', () => {
    const model = parse(
      sdfgWith({
        arrays: { A: { type: 'Array', attributes: { shape: ['N'] } } },
        nodes: [
          {
            type: 'MapEntry',
            label: 'm[i=0:N]',
            scope_exit: '1',
            attributes: { params: ['i'], range: { type: 'Range', ranges: [{ start: '0', end: 'N - 1' }] } },
          },
          { type: 'MapExit', label: 'm[i=0:N]', scope_entry: '0', scope_exit: '1' },
          { type: 'AccessNode', label: 'A', attributes: { data: 'A' } },
        ],
        edges: [{ src: '2', dst: '0', dst_connector: 'IN_A', attributes: { data: { type: 'Memlet', attributes: { data: 'A' } } } }],
        interstate: [],
      }),
    );
    const [entry, exit] = firstState(model).nodes;
    expect(entry).toMatchObject({
      kind: 'map_entry',
      exitId: 1,
      map: { label: 'm', schedule: 'Default', unroll: false, collapse: 1, ompNumThreads: 0, gpuBlockSize: null },
    });
    expect(entry!.kind === 'map_entry' && entry!.map.range).toEqual([{ start: '0', end: 'N - 1', step: '1', tile: '1' }]);
    expect(exit).toMatchObject({ kind: 'map_exit', entryId: 0, scopeEntry: 0 });
    expect(firstState(model).edges[0]!.memlet).toEqual({
      data: 'A',
      subset: null,
      otherSubset: null,
      wcr: null,
      wcrNonatomic: false,
      volume: '0',
      dynamic: false,
      isDataSrc: null,
      allowOob: false,
    });
  });

  it('reads interstate conditions and assignments in order, "1" when unconditional', () => {
    const model = parse(
      sdfgWith({
        blocks: [
          { type: 'SDFGState', nodes: [], edges: [] },
          { type: 'SDFGState', nodes: [], edges: [] },
          { type: 'SDFGState', nodes: [], edges: [] },
        ],
        interstate: [
          {
            type: 'Edge',
            src: '0',
            dst: '1',
            attributes: { data: { type: 'InterstateEdge', attributes: { assignments: { i: '0', j: 'A[3]', k: 2 } } } },
          },
          {
            type: 'Edge',
            src: '1',
            dst: '2',
            attributes: { data: { type: 'InterstateEdge', attributes: { condition: { string_data: '(i < N)', language: 'Python' } } } },
          },
        ],
      }),
    );
    const [first, second] = model.root.body.edges;
    expect(first).toMatchObject({
      condition: '1',
      assignments: [
        ['i', '0'],
        ['j', 'A[3]'],
        ['k', '2'],
      ],
      jsonPath: '$.edges[0]',
    });
    expect(second).toMatchObject({ condition: '(i < N)', assignments: [] });
    expect(model.root.body.start).toBe(0);
  });

  it('fills LoopRegion defaults (while loop, update before condition)', () => {
    const model = parse(
      sdfgWith({
        blocks: [{ type: 'LoopRegion', label: 'w', attributes: { loop_condition: { string_data: '(x > 0)' } }, nodes: [], edges: [] }],
      }),
    );
    expect(model.root.body.blocks[0] as LoopBlock).toMatchObject({
      kind: 'loop',
      loopVariable: '',
      init: null,
      update: null,
      condition: '(x > 0)',
      inverted: false,
      updateBeforeCondition: true,
      start: null,
    });
  });
});

describe('legacy and open-ended content', () => {
  it('parses a nested SDFG stored as JSON text', () => {
    const inner = JSON.stringify(sdfgWith({ arrays: { t: { type: 'Scalar', attributes: { transient: true } } } }));
    const model = parse(
      sdfgWith({ nodes: [{ type: 'NestedSDFG', label: 'n', attributes: { sdfg: inner, symbol_mapping: { N: 'M', K: 3 } } }] }),
    );
    expect(model.stats).toMatchObject({ sdfgs: 2, transients: 1, states: 2 });
    const node = firstState(model).nodes[0]!;
    expect(node.kind === 'nested_sdfg' && node.symbolMapping).toEqual({ N: 'M', K: '3' });
    expect(model.sdfgs[1]!.jsonPath).toBe('$.nodes[0].nodes[0].attributes.sdfg');
    expect(model.sdfgs[1]!.body.blocks[0]!.jsonPath).toBe('$.nodes[0].nodes[0].attributes.sdfg.nodes[0]');
  });

  it('rejects a nested SDFG whose JSON text does not parse, naming where it sits', () => {
    expect(() => parse(sdfgWith({ nodes: [{ type: 'NestedSDFG', attributes: { sdfg: '{"type": "SDFG", ' } }] }))).toThrow(
      expect.objectContaining({ kind: 'input', jsonPath: '$.nodes[0].nodes[0].attributes.sdfg' }),
    );
  });

  it('keeps unknown node, descriptor and block types with a warning each', () => {
    const model = parse(
      sdfgWith({
        arrays: {
          sub: { type: 'ArraySubclass', attributes: { shape: ['4'], strides: ['1'] } },
          odd: { type: 'QuantumRegister', attributes: { shape: ['2'] } },
        },
        blocks: [
          {
            type: 'SDFGState',
            nodes: [{ type: 'PipelineEntry', label: 'p', attributes: { in_connectors: { IN_a: 'float32' }, depth: 3 } }],
            edges: [],
          },
          { type: 'ParallelRegion', label: 'par', nodes: [{ type: 'SDFGState', nodes: [], edges: [] }], edges: [] },
        ],
        interstate: [{ src: '0', dst: '1' }],
      }),
    );
    const node = firstState(model).nodes[0]!;
    expect(node).toMatchObject({
      kind: 'unknown',
      type: 'PipelineEntry',
      attributes: { depth: 3 },
      inConnectors: { IN_a: { kind: 'scalar', name: 'float32', bytes: 4 } },
    });
    expect(model.root.arrays.get('sub')).toMatchObject({ type: 'ArraySubclass', arrayLike: true });
    expect(model.root.arrays.get('odd')).toMatchObject({ type: 'QuantumRegister', arrayLike: false });
    expect(model.root.body.blocks[1]).toMatchObject({ kind: 'region', type: 'ParallelRegion', cfgId: 1 });
    expect(model.stats.states).toBe(2);
    expect(model.warnings.map((w) => w.jsonPath)).toEqual([
      '$.attributes._arrays.sub',
      '$.attributes._arrays.odd',
      '$.nodes[0].nodes[0]',
      '$.nodes[1]',
    ]);
  });

  it('keeps unknown library classes with their class path and attributes', () => {
    const model = parse(
      sdfgWith({
        nodes: [
          {
            type: 'LibraryNode',
            classpath: 'stencilflow.stencil.stencil.Stencil',
            label: 's',
            attributes: { implementation: null, code: 'x' },
          },
        ],
      }),
    );
    expect(firstState(model).nodes[0]).toMatchObject({
      kind: 'library',
      classpath: 'stencilflow.stencil.stencil.Stencil',
      className: 'Stencil',
      implementation: null,
      schedule: 'Default',
      attributes: { code: 'x' },
    });
  });

  it('accepts the 2.0 object form of enums and keeps unknown values', () => {
    const model = parse(
      sdfgWith({
        arrays: { a: { type: 'Array', attributes: { shape: ['1'], storage: { type: 'StorageType.GPU_Global' }, lifetime: 'Eternal' } } },
      }),
    );
    expect(model.root.arrays.get('a')).toMatchObject({ storage: 'GPU_Global', lifetime: 'Eternal' });
    expect(model.warnings).toEqual([
      { jsonPath: '$.attributes._arrays.a.attributes.lifetime', message: 'unknown allocation lifetime "Eternal" (kept as is)' },
    ]);
  });

  it('sizes composite data types', () => {
    const dtype = (raw: unknown) => descriptor({ type: 'Scalar', attributes: { dtype: raw } }).dtype;
    expect(dtype({ type: 'pointer', dtype: 'float64' })).toEqual({
      kind: 'pointer',
      base: { kind: 'scalar', name: 'float64', bytes: 8 },
      bytes: 8,
    });
    expect(dtype({ type: 'vector', dtype: 'float64', elements: '4' })).toMatchObject({ kind: 'vector', elements: '4', bytes: 32 });
    expect(dtype({ type: 'vector', dtype: 'float64', elements: 'V' })).toMatchObject({ kind: 'vector', elements: 'V', bytes: null });
    expect(
      dtype({
        type: 'struct',
        name: 'vec3d',
        data: [
          ['x', 'float64'],
          ['y', 'float64'],
          ['z', 'float32'],
        ],
      }),
    ).toMatchObject({ kind: 'struct', name: 'vec3d', bytes: 20 });
    expect(dtype({ type: 'struct', name: 'vec3d', data: [['x', 'float64']], bytes: 24 })).toMatchObject({ bytes: 24 });
    expect(dtype({ type: 'opaque', ctype: 'MPI_Request' })).toEqual({ kind: 'opaque', ctype: 'MPI_Request', bytes: null });
    expect(dtype({ type: 'string' })).toMatchObject({ kind: 'pointer', bytes: 8, base: { name: 'int8' } });
    expect(dtype({ type: 'callback', arguments: [], returntypes: [] })).toMatchObject({ kind: 'opaque', bytes: null });
    expect(dtype('complex128')).toEqual({ kind: 'scalar', name: 'complex128', bytes: 16 });
    expect(dtype('float8_e4m3fn')).toEqual({ kind: 'scalar', name: 'float8_e4m3fn', bytes: 1 });
    expect(dtype('mystery_t')).toEqual({ kind: 'unknown', raw: 'mystery_t', bytes: null });
  });

  it('tolerates SubsetUnion and string subsets', () => {
    const model = parse(
      sdfgWith({
        arrays: { A: { type: 'Array', attributes: { shape: ['N'] } } },
        nodes: [
          { type: 'AccessNode', attributes: { data: 'A' } },
          { type: 'AccessNode', attributes: { data: 'A' } },
        ],
        edges: [
          {
            src: '0',
            dst: '1',
            attributes: {
              data: {
                attributes: {
                  data: 'A',
                  subset: { type: 'SubsetUnion', subset_list: [{ type: 'Indices', indices: ['i'] }] },
                  other_subset: '0:N, 2',
                },
              },
            },
          },
        ],
      }),
    );
    const memlet = firstState(model).edges[0]!.memlet;
    expect(memlet.subset).toEqual({ kind: 'union', subsets: [{ kind: 'indices', indices: ['i'] }] });
    expect(memlet.otherSubset).toEqual({
      kind: 'range',
      dims: [
        { start: '0', end: '(N) - 1', step: '1', tile: '1' },
        { start: '2', end: '2', step: '1', tile: '1' },
      ],
    });
  });

  it('reads G0 single global_code blocks and undefined_symbols', () => {
    const model = parse(
      sdfgWith({
        extra: { undefined_symbols: [['N', { type: 'Scalar', attributes: { dtype: 'int64' } }]], scalar_parameters: [] },
      }),
    );
    expect(model.generation).toBe('G0');
    expect(model.root.symbols.get('N')).toEqual({ kind: 'scalar', name: 'int64', bytes: 8 });
    const withCode = parse({ ...sdfgWith({}), attributes: { name: 'p', global_code: { string_data: '#include <x>', language: 'CPP' } } });
    expect(withCode.root.globalCode).toEqual({ frame: { code: '#include <x>', language: 'CPP' } });
  });

  it('decides the grammar from `$` symbols and fills the statistics', () => {
    const typed = parseSdfgBytes(
      new TextEncoder().encode(
        JSON.stringify(sdfgWith({ arrays: { t: { type: 'Array', attributes: { shape: ['$N'], transient: true } } } })),
      ),
      FILE,
    );
    expect(typed.grammar).toBe('typed');
    expect(typed.generation).toBe('G5');
    expect(typed.stats).toEqual({ sdfgs: 1, states: 1, nodes: 0, edges: 0, transients: 1 });
    expect(parse(sdfgWith({ arrays: { t: { type: 'Array', attributes: { shape: ['N'] } } } })).grammar).toBe('legacy');
    // A `$` not followed by a symbol character is not the typed grammar.
    expect(parse(sdfgWith({ arrays: { t: { type: 'Array', attributes: { shape: ['N$ 1'] } } } })).grammar).toBe('legacy');
  });

  it('keeps a dump error and source files', () => {
    const model = parse(sdfgWith({ extra: { error: { message: 'boom', cfg_id: 0 }, source_files: ['a.py'] } }));
    expect(model.dumpError).toEqual({ message: 'boom', raw: { message: 'boom', cfg_id: 0 } });
    expect(model.sourceFiles).toEqual(['a.py']);
    expect(model.generation).toBe('G4');
  });
});
