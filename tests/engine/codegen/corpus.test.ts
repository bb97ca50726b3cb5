/**
 * Corpus sweep: the subset check runs on every corpus file without throwing, and every file it accepts
 * generates and compiles (g++ -O1, two at a time) in every mode.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { compileLibrary, inParallel, scratchDir, removeScratchDirs } from './compile.js';

afterAll(removeScratchDirs);

test('corpus: subset check on every file, generation and compilation of every file inside it', async () => {
  const dir = scratchDir('corpus');
  const names = readdirSync(corpusDir())
    .filter((f) => /\.sdfgz?$/.test(f))
    .sort();
  expect(names.length).toBeGreaterThan(80);
  const inside: string[] = [];
  const outside = new Map<string, string>();
  for (const name of names) {
    const file = await readSdfgFile(join(corpusDir(), name));
    const findings = findUnsupported(file);
    for (const f of findings) {
      expect(f.jsonPath.startsWith('$'), name).toBe(true);
      expect(f.hint.length, name).toBeGreaterThan(0);
    }
    if (findings.length) outside.set(name, `${findings[0]!.element}: ${findings[0]!.message}`);
    else inside.push(name);
  }
  const results = await inParallel(inside, 2, async (name) => {
    const file = await readSdfgFile(join(corpusDir(), name));
    // Symbols at 8 keep the sweep fast; a program whose sizes go negative that small (resnet's convolutions shrink
    // H and W by their kernel) is generated at 64, as a user would be told to.
    const at = (defaultSymbol: bigint) => analyze(file, { symbols: new Map(), defaultSymbol, target: null });
    let analysis;
    try {
      analysis = at(8n);
    } catch (err) {
      if (!(err instanceof TlabError && err.message.startsWith('negative array extent'))) throw err;
      analysis = at(64n);
    }
    // SCOPED and EXTERNAL (packed) differ the most; the other modes reuse the same emitter paths.
    const failures: string[] = [];
    for (const v of [
      { mode: 'SCOPED', layout: 'dace' },
      { mode: 'EXTERNAL', layout: 'packed' },
    ] as const) {
      const p = generateProgram(file, analysis, v);
      const c = await compileLibrary(p.source, dir, `${name.replace(/[^A-Za-z0-9]/g, '_')}_${v.mode}`, '-O1');
      if (!c.ok)
        failures.push(
          `${v.mode}: ${c.output
            .split('\n')
            .filter((l) => l.includes('error'))
            .slice(0, 3)
            .join(' | ')}`,
        );
    }
    return { name, failures };
  });
  console.log(
    `codegen corpus sweep: ${inside.length} of ${names.length} files inside the subset; ` +
      `${results.filter((r) => r.failures.length === 0).length} compile in every tested mode\n` +
      [...outside].map(([n, why]) => `  outside: ${n}: ${why}`).join('\n'),
  );
  for (const r of results) expect(r.failures, r.name).toEqual([]);
  expect(inside.length).toBeGreaterThanOrEqual(20);
}, 1_200_000);
