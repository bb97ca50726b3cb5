/**
 * Loaded into every Node process of a measured CLI run through NODE_OPTIONS=--import (the CLI and the runner
 * child it forks alike): appends the process's peak RSS so far (getrusage ru_maxrss) to $TLAB_RSS_LOG as JSON
 * lines — at exit, and in a forked child after each message it sends (a runner host ends its child with
 * SIGKILL after the last one, so no exit handler runs there). The largest line per pid is its peak. Bench only
 * (bench/many-calls.ts).
 */
import { appendFileSync } from 'node:fs';

const log = process.env.TLAB_RSS_LOG;
if (log) {
  const write = () =>
    appendFileSync(
      log,
      `${JSON.stringify({ pid: process.pid, entry: process.argv[1] ?? '', maxRssKiB: process.resourceUsage().maxRSS })}\n`,
    );
  process.on('exit', write);
  const send = process.send?.bind(process);
  if (send) {
    // After the message is serialised: its copy counts.
    process.send = ((...args: Parameters<typeof send>) => {
      const sent = send(...args);
      write();
      return sent;
    }) as typeof process.send;
  }
}
