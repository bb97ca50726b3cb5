/**
 * `npm start` / `npm run dist` (electron/launch.ts): without the Electron binary they print one line saying how to
 * get it and exit non-zero, before building or spawning anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { binaryStatus, electronPackageDir, missingBuild, startFiles } from '../../electron/launch.js';

const root = packageRoot();
const launcher = join(root, 'dist', 'electron', 'launch.js');
let pkg: string;

beforeAll(async () => {
  pkg = await mkdtemp(join(tmpdir(), 'tlab-fake-electron-pkg-'));
  await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
});

afterAll(async () => {
  await rm(pkg, { recursive: true, force: true });
});

describe('launcher', () => {
  it('finds the electron package without loading it (its index.js would try to download the binary)', () => {
    expect(existsSync(join(electronPackageDir(), 'electron.d.ts'))).toBe(true);
  });

  it('says how to get a missing binary, in one line', async () => {
    const status = binaryStatus(pkg, {});
    expect(status.ok).toBe(false);
    if (status.ok) return;
    expect(status.message.split('\n')).toHaveLength(1);
    expect(status.message).toMatch(/Electron 45\.5\.0 binary is not installed/);
    expect(status.message).toMatch(/npx install-electron/);
    expect(status.message).toMatch(/node node_modules\/electron\/install\.js/);
  });

  it('finds an installed binary (path.txt, or ELECTRON_OVERRIDE_DIST_PATH)', async () => {
    await mkdir(join(pkg, 'dist'), { recursive: true });
    await writeFile(join(pkg, 'path.txt'), 'electron');
    await writeFile(join(pkg, 'dist', 'electron'), '');
    expect(binaryStatus(pkg, {})).toMatchObject({ ok: true, binary: join(pkg, 'dist', 'electron'), version: '45.5.0' });
    expect(binaryStatus(pkg, { ELECTRON_OVERRIDE_DIST_PATH: join(pkg, 'elsewhere') }).ok).toBe(false);
    await rm(join(pkg, 'dist'), { recursive: true });
    await rm(join(pkg, 'path.txt'));
  });

  it('knows what the app needs from the build', () => {
    expect(missingBuild(pkg)).toBe(join(pkg, 'dist/electron/main.js'));
  });

  it('npm start opens the files given, else the bundled hdiff example', () => {
    expect(startFiles(['a.sdfg', '/abs/b.sdfgz'], '/work')).toEqual(['/work/a.sdfg', '/abs/b.sdfgz']);
    const [hdiff] = startFiles([]);
    expect(hdiff).toBe(join(examplesDir(), 'hdiff.sdfg'));
    expect(existsSync(hdiff!)).toBe(true);
  });

  it.skipIf(binaryStatus(electronPackageDir()).ok)('start and dist exit non-zero with that one line when the binary is missing', () => {
    for (const command of ['start', 'dist']) {
      const r = spawnSync(process.execPath, [launcher, command], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' },
      });
      expect(r.status, command).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines, command).toHaveLength(1);
      expect(lines[0]).toMatch(/^Transient Lab: the Electron 45\.5\.0 binary is not installed .*npx install-electron/);
    }
    expect(spawnSync(process.execPath, [launcher], { encoding: 'utf8' }).status).toBe(2);
  });
});
