/**
 * Child process that loads the addon, asks it for CUDA devices and prints the report as one JSON line on stdout.
 * A child of its own because dlopen()ing a CUDA driver may hang or crash, and the addon only ever loads inside
 * runner children (docs/ARCHITECTURE.md). Arguments: runtime library candidates (optional).
 */
import { loadNativeAddon } from './native.js';

function main(): number {
  const addon = loadNativeAddon();
  if (typeof addon.cudaDevices !== 'function') {
    process.stderr.write('the native addon has no cudaDevices(): it is a stale build, run npm run build:native\n');
    return 3;
  }
  const candidates = process.argv.slice(2);
  const report = addon.cudaDevices(candidates.length ? candidates : undefined);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  return 0;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 3;
}
