/**
 * A transient whose only write is computed, in its state, from its own old value is read uninitialised by that
 * first write, like a WCR or a Reduce without identity (model/accumulate-first.ts). stage8
 * (ThrudPrimrose/data_must_flow_artifacts' CLOUDSC pipeline) turned if/else branches into blends
 * `x = f·new + (1 − f)·x` (tasklets `combine_branch_values_for_x_0_split_2`: `__t2 = __t1 * _in_right`, the old x,
 * then `…_split_3` writes x): valgrind on the generated code, with each read of memory nothing wrote cut off
 * where it happened, found 21 such reads (docs/profile.md, "stage8, traced"); these 19 the SDFG alone shows.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accumulatedBeforeWritten } from '../../../electron/engine/model/accumulate-first.js';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const STAGE8 = join(corpusDir(), 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz');

describe('blends of a transient with its own old value', () => {
  it('names every stage8 transient whose only write blends its old value, and not zfrzmax (written plainly later)', async () => {
    const found = accumulatedBeforeWritten(await readSdfgFile(STAGE8));
    expect(found).toEqual([
      '0:zicenuclei',
      '0:zraincld',
      '0:zsnowcld',
      '0:zsnowrime',
      '53:_if_cond_30',
      '53:zcdmax',
      '54:_if_cond_40',
      '54:_if_cond_41',
      '54:zfac_FOR_l_731_c_731',
      '54:zrhc',
      '58:_if_cond_56',
      '58:_if_cond_57',
      '58:zconst',
      '58:zlcrit',
      '58:zzco',
      '59:zfallcorr_1',
      '61:_if_cond_66',
      '64:tmp_call_94',
      '64:tmp_call_99',
    ]);
  }, 120_000);
});
