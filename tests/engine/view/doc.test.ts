import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import { examplesDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { buildDocInfo } from '../../../electron/engine/view/doc.js';

const source = { doc: 'd1', name: 'x', path: null, fileBytes: 1, parseMs: 2 };

describe('DocInfo', () => {
  it('names the file, its SDFGs and the symbols to edit', async () => {
    const file = await readSdfgFile(join(examplesDir(), 'vadv.sdfg'));
    const info = buildDocInfo(file, source);
    expect(info).toMatchObject({
      doc: 'd1',
      name: 'x',
      path: null,
      fileBytes: 1,
      parseMs: 2,
      compressed: false,
      target: 'cpu',
      daceVersion: file.daceVersion,
    });
    expect(info.sdfgs).toEqual([{ index: 0, name: file.root.name, parent: null, jsonPath: '$' }]);
    // vadv's loop variable k is assigned inside the program: not a symbol to edit.
    expect(info.symbols).toEqual([
      { name: 'I', dtype: 'int32' },
      { name: 'J', dtype: 'int32' },
      { name: 'K', dtype: 'int32' },
    ]);
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });

  it('lists nested SDFGs with their parent and JSON path, as analysis@1 sdfgs[] does', async () => {
    const file = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'nested_offset.sdfg'));
    const info = buildDocInfo(file, source);
    expect(info.sdfgs.length).toBeGreaterThan(1);
    expect(info.sdfgs[0]!.parent).toBeNull();
    for (const s of info.sdfgs.slice(1)) {
      expect(s.parent).not.toBeNull();
      expect(s.parent!).toBeLessThan(s.index);
      expect(s.jsonPath).toMatch(/^\$\.nodes\[\d+\]\.nodes\[\d+\]\.attributes\.sdfg$/);
    }
    const doc = JSON.parse(JSON.stringify(toAnalysisJson(analyze(file, { symbols: new Map(), defaultSymbol: 8n, target: null })))) as {
      sdfgs: unknown;
      transients: Array<{ sdfg: number }>;
    };
    expect(doc.sdfgs).toEqual(info.sdfgs);
    for (const t of doc.transients) expect(info.sdfgs[t.sdfg]).toBeDefined();
  });
});
