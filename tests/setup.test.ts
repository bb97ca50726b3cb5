/**
 * The test run itself must not pass by leaving things out: a failed build or a missing native addon stops it
 * in tests/global-setup.ts, and no test skips itself because a prerequisite is missing.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../electron/engine/paths.js';
import { afterFailedTsBuild, newestMtime, newestTsSource, outputFolders } from './global-setup.js';

describe('global setup after a failed build:ts', () => {
  it('fails in CI, whatever tsc emitted', () => {
    expect(afterFailedTsBuild({ CI: 'true' }, 2000, 1000)).toBe('fail');
    expect(afterFailedTsBuild({ CI: '1' }, 500, 1000)).toBe('fail');
  });

  it('fails locally when dist/ is older than the sources (tsc emitted nothing: the tests would run stale code)', () => {
    expect(afterFailedTsBuild({}, 500, 1000)).toBe('fail');
  });

  it('warns locally when tsc emitted fresh output despite type errors (npm test fails on them in its typecheck)', () => {
    expect(afterFailedTsBuild({}, 1000, 1000)).toBe('warn');
  });
});

describe('global setup: is dist/ older than the sources?', () => {
  /** A scratch tree whose files get the given mtimes (seconds since the epoch). */
  function tree(files: Record<string, number>): string {
    const base = mkdtempSync(join(tmpdir(), 'tlab-setup-'));
    for (const [path, seconds] of Object.entries(files)) {
      const file = join(base, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '');
      utimesSync(file, seconds, seconds);
    }
    return base;
  }

  it('counts a source under a folder named build (the rule skips output folders by path, not by name)', () => {
    const base = tree({ 'electron/cli/main.ts': 1000, 'electron/engine/build/build.ts': 2000, 'bench/run.ts': 500 });
    try {
      expect(newestTsSource(base)).toBe(2_000_000);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('skips the addon’s build output (native/build) and node_modules', () => {
    const base = tree({ 'native/src/addon.cc': 1000, 'native/build/Release/obj/gen.cc': 3000, 'native/src/node_modules/x/y.cc': 3000 });
    try {
      expect(newestMtime(join(base, 'native'), ['.cc'], outputFolders(base))).toBe(1_000_000);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

/** Conditions that may skip a test: features of the platform, never something our build produces. */
const ALLOWED_CONDITIONS = [
  /existsSync\('\/proc\/(stat|self)'\)/,
  /existsSync\('\/dev\/full'\)/,
  /process\.platform !== 'linux'/,
  // The Electron binary cannot be downloaded everywhere (nor here); the test covers the case where it is missing.
  /binaryStatus\(electronPackageDir\(\)\)\.ok/,
  // A CUDA device (runtime GPU tests run with one and are reported skipped without, issue 9) and nvcc.
  /skipIf\(!?hasDevice\)/,
  /skipIf\(!?(haveNvcc|nvcc)\)/,
  // A real tmpfs needs the right to mount (root or CAP_SYS_ADMIN); the same cases run through an injected fs always.
  /console\.warn\(`tmpfs test skipped: mount -t tmpfs refused here/,
];

describe('no test skips silently', () => {
  it('uses skipIf/runIf/skip only on platform features, never on the addon, dist/ or a compiler', () => {
    const root = packageRoot();
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.endsWith('.ts')) files.push(join(dir, e.name));
      }
    };
    walk(join(root, 'tests'));
    const offending: string[] = [];
    for (const file of files) {
      if (file.endsWith('setup.test.ts')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const m = /\.(skipIf|runIf)\((.*?)\)\(|\b(it|describe|test)\.skip\(|console\.warn\([^)]*skip/.exec(line);
          if (m && !ALLOWED_CONDITIONS.some((c) => c.test(line))) offending.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offending).toEqual([]);
  });
});
