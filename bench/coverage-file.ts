/**
 * One corpus file for the `coverage` bench section (bench/coverage.ts forks this per file, so a hang or a crash
 * costs one row and the parent can enforce a time limit): parse, pick the target, check the subset, then profile
 * every mode (SCOPED, PERSISTENT, POOL, EXTERNAL dace and packed) through the engine path `profile` uses, with
 * verification and a few calls:
 *
 *   CPU  on this CPU (backend 'cpu');
 *   GPU  through issue 25's host backend, the path `profile --gpu host` uses (backend 'cuda-host': the CUDA
 *        translation unit compiled for this CPU against the host CUDA runtime, docs/gpu-host.md). Where the host
 *        backend cannot run the program (it does not compile for the host, or crashes at every symbol value
 *        tried), the row falls back to compiling every mode with nvcc ('builds') and says why nothing ran.
 *
 * Every symbol is 16 first; 64 where sizes go negative at 16 or where the run at 16 fails (tiled programs assume
 * sizes that are multiples of their tiles); then 128 and 32 while the runs still index past their arrays (the
 * runner's out-of-bounds advice; OUT_OF_BOUNDS_SYMBOLS says which programs need them). Symbols that profile
 * itself sets from the program's reads in place of the default (docs/profile.md) are recorded (`derivedSymbols`).
 * A file whose subset
 * findings are all library nodes that only blas expands (Potrf: DaCe has no pure expansion) runs with
 * `--library-impl blas`; the row records the implementation.
 *
 * The row's logic lives in bench/lib/coverage-row.ts (tests/bench/coverage-file.test.ts checks single rows).
 *
 * Usage: node dist/bench/coverage-file.js FILE   (posts one CoverageRow to the parent, or prints it as JSON)
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coverageOf } from './lib/coverage-row.js';

const path = process.argv[2];
if (path && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  coverageOf(path).then(
    (row) => (process.send ? process.send(row) : process.stdout.write(`${JSON.stringify(row)}\n`)),
    (err: unknown) => {
      process.stderr.write(`coverage: ${path}: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
