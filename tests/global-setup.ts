/**
 * Tests that spawn the CLI or the runner child need the built JavaScript in dist/ and the native addon.
 * Build them once per test run when they are missing or older than the sources, so `npm test` works right
 * after editing a file (CI gets them from `npm ci`'s install script already).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string, exts: string[]): number {
  let newest = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    if (!existsSync(d)) continue;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'build' && entry.name !== 'node_modules') stack.push(p);
      } else if (exts.some((e) => entry.name.endsWith(e))) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  }
  return newest;
}

function mtime(p: string): number {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

export default function setup(): void {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tsOut = join(root, 'dist', 'electron', 'cli', 'main.js');
  if (mtime(tsOut) < newestMtime(join(root, 'electron'), ['.ts']) || mtime(tsOut) < newestMtime(join(root, 'bench'), ['.ts'])) {
    // tsc still emits when some file has type errors; `npm test` reports those through its typecheck step,
    // so a type error must not also hide every test result here.
    try {
      execFileSync(npm, ['run', '--silent', 'build:ts'], { cwd: root, stdio: 'inherit' });
    } catch {
      process.stderr.write('global-setup: build:ts reported errors; tests that spawn dist/ may fail\n');
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
      execFileSync(npm, ['run', '--silent', 'build:renderer'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    } catch {
      process.stderr.write('global-setup: build:renderer failed; browser-mode tests will fail\n');
    }
  }
  const addon = join(root, 'native', 'build', 'Release', 'transient_native.node');
  const nativeSrc = Math.max(newestMtime(join(root, 'native', 'src'), ['.cc', '.h']), mtime(join(root, 'native', 'binding.gyp')));
  if (existsSync(join(root, 'native', 'binding.gyp')) && mtime(addon) < nativeSrc) {
    execFileSync(npm, ['run', '--silent', 'build:native'], { cwd: root, stdio: 'inherit' });
  }
}
