/**
 * Every mode must compute the same outputs: for every example in assets/examples and every corpus SDFG
 * inside the supported subset (found with findUnsupported, not listed by hand), profile all modes with
 * both EXTERNAL layouts and require verification to pass. Symbols 64 (tiled programs assume sizes that are multiples of their tiles), two calls.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUnsupported } from '../../../electron/engine/codegen/index.js';
import { corpusDir, examplesDir } from '../../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { nativeAddonCandidates } from '../../../electron/runner/native.js';

const SDFG = /\.sdfgz?$/;
/** Larger than 2 MB of JSON: parsing alone would dominate the suite. */
const MAX_BYTES = 2_000_000;

function listed(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && SDFG.test(e.name))
    .map((e) => join(dir, e.name))
    .sort();
}

async function insideSubset(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const { statSync } = await import('node:fs');
    if (statSync(p).size > MAX_BYTES) continue;
    try {
      if (!findUnsupported(await readSdfgFile(p)).length) out.push(p);
    } catch {
      // Files the parser refuses are the parser's tests' business.
    }
  }
  return out;
}

const addonBuilt = nativeAddonCandidates().some((p) => existsSync(p));
const examples = listed(examplesDir());
const corpus = await insideSubset(listed(corpusDir()));

let cache: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-agree-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
});

async function agree(path: string): Promise<void> {
  const result = await profile(path, { ...DEFAULT_PROFILE_OPTIONS, layout: 'both', calls: 2, warmup: 0, defaultSymbol: 64n, timeoutMs: 120_000 });
  const problems = result.verification.details.filter((d) => d.kind !== 'note').map((d) => d.message);
  expect(problems).toEqual([]);
  expect(result.verification.identical).toBe(true);
  expect(result.modes).toHaveLength(5);
  const external = result.modes.filter((m) => m.mode === 'EXTERNAL');
  for (const m of result.modes) expect(m.calls.totalNs).toHaveLength(2);
  // The checksums of all modes agree when the comparison is bitwise.
  if (result.verification.tolerance === undefined) {
    expect(new Set(result.modes.map((m) => JSON.stringify(m.outputChecksums))).size).toBe(1);
  }
  expect(external.map((m) => m.layout)).toEqual(['dace', 'packed']);
}

describe.skipIf(!addonBuilt)('all modes agree', () => {
  it('finds corpus SDFGs inside the supported subset', () => {
    expect(corpus.length).toBeGreaterThan(0);
  });
  it.each(examples.map((p) => [p.split('/').pop()!, p]))('example %s', async (_name, path) => agree(path));
  it.each(corpus.map((p) => [p.split('/').pop()!, p]))('corpus %s', async (_name, path) => agree(path));
});
