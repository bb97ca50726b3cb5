import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectory } from '../../electron/engine/files.js';

describe('makeDirectory', () => {
  it('creates every missing component and accepts an existing folder', async () => {
    const base = mkdtempSync(join(tmpdir(), 'tlab-mkdir-'));
    const deep = join(base, 'a', 'b', 'c');
    await makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await makeDirectory(deep);
  });

  it('fails on a file in the way', async () => {
    const base = mkdtempSync(join(tmpdir(), 'tlab-mkdir-'));
    writeFileSync(join(base, 'file'), 'x');
    await expect(makeDirectory(join(base, 'file', 'sub'))).rejects.toThrow(/not a directory/);
  });

  // Node 20's recursive mkdir never returns on this path (it spins at 100% CPU); ours must fail at once.
  it.runIf(existsSync('/proc/self'))('fails instead of hanging under /proc', async () => {
    await expect(makeDirectory('/proc/transient-lab-nope/SCOPED')).rejects.toThrow(/ENOENT/);
  });
});
