/**
 * The packaging configuration, read the way electron-builder reads it (package.json "build" → extends →
 * electron/packaging/electron-builder.json) and validated against electron-builder's own schema: fuses, what
 * is unpacked from the ASAR, file associations, targets, and no rebuild of the Node-API addon for Electron.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';

const root = packageRoot();
const require = createRequire(join(root, 'package.json'));

type Config = Record<string, unknown> & {
  /** Normalised by electron-builder into file sets. */
  files: Array<{ filter: string[] }>;
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  fileAssociations: Array<{ ext: string; mimeType?: string; name?: string }>;
  linux: { target: string[]; icon: string };
  mac: { target: string[] };
  win: { target: string[] };
};

let config: Config;
let files: string[];

beforeAll(async () => {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<Config>;
    validateConfiguration(config: Config, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  config = await getConfig(root, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  files = config.files.flatMap((set) => set.filter);
});

/** Files under `dir` (relative to root) matching a simple electron-builder glob (`**`, `*`). */
function matches(pattern: string): string[] {
  // NUL marks where `**` stood while `*` is rewritten: no path holds one.
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\/?/g, '\u0000')
      .replace(/\*/g, '[^/]*')
      // eslint-disable-next-line no-control-regex
      .replace(/\u0000/g, '.*')}$`,
  );
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!['node_modules', '.git'].includes(e.name)) walk(rel);
      } else if (re.test(rel)) out.push(rel);
    }
  };
  for (const top of ['package.json', 'dist', 'native', 'assets']) {
    if (top.includes('.')) {
      if (re.test(top)) out.push(top);
    } else if (existsSync(join(root, top))) walk(top);
  }
  return out;
}

describe('packaging configuration', () => {
  it("is found through package.json and passes electron-builder's schema", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { build: { extends: string }; main: string };
    expect(pkg.build).toEqual({ extends: 'electron/packaging/electron-builder.json' });
    expect(pkg.main).toBe('dist/electron/main.js');
    expect(config.productName).toBe('Transient Lab');
  });

  it('flips the fuses of checklist item 19', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('unpacks the addon and the runtime header from the ASAR (dlopen and the compiler read real files)', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['native/build/Release/transient_native.node', 'native/include/**']));
    for (const pattern of config.asarUnpack)
      expect(
        files.some((f) => f === pattern || f.startsWith(pattern.replace(/\*\*$/, ''))),
        pattern,
      ).toBe(true);
  });

  it('associates .sdfg and .sdfgz', () => {
    expect(config.fileAssociations.map((a) => a.ext)).toEqual(['sdfg', 'sdfgz']);
    for (const a of config.fileAssociations) expect(a.mimeType).toMatch(/^application\/x-sdfgz?$/);
  });

  it('builds AppImage and deb; mac and win targets are written', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target.length).toBeGreaterThan(0);
    expect(config.win.target.length).toBeGreaterThan(0);
    expect(existsSync(join(root, config.linux.icon, '512x512.png'))).toBe(true);
    expect(existsSync(join(root, 'assets', 'icons', 'icon.png'))).toBe(true);
    expect(existsSync(join(root, 'assets', 'icons', 'icon.ico'))).toBe(true);
    expect(existsSync(join(root, String((config.mac as Record<string, unknown>).entitlements)))).toBe(true);
  });

  it('never rebuilds native code for Electron: the addon is Node-API (ABI-stable), built once by npm run build', () => {
    expect(config).toMatchObject({ npmRebuild: false, nodeGypRebuild: false, buildDependenciesFromSource: false });
    expect(readFileSync(join(root, 'native', 'binding.gyp'), 'utf8')).toMatch(/'NAPI_VERSION=\d+'/);
    // The project's runtime dependencies have no native code that would need a rebuild.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies)) {
      const dir = join(root, 'node_modules', dep);
      expect(existsSync(join(dir, 'binding.gyp')), dep).toBe(false);
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'the built addon links against Node-API only (no V8 or Node C++ symbols): the same binary loads in Electron',
    () => {
      const undefinedSymbols = execFileSync(
        'nm',
        ['-D', '--undefined-only', join(root, 'native', 'build', 'Release', 'transient_native.node')],
        { encoding: 'utf8' },
      );
      expect(undefinedSymbols).toMatch(/\bnapi_/);
      expect(undefinedSymbols).not.toMatch(/\bv8|_ZN4node|\buv_/);
    },
  );

  it('every file pattern names something the build made', () => {
    for (const pattern of files.filter((f) => !f.startsWith('!'))) expect(matches(pattern).length, pattern).toBeGreaterThan(0);
    expect(matches('dist/electron/main.js')).toHaveLength(1);
  });
});
