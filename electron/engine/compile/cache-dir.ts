/** The user's cache folder for compiled program libraries and compiler probes. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$TRANSIENT_LAB_CACHE`, else `$XDG_CACHE_HOME/transient-lab`, else `~/.cache/transient-lab`. Read on
 * every call so that tests (and hosts) can redirect it with the environment. */
export function cacheRoot(): string {
  const own = process.env.TRANSIENT_LAB_CACHE?.trim();
  if (own) return resolve(own);
  const xdg = process.env.XDG_CACHE_HOME?.trim();
  if (xdg) return resolve(xdg, 'transient-lab');
  return join(homedir(), '.cache', 'transient-lab');
}
