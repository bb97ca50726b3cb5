/**
 * Every file of the shared corpus parses, its model is internally consistent, its JSON paths point at the
 * right raw objects, and its counts match shared/corpus/MANIFEST.md (produced by an independent script).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import type { ControlFlowBlock, DataDescriptor, RegionBlock, SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { blocksOf, corpusFile, countEmbeddedSdfgs, loadRawJson, readManifest, resolveJsonPath } from './helpers.js';

const files = readdirSync(corpusDir())
  .filter((name) => /\.sdfgz?$/.test(name))
  .sort();
const manifest = readManifest();

const NODE_TYPES: Record<string, string[]> = {
  access: ['AccessNode'],
  tasklet: ['Tasklet', 'RTLTasklet'],
  map_entry: ['MapEntry'],
  map_exit: ['MapExit'],
  consume_entry: ['ConsumeEntry'],
  consume_exit: ['ConsumeExit'],
  nested_sdfg: ['NestedSDFG'],
};

const BLOCK_TYPES: Record<string, string[]> = {
  state: ['SDFGState'],
  loop: ['LoopRegion'],
  conditional: ['ConditionalBlock'],
  break: ['BreakBlock'],
  continue: ['ContinueBlock'],
  return: ['ReturnBlock'],
};

/** Structural invariants; returns the violations (collected rather than asserted one by one: files hold 100k+ elements). */
function structureProblems(model: SdfgFile): string[] {
  const problems: string[] = [];
  const require = (ok: boolean, what: string) => {
    if (!ok && problems.length < 20) problems.push(what);
  };
  const cfgIds: number[] = [];
  model.sdfgs.forEach((sdfg, index) => {
    require(sdfg.sdfgIndex === index, `${sdfg.jsonPath}: sdfgIndex ${sdfg.sdfgIndex} at position ${index}`);
    require(index === 0 ? sdfg.parent === null : sdfg.parent?.node.sdfg === sdfg, `${sdfg.jsonPath}: parent link`);
    require(sdfg.cfgId === sdfg.body.cfgId, `${sdfg.jsonPath}: cfgId of SDFG and body differ`);
  });
  const checkRegion = (
    region: RegionBlock | { jsonPath: string; blocks: ControlFlowBlock[]; edges: RegionBlock['edges']; start: number | null },
  ) => {
    region.blocks.forEach((child, index) =>
      require(child !== undefined && child.id === index, `${region.jsonPath}: block ${index} missing or misnumbered`),
    );
    for (const edge of region.edges) {
      require(edge.src >= 0 &&
        edge.src < region.blocks.length &&
        edge.dst >= 0 &&
        edge.dst < region.blocks.length, `${edge.jsonPath}: dangling`);
    }
    require(region.blocks.length === 0
      ? region.start === null
      : region.start !== null && region.start < region.blocks.length, `${region.jsonPath}: start`);
  };
  for (const sdfg of model.sdfgs) {
    cfgIds.push(sdfg.body.cfgId);
    checkRegion(sdfg.body);
    for (const block of blocksOf(sdfg.body)) {
      if (block.kind === 'region' || block.kind === 'loop') {
        cfgIds.push(block.cfgId);
        checkRegion(block);
      } else if (block.kind === 'conditional') {
        cfgIds.push(block.cfgId);
        for (const branch of block.branches) require(branch.body.id === null, `${branch.body.jsonPath}: branch body has an id`);
      } else if (block.kind === 'state') {
        const ids = new Set<number>();
        block.nodes.forEach((node, index) => {
          require(node.id === index, `${node.jsonPath}: id ${node.id} at position ${index}`);
          ids.add(node.id);
          require(node.scopeEntry === null || block.nodes[node.scopeEntry] !== undefined, `${node.jsonPath}: scopeEntry dangles`);
          if (node.kind === 'map_exit' && node.entryId !== null)
            require(block.nodes[node.entryId]?.kind === 'map_entry', `${node.jsonPath}: entry`);
          if (node.kind === 'map_entry' && node.exitId !== null)
            require(block.nodes[node.exitId]?.kind === 'map_exit', `${node.jsonPath}: exit`);
        });
        require(ids.size === block.nodes.length, `${block.jsonPath}: node ids not unique`);
        block.edges.forEach((edge, index) => {
          require(edge.index === index, `${edge.jsonPath}: index`);
          require(block.nodes[edge.src] !== undefined && block.nodes[edge.dst] !== undefined, `${edge.jsonPath}: dangling endpoint`);
        });
      }
    }
  }
  // Pre-order numbering over all regions: every id exactly once, 0..n-1.
  const sorted = [...cfgIds].sort((a, b) => a - b);
  require(sorted.every((id, i) => id === i), `cfgIds are not 0..${cfgIds.length - 1}`);
  return problems;
}

