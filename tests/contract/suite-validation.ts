/**
 * The contract suite's refusals of malformed payloads: every method, each with the field as JSON path.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TransientLabClient } from '../../electron/ipc/contract.js';
import { failure, loose, profileRequest, type SuiteContext } from './suite-kit.js';

export function validationTests(ctx: () => SuiteContext): void {
  let client: TransientLabClient;
  beforeAll(() => {
    ({ client } = ctx());
  });

  describe('validation', () => {
    it('refuses malformed payloads of every method with the field as JSON path', async () => {
      const c = loose(client);
      const cases: Array<[string, unknown, string]> = [
        ['environment', { extra: 1 }, '$.extra'],
        ['listFolder', {}, '$.path'],
        ['openFile', { path: 7 }, '$.path'],
        ['openFile', { path: 'a\0b' }, '$.path'],
        ['openFile', { path: 'x'.repeat(5000) }, '$.path'],
        ['openUpload', { name: 'a.sdfg', bytes: 'not bytes' }, '$.bytes'],
        ['openUpload', { name: '../a.sdfg', bytes: new Uint8Array([1]) }, '$.name'],
        ['openExample', { id: '../../etc' }, '$.id'],
        ['closeDoc', { doc: '' }, '$.doc'],
        ['analyze', { doc: 'd1', symbols: { N: 'abc' }, defaultSymbol: null, target: null }, '$.symbols.N'],
        ['analyze', { doc: 'd1', symbols: { 'not a name': '1' }, defaultSymbol: null, target: null }, '$.symbols["not a name"]'],
        ['analyze', { doc: 'd1', symbols: {}, defaultSymbol: null, target: 'tpu' }, '$.target'],
        ['graph', { doc: 'd1', region: 5 }, '$.region'],
        ['search', { doc: 'd1', query: 'x', limit: 100000 }, '$.limit'],
        ['profile', profileRequest('d1', 'j', { calls: 0 }), '$.calls'],
        ['profile', profileRequest('d1', 'j', { processes: 17 }), '$.processes'],
        ['profile', profileRequest('d1', 'j', { modes: [] }), '$.modes'],
        ['profile', profileRequest('d1', 'j', { modes: ['SCOPED', 'SCOPED'] }), '$.modes'],
        ['profile', profileRequest('d1', 'j', { seed: '-1' }), '$.seed'],
        ['profile', profileRequest('d1', 'j', { calls: 100000, processes: 16 }), '$'],
        ['profile', { ...profileRequest('d1', 'j'), extra: true }, '$.extra'],
        ['cancel', { job: 'a b' }, '$.job'],
        ['openResult', { name: 'r.json' }, '$'],
        ['saveResult', { path: 'r.json', result: { schema: 'transient-lab/profile@1' } }, '$.result.program'],
        ['exportReport', { results: [], format: 'html', doc: null }, '$.results'],
        [
          'exportReport',
          { results: [{ label: 'a', result: { schema: 'transient-lab/profile@1' } }], format: 'html', doc: null },
          '$.results[0].result.program',
        ],
        ['exportReport', { results: [], format: 'docx', doc: null }, '$.results'],
        ['exportReport', { results: [], format: 'html', doc: null, path: '/tmp/x' }, '$.results'],
        ['fileKind', { path: 3 }, '$.path'],
        ['workloadView', { doc: 'd1', symbols: {}, defaultSymbol: null, target: null, layout: 'tight' }, '$.layout'],
        [
          'advise',
          { doc: 'd1', symbols: {}, defaultSymbol: null, target: null, layout: 'packed', sweep: { symbol: 'N', values: ['1', '2'] } },
          '$.sweep.values',
        ],
        ['openProgram', { doc: 'd1', program: '' }, '$.program'],
        ['devices', { all: true }, '$.all'],
      ];
      for (const [method, req, path] of cases) {
        const e = await failure(c[method]!(req));
        expect(e.kind, `${method} ${JSON.stringify(req).slice(0, 80)}`).toBe('usage');
        expect(e.jsonPath, `${method} ${JSON.stringify(req).slice(0, 80)}`).toBe(path);
      }
    });
  });
}
