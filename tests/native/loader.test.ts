import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../electron/engine/errors.js';
import { loadNativeAddon, loadNativeAddonFrom, nativeAddonCandidates } from '../../electron/runner/native.js';
import { packageRoot } from '../../electron/engine/paths.js';
import { addonPath } from './fixtureBuild.js';

describe('native addon loader', () => {
  it('looks for the node-gyp Release build under the package root first', () => {
    expect(nativeAddonCandidates()[0]).toBe(join(packageRoot(), 'native', 'build', 'Release', 'transient_native.node'));
  });

  it('throws a run error listing every path tried and how to build the addon', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlab-loader-test-'));
    try {
      const missing = join(dir, 'missing.node');
      const broken = join(dir, 'broken.node');
      writeFileSync(broken, 'not an addon');
      let thrown: unknown;
      try {
        loadNativeAddonFrom([missing, broken]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TlabError);
      const error = thrown as TlabError;
      expect(error.kind).toBe('run');
      expect(error.message).toContain(missing);
      expect(error.message).toContain(broken);
      expect(error.message).toContain('run `npm run build:native`');
      expect(error.details).toEqual([
        `tried ${missing}: not found`,
        expect.stringMatching(new RegExp(`^tried ${broken}: .*(invalid ELF header|file too short)`)),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads the built addon with the contract exports', () => {
    const addon = loadNativeAddon();
    expect(typeof addon.load).toBe('function');
    expect(typeof addon.measureEventCostNs).toBe('function');
    expect(typeof addon.measureCallOverheadNs).toBe('function');
    expect(loadNativeAddonFrom([addonPath])).toBe(addon);
  });
});
