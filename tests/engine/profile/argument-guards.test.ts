/**
 * The runner's argument arena (docs/profile.md, "Argument guards"), end to end through a real runner child on
 * hand-written programs: a write past (or before) an array argument lands in guard bytes the runner owns and
 * stops the mode with an error that names the array, the side, how far, and the symbols — after a
 * verification call, or once after the timed calls of a job without verification. A program that corrupts
 * malloc's own metadata still dies of glibc's abort; the host then names the likely cause and the advice.
 */
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../../electron/engine/errors.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { handProgram } from './hand-program.js';
import { jobFor } from './runner-job.js';

const ADVICE =
  /these sizes may not fit the program's tiling or loop bounds; try larger symbol values \(--symbols NAME=V, --default-symbol V\)$/;

async function failure(job: Parameters<NodeRunnerHost['run']>[0]): Promise<TlabError> {
  const err = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TlabError);
  expect((err as TlabError).kind).toBe('run');
  return err as TlabError;
}

describe('argument guards', () => {
  it('stops a mode that writes one element past an argument, after its first verification call, naming array, side, bytes and symbols', async () => {
    for (const mode of ['SCOPED', 'EXTERNAL'] as const) {
      const err = await failure(await jobFor([handProgram({ mode, fault: 'arg-overrun' })]));
      const label = mode === 'EXTERNAL' ? 'EXTERNAL \\(packed\\)' : mode;
      expect(err.message).toMatch(
        new RegExp(
          `^mode ${label} during verification call 1 failed: out-of-bounds write: the program wrote 8 bytes past the end of argument y \\(y has 128 bytes\\) with symbols N=16: `,
        ),
      );
      expect(err.message).toMatch(ADVICE);
      expect(err.message).not.toMatch(/free\(\)|malloc|corrupted/);
    }
  });

  it("names a write before an argument's start", async () => {
    const err = await failure(await jobFor([handProgram({ fault: 'arg-underrun' })]));
    expect(err.message).toMatch(
      /failed: out-of-bounds write: the program wrote 16 bytes before the start of argument x \(x has 128 bytes\) with symbols N=16/,
    );
  });

  it('checks the guards once after the timed calls when the job does not verify', async () => {
    // The 4th call of the process (the third timed call after one warm-up) writes y[N + 1].
    const job = await jobFor([handProgram({ fault: 'arg-overrun-late' })], { calls: 5, warmup: 1 });
    const err = await failure({ ...job, skipVerification: true });
    expect(err.message).toMatch(
      /^mode SCOPED during timed calls failed: out-of-bounds write: the program wrote 16 bytes past the end of argument y/,
    );
    // With verification the same program passes its two verification calls: the overrun comes later.
    const verified = await failure(job);
    expect(verified.message).toMatch(/out-of-bounds write: the program wrote 16 bytes past the end of argument y/);
  });

  it('a correct program runs from the arena unchanged: outputs and timings as before', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED' })], { calls: 3 });
    const [r] = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    const x = new Float64Array(job.inputs.x!.slice().buffer);
    const y = new Float64Array(r!.outputs!.y!.slice().buffer);
    expect(Array.from(y)).toEqual(Array.from(x, (v) => 2 * v + 1));
    expect(r!.outputs!.y!.byteLength).toBe(128);
    expect(r!.timing.calls).toBe(3);
  });

  it('after glibc aborts on a corrupted heap, says that an out-of-bounds write is the likely cause and what to try', async () => {
    const err = await failure(await jobFor([handProgram({ fault: 'heap-smash' })]));
    expect(err.message).toMatch(
      /^mode SCOPED crashed with SIGABRT during verification call 1: glibc found its heap corrupted \(free\(\): invalid size\): an out-of-bounds write by the program is the likely cause, with symbols N=16: /,
    );
    expect(err.message).toMatch(ADVICE);
  });
});
