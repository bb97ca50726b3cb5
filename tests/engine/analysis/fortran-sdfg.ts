/**
 * Test helper: a DaCe-shaped SDFG as the Fortran frontend writes an assumed-shape argument: `B(i) = A(i) + 1`
 * for `i = 1 … N`, where A's lower bound is the frontend's symbol `SOA` and its size `N`, so the read is
 * `A[i - SOA]` and the write `B[i - 1]` (tests/engine/analysis/fortran-bounds.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../electron/engine/paths.js';

/** The fixture's JSON text with the lower-bound symbol named `soa` (`__f2dace_SOA_a_d_0_s_1`, `OA_a_d_0`, …). */
export function fortranSdfgText(soa: string): string {
  const json = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'overrun_one_past.sdfg'), 'utf8'));
  json.attributes.name = 'fortran_lower_bound';
  json.attributes.symbols = { N: 'int32', [soa]: 'int32' };
  delete json.attributes._arrays.t;
  json.nodes = [json.nodes[0]];
  json.edges = [];
  const state = json.nodes[0];
  state.nodes[0].attributes.range.ranges[0] = { start: '1', end: 'N', step: '1', tile: '1' };
  state.nodes[1].attributes.in_connectors = { IN_B: null };
  state.nodes[1].attributes.out_connectors = { OUT_B: null };
  state.nodes[4].label = 'B';
  state.nodes[4].attributes.data = 'B';
  const [, readA, writeT, outT] = state.edges;
  readA.attributes.data.attributes.subset.ranges[0] = { start: `i - ${soa}`, end: `i - ${soa}`, step: '1', tile: '1' };
  writeT.attributes.data.attributes.data = 'B';
  writeT.attributes.data.attributes.subset.ranges[0] = { start: 'i - 1', end: 'i - 1', step: '1', tile: '1' };
  writeT.dst_connector = 'IN_B';
  outT.attributes.data.attributes.data = 'B';
  outT.src_connector = 'OUT_B';
  return JSON.stringify(json);
}
