/**
 * Tests that spawn the CLI or the runner child need the built JavaScript in dist/ and the native addon.
 * Build them once per test run when they are missing or older than the sources, so `npm test` works right
 * after editing a file (CI gets them from `npm ci`'s install script already).
 *
 * A missing prerequisite fails the whole run here, loudly: the native and end-to-end tests do not skip,
 * so a broken build can never pass as a green run with half the suite missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Folders whose files are build output, not sources, by path: the addon's node-gyp output. Any other folder
 * counts, whatever its name (a source folder named `build` once went unwatched here, and the tests ran stale
 * code). `node_modules` is skipped wherever it is.
 */
export function outputFolders(base = root): string[] {
  return [join(base, 'native', 'build')];
}

/** Newest mtime of the files under `dir` ending in one of `exts`, outside `skip` and any node_modules. */
export function newestMtime(dir: string, exts: string[], skip: readonly string[] = outputFolders()): number {
  let newest = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    if (!existsSync(d)) continue;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !skip.includes(p)) stack.push(p);
      } else if (exts.some((e) => entry.name.endsWith(e))) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  }
  return newest;
}

function mtime(p: string): number {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

/** Thrown from the global setup: vitest prints it and runs no test. */
export class SetupFailure extends Error {
  override name = 'global-setup';
}

/** Newest TypeScript source that dist/ is built from. */
export function newestTsSource(base = root): number {
  const skip = outputFolders(base);
  return Math.max(newestMtime(join(base, 'electron'), ['.ts'], skip), newestMtime(join(base, 'bench'), ['.ts'], skip));
}

/**
 * What to do after `npm run build:ts` failed. tsc still emits JavaScript when the only problems are type
 * errors, and `npm test` reports those through its typecheck step before vitest starts: locally, with fresh
 * output, the tests may run (an engineer running one test file while another file has a type error). In CI,
 * or when nothing fresh was emitted (tsc itself failed: dist/ is stale), the run fails here.
 */
export function afterFailedTsBuild(env: NodeJS.ProcessEnv, distMtime: number, sourceMtime: number): 'fail' | 'warn' {
  if (env['CI']) return 'fail';
  return distMtime >= sourceMtime ? 'warn' : 'fail';
}

export default function setup(): void {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tsOut = join(root, 'dist', 'electron', 'cli', 'main.js');
  if (mtime(tsOut) < newestTsSource()) {
    try {
      execFileSync(npm, ['run', '--silent', 'build:ts'], { cwd: root, stdio: 'inherit' });
    } catch (error) {
      const verdict = afterFailedTsBuild(process.env, mtime(tsOut), newestTsSource());
      if (verdict === 'fail') {
        throw new SetupFailure(
          `\`npm run build:ts\` failed (${(error as Error).message.split('\n')[0]})` +
            (process.env['CI']
              ? ' in CI, where a failed build must fail the run.'
              : ', and dist/ is older than the sources: the tests that spawn dist/ would test stale code.') +
            ' Fix the errors above and run the tests again.',
        );
      }
      process.stderr.write(
        '\nglobal-setup: WARNING: `npm run build:ts` reported errors (see above); tsc emitted dist/ anyway, so the tests run on\n' +
          'the current code. `npm test` fails on the same errors in its typecheck step; in CI this stops the run.\n\n',
      );
    }
  }
  // The browser-mode tests load the production renderer build: rebuild it when the renderer or the contract
  // files it bundles changed.
  const page = join(root, 'dist', 'renderer', 'index.html');
  const rendererSrc = Math.max(
    newestMtime(join(root, 'renderer'), ['.ts', '.tsx', '.html', '.css', '.svg', '.json']),
    newestMtime(join(root, 'electron', 'ipc'), ['.ts']),
  );
  if (mtime(page) < rendererSrc) {
    try {
      // Vitest sets NODE_ENV=test, and Vite builds React's development runtime under anything but production:
      // the tests and `npm run bench renderer` must run the bundle users get.
      execFileSync(npm, ['run', '--silent', 'build:renderer'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      });
    } catch (error) {
      if (process.env['CI'])
        throw new SetupFailure(
          `\`npm run build:renderer\` failed in CI (${(error as Error).message.split('\n')[0]}): fix the errors above.`,
        );
      process.stderr.write('global-setup: WARNING: build:renderer failed; the browser-mode tests will fail\n');
    }
  }
  // Reports inline the chart bundles of dist/report/ (npm run build:report): rebuild them when the chart modules,
  // the report runtime or the engine helpers they bundle changed.
  const runtime = join(root, 'dist', 'report', 'charts-svg.js');
  const reportSrc = Math.max(
    newestMtime(join(root, 'renderer', 'src'), ['.ts', '.tsx']),
    newestMtime(join(root, 'electron', 'engine', 'view'), ['.ts']),
    newestMtime(join(root, 'electron', 'engine', 'profile'), ['.ts']),
    mtime(join(root, 'renderer', 'vite.report.config.ts')),
  );
  if (mtime(runtime) < reportSrc) {
    try {
      execFileSync(npm, ['run', '--silent', 'build:report'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      });
    } catch {
      process.stderr.write('global-setup: build:report failed; report tests will fail\n');
    }
  }
  const addon = join(root, 'native', 'build', 'Release', 'transient_native.node');
  const nativeSrc = Math.max(newestMtime(join(root, 'native', 'src'), ['.cc', '.h']), mtime(join(root, 'native', 'binding.gyp')));
  if (mtime(addon) < nativeSrc) {
    try {
      execFileSync(npm, ['run', '--silent', 'build:native'], { cwd: root, stdio: 'inherit' });
    } catch (error) {
      throw new SetupFailure(
        `\`npm run build:native\` failed (${(error as Error).message.split('\n')[0]}): the native and end-to-end tests need the addon. Fix the build errors above (g++, make and python3 are needed; see README).`,
      );
    }
  }
  if (!existsSync(addon)) {
    throw new SetupFailure(
      `the native addon ${addon} does not exist: the native and end-to-end tests need it. Build it with \`npm run build:native\` (or \`npm ci\`).`,
    );
  }
}
