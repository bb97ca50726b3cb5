/**
 * An SDFG built in code, written to a fresh temp folder before a test file's tests and removed after them.
 * Several engine tests profile such a program from disk (index-safe inputs, derived symbols, Fortran bounds,
 * unobserved writes); each wrote and removed it the same way.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** `file` is `dir/name` holding `text()`; both are set once the file's beforeAll hooks have run. */
export function sdfgInTempDir(prefix: string, name: string, text: () => string): { readonly dir: string; readonly file: string } {
  const at = { dir: '', file: '' };
  beforeAll(async () => {
    at.dir = await mkdtemp(join(tmpdir(), prefix));
    at.file = join(at.dir, name);
    await writeFile(at.file, text());
  });
  afterAll(() => rm(at.dir, { recursive: true, force: true }));
  return at;
}
