/** Bad input gets a TlabError('input') naming the file, the JSON path and the problem — never a crash. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../../electron/engine/errors.js';
import { parseSdfgBytes, parseSdfgJson, readSdfgFile, sniffSdfg } from '../../../electron/engine/sdfg/index.js';

const FILE = 'bad/program.sdfg';

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** A small but complete modern SDFG: one state `A → tasklet → B`, one transient. */
function validSdfg(): Record<string, unknown> {
  return {
    type: 'SDFG',
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
          { type: 'AccessNode', label: 'A', id: 0, scope_entry: null, attributes: { data: 'A' } },
          {
            type: 'Tasklet',
            label: 't',
            id: 1,
            scope_entry: null,
            attributes: { code: { string_data: 'b = a', language: 'Python' }, in_connectors: { a: null }, out_connectors: { b: null } },
          },
          { type: 'AccessNode', label: 'B', id: 2, scope_entry: null, attributes: { data: 'B' } },
        ],
        edges: [
          {
            type: 'MultiConnectorEdge',
            src: '0',
            dst: '1',
            src_connector: null,
            dst_connector: 'a',
            attributes: {
              data: {
                type: 'Memlet',
                attributes: { data: 'A', subset: { type: 'Range', ranges: [{ start: '0', end: 'N - 1', step: '1', tile: '1' }] } },
              },
            },
          },
          {
            type: 'MultiConnectorEdge',
            src: '1',
            dst: '2',
            src_connector: 'b',
            dst_connector: null,
            attributes: { data: { type: 'Memlet', attributes: { data: 'B' } } },
          },
        ],
      },
      { type: 'SDFGState', label: 's1', id: 1, nodes: [], edges: [] },
    ],
    edges: [
      { type: 'Edge', src: '0', dst: '1', attributes: { data: { type: 'InterstateEdge', attributes: { assignments: { i: '0' } } } } },
    ],
    cfg_list_id: 0,
    start_block: 0,
  };
}

function state0(sdfg: Record<string, unknown>): Record<string, unknown> {
  return (sdfg['nodes'] as Array<Record<string, unknown>>)[0]!;
}

/** Runs `action`, expecting a TlabError of `kind` (an input error unless told); returns it for further checks. */
function inputError(action: () => unknown, kind: TlabError['kind'] = 'input'): TlabError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(TlabError);
    const tlab = error as TlabError;
    expect(tlab.kind).toBe(kind);
    expect(tlab.file).toBe(FILE);
    expect(tlab.stack ?? '').not.toContain('TypeError');
    return tlab;
  }
  throw new Error('expected a TlabError, but parsing succeeded');
}

function parseObject(sdfg: unknown): TlabError {
  return inputError(() => parseSdfgBytes(bytesOf(JSON.stringify(sdfg)), FILE));
}

describe('the baseline SDFG used by these tests', () => {
  it('parses, so that each failure below is caused by its one change', () => {
    const model = parseSdfgBytes(bytesOf(JSON.stringify(validSdfg())), FILE);
    expect(model.stats).toEqual({ sdfgs: 1, states: 2, nodes: 3, edges: 3, transients: 1 });
    expect(model.warnings).toEqual([]);
    expect(model.generation).toBe('G2');
  });
});

