/** Profile step 2, build: every variant through the (here: fake) compiler driver, in order, cancellable. */
import { describe, expect, it } from 'vitest';
import type { BuildOptions } from '../../../../electron/engine/compile/index.js';
import type { GeneratedProgram } from '../../../../electron/engine/codegen/types.js';
import { buildVariants, fileLabel } from '../../../../electron/engine/profile/build-variants.js';
import type { ProfileProgress } from '../../../../electron/engine/profile/options.js';
import type { PlannedVariant } from '../../../../electron/engine/profile/plan.js';
import { RunCancelled } from '../../../../electron/engine/profile/runner-host.js';
import { handProgram } from '../hand-program.js';
import { fakeBuild } from './fakes.js';

const planned: PlannedVariant[] = [
  { mode: 'SCOPED', layout: null, label: 'SCOPED', program: handProgram({ mode: 'SCOPED' }) },
  { mode: 'EXTERNAL', layout: 'packed', label: 'EXTERNAL (packed)', program: handProgram({ mode: 'EXTERNAL' }) },
];

describe('build step', () => {
  it('builds each variant with a file-safe label in the run folder and reports progress', async () => {
    const calls: Array<{ program: GeneratedProgram; opts: BuildOptions }> = [];
    const progress: ProfileProgress[] = [];
    const built = await buildVariants(planned, {
      runDir: '/tmp/run-x',
      sdfgFile: 'prog.sdfg',
      onProgress: (p) => progress.push(p),
      build: async (program, opts) => {
        calls.push({ program, opts });
        return fakeBuild(`k${calls.length}`, calls.length === 2 ? ['openmp unavailable'] : []);
      },
    });
    expect(calls.map((c) => c.opts)).toEqual([
      { runDir: '/tmp/run-x', sdfgFile: 'prog.sdfg', label: 'SCOPED' },
      { runDir: '/tmp/run-x', sdfgFile: 'prog.sdfg', label: 'EXTERNAL-packed' },
    ]);
    expect(calls[1]!.program).toBe(planned[1]!.program);
    expect(built.map((b) => [b.label, b.build.key])).toEqual([
      ['SCOPED', 'k1'],
      ['EXTERNAL (packed)', 'k2'],
    ]);
    expect(built[1]!.build.warnings).toEqual(['openmp unavailable']);
    expect(progress).toEqual([
      { stage: 'build', message: 'build SCOPED', done: 1, total: 2 },
      { stage: 'build', message: 'build EXTERNAL (packed)', done: 2, total: 2 },
    ]);
  });

  it('stops before the next build once cancelled', async () => {
    const controller = new AbortController();
    let builds = 0;
    const pending = buildVariants(planned, {
      runDir: '/tmp/run-x',
      sdfgFile: 'prog.sdfg',
      signal: controller.signal,
      build: async () => {
        builds++;
        controller.abort();
        return fakeBuild('k');
      },
    });
    await expect(pending).rejects.toBeInstanceOf(RunCancelled);
    expect(builds).toBe(1);
  });

  it('passes a compiler failure through unchanged', async () => {
    const failure = new Error('compiler exploded');
    await expect(buildVariants(planned, { runDir: '/tmp', sdfgFile: 'p.sdfg', build: async () => Promise.reject(failure) })).rejects.toBe(
      failure,
    );
  });

  it('makes labels safe for file names', () => {
    expect(fileLabel('EXTERNAL (dace)')).toBe('EXTERNAL-dace');
    expect(fileLabel('SCOPED')).toBe('SCOPED');
  });
});
