/**
 * Corpus files that DaCe's own validation refuses (dace/sdfg/validation.py and the validate methods in
 * dace/sdfg/nodes.py and dace/memlet.py): the subset check says "DaCe rejects this SDFG" with DaCe's reason,
 * for the CPU and the GPU target alike, instead of calling them unsupported.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { findUnsupported } from '../../../electron/engine/codegen/index.js';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const CASES: Array<[string, { jsonPath: string; message: string }]> = [
  // tmp is declared with shape [1] but its memlets address [0, 0:31]: validate_state's dimensionality rule.
  [
    'spcl__dace__tests__sdfg_corpus__default_storage_2.sdfg',
    {
      jsonPath: '$.nodes[0].edges[1]',
      message:
        "DaCe rejects this SDFG: Memlet subset does not match node dimension (expected 1, got 2) (the subset has 2 dimension(s) but 'tmp' has 1)",
    },
  ],
  // Access nodes of 't', which no descriptor declares: AccessNode.validate.
  [
    'spcl__dace__tests__sdfg_corpus__gpu_scalar_execution_context_er_0.sdfg',
    {
      jsonPath: '$.nodes[1].nodes[1].nodes[4]',
      message: `DaCe rejects this SDFG: Node validation failed: Array "t" not found in SDFG (no descriptor named 't')`,
    },
  ],
  // Nested SDFG connectors with no descriptor inside: NestedSDFG.validate.
  [
    'spcl__dace__berkay_workpace__scratch__smemPassAndCopy__smth.sdfg',
    {
      jsonPath: '$.nodes[0].nodes[8]',
      message:
        `DaCe rejects this SDFG: Node validation failed: Connector "__inp_A" was given but is not a registered data descriptor in the ` +
        `nested SDFG (connector '__inp_A' has no data descriptor in the nested SDFG)`,
    },
  ],
];

describe('files DaCe itself rejects', () => {
  test.each(CASES)('%s', async (name, first) => {
    const file = await readSdfgFile(join(corpusDir(), name));
    // GPU programs: the first finding. The CPU target may first name GPU constructs it does not generate.
    expect(findUnsupported(file, 'gpu')[0]).toEqual({
      ...first,
      element: expect.any(String),
      hint: 'fix the SDFG in DaCe first: its sdfg.validate() refuses it too',
    });
    expect(findUnsupported(file, 'cpu')).toContainEqual(expect.objectContaining(first));
  });
});
