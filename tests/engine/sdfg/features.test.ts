/** Format features on named corpus files: one file per generation or quirk (sdfg-format.md §3-§12). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DataflowNode, LoopBlock, SdfgFile, StateBlock } from '../../../electron/engine/model/sdfg.js';
import { readSdfgFile, sniffSdfg } from '../../../electron/engine/sdfg/index.js';
import { blocksOf, corpusFile, loadRawJson, resolveJsonPath, statesOf } from './helpers.js';

const cache = new Map<string, Promise<SdfgFile>>();
function load(name: string): Promise<SdfgFile> {
  let model = cache.get(name);
  if (!model) {
    model = readSdfgFile(corpusFile(name));
    cache.set(name, model);
  }
  return model;
}

function allNodes(model: SdfgFile): DataflowNode[] {
  return model.sdfgs.flatMap((sdfg) => statesOf(sdfg).flatMap((state) => state.nodes));
}

describe('G0 prototype layout (examples/gemm.sdfg)', () => {
  const name = 'spcl__dace__examples__gemm.sdfg';

  it('is recognised as G0 and normalises list connectors into dicts', async () => {
    const model = await load(name);
    expect(model.generation).toBe('G0');
    expect(model.daceVersion).toBeNull();
    const tasklet = allNodes(model).find((node) => node.kind === 'tasklet')!;
    expect(tasklet.inConnectors).toEqual({ in_A: null, in_B: null });
    expect(tasklet.outConnectors).toEqual({ out: null });
    expect(tasklet.scopeEntry).toBe(0);
  });

  it('pairs map entry and exit from scope_exits / scope_entry', async () => {
    const state = (await load(name)).root.body.blocks[0] as StateBlock;
    const entry = state.nodes[0]!;
    const exit = state.nodes[1]!;
    expect(entry.kind === 'map_entry' && entry.exitId).toBe(1);
    expect(exit.kind === 'map_exit' && exit.entryId).toBe(0);
    if (entry.kind !== 'map_entry') throw new Error('node 0 should be a MapEntry');
    expect(entry.map).toMatchObject({ label: 'multiplication', params: ['i', 'j', 'k'], schedule: 'CPU_Multicore' });
    expect(entry.map.range[0]).toEqual({ start: '0', end: 'M - 1', step: '1', tile: '1' });
  });

  it('turns the legacy Reduce node type into a library node and reads num_accesses as the volume', async () => {
    const state = (await load(name)).root.body.blocks[0] as StateBlock;
    const reduce = state.nodes[5]!;
    expect(reduce).toMatchObject({ kind: 'library', classpath: 'Reduce', className: 'Reduce', schedule: 'CPU_Multicore' });
    expect(reduce.kind === 'library' && reduce.attributes['wcr']).toBe('(lambda a, b: (a + b))');
    const edge = state.edges.find((e) => e.memlet.data === 'tmp' && e.dst === 5)!;
    expect(edge.memlet.volume).toBe('K*M*N');
    expect(edge.memlet.isDataSrc).toBeNull();
  });
});

describe('control-flow regions', () => {
  it('reads LoopRegion, ConditionalBlock branches, Break and Continue (loops_for_else.sdfgz)', async () => {
    const model = await load('spcl__dace__tests__sdfg_corpus__loops_for_else.sdfgz');
    expect(model.generation).toBe('G3');
    const loop = model.root.body.blocks[1] as LoopBlock;
    expect(loop).toMatchObject({
      kind: 'loop',
      label: 'for_422',
      loopVariable: 'i',
      init: 'i = 1',
      condition: '(i < 20)',
      update: 'i = (i + 1)',
      inverted: false,
      updateBeforeCondition: true,
    });
    expect(loop.jsonPath).toBe('$.nodes[1]');
    const kinds = [...blocksOf(loop)].map((block) => block.kind);
    expect(kinds).toContain('break');
    expect(kinds).toContain('continue');
    const conditional = loop.blocks[2]!;
    if (conditional.kind !== 'conditional') throw new Error('block 2 of the loop should be a ConditionalBlock');
    expect(conditional.branches).toHaveLength(1);
    expect(conditional.branches[0]!.condition).toBe('__tmp1');
    expect(conditional.branches[0]!.body.jsonPath).toBe('$.nodes[1].nodes[2].branches[0][1]');
    expect(conditional.branches[0]!.body.blocks.map((b) => b.kind)).toEqual(['state', 'state', 'break']);
  });

  it('numbers regions in pre-order exactly as DaCe wrote cfg_list_id', async () => {
    const name = 'spcl__dace__tests__sdfg_corpus__nest_subgraph_simple_if_elif.sdfgz';
    const model = await load(name);
    const raw = loadRawJson(corpusFile(name));
    let compared = 0;
    for (const sdfg of model.sdfgs) {
      expect((resolveJsonPath(raw, sdfg.jsonPath) as Record<string, unknown>)['cfg_list_id']).toBe(sdfg.cfgId);
      for (const block of blocksOf(sdfg.body)) {
        if (!('cfgId' in block)) continue;
        expect((resolveJsonPath(raw, block.jsonPath) as Record<string, unknown>)['cfg_list_id']).toBe(block.cfgId);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('ignores the duplicate `nodes` of dev-1.x ConditionalBlocks (nest_subgraph_simple_if_elif.sdfgz)', async () => {
    const name = 'spcl__dace__tests__sdfg_corpus__nest_subgraph_simple_if_elif.sdfgz';
    const model = await load(name);
    const raw = loadRawJson(corpusFile(name));
    const conditionals = model.sdfgs.flatMap((sdfg) => [...blocksOf(sdfg.body)].filter((b) => b.kind === 'conditional'));
    const duplicated = conditionals.filter((block) => {
      const rawBlock = resolveJsonPath(raw, block.jsonPath) as { nodes?: unknown[] };
      return Array.isArray(rawBlock.nodes) && rawBlock.nodes.length > 0;
    });
    expect(duplicated.length).toBeGreaterThan(0);
    for (const block of duplicated) {
      const rawBlock = resolveJsonPath(raw, block.jsonPath) as { branches: unknown[] };
      expect(block.kind === 'conditional' && block.branches.length).toBe(rawBlock.branches.length);
    }
    // Counting the duplicates would double every branch's states (manifest: 21 states).
    expect(model.stats.states).toBe(21);
    const returns = model.sdfgs.flatMap((sdfg) => [...blocksOf(sdfg.body)].filter((b) => b.kind === 'return'));
    expect(returns).toHaveLength(6);
  });

  it('keeps NamedRegion and FunctionCallRegion as regions with their type', async () => {
    const named = await load('spcl__dace__tests__sdfg_corpus__named_region_func_0.sdfg');
    expect([...blocksOf(named.root.body)].some((b) => b.kind === 'region' && b.type === 'NamedRegion')).toBe(true);
    const calls = await load('spcl__dace__tests__sdfg_corpus__nestinger_1.sdfgz');
    const types = calls.sdfgs.flatMap((sdfg) => [...blocksOf(sdfg.body)].map((b) => (b.kind === 'region' ? b.type : b.kind)));
    expect(types).toContain('FunctionCallRegion');
    expect(types).toContain('loop');
  });
});

describe('start blocks', () => {
  it('uses the only source state of a G1 state machine over a stale start_state (while_do.sdfg)', async () => {
    const model = await load('spcl__dace-webclient__tests__test_graphs__while_do.sdfg');
    expect(model.generation).toBe('G1');
    expect(model.root.body.start).toBe(3);
    expect(model.warnings).toContainEqual({
      jsonPath: '$.start_state',
      message: expect.stringContaining('stored start block 0 is stale'),
    });
  });

  it('repairs an out-of-range start_block of a one-block LoopRegion (npbench nbody)', async () => {
    const model = await load('spcl__npbench__npbench__benchmarks__nbody__nbody.sdfg');
    const loop = model.root.body.blocks[3]!;
    expect(loop.kind).toBe('loop');
    expect(loop.kind === 'loop' && loop.blocks.length).toBe(1);
    expect(loop.kind === 'loop' && loop.start).toBe(0);
    const warning = model.warnings.find((w) => w.jsonPath === '$.nodes[3].start_block');
    expect(warning?.message).toMatch(/stored start block 1 is out of range \(1 blocks\)/);
  });
});

describe('expression grammar and generations', () => {
  it('detects the typed `$` grammar even in files labelled 2.0.0a3', async () => {
    const typed = await load('spcl__dace__tests__passes__fixtures__cloudsc_for_1133.sdfgz');
    expect(typed.daceVersion).toBe('2.0.0a3');
    expect(typed.grammar).toBe('typed');
    expect(typed.generation).toBe('G5');
    expect(typed.sourceFiles.length).toBeGreaterThan(0);
    expect([...typed.root.arrays.values()].some((d) => d.shape.some((s) => s.includes('$')))).toBe(true);
  });

  it('reads the same CLOUDSC program identically in both grammars, apart from the grammar', async () => {
    const legacy = await load('spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz');
    const typed = await load('spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@8184ab0.sdfgz');
    expect(legacy.grammar).toBe('legacy');
    expect(typed.grammar).toBe('typed');
    expect(typed.stats).toEqual(legacy.stats);
    expect(legacy.compressed && typed.compressed).toBe(true);
  });

  it('guesses G1 for sdfg_list_id files and G2 for the same graph with cfg_list_id', async () => {
    expect((await load('spcl__dace-webclient__tests__test_graphs__gemm_expanded_pure_pre_0_16.sdfg')).generation).toBe('G1');
    expect((await load('spcl__dace-webclient__tests__test_graphs__gemm_expanded_pure.sdfg')).generation).toBe('G2');
  });

  it('normalises {main, approx} range fields to SymExpr(main, approx) (softmax32.sdfg)', async () => {
    const model = await load('spcl__dace__dace__transformation__estimator__programs__softmax32.sdfg');
    const map = allNodes(model).find((node) => node.kind === 'map_entry' && node.map.label === 'softmax_28');
    expect(map?.kind === 'map_entry' && map.map.range[0]!.step).toBe('SymExpr(1, 1)');
  });

  it('reads legacy Indices subsets (mlir_tasklet_no_input.sdfg)', async () => {
    const model = await load('spcl__dace__tests__sdfg_corpus__mlir_tasklet_mlir_tasklet_no_input.sdfg');
    const subsets = model.sdfgs.flatMap((s) => statesOf(s).flatMap((st) => st.edges.map((e) => e.memlet.subset)));
    expect(subsets).toContainEqual({ kind: 'indices', indices: ['0'] });
    const tasklet = allNodes(model).find((node) => node.kind === 'tasklet');
    expect(tasklet?.kind === 'tasklet' && tasklet.code.language).toBe('MLIR');
  });
});

describe('files and dumps', () => {
  it('detects a plain-JSON .sdfgz by content, not by name (codegen/a.sdfgz)', async () => {
    const path = corpusFile('spcl__dace__tests__codegen__a.sdfgz');
    expect(sniffSdfg(readFileSync(path))).toEqual({ ok: true, compressed: false });
    const model = await load('spcl__dace__tests__codegen__a.sdfgz');
    expect(model.compressed).toBe(false);
    expect(model.jsonBytes).toBe(readFileSync(path).length);
  });

  it('keeps the error object of an invalid.sdfgz dump and GT4Py’s epoch version', async () => {
    const model = await load('GridTools__gt4py___dacegraphs__invalid.sdfgz');
    expect(model.compressed).toBe(true);
    expect(model.daceVersion).toBe('43!2026.01.21');
    expect(model.dumpError?.message).toMatch(/^Node validation failed/);
    expect(model.dumpError?.raw).toMatchObject({ cfg_id: 0, state_id: 0, node_id: 12 });
  });

  it('keeps a nested SDFG that is only an ext_sdfg_path reference', async () => {
    const model = await load('spcl__dace__tests__sdfg_corpus__nested_sdfg_outer_sdfg_0.sdfg');
    const nested = allNodes(model).find((node) => node.kind === 'nested_sdfg');
    expect(nested).toMatchObject({ kind: 'nested_sdfg', sdfg: null, extSdfgPath: '/tmp/tmpph7nel0n.sdfg' });
    expect(model.stats.sdfgs).toBe(1);
  });

  it('links nested SDFGs to their parent node and numbers them in pre-order (deriche, depth 4)', async () => {
    const model = await load('Berke-Ates__dcir-artifact__benchmarks__Polybench__deriche__deriche_c2dace.sdfg');
    expect(model.sdfgs).toHaveLength(21);
    const deepest = model.sdfgs.reduce((a, b) => (b.jsonPath.length > a.jsonPath.length ? b : a));
    let depth = 0;
    for (let s = deepest; s.parent; s = s.parent.sdfg) {
      expect(s.parent.node.sdfg).toBe(s);
      expect(s.parent.state.nodes[s.parent.node.id]).toBe(s.parent.node);
      expect(s.sdfgIndex).toBeGreaterThan(s.parent.sdfg.sdfgIndex);
      depth++;
    }
    expect(depth).toBe(4);
    expect(deepest.jsonPath).toMatch(/^\$\.nodes\[\d+\]\.nodes\[\d+\]\.attributes\.sdfg\.nodes/);
  });
});

describe('descriptors and data types', () => {
  it('renames View → ArrayView and Reference → ArrayReference', async () => {
    const lenet = await load('phschaad__fuzzyflow__tests__data__lenet.sdfg');
    const views = lenet.sdfgs.flatMap((s) => [...s.arrays.values()]).filter((d) => d.type === 'ArrayView');
    expect(views.length).toBeGreaterThan(0);
    expect(views.every((d) => d.arrayLike)).toBe(true);
    const reference = await load('spcl__dace__doc___static__sdfg__reference.sdfg');
    expect([...reference.root.arrays.values()].map((d) => d.type)).toContain('ArrayReference');
  });

  it('sizes vector dtypes (vectortypes_0.sdfgz)', async () => {
    const model = await load('spcl__dace__tests__sdfg_corpus__vectortypes_0.sdfgz');
    expect(model.root.arrays.get('A')!.dtype).toEqual({
      kind: 'vector',
      base: { kind: 'scalar', name: 'float32', bytes: 4 },
      elements: '2',
      bytes: 8,
    });
  });

  it('reads Structures with members, pointer-to-struct dtypes and the int32 default (lift_struct_views)', async () => {
    const model = await load('spcl__dace__tests__sdfg_corpus__lift_struct_views_sliced_multi_tasklet_access.sdfg');
    const structure = model.root.arrays.get('A')!;
    expect(structure.type).toBe('Structure');
    expect(structure.dtype).toMatchObject({ kind: 'pointer', bytes: 8, base: { kind: 'struct', name: 't_A', bytes: 8 } });
    expect(structure.members?.map((m) => [m.name, m.type])).toEqual([['b', 'ContainerArray']]);
    expect(structure.members?.[0]!.jsonPath).toBe('$.attributes._arrays.A.attributes.members[0][1]');
    expect(structure.members?.[0]!.totalSize).toBe('20');
  });

  it('keeps branch-only enum values verbatim, with one warning each (ascend_2.sdfgz)', async () => {
    const model = await load('spcl__dace__samples__ascend__ascend_2.sdfgz');
    const storages = new Set([...model.root.arrays.values()].map((d) => d.storage));
    expect(storages.has('Ascend_Global')).toBe(true);
    expect(model.warnings.filter((w) => w.message.includes('"Ascend_Global"'))).toHaveLength(1);
  });

  it('reads consume scopes (mapfusion_fib_consume.sdfgz)', async () => {
    const model = await load('spcl__dace__tests__sdfg_corpus__mapfusion_fib_consume.sdfgz');
    const entry = allNodes(model).find((node) => node.kind === 'consume_entry');
    expect(entry).toMatchObject({ kind: 'consume_entry', peIndex: 'p', numPes: '4' });
    const exit = allNodes(model).find((node) => node.kind === 'consume_exit');
    expect(entry?.kind === 'consume_entry' && entry.exitId).toBe(exit?.id);
    expect([...model.root.arrays.values()].some((d) => d.type === 'Stream' && d.bufferSize !== null)).toBe(true);
  });

  it('records lifetimes and the pool hint as written', async () => {
    const external = await load('spcl__dace__tests__sdfg_corpus__external_memoryer.sdfg');
    expect([...external.root.arrays.values()].filter((d) => d.transient).map((d) => d.lifetime)).toEqual(['External']);
    const pooled = await load('spcl__dace__tests__sdfg_corpus__cuda_mempooler.sdfg');
    expect([...pooled.root.arrays.values()].some((d) => d.pool)).toBe(true);
  });
});
