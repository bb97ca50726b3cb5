/**
 * Hostile but valid JSON: values of the wrong JSON type in fields the parser stringifies or counts. Before
 * these checks, an object with its own `toString` key or an array nested thousands of levels deep in any of
 * five fields (a code block's `language`, `dtype.type`, a memlet `subset.type`, a node `id`, `source_files[i]`)
 * made `analyze` exit 70 with a stack trace. Each must be an input error (exit 3) with the JSON path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson } from '../../../electron/engine/sdfg/index.js';
import { MAX_NESTING } from '../../../electron/engine/sdfg/nesting.js';

const FILE = 'hostile.sdfg';

type Json = Record<string, unknown>;

/** One state `A → tasklet → B` with a transient, a map-free memlet subset and a source file. */
function baseline(): Json {
  return {
    type: 'SDFG',
    source_files: ['prog.py'],
    attributes: {
      name: 'prog',
      _arrays: {
        A: { type: 'Array', attributes: { shape: ['N'], dtype: 'float64' } },
        B: { type: 'Array', attributes: { shape: ['N'], dtype: 'float64', transient: true } },
      },
      symbols: { N: 'int64' },
    },
    nodes: [
      {
        type: 'SDFGState',
        label: 's0',
        id: 0,
        nodes: [
          { type: 'AccessNode', label: 'A', id: 0, attributes: { data: 'A' } },
          {
            type: 'Tasklet',
            label: 't',
            id: 1,
            attributes: { code: { string_data: 'b = a', language: 'Python' }, in_connectors: { a: null }, out_connectors: { b: null } },
          },
          { type: 'AccessNode', label: 'B', id: 2, attributes: { data: 'B' } },
        ],
        edges: [
          {
            src: '0',
            dst: '1',
            dst_connector: 'a',
            attributes: {
              data: { type: 'Memlet', attributes: { data: 'A', subset: { type: 'Range', ranges: [{ start: '0', end: 'N - 1' }] } } },
            },
          },
          {
            src: '1',
            dst: '2',
            src_connector: 'b',
            attributes: {
              data: { type: 'Memlet', attributes: { data: 'B', subset: { type: 'Range', ranges: [{ start: '0', end: 'N - 1' }] } } },
            },
          },
        ],
      },
    ],
    edges: [],
  };
}

const state = (d: Json): Json => (d['nodes'] as Json[])[0]!;
const stateNodes = (d: Json): Json[] => state(d)['nodes'] as Json[];
const memletAttrs = (d: Json): Json => (((state(d)['edges'] as Json[])[0]!['attributes'] as Json)['data'] as Json)['attributes'] as Json;
const arrayAttrs = (d: Json, name: string): Json => (((d['attributes'] as Json)['_arrays'] as Json)[name] as Json)['attributes'] as Json;

function deepArray(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** The crashing values of the fuzzing report: an own `toString`, and arrays nested ~3,000 (and 10,000) deep. */
const HOSTILE: Array<[string, () => unknown]> = [
  ['an object with its own toString key', () => JSON.parse('{"toString": 1}')],
  ['an object with own toString and valueOf keys', () => JSON.parse('{"toString": {}, "valueOf": {}}')],
  ['an array nested 3,000 deep', () => deepArray(3000)],
  ['an array nested 10,000 deep', () => deepArray(10_000)],
];

const SITES: Array<[string, string, (d: Json, v: unknown) => void]> = [
  [
    "a code block's language",
    '$.nodes[0].nodes[1].attributes.code.language',
    (d, v) => (((stateNodes(d)[1]!['attributes'] as Json)['code'] as Json)['language'] = v),
  ],
  ['dtype.type', '$.attributes._arrays.A.attributes.dtype.type', (d, v) => (arrayAttrs(d, 'A')['dtype'] = { type: v })],
  [
    'a memlet subset.type',
    '$.nodes[0].edges[0].attributes.data.attributes.subset.type',
    (d, v) => ((memletAttrs(d)['subset'] as Json)['type'] = v),
  ],
  ['a node id', '$.nodes[0].nodes[0].id', (d, v) => (stateNodes(d)[0]!['id'] = v)],
  ['source_files[i]', '$.source_files[0]', (d, v) => ((d['source_files'] as unknown[])[0] = v)],
];

function inputError(doc: unknown): TlabError {
  let caught: unknown;
  try {
    const file = parseSdfgJson(doc, FILE, 0, false);
    analyze(file, { symbols: new Map(), defaultSymbol: 8n, target: null });
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof TlabError))
    throw new Error(`expected a TlabError, got ${caught === undefined ? 'success' : String((caught as Error).stack)}`);
  expect(caught.kind).toBe('input');
  expect(caught.file).toBe(FILE);
  return caught;
}

describe('the baseline', () => {
  it('parses and analyses, so that each failure below comes from its one change', () => {
    const file = parseSdfgJson(baseline(), FILE, 0, false);
    expect(file.warnings).toEqual([]);
    expect(file.sourceFiles).toEqual(['prog.py']);
    expect(analyze(file, { symbols: new Map(), defaultSymbol: 8n, target: null }).transients).toHaveLength(1);
  });
});

