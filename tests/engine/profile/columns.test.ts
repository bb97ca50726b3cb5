/**
 * The per-call column table (electron/engine/profile/columns.ts) is the one definition of the columns: the
 * addon's headers must list the same columns in the same order and types, and every reader built from it (the
 * result's arrays, the summary's means, the CSV, the result schema) must agree with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { COLUMN_ARRAYS, emptyColumns, PER_CALL_COLUMN, PER_CALL_COLUMNS } from '../../../electron/engine/profile/columns.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { summarize } from '../../../electron/engine/profile/stats.js';
import { CALL_COLUMNS } from '../../../electron/engine/report/csv.js';
import { columnMean } from '../../../electron/engine/report/numbers.js';
import { profileResultSchema } from '../../../electron/ipc/result-schema.js';
import { FIXTURE, loadResult } from '../../report/fixtures.js';

const root = packageRoot();
/** A GPU run's extra columns (docs/gpu.md): the addon's, kept beside the table's in `modes[].gpu`. */
const GPU_ONLY = ['deviceNs', 'hostReturnNs', 'hostSyncNs'];

/** `name: Type;` members of a TypeScript interface or C struct body, in order, comments left out. */
function members(text: string, opener: RegExp, member: RegExp): Array<[string, string]> {
  const start = text.search(opener);
  expect(start, String(opener)).toBeGreaterThanOrEqual(0);
  const body = text.slice(start, text.indexOf('}', start)).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  return [...body.matchAll(member)].map((m) => [m[1]!, m[2]!]);
}

describe('the per-call column table', () => {
  it('matches the addon’s CallStats (native/index.d.ts): the same columns, in order, with their typed arrays', () => {
    const fields = members(
      readFileSync(join(root, 'native', 'index.d.ts'), 'utf8'),
      /export interface CallStats \{/,
      /^\s*(\w+)\??:\s*(\w+);/gm,
    );
    const columns = fields.filter(([name, type]) => type in COLUMN_ARRAYS && !GPU_ONLY.includes(name));
    expect(columns).toEqual(PER_CALL_COLUMNS.map((c) => [c.name, c.array]));
  });

  it('matches the C++ sink the call loop writes (native/src/call_loop.h CallStatsSink): names, order and C types', () => {
    const fields = members(
      readFileSync(join(root, 'native', 'src', 'call_loop.h'), 'utf8'),
      /struct CallStatsSink \{/,
      /^\s*([\w:]+)\s*\*(\w+)\s*[;=]/gm,
    );
    const columns = fields.map(([type, name]) => [name, type] as const).filter(([name]) => !GPU_ONLY.includes(name));
    expect(columns).toEqual(PER_CALL_COLUMNS.map((c) => [c.name, c.cType]));
  });

  it('names each column’s mean in the summary, which is the column’s sum over the calls', () => {
    // Column k holds (k + 1) · (1, 2, 3, 4): its mean is (k + 1) · 2.5.
    const n = 4;
    const filled = emptyColumns();
    for (const [k, c] of PER_CALL_COLUMNS.entries()) {
      const xs = new COLUMN_ARRAYS[c.array](n);
      for (let i = 0; i < n; i++) xs[i] = (k + 1) * (i + 1);
      (filled as unknown as Record<string, ArrayLike<number>>)[c.name] = xs;
    }
    const s = summarize(filled) as unknown as Record<string, number>;
    for (const [k, c] of PER_CALL_COLUMNS.entries()) expect(s[c.mean], c.name).toBe(((k + 1) * (1 + 2 + 3 + 4)) / n);
    expect(PER_CALL_COLUMN.minorFaults.mean).toBe('minorFaultsPerCall');
  });

  it('is what the CSV writes after each row’s place, and what a result’s means fall back on', () => {
    expect(CALL_COLUMNS.slice(-PER_CALL_COLUMNS.length)).toEqual(PER_CALL_COLUMNS.map((c) => c.csv));
    const m = loadResult(FIXTURE.run).modes[0]!;
    for (const c of PER_CALL_COLUMNS)
      expect(columnMean(m, c.name), c.name).toBe(m.summary[c.mean] ?? m.calls[c.name].reduce((a, b) => a + b, 0) / m.calls[c.name].length);
  });

  it('is what the result schema checks: a missing or short column is refused', () => {
    const doc = JSON.parse(readFileSync(FIXTURE.run, 'utf8')) as { modes: Array<{ calls: Record<string, number[]> }> };
    expect(v.safeParse(profileResultSchema, doc).success).toBe(true);
    for (const c of PER_CALL_COLUMNS) {
      const missing = JSON.parse(JSON.stringify(doc)) as typeof doc;
      delete missing.modes[0]!.calls[c.name];
      expect(v.safeParse(profileResultSchema, missing).success, `${c.name} missing`).toBe(false);
      const short = JSON.parse(JSON.stringify(doc)) as typeof doc;
      short.modes[0]!.calls[c.name]!.pop();
      expect(v.safeParse(profileResultSchema, short).success, `${c.name} short`).toBe(false);
    }
  });
});
