/**
 * Typed loader for the native addon `transient_native.node` (native/index.d.ts).
 *
 * Runner code only: the addon dlopen()s generated code into the calling process, so it must be loaded inside
 * the supervised runner child, never by the engine, the CLI's main process or Electron's main/renderer.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { nativeDir } from '../engine/paths.js';

export type NativeAddon = typeof import('../../native/index.js');

const ADDON_FILE = 'transient_native.node';
const EXPECTED_EXPORTS = ['load', 'measureEventCostNs', 'measureCallOverheadNs', 'timeSequence'] as const;

let cachedAddon: NativeAddon | null = null;

/** Where the addon is looked for, in order: node-gyp's Release output, then a Debug build (outside the ASAR
 * archive in the packaged app: dlopen reads real files). */
export function nativeAddonCandidates(): string[] {
  const buildDir = join(nativeDir(), 'build');
  return [join(buildDir, 'Release', ADDON_FILE), join(buildDir, 'Debug', ADDON_FILE)];
}

/** Loads the addon from the first candidate that works; throws TlabError('run') listing every path tried. */
export function loadNativeAddon(): NativeAddon {
  cachedAddon ??= loadNativeAddonFrom(nativeAddonCandidates());
  return cachedAddon;
}

export function loadNativeAddonFrom(candidates: readonly string[]): NativeAddon {
  const require = createRequire(import.meta.url);
  const attempts: string[] = [];
  for (const candidate of candidates) {
    if (!existsSync(candidate)) {
      attempts.push(`${candidate}: not found`);
      continue;
    }
    let loaded: unknown;
    try {
      loaded = require(candidate);
    } catch (error) {
      attempts.push(`${candidate}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const missing = EXPECTED_EXPORTS.filter((name) => typeof (loaded as Record<string, unknown>)[name] !== 'function');
    if (missing.length > 0) {
      attempts.push(`${candidate}: loaded, but it does not export ${missing.join(', ')} (stale build?)`);
      continue;
    }
    return loaded as NativeAddon;
  }
  const tried = candidates.length > 0 ? candidates.join(', ') : '(no paths)';
  throw new TlabError('run', `the native addon ${ADDON_FILE} could not be loaded from ${tried}; run \`npm run build:native\``, {
    details: attempts.length > 0 ? attempts.map((line) => `tried ${line}`) : ['no candidate paths were given'],
  });
}
