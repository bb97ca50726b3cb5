// TEMPORARY: snapshot of generator output before/after the expression port (deleted before hand-off).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { corpusDir, examplesDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

test('snapshot', async () => {
  const out = process.env.SNAP_DIR!;
  mkdirSync(out, { recursive: true });
  const files = [
    ...readdirSync(corpusDir()).filter((f) => /\.sdfgz?$/.test(f)).map((f) => join(corpusDir(), f)),
    ...readdirSync(examplesDir()).filter((f) => /\.sdfg$/.test(f)).map((f) => join(examplesDir(), f)),
  ].sort();
  const summary: string[] = [];
  for (const path of files) {
    const name = path.split('/').pop()!;
    const file = await readSdfgFile(path);
    const findings = findUnsupported(file);
    summary.push(`${name}: ${findings.length ? findings.map((f) => `${f.element}: ${f.message}`).join(' || ') : 'INSIDE'}`);
    if (findings.length) continue;
    const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 8n, target: null });
    for (const v of [{ mode: 'SCOPED', layout: 'dace' }, { mode: 'EXTERNAL', layout: 'packed' }] as const) {
      const p = generateProgram(file, analysis, v);
      writeFileSync(join(out, `${name}.${v.mode}.cpp`), p.source);
      writeFileSync(join(out, `${name}.${v.mode}.json`), JSON.stringify({ ...p, source: undefined }, (_k, x) => (typeof x === 'bigint' ? x.toString() : x), 1));
    }
  }
  writeFileSync(join(out, 'summary.txt'), summary.join('\n') + '\n');
  expect(summary.length).toBeGreaterThan(80);
}, 600_000);
