/**
 * A loop start read from data and clamped, as ICON's get_indices_c has it (`i_startidx = max(1,
 * start_index(rl))`), is generated at its lowest value (analysis/index-flat-edges.ts). The fixture
 * (tests/fixtures/sdfg/start_index_ranges.sdfg) writes the transient t over [max(1, start_index[1]) - 1, N)
 * and reads it over [max(1, start_index[0]) - 1, N): a caller's start indices keep the second range inside the
 * first (ICON's grids order them), the generator's random ones did not (start_index = [1, 6] read t[0 … 4],
 * which nothing wrote). velocity_no_nproma read `cfl_clipping` so, through the cells' start_index.
 *
 * Needs the native addon and dist/: tests/global-setup.ts builds them or fails the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexRanges } from '../../../electron/engine/analysis/index-ranges.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { planIndexInputs } from '../../../electron/engine/profile/index-inputs.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { planProfile } from '../../../electron/engine/profile/plan.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'start_index_ranges.sdfg');
const N = 16;

describe('a clamped loop start read from data', () => {
  it('is an index range whose lowest value starts every loop', async () => {
    const { ranges } = indexRanges(await readSdfgFile(FIXTURE), { N: BigInt(N) }, ['start_index']);
    expect(ranges).toEqual([expect.objectContaining({ argument: 'start_index', min: 1n, max: BigInt(N), roles: ['index', 'lower'] })]);
  });

  it('runs in every mode with both loops from 0, and B = 2·A + 1 everywhere', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tlab-clamped-'));
    try {
      const result = await profile(FIXTURE, {
        ...DEFAULT_PROFILE_OPTIONS,
        runner: new NodeRunnerHost(),
        layout: 'both',
        calls: 1,
        warmup: 0,
        processes: 1,
        symbols: new Map([['N', BigInt(N)]]),
        saveOutputs: out,
        timeoutMs: 120_000,
      });
      expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
      expect(result.indexInputs).toEqual([expect.objectContaining({ argument: 'start_index', min: 1, max: 1 })]);
      for (const dir of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
        const f64 = async (name: string) => {
          const { data } = await readNpy(join(out, dir, `${name}.npy`));
          return [...new Float64Array(data.slice().buffer)];
        };
        const A = await f64('A');
        expect(await f64('B'), dir).toEqual(A.map((a) => a * 2 + 1));
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 300_000);

  it("starts velocity_no_nproma's cells and edges loops at 1", async () => {
    const file = join(
      corpusDir(),
      'spcl__dace__tests__sdfg__data__sdfg_reconstruction__velocity_no_nproma_if_prop_lvn_only_0_istep_1.sdfgz',
    );
    const plan = await planProfile(file, { ...DEFAULT_PROFILE_OPTIONS, modes: ['SCOPED'], symbols: new Map(), defaultSymbol: 16n });
    const { inputs } = planIndexInputs(plan.file, plan.args, plan.symbols, new Map());
    const starts = inputs.filter((i) => /__CG_(cells|edges)__m_start_index$/.test(i.argument)).map((i) => [i.argument, i.min, i.max]);
    expect(starts).toEqual([
      ['__CG_p_patch__CG_cells__m_start_index', 1, 1],
      ['__CG_p_patch__CG_edges__m_start_index', 1, 1],
    ]);
  }, 120_000);
});
