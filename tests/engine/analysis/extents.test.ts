/**
 * Symbol values that make an array extent negative are refused by the engine itself (analyze(), so the CLI,
 * the server and the app all get it): `N=-1` used to crash `profile` in input preparation, and `I=-4, J=-4`
 * passed silently because the two negative extents multiply into a positive total.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { argumentSizes } from '../../../electron/engine/analysis/extents.js';
import type { AnalysisOptions } from '../../../electron/engine/analysis/types.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { examplesDir, packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson } from '../../../electron/engine/sdfg/index.js';

type Json = Record<string, unknown>;

const load = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const chainPath = join(examplesDir(), 'chain.sdfg');
const hdiffPath = join(examplesDir(), 'hdiff.sdfg');
const nestedPath = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'nested_offset.sdfg');

const opts = (symbols: Record<string, bigint>, defaultSymbol: bigint | null = null): AnalysisOptions => ({
  symbols: new Map(Object.entries(symbols)),
  defaultSymbol,
  target: null,
});

function analyseJson(doc: Json, path: string, o: AnalysisOptions) {
  return analyze(parseSdfgJson(doc, path, 0, false), o);
}

function usageError(action: () => unknown): TlabError {
  try {
    action();
  } catch (error) {
    if (!(error instanceof TlabError)) throw error;
    expect(error.kind).toBe('usage');
    return error;
  }
  throw new Error('expected a usage error, but the analysis succeeded');
}

describe('negative extents', () => {
  it('N=-1 names the symbol, the arrays and the expression, with the JSON path', () => {
    const error = usageError(() => analyseJson(load(chainPath), chainPath, opts({ N: -1n })));
    expect(error.file).toBe(chainPath);
    expect(error.jsonPath).toBe('$.attributes._arrays.inp');
    expect(error.message).toBe('negative array extent: with N=-1, 6 arrays (inp, out, t1, t2 and 2 more) would have a negative size');
    expect(error.details).toContain('$.attributes._arrays.t4: shape[0] = N = -1');
    expect(error.describe()).toMatch(/give symbol values that make every one so/);
  });

  it('I=-4, J=-4 is refused although every product of two extents is positive', () => {
    const error = usageError(() => analyseJson(load(hdiffPath), hdiffPath, opts({ I: -4n, J: -4n, K: 3n })));
    expect(error.message).toMatch(/^negative array extent: with I=-4, J=-4, 5 arrays \(coeff, out_field, lap, flx and 1 more\)/);
    expect(error.details).toContain('$.attributes._arrays.lap: shape[0] = 2 + I = -2, shape[1] = 2 + J = -2');
    // K is not part of any negative extent, so it is not blamed.
    expect(error.message).not.toContain('K=');
  });

  it('also checks values that come from --default-symbol', () => {
    const error = usageError(() => analyseJson(load(chainPath), chainPath, opts({}, -3n)));
    expect(error.message).toContain('with N=-3');
  });

  it('checks nested SDFGs through their symbol mapping, and names the SDFG', () => {
    const doc = load(nestedPath);
    const text = JSON.stringify(doc).replace('"symbol_mapping":{"M":"N"', '"symbol_mapping":{"M":"N - 10"');
    expect(text).not.toBe(JSON.stringify(doc));
    const error = usageError(() => analyseJson(JSON.parse(text) as Json, nestedPath, opts({ N: 8n })));
    // The nested SDFG's own arguments (shaped by M too) and its transient tmp; the outer arrays are fine.
    expect(error.message).toMatch(/^negative array extent: with N=8, 3 arrays \(.*tmp \(in SDFG \w+\)\) would have a negative size$/);
    expect(error.details.filter((d) => d.startsWith('$.nodes'))).toHaveLength(3);
    expect(error.details.every((d) => !d.startsWith('$.attributes._arrays.') || !/shape/.test(d))).toBe(true);
    expect(error.details.some((d) => /\.tmp: shape\[0\] = M = N - 10 = -2$/.test(d))).toBe(true);
  });

  it('checks an explicit total_size even when every dimension is fine', () => {
    const doc = load(chainPath);
    const t1 = ((doc['attributes'] as Json)['_arrays'] as Json)['t1'] as Json;
    (t1['attributes'] as Json)['total_size'] = 'N - 100';
    const error = usageError(() => analyseJson(doc, chainPath, opts({ N: 10n })));
    expect(error.message).toContain('array t1 would have a negative size');
    expect(error.details[0]).toBe('$.attributes._arrays.t1: total_size = N - 100 = -90');
  });

  it('accepts zero extents, huge extents (nothing is allocated) and unknown values (the analysis stays symbolic)', () => {
    expect(analyseJson(load(chainPath), chainPath, opts({ N: 0n })).transients.every((t) => t.bytes === 0n)).toBe(true);
    const huge = analyseJson(load(chainPath), chainPath, opts({ N: 10n ** 12n }));
    expect(huge.transients[0]!.bytes).toBe(8n * 10n ** 12n);
    const symbolic = analyseJson(load(chainPath), chainPath, opts({}));
    expect(symbolic.unresolvedSymbols).toEqual(['N']);
    expect(symbolic.transients[0]!.bytes).toBeNull();
  });
});

describe('argument sizes', () => {
  it('are the bytes a caller allocates for each root argument, null when symbolic', () => {
    const file = parseSdfgJson(load(chainPath), chainPath, 0, false);
    expect(argumentSizes(file, opts({ N: 1000n }))).toEqual([
      { name: 'inp', bytes: 8000n },
      { name: 'out', bytes: 8000n },
    ]);
    expect(argumentSizes(file, opts({}))).toEqual([
      { name: 'inp', bytes: null },
      { name: 'out', bytes: null },
    ]);
  });
});
