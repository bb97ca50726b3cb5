/**
 * Files named on the command line (`transient-lab-desktop a.sdfg b.sdfgz`, `npm start -- a.sdfg`, a second
 * launch, the OS opening an associated file). Electron's argv holds the executable, in development the app
 * folder, and Chromium switches; everything else is a file, resolved against the launch's folder.
 */
import { resolve } from 'node:path';

export function filesFromArgv(argv: readonly string[], packaged: boolean, cwd: string): string[] {
  const args = argv.slice(packaged ? 1 : 2);
  const files: string[] = [];
  let rest = false;
  for (const a of args) {
    if (!rest && a === '--') {
      rest = true;
      continue;
    }
    if (!rest && a.startsWith('-')) continue;
    if (a.length) files.push(resolve(cwd, a));
  }
  return files;
}
