/** `--save-outputs DIR`: every array argument after verification call 1, as DIR/<MODE>/<NAME>.npy. */
import { join } from 'node:path';
import type { ProgramArg } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { makeDirectory } from '../files.js';
import { gatherCOrder } from './inputs.js';
import { writeNpy } from './npy.js';
import type { PlannedVariant } from './plan.js';
import type { VariantResult } from './runner-host.js';

export async function saveOutputs(dir: string, variants: Array<Pick<PlannedVariant, 'mode' | 'layout'>>, results: VariantResult[], args: ProgramArg[]): Promise<void> {
  const externalLayouts = variants.filter((v) => v.mode === 'EXTERNAL').length;
  for (const [i, v] of variants.entries()) {
    const r = results[i]!;
    if (!r.outputs) continue;
    const sub = v.mode === 'EXTERNAL' && externalLayouts > 1 ? `EXTERNAL-${v.layout}` : v.mode;
    const target = join(dir, sub);
    try {
      await makeDirectory(target);
      for (const arg of args) {
        if (arg.kind !== 'array' || !r.outputs[arg.name]) continue;
        await writeNpy(join(target, `${arg.name}.npy`), gatherCOrder(arg, r.outputs[arg.name]!));
      }
    } catch (cause) {
      if (cause instanceof TlabError) throw cause;
      throw new TlabError('usage', `--save-outputs: cannot write into ${target}: ${(cause as Error).message}`, { cause });
    }
  }
}
