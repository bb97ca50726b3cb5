/**
 * Last line of defence when `serve` stops: every process this one started (a runner child, a compiler still
 * working for a cancelled build) is killed, grandchildren included. The runner host already kills its child
 * when a job is cancelled; a compiler cannot be interrupted between the profiler's steps, and a server that
 * stops must not leave one behind on a shared node. Linux only (/proc); elsewhere it does nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** `pid → ppid` of every process visible in /proc. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (2nd field) may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(Number(name), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Pids of every descendant of `root`, children before their own children; `spare` subtrees are left out. */
export function descendants(root: number = process.pid, spare: readonly number[] = []): number[] {
  const byParent = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (spare.includes(child)) continue;
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** SIGKILLs every descendant of this process but the `spare` ones (the browser we opened); returns how many. */
export function killDescendants(spare: readonly number[] = []): number {
  const pids = descendants(process.pid, spare);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}