/** Every element's jsonPath must lead to the raw object it came from. */
function pathProblems(model: SdfgFile, raw: unknown): string[] {
  const problems: string[] = [];
  let checked = 0;
  const check = (path: string, accept: (value: Record<string, unknown>) => boolean) => {
    checked++;
    const value = resolveJsonPath(raw, path);
    const ok = value !== null && typeof value === 'object' && accept(value as Record<string, unknown>);
    if (!ok && problems.length < 20) problems.push(path);
  };
  const checkDescriptor = (descriptor: DataDescriptor) => {
    check(descriptor.jsonPath, (value) => typeof value['type'] === 'string');
    for (const member of descriptor.members ?? []) checkDescriptor(member);
  };
  const checkEdges = (edges: Array<{ jsonPath: string; src: number; dst: number }>) => {
    for (const edge of edges) check(edge.jsonPath, (value) => Number(value['src']) === edge.src && Number(value['dst']) === edge.dst);
  };
  for (const sdfg of model.sdfgs) {
    check(sdfg.jsonPath, (value) => value['type'] === 'SDFG');
    checkEdges(sdfg.body.edges);
    for (const descriptor of sdfg.arrays.values()) checkDescriptor(descriptor);
    for (const block of blocksOf(sdfg.body)) {
      const expected = block.kind === 'region' ? [block.type] : BLOCK_TYPES[block.kind]!;
      check(block.jsonPath, (value) => {
        const type = value['type'] ?? 'ControlFlowRegion';
        return typeof type === 'string' && expected.includes(type);
      });
      if (block.kind === 'region' || block.kind === 'loop') checkEdges(block.edges);
      if (block.kind !== 'state') continue;
      for (const node of block.nodes) {
        const types =
          node.kind === 'library' ? ['LibraryNode', node.classpath] : node.kind === 'unknown' ? [node.type] : NODE_TYPES[node.kind]!;
        check(node.jsonPath, (value) => types.includes(String(value['type'])));
      }
      checkEdges(block.edges);
    }
  }
  if (checked === 0) problems.push('no element was checked');
  return problems;
}

describe('SDFG corpus', () => {
  it('has files to test and a manifest row for each of them', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(manifest.has(file), `${file} in MANIFEST.md`).toBe(true);
  });

  it.each(files)('%s parses into a consistent model that matches the manifest', async (file) => {
    const model = await readSdfgFile(corpusFile(file));
    expect(model.path).toBe(corpusFile(file));
    expect(model.sdfgs[0]).toBe(model.root);

    const expected = manifest.get(file)!;
    expect({ sdfgs: model.stats.sdfgs, states: model.stats.states, nodes: model.stats.nodes }).toEqual({
      sdfgs: expected.sdfgs,
      states: expected.states,
      nodes: expected.nodes,
    });
    if (expected.transients !== null) expect(model.stats.transients).toBe(expected.transients);

    expect(structureProblems(model)).toEqual([]);
    const raw = loadRawJson(corpusFile(file));
    expect(model.stats.sdfgs).toBe(countEmbeddedSdfgs(raw));
    expect(pathProblems(model, raw)).toEqual([]);
    expect(model.warnings.filter((warning) => !warning.jsonPath.startsWith('$'))).toEqual([]);
  });
});
