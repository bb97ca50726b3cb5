import { test } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { corpusDir } from '../../../electron/engine/paths.js';
test('smoke', async () => {
  for (const f of readdirSync(corpusDir()).sort()) {
    const t0 = performance.now();
    let file;
    try { file = await readSdfgFile(join(corpusDir(), f)); } catch (e) { console.log('PARSE FAIL', f, (e as Error).message.slice(0, 200)); continue; }
    const t1 = performance.now();
    try {
      const a = analyze(file, { symbols: new Map(), defaultSymbol: 64n, target: null });
      const t2 = performance.now();
      console.log(f.slice(0, 70).padEnd(70), 'parse', (t1 - t0).toFixed(0), 'an', (t2 - t1).toFixed(0), 'T', a.transients.length, 'steps', a.steps.length, 'P', a.transients.filter(t=>t.eligible.PERSISTENT).length, 'E', a.transients.filter(t=>t.eligible.EXTERNAL).length, a.target);
    } catch (e) { console.log('ANALYZE FAIL', f, (e as Error).stack?.slice(0, 600)); }
  }
});
