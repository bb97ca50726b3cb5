/**
 * Reading an open document's bytes (electron/service/sources.ts): what was opened is what is read, a file
 * changed since is refused rather than silently swapped, and a vanished one is a clear input error.
 */
import { mkdtemp, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSource, readSourceBytes } from '../../electron/service/sources.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-sources-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readSourceBytes', () => {
  it('reads the whole file, empty or bigger than one read', async () => {
    const big = Buffer.alloc(3 * 2 ** 20 + 7, 0x61);
    for (const content of [Buffer.alloc(0), Buffer.from('{"type": "SDFG"}'), big]) {
      const p = join(dir, 'a.sdfg');
      await writeFile(p, content);
      expect((await readSourceBytes(await fileSource(p))).equals(content)).toBe(true);
    }
  });

  it('refuses a file changed on disk since it was opened', async () => {
    const p = join(dir, 'b.sdfg');
    await writeFile(p, '{"a": 1}');
    const source = await fileSource(p);
    await writeFile(p, '{"a": 12}');
    await expect(readSourceBytes(source)).rejects.toMatchObject({
      kind: 'input',
      file: p,
      message: expect.stringMatching(/changed on disk/),
    });
    // Same size, new time: also a change.
    await writeFile(p, '{"a": 1}');
    const again = await fileSource(p);
    await utimes(p, new Date(), new Date(Date.now() + 5000));
    await expect(readSourceBytes(again)).rejects.toMatchObject({ kind: 'input', message: expect.stringMatching(/changed on disk/) });
  });

  it('a file gone since it was opened is an input error naming it', async () => {
    const p = join(dir, 'c.sdfg');
    await writeFile(p, '{}');
    const source = await fileSource(p);
    await unlink(p);
    await expect(readSourceBytes(source)).rejects.toMatchObject({
      kind: 'input',
      file: p,
      message: expect.stringMatching(/cannot read the SDFG file/),
    });
  });
});
