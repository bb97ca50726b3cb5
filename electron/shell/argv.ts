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

/**
 * Remote machines the app may profile on (`--remote=HOST`, repeatable; docs/remote.md): the desktop app's
 * equivalent of `serve --remote`. Only these reach the renderer's choice; a window can name no other.
 */
export function remoteHostsFromArgv(argv: readonly string[]): string[] {
  const hosts: string[] = [];
  for (const a of argv) {
    if (a === '--') break;
    const m = /^--remote=(.+)$/.exec(a);
    if (m && /^(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9._-]+$/.test(m[1]!) && !m[1]!.startsWith('-') && !hosts.includes(m[1]!)) hosts.push(m[1]!);
  }
  return hosts;
}
