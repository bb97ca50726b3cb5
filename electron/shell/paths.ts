/**
 * Where the desktop app's built pieces are: the same layout in a checkout (after `npm run build`) and in the
 * packaged app, where the package root is `resources/app.asar` (Electron reads inside it; the native addon and
 * the runtime header are found unpacked by the engine itself, engine/paths.ts `nativeDir`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../engine/paths.js';

export interface ShellPaths {
  /** The production renderer build served on app://. */
  rendererDir: string;
  /** The sandboxed preload, bundled to one CommonJS file. */
  preload: string;
  /** Entry of the engine host utility process. */
  engineEntry: string;
  /** Entry of the runner utility process. */
  runnerEntry: string;
  /** Window icon (Linux, Windows); null when missing. */
  icon: string | null;
}

export function shellPaths(root: string = packageRoot()): ShellPaths {
  const icon = join(root, 'assets', 'icons', 'icon.png');
  return {
    rendererDir: join(root, 'dist', 'renderer'),
    preload: join(root, 'dist', 'preload', 'preload.cjs'),
    engineEntry: join(root, 'dist', 'electron', 'engine-host', 'entry.js'),
    runnerEntry: join(root, 'dist', 'electron', 'runner', 'runner-entry.js'),
    icon: existsSync(icon) ? icon : null,
  };
}

/** The pieces that are missing (a checkout that was not built), for one clear message at start. */
export function missingPieces(paths: ShellPaths): string[] {
  return [paths.rendererDir, paths.preload, paths.engineEntry, paths.runnerEntry].filter((p) => !existsSync(p));
}
