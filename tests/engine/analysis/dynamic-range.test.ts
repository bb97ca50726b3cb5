/**
 * Dynamic map ranges (a map entry's input connectors not named IN_*, read from data at run time): their names
 * are values, not symbols. The analysis leaves what they bound unknown instead of giving them --default-symbol,
 * and the ABI does not take them as symbol arguments.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { ExecutionCounter } from '../../../electron/engine/analysis/executions.js';
import { SymbolContext } from '../../../electron/engine/analysis/symbols.js';
import { dynamicInputConnectors, statesOf, usedRootSymbols } from '../../../electron/engine/model/queries.js';
import type { MapEntryNode } from '../../../electron/engine/model/sdfg.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const fixture = () => readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'dynamic_map_range.sdfg'));
const opts = { symbols: new Map<string, bigint>(), defaultSymbol: 16n, target: null };

function mapNamed(
  file: Awaited<ReturnType<typeof fixture>>,
  label: string,
): { entry: MapEntryNode; state: ReturnType<typeof statesOf> extends Generator<infer S> ? S : never } {
  for (const state of statesOf(file.root))
    for (const n of state.nodes) if (n.kind === 'map_entry' && n.map.label === label) return { entry: n, state };
  throw new Error(`no map ${label}`);
}

describe('dynamic map ranges in the analysis', () => {
  it('the connector names are neither symbol arguments nor given --default-symbol', async () => {
    const file = await fixture();
    expect(dynamicInputConnectors(mapNamed(file, 'cols').entry)).toEqual(['rb', 're']);
    expect(usedRootSymbols(file)).toEqual(['H', 'W']);
    const a = analyze(file, opts);
    expect([...a.symbols.keys()].sort()).toEqual(['H', 'W']);
    expect(a.warnings.join('\n')).not.toMatch(/\b(rb|re|kstart)\b/);
  });

  it('a map bounded by a dynamic input runs an unknown number of times; a symbolic one is still counted', async () => {
    const file = await fixture();
    const counter = new ExecutionCounter(new SymbolContext(file, opts));
    const cols = mapNamed(file, 'cols');
    const rows = mapNamed(file, 'rows');
    const tail = mapNamed(file, 'tail');
    expect(counter.scopeIterations(file.root, rows.state, rows.entry.id)).toBe(16n);
    expect(counter.scopeIterations(file.root, cols.state, cols.entry.id)).toBeNull();
    // A connector named like the Scalar container it reads (cloudsc's kfdia/kidia).
    expect(counter.scopeIterations(file.root, tail.state, tail.entry.id)).toBeNull();
  });

  it('cloudsc: kfdia and kidia, read through map connectors, are not defaulted symbols', async () => {
    const file = await readSdfgFile(join(corpusDir(), 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz'));
    const a = analyze(file, opts);
    expect([...a.symbols.keys()].sort()).toEqual(['kfldx', 'klev', 'klon']);
    expect(usedRootSymbols(file)).not.toContain('kfdia');
  });
});
