/** Builds the hand-written fake program library (fixtures/fake_program.cc) into a temp dir for the native tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../electron/engine/paths.js';

export const addonPath = join(packageRoot(), 'native', 'build', 'Release', 'transient_native.node');
export const fixtureSource = join(packageRoot(), 'tests', 'native', 'fixtures', 'fake_program.cc');
const runtimeInclude = join(packageRoot(), 'native', 'include');

export interface FixtureBuilds {
  dir: string;
  /** Compiles `source` (a path) into `<dir>/<name>.so`; every build gets its own path (dlopen caches by path).
   * `linkFlags` come after the source (libraries to link, -Wl options). */
  compile(name: string, source: string, defines?: string[], linkFlags?: string[]): string;
  /** Writes `text` to `<dir>/<name>.cc` and compiles it. */
  compileText(name: string, text: string): string;
  dispose(): void;
}

export function fixtureBuilds(): FixtureBuilds {
  const dir = mkdtempSync(join(tmpdir(), 'tlab-native-test-'));
  const compile = (name: string, source: string, defines: string[] = [], linkFlags: string[] = []): string => {
    const output = join(dir, `lib${name}.so`);
    const flags = ['-std=c++17', '-shared', '-fPIC', '-O2', '-fopenmp', '-Wall', '-Wextra', '-Werror'];
    const defineFlags = defines.map((define) => `-D${define}`);
    execFileSync('g++', [...flags, ...defineFlags, '-I', runtimeInclude, source, '-o', output, ...linkFlags], { stdio: 'pipe' });
    return output;
  };
  return {
    dir,
    compile,
    compileText(name, text) {
      const source = join(dir, `${name}.cc`);
      writeFileSync(source, text);
      return compile(name, source);
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
