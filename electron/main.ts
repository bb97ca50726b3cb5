/**
 * Electron entry of the desktop app (package.json "main" → dist/electron/main.js). It only wires the real
 * Electron into the shell (electron/shell/app.ts); the app:// scheme must be registered before `ready`, so
 * that happens here, synchronously, while the module is evaluated.
 */
import { startShell } from './shell/app.js';
import { electronSeam } from './shell/electron-seam.js';
import { shellPaths } from './shell/paths.js';
import { registerAppScheme } from './shell/protocol.js';

const electron = electronSeam();
registerAppScheme(electron.protocol);

const log = (line: string): void => {
  process.stderr.write(`transient-lab: ${line}\n`);
};

startShell({ electron, paths: shellPaths(), argv: process.argv, cwd: process.cwd(), log }).catch((err: unknown) => {
  const text = err instanceof Error ? err.message : String(err);
  log(`cannot start: ${err instanceof Error ? (err.stack ?? text) : text}`);
  electron.dialog.showErrorBox('Transient Lab could not start', text);
  electron.app.exit(1);
});
