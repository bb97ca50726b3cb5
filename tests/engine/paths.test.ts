/**
 * Where the engine finds its own files in both layouts: a checkout (or npm install) and the packaged desktop
 * app, where the package is resources/app.asar and the addon, the runtime header and the examples are unpacked
 * to resources/app.asar.unpacked (electron/packaging/electron-builder.json asarUnpack).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { examplesDir, nativeDir, packageRoot, unpackedPath } from '../../electron/engine/paths.js';

const made: string[] = [];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

describe('engine paths', () => {
  it('unpackedPath maps a path inside app.asar to app.asar.unpacked, and leaves others alone', () => {
    expect(unpackedPath('/opt/Transient Lab/resources/app.asar/native/include')).toBe(
      '/opt/Transient Lab/resources/app.asar.unpacked/native/include',
    );
    expect(unpackedPath('/opt/x/resources/app.asar')).toBe('/opt/x/resources/app.asar.unpacked');
    expect(unpackedPath('C:\\Program Files\\TL\\resources\\app.asar\\native')).toBe(
      'C:\\Program Files\\TL\\resources\\app.asar.unpacked\\native',
    );
    expect(unpackedPath('/home/me/app.asarx/native')).toBe('/home/me/app.asarx/native');
    expect(unpackedPath('/home/me/my-app.asar/native')).toBe('/home/me/my-app.asar/native');
    expect(unpackedPath('/repo/native')).toBe('/repo/native');
  });

  it("in a checkout, native/ and the examples are the package's own", () => {
    expect(nativeDir()).toBe(join(packageRoot(), 'native'));
    expect(examplesDir()).toBe(join(packageRoot(), 'assets', 'examples'));
  });

  it('in the packaged layout, the engine finds native/ and the examples unpacked', async () => {
    // The built paths module, placed where electron-builder puts it: resources/app.asar/dist/electron/engine/.
    const base = await mkdtemp(join(tmpdir(), 'tlab-packaged-'));
    made.push(base);
    const asar = join(base, 'resources', 'app.asar');
    await mkdir(join(asar, 'dist', 'electron', 'engine'), { recursive: true });
    await mkdir(join(asar, 'native'), { recursive: true });
    await writeFile(join(asar, 'package.json'), '{"type":"module"}');
    const built = await readFile(join(packageRoot(), 'dist', 'electron', 'engine', 'paths.js'), 'utf8');
    await writeFile(join(asar, 'dist', 'electron', 'engine', 'paths.js'), built.replace(/^\/\/# sourceMappingURL=.*$/m, ''));
    const packaged = (await import(
      pathToFileURL(join(asar, 'dist', 'electron', 'engine', 'paths.js')).href
    )) as typeof import('../../electron/engine/paths.js');
    expect(packaged.packageRoot()).toBe(asar);
    expect(packaged.nativeDir()).toBe(join(base, 'resources', 'app.asar.unpacked', 'native'));
    expect(packaged.examplesDir()).toBe(join(base, 'resources', 'app.asar.unpacked', 'assets', 'examples'));
  });
});
