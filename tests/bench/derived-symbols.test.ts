/**
 * A coverage row of a program whose reads at indices fixed by the symbols go out of bounds at the default
 * symbol: profile derives the value that keeps them in bounds (profile/derive-symbols.ts), the row verifies at
 * the default symbol and records which symbols were derived.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdfgText, StateBuilder } from '../../bench/lib/construct-sdfg.js';
import { coverageOf } from '../../bench/lib/coverage-row.js';

/** B[i] = A[i + 10^8·(L - 1)] over i in [0, N): in bounds at L = 1 only; at L = 16 the read lands gigabytes past A (a crash). */
function shiftedRead(): string {
  const s = new StateBuilder('shift');
  const a = s.access('A');
  const { entry, exit } = s.map('m', ['i'], ['0:N - 1'], ['A'], ['B']);
  const t = s.tasklet('t', 'b = a * 2.0', ['a'], ['b']);
  s.endMap();
  const b = s.access('B');
  s.edge(a, null, entry, 'IN_A', 'A', ['0:N - 1']);
  s.edge(entry, 'OUT_A', t, 'a', 'A', ['i + 100000000 * L - 100000000']);
  s.edge(t, 'b', exit, 'IN_B', 'B', ['i']);
  s.edge(exit, 'OUT_B', b, null, 'B', ['0:N - 1']);
  return sdfgText('shifted_read', { A: { shape: ['N'] }, B: { shape: ['N'] } }, { N: 'int32', L: 'int32' }, [s]);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-advised-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('derived symbol values', () => {
  it('a row that reads out of bounds at the default symbol verifies with the derived value, and records it', async () => {
    const path = join(dir, 'shifted_read.sdfg');
    await writeFile(path, shiftedRead());
    const row = await coverageOf(path);
    expect(row).toMatchObject({ status: 'verifies', defaultSymbol: 16, derivedSymbols: { L: 1 } });
    expect(row.perMode?.length).toBe(row.modes.length);
  }, 300_000);
});
