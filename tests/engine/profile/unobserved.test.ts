/**
 * A program that writes none of its array arguments: verification says where its results went (profile/
 * unobserved.ts) instead of only "nothing was compared". The fixture is shaped as ICON's cut-out `radiation`
 * (corpus): a root transient written and never read, and a scalar argument set to a constant.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { unobservedWrites } from '../../../electron/engine/profile/unobserved.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { sdfgInTempDir } from '../temp-sdfg.js';

/** overrun_one_past's first state (`t[i] = A[i] + 1`, t never read) plus a state `nulout = 6`. */
function deadResultsText(): string {
  const json = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'overrun_one_past.sdfg'), 'utf8'));
  json.attributes.name = 'dead_results';
  delete json.attributes._arrays.B;
  json.attributes._arrays.nulout = { type: 'Scalar', attributes: { dtype: 'int32', shape: ['1'], storage: 'CPU_Heap' } };
  json.nodes[1] = {
    type: 'SDFGState',
    label: 'set_nulout',
    id: 1,
    nodes: [
      {
        type: 'Tasklet',
        label: 'six',
        attributes: { code: { string_data: 'o = 6', language: 'Python' }, label: 'six', in_connectors: {}, out_connectors: { o: 'int32' } },
        id: 0,
        scope_entry: null,
        scope_exit: null,
      },
      { type: 'AccessNode', label: 'nulout', attributes: { data: 'nulout' }, id: 1, scope_entry: null, scope_exit: null },
    ],
    edges: [
      {
        type: 'MultiConnectorEdge',
        attributes: {
          data: {
            type: 'Memlet',
            attributes: { data: 'nulout', subset: { type: 'Range', ranges: [{ start: '0', end: '0', step: '1', tile: '1' }] } },
          },
        },
        src: '0',
        dst: '1',
        src_connector: 'o',
        dst_connector: null,
      },
    ],
    attributes: {},
  };
  return JSON.stringify(json);
}

const sdfg = sdfgInTempDir('tlab-unobserved-', 'dead_results.sdfg', deadResultsText);

describe('a program whose results no caller sees', () => {
  test('its dead transients and written scalar arguments are found', () => {
    const parsed = parseSdfgBytes(new TextEncoder().encode(deadResultsText()), 'dead_results.sdfg');
    expect(unobservedWrites(parsed)).toEqual({ deadTransients: ['t'], scalarArgs: ['nulout'] });
  });

  test('verification says where the results went', async () => {
    const result = await profile(sdfg.file, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols: new Map([['N', 8n]]),
      timeoutMs: 120_000,
    });
    expect(result.verification.vacuous).toBe(true);
    const note = result.verification.details.find((d) => d.kind === 'note')!;
    expect(note.message).toBe(
      'nothing was compared across modes: the program writes none of its array arguments (A), so every mode returns its inputs unchanged; ' +
        'its results stay in transients that nothing reads after writing them (t); ' +
        'the scalar argument it writes (nulout) is passed by value, as DaCe passes every scalar, so no caller sees it',
    );
  }, 300_000);
});
