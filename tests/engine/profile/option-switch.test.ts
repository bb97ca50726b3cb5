/**
 * Option switches (analysis/option-switches.ts, profile/index-inputs.ts): an integer scalar argument the program
 * only compares for equality with constants is generated among those constants. The fixture
 * (tests/fixtures/sdfg/option_switch.sdfg) is CLOUDSC's NSSOPT in small: a ConditionalBlock whose branches
 * `nssopt == 0` … `nssopt == 3` each write the scalar transient zqe, then a map reads zqe for every B[i]. The
 * generator's 0…7 gives nssopt 6 at seed 0: no branch runs and zqe is read uninitialised, which verification
 * reported as the program's uninitialised read (cloudsc_simplified's did exactly this, docs/profile.md).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { optionSwitches } from '../../../electron/engine/analysis/option-switches.js';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { planIndexInputs } from '../../../electron/engine/profile/index-inputs.js';
import { prepareInputs } from '../../../electron/engine/profile/inputs.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { planProfile } from '../../../electron/engine/profile/plan.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'option_switch.sdfg');
const N = 8;

let text: string;
let dir: string;
beforeAll(async () => {
  text = await readFile(FIXTURE, 'utf8');
  dir = await mkdtemp(join(tmpdir(), 'tlab-switch-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const parse = (json: string) => parseSdfgBytes(new TextEncoder().encode(json), 'option_switch.sdfg');

describe('option switches', () => {
  test('a scalar compared only for equality with 0…3 is a switch over those values', () => {
    expect(optionSwitches(parse(text), ['nssopt'])).toEqual([{ argument: 'nssopt', values: [0n, 1n, 2n, 3n] }]);
  });

  test('any other use of the scalar makes it no switch', () => {
    // A truth test, an order comparison, a read by a tasklet through a memlet: each is a use whose valid values
    // the comparisons alone do not say.
    const truth = text.replace('"(nssopt == 3)"', '"(nssopt)"');
    const order = text.replace('"(nssopt == 3)"', '"(nssopt > 2)"');
    const doc = JSON.parse(text) as { nodes: Array<{ nodes?: Array<{ attributes: { data?: string } }> }> };
    doc.nodes[1]!.nodes![4]!.attributes.data = 'nssopt';
    for (const variant of [truth, order, JSON.stringify(doc)]) expect(optionSwitches(parse(variant), ['nssopt'])).toEqual([]);
    // One constant: every other value is the else branch, as valid an input as the constant.
    const one = text.replace(/\(nssopt == [123]\)/g, '(nssopt == 0)');
    expect(optionSwitches(parse(one), ['nssopt'])).toEqual([]);
  });

  test('non-contiguous constants give the smallest', () => {
    const sparse = parse(text.replace('"(nssopt == 2)"', '"(nssopt == 7)"'));
    const arg: ProgramArg = {
      name: 'nssopt',
      kind: 'scalar',
      dtype: 'int32',
      ctype: 'int',
      elementBytes: 4,
      shape: [],
      totalElements: 1n,
      strides: [],
      written: false,
      read: true,
    };
    expect(planIndexInputs(sparse, [arg], {}, new Map()).inputs).toEqual([
      { argument: 'nssopt', min: 0, max: 0, reason: 'compared only for equality with 0, 1, 3, 7: an option switch, given the smallest' },
    ]);
  });

  test('profiles in every mode with the switch inside its options, outputs as computed independently', async () => {
    const symbols = new Map([['N', BigInt(N)]]);
    const out = join(dir, 'out');
    const result = await profile(FIXTURE, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols,
      saveOutputs: out,
      timeoutMs: 120_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    expect(result.indexInputs).toEqual([
      { argument: 'nssopt', min: 0, max: 3, reason: 'compared only for equality with 0, 1, 2, 3: an option switch' },
    ]);

    const plan = await planProfile(FIXTURE, { ...DEFAULT_PROFILE_OPTIONS, modes: ['SCOPED'], symbols });
    const { inputs } = planIndexInputs(plan.file, plan.args, plan.symbols, new Map());
    const prepared = await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map(), indexInputs: inputs });
    const buf = (name: string) => prepared.find((p) => p.arg.name === name)!.bytes;
    const nssopt = new Int32Array(buf('nssopt').slice().buffer)[0]!;
    const A = [...new Float64Array(buf('A').slice().buffer)];
    expect(nssopt >= 0 && nssopt <= 3).toBe(true);
    const a0 = A[0]!;
    const zqe = [a0 * 0.5, a0 + 1.0, a0 - 2.0, a0 * a0][nssopt]!;
    const B = A.map((a) => a * zqe);
    for (const m of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const got = [...new Float64Array((await readNpy(join(out, m, 'B.npy'))).data.slice().buffer)];
      expect(got, m).toEqual(B);
    }
  }, 300_000);
});