describe('the five fields that crashed analyze', () => {
  for (const [site, path, put] of SITES) {
    for (const [what, make] of HOSTILE) {
      it(`${site} = ${what} is an input error at ${path}`, () => {
        const doc = baseline();
        put(doc, make());
        const error = inputError(doc);
        expect(error.jsonPath).toBe(path);
        expect(error.describe()).toMatch(/found (an object|a list)/);
      });
    }
  }

  it('still accepts the spellings real files use', () => {
    const doc = baseline();
    ((stateNodes(doc)[1]!['attributes'] as Json)['code'] as Json)['language'] = { type: 'Language.CPP' };
    stateNodes(doc)[0]!['id'] = '0';
    arrayAttrs(doc, 'A')['dtype'] = { type: 'pointer', dtype: 'float64' };
    const file = parseSdfgJson(doc, FILE, 0, false);
    const tasklet = file.root.body.blocks[0]!.kind === 'state' ? file.root.body.blocks[0]!.nodes[1]! : null;
    expect(tasklet?.kind === 'tasklet' && tasklet.code.language).toBe('CPP');
  });

  it('is exit 3 with the JSON path from the CLI, without a stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlab-hostile-'));
    try {
      for (const [, path, put] of SITES) {
        const doc = baseline();
        put(doc, JSON.parse('{"toString": 1}'));
        const file = join(dir, 'case.sdfg');
        writeFileSync(file, JSON.stringify(doc));
        const r = spawnSync(process.execPath, [join(packageRoot(), 'dist', 'electron', 'cli', 'main.js'), 'analyze', file], {
          encoding: 'utf8',
        });
        expect(r.stderr).toContain(`${file}: at ${path}: `);
        expect(r.stderr).not.toMatch(/internal error| {4}at /);
        expect(r.status).toBe(3);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('other fields of the same class', () => {
  const cases: Array<[string, (d: Json) => void, string | RegExp]> = [
    [
      'SymExpr objects nested thousands of levels (each level doubles the text)',
      (d) => {
        let v: unknown = 'N';
        for (let i = 0; i < 3000; i++) v = { main: v };
        arrayAttrs(d, 'A')['shape'] = [v];
      },
      /^\$\.attributes\._arrays\.A\.attributes\.shape\[0\](\.main)+$/,
    ],
    [
      'a shape with more dimensions than numpy allows (strides are quadratic in the rank)',
      (d) => {
        arrayAttrs(d, 'A')['shape'] = Array.from({ length: 5000 }, (_, i) => i + 1);
      },
      '$.attributes._arrays.A.attributes.shape',
    ],
    [
      'a vector dtype whose element count is an object',
      (d) => {
        arrayAttrs(d, 'A')['dtype'] = { type: 'vector', dtype: 'float64', elements: JSON.parse('{"toString": 1}') };
      },
      '$.attributes._arrays.A.attributes.dtype.elements',
    ],
    [
      'a loop variable that is not a name',
      (d) => {
        d['nodes'] = [{ type: 'LoopRegion', label: 'loop', attributes: { loop_variable: deepArray(3000) }, nodes: [], edges: [] }];
      },
      '$.nodes[0].attributes.loop_variable',
    ],
  ];
  for (const [what, put, path] of cases) {
    it(`rejects ${what}`, () => {
      const doc = baseline();
      put(doc);
      const error = inputError(doc);
      if (typeof path === 'string') expect(error.jsonPath).toBe(path);
      else expect(error.jsonPath).toMatch(path);
    });
  }

  it('looks names such as constructor and toString up as names, not as Object.prototype members', () => {
    const doc = baseline();
    const tasklet = stateNodes(doc)[1]!['attributes'] as Json;
    tasklet['in_connectors'] = JSON.parse('{"constructor": null, "toString": "float64"}');
    const file = parseSdfgJson(doc, FILE, 0, false);
    const block = file.root.body.blocks[0]!;
    const node = block.kind === 'state' ? block.nodes[1]! : null;
    expect(node?.inConnectors['constructor']).toBeNull();
    expect(node?.inConnectors['toString']).toMatchObject({ kind: 'scalar', name: 'float64' });
    expect(node?.outConnectors['constructor']).toBeUndefined();
    expect(node?.outConnectors['hasOwnProperty']).toBeUndefined();
  });

  it('keeps messages short when a file holds megabyte names', () => {
    const doc = baseline();
    arrayAttrs(doc, 'A')['dtype'] = 'x'.repeat(1_000_000);
    const file = parseSdfgJson(doc, FILE, 0, false);
    expect(file.warnings[0]!.message.length).toBeLessThan(200);
  });
});

describe('control flow nested past every walk', () => {
  /** The baseline's state inside `depth` ControlFlowRegions, each inside the next. */
  function nested(depth: number): Json {
    const d = baseline();
    let block = state(d);
    for (let i = 0; i < depth; i++)
      block = { type: 'ControlFlowRegion', label: `r${i}`, id: 0, start_block: 0, attributes: {}, nodes: [block], edges: [] };
    d['nodes'] = [block];
    return d;
  }

  it('analyses at the limit, and refuses one level more with the JSON path of that region (no stack overflow)', () => {
    const ok = parseSdfgJson(nested(MAX_NESTING), FILE, 0, false);
    expect(analyze(ok, { symbols: new Map([['N', 8n]]), defaultSymbol: null, target: null }).transients.length).toBe(1);
    for (const depth of [MAX_NESTING + 1, 3000]) {
      let err: unknown = null;
      try {
        analyze(parseSdfgJson(nested(depth), FILE, 0, false), { symbols: new Map([['N', 8n]]), defaultSymbol: null, target: null });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TlabError);
      expect((err as TlabError).kind).toBe('unsupported');
      expect((err as TlabError).message).toMatch(/nested deeper than 256 levels/);
      expect((err as TlabError).jsonPath).toBe(`$${'.nodes[0]'.repeat(MAX_NESTING + 1)}`);
    }
  });
});