describe('content sniffing', () => {
  it('rejects an empty file', () => {
    expect(sniffSdfg(new Uint8Array())).toEqual({ ok: false, reason: 'the file is empty' });
    expect(inputError(() => parseSdfgBytes(new Uint8Array(), FILE)).message).toBe('the file is empty');
  });

  it('rejects Python pickles, plain or gzip-compressed, and says how to re-save', () => {
    const pickle = new Uint8Array([0x80, 0x04, 0x95, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x8c, 0x04, 0x64, 0x61, 0x63, 0x65]);
    const plain = sniffSdfg(pickle);
    expect(plain.ok).toBe(false);
    expect(!plain.ok && plain.reason).toMatch(/Python pickle.*re-save with SDFG\.save\(path\) without use_pickle/);
    expect(inputError(() => parseSdfgBytes(pickle, FILE)).message).toMatch(/Python pickle/);
    const compressed = inputError(() => parseSdfgBytes(gzipSync(pickle), FILE));
    expect(compressed.message).toMatch(/^gzip-compressed, but the decompressed content is a Python pickle/);
  });

  it('rejects Git LFS pointers and tells to run git lfs pull', () => {
    const pointer =
      'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    const error = inputError(() => parseSdfgBytes(bytesOf(pointer), FILE));
    expect(error.message).toMatch(/Git LFS pointer.*run git lfs pull/);
  });

  it('rejects tiny non-JSON placeholders, showing how they start', () => {
    const error = inputError(() => parseSdfgBytes(bytesOf('Not Found\n'), FILE));
    expect(error.message).toBe('the file is not an SDFG but a 10-byte non-JSON placeholder starting with "Not Found\\x0a"');
  });

  it('detects gzip by the magic bytes whatever the name', () => {
    const text = JSON.stringify(validSdfg());
    expect(sniffSdfg(gzipSync(text))).toEqual({ ok: true, compressed: true });
    expect(sniffSdfg(bytesOf(text))).toEqual({ ok: true, compressed: false });
    const model = parseSdfgBytes(gzipSync(text), 'looks-plain.sdfg');
    expect(model.compressed).toBe(true);
    expect(model.jsonBytes).toBe(text.length);
  });

  it('reports truncated gzip data', () => {
    const compressed = gzipSync(JSON.stringify(validSdfg()));
    const error = inputError(() => parseSdfgBytes(compressed.subarray(0, compressed.length - 20), FILE));
    expect(error.message).toMatch(/gzip data is truncated/);
  });

  it('reports invalid UTF-8 with its byte offset and line', () => {
    const good = bytesOf('{\n  "type": "SDFG", "label": "x');
    const bytes = new Uint8Array([...good, 0xff, 0x22, 0x7d]);
    const error = inputError(() => parseSdfgBytes(bytes, FILE));
    expect(error.message).toMatch(/not valid UTF-8: byte 0xff at offset 31 \(line 2/);
  });

  it('accepts a legitimate U+FFFD character', () => {
    const sdfg = validSdfg();
    (sdfg['nodes'] as Array<Record<string, unknown>>)[1]!['label'] = 'replacement \uFFFD char';
    expect(parseSdfgBytes(bytesOf(JSON.stringify(sdfg)), FILE).root.body.blocks[1]!.label).toBe('replacement \uFFFD char');
  });

  it('reports a missing file as an input error', async () => {
    await expect(readSdfgFile('/nonexistent/folder/x.sdfg')).rejects.toMatchObject({
      kind: 'input',
      file: '/nonexistent/folder/x.sdfg',
      message: 'cannot read the SDFG file: the file does not exist',
    });
  });
});

describe('JSON syntax errors', () => {
  it('says a cut-off file looks truncated, with line, column and the JSON path being read', () => {
    const text = JSON.stringify(validSdfg(), null, 2);
    const cut = text.slice(0, text.indexOf('"tile"') + 3);
    const error = inputError(() => parseSdfgBytes(bytesOf(cut), FILE));
    const lines = cut.split('\n');
    expect(error.message).toContain(`at line ${lines.length}, column ${lines[lines.length - 1]!.length + 1}`);
    expect(error.message).toContain('the file looks truncated');
    // Cut inside a key: the path names the object whose member was being read.
    expect(error.jsonPath).toBe('$.nodes[0].edges[0].attributes.data.attributes.subset.ranges[0]');
    const inValue = text.slice(0, text.indexOf('"N - 1"') + 3);
    const valueError = inputError(() => parseSdfgBytes(bytesOf(inValue), FILE));
    expect(valueError.message).toMatch(/^the file is not valid JSON: Unterminated string .*the file looks truncated/);
    expect(valueError.jsonPath).toBe('$.nodes[0].edges[0].attributes.data.attributes.subset.ranges[0].end');
  });

  it('locates an error in the middle of the file without calling it truncated', () => {
    const text = JSON.stringify(validSdfg(), null, 2).replace('"label": "s1"', '"label": "s1",,');
    const error = inputError(() => parseSdfgBytes(bytesOf(text), FILE));
    const line = text.split('\n').findIndex((l) => l.includes('"s1",,')) + 1;
    expect(error.message).toMatch(new RegExp(`^the file is not valid JSON: .* at line ${line}, column \\d+$`));
    expect(error.message).not.toContain('truncated');
    expect(error.jsonPath).toBe('$.nodes[1]');
  });

  it('handles a syntax error deep inside 10,000 nested lists without a stack overflow', () => {
    const text = `{"type": "SDFG", "nodes": ${'['.repeat(10_000)}1,]${']'.repeat(9_999)}}`;
    const error = inputError(() => parseSdfgBytes(bytesOf(text), FILE));
    expect(error.message).toMatch(/at line 1, column \d+/);
    expect(error.jsonPath).toMatch(/^\$\.nodes(\[0\]){9999}\[1\]$/);
  });
});

describe('wrong structure', () => {
  it('requires an object root of type SDFG', () => {
    expect(inputError(() => parseSdfgBytes(bytesOf('[1, 2]'), FILE))).toMatchObject({
      jsonPath: '$',
      message: 'the JSON root must be an SDFG object, found a list',
    });
    expect(parseObject({ ...validSdfg(), type: 'SDFGState' })).toMatchObject({
      jsonPath: '$.type',
      message: 'the root "type" is the string "SDFGState", expected "SDFG"',
    });
    const noType = validSdfg();
    delete noType['type'];
    expect(parseObject(noType).jsonPath).toBe('$.type');
  });

  it('names the exact path of a non-list `nodes`', () => {
    const sdfg = validSdfg();
    state0(sdfg)['nodes'] = { 0: {} };
    expect(parseObject(sdfg)).toMatchObject({ jsonPath: '$.nodes[0].nodes', message: '"nodes" must be a list, found an object' });
  });

  it('names the exact path of a shape that is not a list', () => {
    const sdfg = validSdfg();
    const arrays = (sdfg['attributes'] as Record<string, Record<string, Record<string, Record<string, unknown>>>>)['_arrays']!;
    arrays['A']!['attributes']!['shape'] = 'N';
    expect(parseObject(sdfg)).toMatchObject({
      jsonPath: '$.attributes._arrays.A.attributes.shape',
      message: 'shape must be a list of expressions, found the string "N"',
    });
  });

  it('rejects a dataflow node without a type', () => {
    const sdfg = validSdfg();
    delete (state0(sdfg)['nodes'] as Array<Record<string, unknown>>)[1]!['type'];
    expect(parseObject(sdfg)).toMatchObject({ jsonPath: '$.nodes[0].nodes[1]', message: expect.stringContaining('has no "type"') });
  });

  it('rejects a symbolic field of the wrong type', () => {
    const sdfg = validSdfg();
    const arrays = (sdfg['attributes'] as Record<string, Record<string, Record<string, Record<string, unknown>>>>)['_arrays']!;
    arrays['B']!['attributes']!['shape'] = ['N', true];
    expect(parseObject(sdfg)).toMatchObject({ jsonPath: '$.attributes._arrays.B.attributes.shape[1]' });
  });
});

describe('dangling references', () => {
  it('rejects a memlet edge to a node that does not exist', () => {
    const sdfg = validSdfg();
    (state0(sdfg)['edges'] as Array<Record<string, unknown>>)[1]!['dst'] = '7';
    expect(parseObject(sdfg)).toMatchObject({
      jsonPath: '$.nodes[0].edges[1].dst',
      message: 'memlet edge destination node "7" does not exist (valid ids are 0-2)',
    });
  });

  it('rejects an interstate edge to a block that does not exist', () => {
    const sdfg = validSdfg();
    (sdfg['edges'] as Array<Record<string, unknown>>)[0]!['src'] = '2';
    expect(parseObject(sdfg)).toMatchObject({
      jsonPath: '$.edges[0].src',
      message: 'interstate edge source block "2" does not exist (valid ids are 0-1)',
    });
  });

  it('rejects a scope_entry pointing nowhere', () => {
    const sdfg = validSdfg();
    (state0(sdfg)['nodes'] as Array<Record<string, unknown>>)[1]!['scope_entry'] = '12';
    expect(parseObject(sdfg)).toMatchObject({
      jsonPath: '$.nodes[0].nodes[1].scope_entry',
      message: 'scope_entry "12" does not exist (valid ids are 0-2)',
    });
  });

  it('rejects a non-numeric edge endpoint', () => {
    const sdfg = validSdfg();
    (state0(sdfg)['edges'] as Array<Record<string, unknown>>)[0]!['src'] = 'A';
    expect(parseObject(sdfg)).toMatchObject({
      jsonPath: '$.nodes[0].edges[0].src',
      message: 'memlet edge source node must be an integer id, found the string "A"',
    });
  });
});

describe('pathological nesting', () => {
  // Analysis, drawing and generation recurse through the model; the parser refuses past MAX_NESTING (sdfg/nesting.ts)
  // instead of letting them overflow the stack later. It must get there without overflowing itself.
  it('refuses a 10,000-deep chain of nested regions at the first region over the limit, without overflowing the stack', () => {
    let region: Record<string, unknown> = { type: 'SDFGState', label: 'leaf', nodes: [], edges: [] };
    for (let i = 0; i < 10_000; i++) region = { type: 'ControlFlowRegion', label: `r${i}`, nodes: [region], edges: [], start_block: 0 };
    const error = inputError(
      () => parseSdfgJson({ type: 'SDFG', attributes: { name: 'deep' }, nodes: [region], edges: [] }, FILE, 0, false),
      'unsupported',
    );
    expect(error.message).toMatch(/^control flow nested deeper than 256 levels/);
    expect(error.jsonPath).toBe(`$${'.nodes[0]'.repeat(257)}`);
  });

  it('refuses a 10,000-deep chain of nested SDFGs at the first SDFG over the limit', () => {
    // Built as text: JSON.stringify itself would overflow the stack on this depth.
    let text = '{"type":"SDFG","attributes":{"name":"leaf"},"nodes":[],"edges":[]}';
    for (let i = 0; i < 10_000; i++) {
      text =
        `{"type":"SDFG","attributes":{"name":"s${i}"},"nodes":[{"type":"SDFGState","nodes":[` +
        `{"type":"NestedSDFG","label":"n${i}","attributes":{"sdfg":${text}}}],"edges":[]}],"edges":[]}`;
    }
    const error = inputError(() => parseSdfgBytes(bytesOf(text), FILE), 'unsupported');
    expect(error.jsonPath).toBe(`$${'.nodes[0].nodes[0].attributes.sdfg'.repeat(257)}`);
  });

  it('numbers 256 levels of nested SDFGs in pre-order', () => {
    let text = '{"type":"SDFG","attributes":{"name":"leaf"},"nodes":[],"edges":[]}';
    for (let i = 0; i < 256; i++) {
      text =
        `{"type":"SDFG","attributes":{"name":"s${i}"},"nodes":[{"type":"SDFGState","nodes":[` +
        `{"type":"NestedSDFG","label":"n${i}","attributes":{"sdfg":${text}}}],"edges":[]}],"edges":[]}`;
    }
    const model = parseSdfgBytes(bytesOf(text), FILE);
    expect(model.sdfgs.length).toBe(257);
    expect(model.sdfgs.every((s, i) => s.sdfgIndex === i && s.cfgId === i)).toBe(true);
    expect(model.sdfgs[256]!.name).toBe('leaf');
    expect(model.sdfgs[256]!.parent!.sdfg).toBe(model.sdfgs[255]);
  });

  it('gives a clean error for absurdly nested data types', () => {
    let dtype: unknown = 'float64';
    for (let i = 0; i < 10_000; i++) dtype = { type: 'pointer', dtype };
    const sdfg = validSdfg();
    const arrays = (sdfg['attributes'] as Record<string, Record<string, Record<string, Record<string, unknown>>>>)['_arrays']!;
    arrays['A']!['attributes']!['dtype'] = dtype;
    const error = inputError(() => parseSdfgJson(sdfg, FILE, 0, false));
    expect(error.message).toBe('data type nested deeper than 64 levels');
    expect(error.jsonPath).toMatch(/^\$\.attributes\._arrays\.A\.attributes\.dtype(\.dtype)+$/);
  });
});
