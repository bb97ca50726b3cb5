import { describe, expect, it } from 'vitest';
import { libraryNodesLine, libraryNodesParts } from '../../../electron/engine/view/library-nodes.js';
import type { LibraryNodeResult } from '../../../electron/engine/profile/result.js';

const node = (className: string, label: string, implementation: 'pure' | 'blas' = 'pure'): LibraryNodeResult => ({
  className,
  label,
  jsonPath: `$.nodes[0].nodes[${label.length}]`,
  implementation,
  library: implementation === 'blas' ? 'OpenBLAS' : null,
});

describe('the library-node line of the summary', () => {
  it('names each node while there are few of a class', () => {
    expect(libraryNodesLine([node('MatMul', 'mm', 'blas'), node('Reduce', 'sum')])).toBe(
      "library nodes (every mode's time includes them): MatMul 'mm' → blas (OpenBLAS); Reduce 'sum' → pure",
    );
    expect(libraryNodesLine([])).toBeNull();
  });

  it('counts many nodes of one class and implementation, as in stage8 (43 memsets, one copy)', () => {
    const memsets = Array.from({ length: 43 }, (_, i) => node('MemsetLibraryNode', `memsetLib__out_${i}`));
    const line = libraryNodesLine([...memsets.slice(0, 20), node('CopyLibraryNode', 'copy'), ...memsets.slice(20)]);
    expect(line).toBe("library nodes (every mode's time includes them): 43 MemsetLibraryNode nodes → pure; CopyLibraryNode 'copy' → pure");
  });

  it("names nodes that read the same once, with their count, as channel_flow's three sum-reduces", () => {
    const sum = (i: number): LibraryNodeResult => ({ ...node('Reduce', 'Reduce (Sum), Axes: all'), jsonPath: `$.nodes[${i}]` });
    expect(libraryNodesLine([sum(0), node('Reduce', 'max'), sum(1), sum(2), sum(3)])).toBe(
      "library nodes (every mode's time includes them): 4 × Reduce 'Reduce (Sum), Axes: all' → pure; Reduce 'max' → pure",
    );
  });
});

describe('the library-node parts without the expansion (the profile form, before the user picks one)', () => {
  it('groups by class and label alone', () => {
    const sum = (i: number, impl: 'pure' | 'blas'): LibraryNodeResult => ({
      ...node('Reduce', 'Reduce (Sum), Axes: all', impl),
      jsonPath: `$.nodes[${i}]`,
    });
    expect(libraryNodesParts([sum(0, 'pure'), node('MatMul', 'mm'), sum(1, 'blas')], { implementation: false })).toEqual([
      "2 × Reduce 'Reduce (Sum), Axes: all'",
      "MatMul 'mm'",
    ]);
    const memsets = Array.from({ length: 5 }, (_, i) => node('MemsetLibraryNode', `m${i}`));
    expect(libraryNodesParts(memsets, { implementation: false })).toEqual(['5 MemsetLibraryNode nodes']);
  });
});
