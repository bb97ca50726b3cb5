import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractFailure } from '../../electron/ipc/errors.js';
import { TlabError } from '../../electron/engine/errors.js';
import { ApprovedFileAccess, RootsFileAccess } from '../../electron/host-kit/file-access.js';

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof ContractFailure) return err.error.kind;
    if (err instanceof TlabError) return err.kind;
    throw err;
  }
}

describe('file policies', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'tlab-fa-'));
    root = join(base, 'root');
    outside = join(base, 'outside');
    await mkdir(join(root, 'a'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(root, 'a', 'x.sdfg'), '{}');
    await writeFile(join(outside, 'secret.sdfg'), '{}');
    await symlink(join(outside, 'secret.sdfg'), join(root, 'out.sdfg'));
    await symlink(outside, join(root, 'outdir'));
    await symlink(root, join(base, 'root-link'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('RootsFileAccess reads inside the roots only, whatever the spelling', async () => {
    const fa = await RootsFileAccess.create([root]);
    expect(await fa.resolveRead('a/x.sdfg', 'sdfg')).toBe(join(root, 'a', 'x.sdfg'));
    expect(await fa.resolveRead(join(root, 'a', '..', 'a', 'x.sdfg'), 'sdfg')).toBe(join(root, 'a', 'x.sdfg'));
    for (const p of [
      '../outside/secret.sdfg',
      'a/../../outside/secret.sdfg',
      join(outside, 'secret.sdfg'),
      '/etc/passwd',
      'out.sdfg',
      'outdir/secret.sdfg',
      join(root, 'outdir', 'secret.sdfg'),
    ]) {
      expect(await kindOf(fa.resolveRead(p, 'sdfg')), p).toBe('refused');
    }
    expect(await kindOf(fa.resolveRead('a', 'sdfg'))).toBe('input');
    expect(await kindOf(fa.resolveRead('a/x.sdfg', 'folder'))).toBe('input');
    expect(await kindOf(fa.resolveRead('missing.sdfg', 'sdfg'))).toBe('input');
  });

  it('a root given through a link reads the same files and refuses the same escapes', async () => {
    const fa = await RootsFileAccess.create([join(base, 'root-link')]);
    expect(await fa.resolveRead('a/x.sdfg', 'sdfg')).toBe(join(root, 'a', 'x.sdfg'));
    expect(await kindOf(fa.resolveRead('out.sdfg', 'sdfg'))).toBe('refused');
  });

  it('writes only inside the roots and never through a link', async () => {
    const fa = await RootsFileAccess.create([root]);
    expect(await fa.resolveWrite('a/new.json')).toBe(join(root, 'a', 'new.json'));
    expect(await kindOf(fa.resolveWrite('outdir/new.json'))).toBe('refused');
    expect(await kindOf(fa.resolveWrite('../outside/new.json'))).toBe('refused');
    expect(await kindOf(fa.resolveWrite('out.sdfg'))).toBe('refused');
    expect(await kindOf(fa.resolveWrite('a'))).toBe('refused');
    expect(await kindOf(fa.resolveWrite('nope/new.json'))).toBe('usage');
  });

  it('refuses roots that do not exist or are files', async () => {
    expect(await kindOf(RootsFileAccess.create([join(base, 'missing')]))).toBe('usage');
    expect(await kindOf(RootsFileAccess.create([join(root, 'a', 'x.sdfg')]))).toBe('usage');
    expect(await kindOf(RootsFileAccess.create([]))).toBe('usage');
  });

  it('ApprovedFileAccess allows exactly the approved paths', async () => {
    const fa = new ApprovedFileAccess();
    expect(await kindOf(fa.resolveRead(join(root, 'a', 'x.sdfg'), 'sdfg'))).toBe('refused');
    await fa.approve(join(root, 'a', 'x.sdfg'));
    expect(await fa.resolveRead(join(root, 'a', 'x.sdfg'), 'sdfg')).toBe(join(root, 'a', 'x.sdfg'));
    // Approving a link approves where it leads, not the link's other targets.
    await fa.approve(join(root, 'out.sdfg'));
    expect(await fa.resolveRead(join(outside, 'secret.sdfg'), 'sdfg')).toBe(join(outside, 'secret.sdfg'));
    expect(await kindOf(fa.listFolder())).toBe('refused');
    expect(await kindOf(fa.resolveWrite(join(root, 'r.json')))).toBe('refused');
    fa.approveWrite(join(root, 'r.json'));
    expect(await fa.resolveWrite(join(root, 'r.json'))).toBe(join(root, 'r.json'));
    expect(fa.roots).toEqual([]);
  });

  it('ApprovedFileAccess approves a DaCe build folder (a drop, the folder dialog) with its SDFG, and no other folder', async () => {
    const dace = join(root, 'dace', 'prog');
    for (const sub of ['build', 'include']) await mkdir(join(dace, sub), { recursive: true });
    await writeFile(join(dace, 'program.sdfg'), '{}');
    const fa = new ApprovedFileAccess();
    expect(await kindOf(fa.resolveRead(dace, 'folder'))).toBe('refused');
    expect(await fa.approve(dace)).toBe(dace);
    expect(await fa.resolveRead(dace, 'folder')).toBe(dace);
    expect(await fa.resolveRead(join(dace, 'program.sdfg'), 'sdfg')).toBe(join(dace, 'program.sdfg'));
    // Approved as a folder, it is not a file to read, and nothing else in it was approved.
    expect(await kindOf(fa.resolveRead(dace, 'sdfg'))).toBe('input');
    await writeFile(join(dace, 'build', 'CMakeCache.txt'), '');
    expect(await kindOf(fa.resolveRead(join(dace, 'build', 'CMakeCache.txt'), 'sdfg'))).toBe('refused');
    // Any other folder is refused when it is approved, naming it.
    const err = await fa.approve(join(root, 'a')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).describe()).toMatch(/a folder that is not a DaCe build folder/);
    expect(await kindOf(fa.resolveRead(join(root, 'a'), 'folder'))).toBe('refused');
  });
});
