import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import type { AnalysisDoc } from '../../../electron/engine/view/types.js';
import { jsonInteger } from '../../../electron/engine/json.js';
import { access, desc, file, sdfg, state } from '../../../bench/lib/model-builder.js';

describe('analysis JSON', () => {
  it('writes bigints as numbers up to 2^53 - 1 and as decimal strings beyond', () => {
    expect(jsonInteger(9007199254740991n)).toBe(9007199254740991);
    expect(jsonInteger(9007199254740992n)).toBe('9007199254740992');
    expect(jsonInteger(null)).toBeNull();
  });

  it('follows the transient-lab/analysis@1 shape and survives JSON.stringify', () => {
    const root = sdfg(
      'm',
      [desc('T', ['N', 'N']), desc('U', ['4'], { lifetime: 'Persistent' })],
      [state('s', [access('T'), access('U')])],
      { symbols: ['N'] },
    );
    const a = analyze(file(root), { symbols: new Map([['N', 1n << 30n]]), defaultSymbol: null, target: null });
    const doc = JSON.parse(JSON.stringify(toAnalysisJson(a))) as AnalysisDoc;
    expect(doc.schema).toBe('transient-lab/analysis@1');
    expect(Object.keys(doc)).toEqual([
      'schema',
      'sdfg',
      'sdfgs',
      'target',
      'targetReason',
      'symbols',
      'unresolvedSymbols',
      'steps',
      'transients',
      'modes',
      'layouts',
      'peakLiveBytes',
      'warnings',
    ]);
    expect(doc.sdfg).toMatchObject({ name: 'm', daceVersion: '1.0.0', sdfgs: 1, states: 1, grammar: 'legacy' });
    expect(doc.sdfgs).toEqual([{ index: 0, name: 'm', parent: null, jsonPath: '$' }]);
    expect(doc.symbols).toEqual({ N: { value: 1073741824, source: 'user' } });
    const t = doc.transients.find((x) => x.id === '0:T')!;
    expect(t.bytes).toBe(String(8n * (1n << 60n)));
    expect(t.live).toEqual({ first: 0, last: 0 });
    expect(t.liveSegments).toEqual([{ first: 0, last: 0 }]);
    expect(Object.keys(doc.modes)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']);
    expect(doc.modes.SCOPED.perCall).toEqual({ allocs: 1, frees: 1, bytes: String(8n << 60n) });
    expect(doc.modes.PERSISTENT.perCall.allocs).toBe(0);
    expect(doc.modes.PERSISTENT.init).toEqual({ allocs: 2, bytes: String((8n << 60n) + 32n) });
    expect(doc.modes.POOL.notes.join(' ')).toMatch(/identical to SCOPED/);
    expect(doc.layouts.packed.CPU_Heap!.offsets['0:T']).toBe(0);
    expect(doc.layouts.dace.CPU_Heap!.bytes).toBe(String(8n << 60n));
  });
});
