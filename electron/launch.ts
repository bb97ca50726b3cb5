/**
 * `npm start` and `npm run dist`: check that the Electron binary is there before anything needs it, and say in
 * one line how to get it when it is not (the `electron` package installs its type definitions and its
 * downloader, but the binary itself comes from GitHub on first use; on machines without internet it is
 * missing, and `require('electron')` would try to download it).
 *
 *   node dist/electron/launch.js start [FILE…]   runs the app from the build (dist/) on the files given
 *                                                (none: the bundled hdiff example, as `npm run demo`)
 *   node dist/electron/launch.js dist [ARGS…]    builds, then packages with electron-builder (AppImage, deb)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { examplesDir, packageRoot } from './engine/paths.js';

export type BinaryStatus = { ok: true; binary: string; version: string } | { ok: false; message: string };

/** Where the `electron` package keeps its binary (node_modules/electron/dist), without running its index.js. */
export function electronPackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

export function binaryStatus(pkgDir: string, env: NodeJS.ProcessEnv = process.env): BinaryStatus {
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const how = `on a machine with internet run \`npx install-electron\` (or \`node node_modules/electron/install.js\`) in ${packageRoot()}, or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron ${version}`;
  const pathFile = join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : process.platform === 'darwin'
      ? 'Electron.app/Contents/MacOS/Electron'
      : process.platform === 'win32'
        ? 'electron.exe'
        : 'electron';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, relative) : join(pkgDir, 'dist', relative);
  if (!existsSync(binary))
    return {
      ok: false,
      message: `Transient Lab: the Electron ${version} binary is not installed (${binary} is missing): ${how}, then run this again.`,
    };
  return { ok: true, binary, version };
}

/** What `npm start` opens: the files given (relative to where npm was run: npm runs scripts in the package
 * root and names the caller's folder INIT_CWD), or the bundled hdiff example when none are. */
export function startFiles(args: string[], cwd: string = process.env.INIT_CWD ?? process.cwd()): string[] {
  return args.length ? args.map((f) => resolve(cwd, f)) : [join(examplesDir(), 'hdiff.sdfg')];
}

/** The build outputs the app needs; the first missing one, or null. */
export function missingBuild(root: string): string | null {
  const needed = [
    'dist/electron/main.js',
    'dist/preload/preload.cjs',
    'dist/renderer/index.html',
    'dist/electron/engine-host/entry.js',
    'native/build/Release/transient_native.node',
  ];
  const missing = needed.find((p) => !existsSync(join(root, p)));
  return missing ? join(root, missing) : null;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (err) => {
      process.stderr.write(`Transient Lab: cannot run ${command}: ${err.message}\n`);
      done(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const root = packageRoot();
  if (command !== 'start' && command !== 'dist') {
    process.stderr.write('usage: node dist/electron/launch.js start [FILE…] | dist [electron-builder arguments…]\n');
    return 2;
  }
  const status = binaryStatus(electronPackageDir());
  if (!status.ok) {
    process.stderr.write(`${status.message}\n`);
    return 1;
  }
  // The app runs as Electron, never as Node: drop what would make the binary behave as plain Node.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  if (command === 'start') {
    const missing = missingBuild(root);
    if (missing) {
      process.stderr.write(`Transient Lab: the app is not built (${missing} is missing): run npm run build, then npm start.\n`);
      return 1;
    }
    return run(status.binary, [root, ...startFiles(rest)], env);
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) return 1;
  const builder = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  // The packaged app is made from the local binary: electron-builder needs no download of Electron.
  const distArgs = override ? [`--config.electronDist=${override}`] : [];
  return run(builder, ['--linux', ...distArgs, ...rest], env);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`Transient Lab: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
