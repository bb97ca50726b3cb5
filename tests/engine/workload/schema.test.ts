import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../../electron/engine/errors.js';
import { callSymbols, parseWorkload, sniffWorkload } from '../../../electron/engine/workload/schema.js';

const PATH = '/data/run/dycore.json';

const valid = {
  schema: 'transient-lab/workload@1',
  name: 'dycore-step',
  programs: {
    a: { sdfg: 'prog_a.sdfg', symbols: { N: 1001 }, inputs: { x: 'x.npy' } },
    b: { sdfg: '/abs/prog_b.sdfgz', symbols: { N: 1001, M: 24 }, bind: { y: 'u' } },
  },
  symbols: { N: 1001, K: '9007199254740993' },
  inputs: { u: 'u.npy' },
  sequence: ['a', 'b', { program: 'a', symbols: { N: 2001 } }],
  steps: 4,
};

function error(doc: unknown): TlabError {
  try {
    parseWorkload(JSON.stringify(doc), PATH);
  } catch (e) {
    if (e instanceof TlabError) return e;
    throw e;
  }
  throw new Error('expected the workload to be refused');
}

describe('workload@1 schema', () => {
  it('reads programs, shared symbols and inputs, and resolves paths against the file', () => {
    const w = parseWorkload(JSON.stringify(valid), PATH);
    expect(w.name).toBe('dycore-step');
    expect(w.steps).toBe(4);
    expect(w.programs.get('a')!.sdfg).toBe(join('/data/run', 'prog_a.sdfg'));
    expect(w.programs.get('b')!.sdfg).toBe('/abs/prog_b.sdfgz');
    expect(w.programs.get('a')!.inputs.get('x')).toBe('/data/run/x.npy');
    expect(w.programs.get('b')!.bind.get('y')).toBe('u');
    expect(w.inputs.get('u')).toBe('/data/run/u.npy');
    // Past 2^53 exactly, from a decimal string.
    expect(w.symbols.get('K')).toBe(9007199254740993n);
    expect(w.sequence.map((c) => c.program)).toEqual(['a', 'b', 'a']);
  });

  it('gives each call its symbols: shared, then the program, then the sequence entry', () => {
    const w = parseWorkload(
      JSON.stringify({ ...valid, symbols: { N: 7, K: 3 }, programs: { ...valid.programs, a: { sdfg: 'a.sdfg', symbols: { N: 8 } } } }),
      PATH,
    );
    expect(callSymbols(w, w.sequence[0]!)).toEqual(
      new Map([
        ['N', 8n],
        ['K', 3n],
      ]),
    );
    expect(callSymbols(w, w.sequence[2]!)).toEqual(
      new Map([
        ['N', 2001n],
        ['K', 3n],
      ]),
    );
    expect(callSymbols(w, w.sequence[1]!).get('M')).toBe(24n);
  });

  it('takes prebuilt as one folder or an array of DaCe build folders, each resolved against the workload file', () => {
    const w = parseWorkload(
      JSON.stringify({
        schema: 'transient-lab/workload@1',
        programs: { p: { prebuilt: ['a/.dacecache/p', '/abs/p'] }, q: { prebuilt: 'build-q' } },
        sequence: ['p', 'q'],
      }),
      PATH,
    );
    const dir = dirname(PATH);
    expect(w.programs.get('p')!.prebuiltFolders).toEqual([
      { dir: join(dir, 'a/.dacecache/p'), jsonPath: '$.programs.p.prebuilt[0]' },
      { dir: '/abs/p', jsonPath: '$.programs.p.prebuilt[1]' },
    ]);
    expect(w.programs.get('p')!.prebuilt).toBe(join(dir, 'a/.dacecache/p'));
    expect(w.programs.get('q')!.prebuiltFolders).toEqual([{ dir: join(dir, 'build-q'), jsonPath: '$.programs.q.prebuilt' }]);
  });

  it('defaults steps to 1 and takes a program without symbols or inputs', () => {
    const w = parseWorkload(
      JSON.stringify({ schema: 'transient-lab/workload@1', programs: { p: { sdfg: 'p.sdfg' } }, sequence: ['p'] }),
      PATH,
    );
    expect(w.steps).toBe(1);
    expect(w.name).toBe('workload');
    expect(w.programs.get('p')!.symbols.size).toBe(0);
  });

  it.each([
    [{ ...valid, schema: 'transient-lab/workload@2' }, '$.schema', /schema must be 'transient-lab\/workload@1'/],
    [{ ...valid, extra: 1 }, '$.extra', /unknown field 'extra'/],
    [{ ...valid, programs: {} }, '$.programs', /at least one program/],
    [{ ...valid, programs: { a: { sdfg: 'a.sdfg', prebuilt: 'dir' } } }, '$.programs.a', /exactly one of 'sdfg'/],
    [{ ...valid, programs: { a: {} } }, '$.programs.a', /exactly one of 'sdfg'/],
    [{ ...valid, programs: { a: { prebuilt: [] } } }, '$.programs.a.prebuilt', /a non-empty array of DaCe build folders/],
    [{ ...valid, programs: { a: { prebuilt: ['x', 3] } } }, '$.programs.a.prebuilt[1]', /non-empty string/],
    [{ ...valid, programs: { a: { sdfg: '' } } }, '$.programs.a.sdfg', /non-empty string/],
    [{ ...valid, programs: { '1a': { sdfg: 'a' } } }, '$.programs.1a', /not a program key/],
    [{ ...valid, symbols: { N: 1.5 } }, '$.symbols.N', /must be an integer/],
    [{ ...valid, symbols: { 'N-1': 1 } }, '$.symbols.N-1', /not a symbol name/],
    [{ ...valid, programs: { a: { sdfg: 'a', symbols: { N: 'x' } } }, sequence: ['a'] }, '$.programs.a.symbols.N', /must be an integer/],
    [{ ...valid, sequence: 'a' }, '$.sequence', /must be an array/],
    [{ ...valid, sequence: [] }, '$.sequence', /empty/],
    [{ ...valid, sequence: ['a', 'c'] }, '$.sequence[1]', /no program 'c' in programs \(known: a, b\)/],
    [{ ...valid, sequence: [{ program: 'a', extra: 1 }] }, '$.sequence[0].extra', /unknown field/],
    [{ ...valid, sequence: [{ program: 'a', symbols: { N: true } }] }, '$.sequence[0].symbols.N', /must be an integer/],
    [{ ...valid, steps: 0 }, '$.steps', /steps must be an integer from 1/],
    [{ ...valid, steps: 2.5 }, '$.steps', /steps must be an integer from 1/],
    [{ ...valid, inputs: { u: 3 } }, '$.inputs.u', /non-empty string/],
    [[1, 2], '$', /must be an object, got an array/],
  ])('refuses %j at its JSON path', (doc, jsonPath, message) => {
    const e = error(doc);
    expect(e.kind).toBe('input');
    expect(e.file).toBe(PATH);
    expect(e.jsonPath).toBe(jsonPath);
    expect(e.message).toMatch(message);
  });

  it('refuses text that is not JSON, naming the file', () => {
    expect(() => parseWorkload('{"schema": ', PATH)).toThrow(/not valid JSON/);
  });

  it('is sniffed from the first bytes, and SDFGs are not', () => {
    expect(sniffWorkload(JSON.stringify(valid))).toBe(true);
    expect(sniffWorkload('{\n  "schema": "transient-lab/workload@1"}')).toBe(true);
    expect(sniffWorkload('{"type": "SDFG", "attributes": {}}')).toBe(false);
    expect(sniffWorkload('{"schema": "transient-lab/profile@1"}')).toBe(false);
  });
});
