/**
 * Previews (engine/sdfg/preview.ts): the root of a big file read without its nested SDFG bodies. What the
 * window draws first from a preview must be what it draws from the full model, except the counts that a
 * deferred nested SDFG would add, which the preview marks as partial; a file not laid out as DaCe writes it
 * gets no preview at all rather than a wrong one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Sdfg } from '../../../electron/engine/model/sdfg.js';
import { statesOf } from '../../../electron/engine/model/queries.js';
import { corpusDir } from '../../../electron/engine/paths.js';
import { decodeSdfgBytes, parseDecodedSdfg, type DecodedSdfg } from '../../../electron/engine/sdfg/index.js';
import { decodeWithPreview, DEFERRED_SDFG, nestedBodies, previewSdfg } from '../../../electron/engine/sdfg/preview.js';
import { buildDocInfo } from '../../../electron/engine/view/doc.js';
import type { GraphNode, GraphRegion } from '../../../electron/engine/view/types.js';
import { DEFAULT_VIEWS } from '../../../electron/service/views.js';
import { corpusFile } from './helpers.js';

/** Nested SDFG nodes of `sdfg` itself (not inside its nested SDFGs) whose body a preview deferred. */
const deferredNodes = (sdfg: Sdfg) => [...statesOf(sdfg)].flatMap((s) => s.nodes).filter((n) => n.kind === 'nested_sdfg' && n.deferred);

function decode(name: string): DecodedSdfg {
  return decodeSdfgBytes(readFileSync(corpusFile(name)), corpusFile(name));
}

/** A node as the preview must draw it: nested SDFG nodes and partial summaries differ on purpose. */
function comparable(n: GraphNode, dropSummary: boolean): unknown {
  const out: Record<string, unknown> = { ...n };
  if (n.kind === 'nested_sdfg') {
    delete out['sdfg'];
    delete out['expand'];
    delete out['deferred'];
  }
  if (dropSummary) delete out['summary'];
  return out;
}

function expectSameRoot(preview: GraphRegion, full: GraphRegion): void {
  expect(preview.id).toBe(full.id);
  expect(preview.label).toBe(full.label);
  expect(preview.edges).toEqual(full.edges);
  const partial = preview.nodes.map((n) => n.summary?.partial === true || (n.kind === 'nested_sdfg' && n.deferred === true));
  expect(preview.nodes.map((n, i) => comparable(n, partial[i]!))).toEqual(full.nodes.map((n, i) => comparable(n, partial[i]!)));
  // A partial summary never claims more than the full one.
  full.nodes.forEach((f, i) => {
    const p = preview.nodes[i]!;
    if (!p.summary || !f.summary) return;
    for (const k of ['states', 'nodes', 'maps', 'tasklets', 'loops', 'sdfgs'] as const)
      expect(p.summary[k]).toBeLessThanOrEqual(f.summary[k]);
    for (const t of p.summary.transients) expect(f.summary.transients).toContain(t);
  });
}

const VELOCITY = 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz';

describe('previews of big files', () => {
  it('velocity_tendencies (166 MB of JSON): the root with 22 nested bodies deferred draws as the full root does', () => {
    const decoded = decode(VELOCITY);
    const preview = previewSdfg(decoded);
    expect(preview).not.toBeNull();
    expect(preview!.preview).toBe(true);
    expect(preview!.stats.sdfgs).toBe(1);
    expect(deferredNodes(preview!.root)).toHaveLength(22);
    const full = parseDecodedSdfg(decoded);
    expect(full.preview).toBeUndefined();
    expect(full.stats.sdfgs).toBe(46);
    const p = DEFAULT_VIEWS.graph(preview!, null, null);
    const f = DEFAULT_VIEWS.graph(full, null, null);
    expectSameRoot(p, f);
    expect(p.nodes.some((n) => n.summary?.partial)).toBe(true);
    expect(f.nodes.some((n) => n.summary?.partial)).toBe(false);
    expect(buildDocInfo(preview!, { doc: 'd1', name: 'v', path: null, fileBytes: 1, parseMs: 0 }).preview).toBe(true);
    expect(buildDocInfo(full, { doc: 'd1', name: 'v', path: null, fileBytes: 1, parseMs: 0 }).preview).toBeUndefined();
  });

  it('small files get no preview at the default threshold', () => {
    expect(previewSdfg(decode('spcl__dace__tests__sdfg_corpus__nestinger_1.sdfgz'))).toBeNull();
  });
});

describe('previews on every pretty-printed corpus file with nested SDFGs (threshold lowered)', () => {
  const files = readdirSync(corpusDir())
    .filter((f) => /\.sdfgz?$/.test(f) && statSync(corpusFile(f)).size <= 2_000_000)
    .sort();
  const cases = files.flatMap((name) => {
    let decoded: DecodedSdfg;
    try {
      decoded = decode(name);
    } catch {
      return [];
    }
    const ranges = nestedBodies(decoded.json);
    return ranges && ranges.length ? [{ name, decoded, ranges: ranges.length }] : [];
  });

  it('finds such files in the corpus', () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    let full;
    try {
      full = parseDecodedSdfg(c.decoded);
    } catch {
      // A file the parser refuses may still have a readable root; the preview is then only a first look, and
      // the full parse reports the error. Nothing to compare.
      return;
    }
    const preview = previewSdfg(c.decoded, 0);
    if (preview === null) return; // nested bodies were under half the file
    // Every embedded nested SDFG of the root is deferred. (A skipped range may also lie in an attribute the
    // model does not read, such as get_albedos' `orig_sdfg` copy: fewer nodes than ranges is fine.)
    const embedded = [...statesOf(full.root)].flatMap((s) => s.nodes).filter((n) => n.kind === 'nested_sdfg' && n.sdfg !== null);
    expect(deferredNodes(preview.root).length).toBe(embedded.length);
    expect(embedded.length).toBeLessThanOrEqual(c.ranges);
    expectSameRoot(DEFAULT_VIEWS.graph(preview, null, null), DEFAULT_VIEWS.graph(full, null, null));
    expect(preview.root.arrays).toEqual(full.root.arrays);
  });
});

describe('files not laid out as DaCe writes them get no preview', () => {
  const pretty = (v: unknown, indent: number | string): DecodedSdfg => ({
    json: Buffer.from(JSON.stringify(v, null, indent)),
    compressed: false,
    path: 'x.sdfg',
  });
  const nested = {
    type: 'SDFG',
    attributes: { name: 'outer', _arrays: {} },
    nodes: [
      {
        type: 'SDFGState',
        label: 's0',
        id: 0,
        nodes: [
          {
            type: 'NestedSDFG',
            label: 'inner',
            attributes: {
              sdfg: {
                type: 'SDFG',
                attributes: { name: 'inner', _arrays: {}, text: '}"sdfg": {', debuginfo: 'x'.repeat(4000) },
                nodes: [],
                edges: [],
              },
              in_connectors: {},
              out_connectors: {},
            },
            id: 0,
          },
        ],
        edges: [],
      },
    ],
    edges: [],
    start_block: 0,
  };

  it('json.dumps(indent=2): one deferred body; braces inside strings do not end it', () => {
    const preview = previewSdfg(pretty(nested, 2), 0);
    expect(preview).not.toBeNull();
    const node = [...statesOf(preview!.root)][0]!.nodes[0]!;
    expect(node).toMatchObject({ kind: 'nested_sdfg', deferred: true, sdfg: null });
  });

  it('compact JSON, tabs, or a body whose first key is not "type": "SDFG"', () => {
    expect(previewSdfg({ json: Buffer.from(JSON.stringify(nested)), compressed: false, path: 'x' }, 0)).toBeNull();
    expect(previewSdfg(pretty(nested, '\t'), 0)).toBeNull();
    const reordered = JSON.parse(JSON.stringify(nested));
    const inner = reordered.nodes[0].nodes[0].attributes.sdfg;
    reordered.nodes[0].nodes[0].attributes.sdfg = { attributes: inner.attributes, type: 'SDFG', nodes: [], edges: [] };
    expect(previewSdfg(pretty(reordered, 2), 0)).toBeNull();
  });

  it('the stand-in of a deferred body is never a real nested SDFG value', () => {
    const fake = JSON.parse(JSON.stringify(nested));
    fake.nodes[0].nodes[0].attributes.sdfg = DEFERRED_SDFG;
    // Outside a preview the stand-in is what it is: a string that is not SDFG JSON text.
    expect(() => parseDecodedSdfg({ json: Buffer.from(JSON.stringify(fake)), compressed: false, path: 'x.sdfg' })).toThrow(/JSON text/);
  });
});

describe('gzip files are previewed while they inflate', () => {
  const gzFiles = readdirSync(corpusDir())
    .filter((f) => f.endsWith('.sdfgz'))
    .sort();

  it.each(gzFiles)("%s: the streamed preview is the in-memory one, and the decoding is gunzip's", async (name) => {
    const bytes = readFileSync(corpusFile(name));
    let decoded: DecodedSdfg;
    try {
      decoded = decodeSdfgBytes(bytes, name);
    } catch (err) {
      // A file the decoder refuses: the streamed path refuses it the same way, with the same message.
      const failure = await decodeWithPreview(bytes, name, 0)
        .then((x) => x.decoded())
        .catch((e: unknown) => e);
      expect(String(failure)).toBe(String(err));
      return;
    }
    const streamed = await decodeWithPreview(bytes, name, 0);
    const inMemory = previewSdfg(decoded, 0);
    expect(streamed.preview === null).toBe(inMemory === null);
    if (inMemory && streamed.preview) {
      expect(streamed.preview.root).toEqual(inMemory.root);
      expect(streamed.preview.stats).toEqual(inMemory.stats);
      expect(streamed.preview.jsonBytes).toBe(decoded.json.length);
    }
    expect((await streamed.decoded()).json.equals(decoded.json)).toBe(true);
  });

  const pretty = Buffer.from(
    JSON.stringify(
      {
        type: 'SDFG',
        attributes: { name: 'outer', _arrays: {} },
        nodes: [
          {
            type: 'SDFGState',
            label: 's0',
            id: 0,
            nodes: [
              {
                type: 'NestedSDFG',
                label: 'inner',
                id: 0,
                attributes: {
                  sdfg: { type: 'SDFG', attributes: { name: 'inner', _arrays: {}, pad: 'x'.repeat(3 * 2 ** 20) }, nodes: [], edges: [] },
                  in_connectors: {},
                  out_connectors: {},
                },
              },
            ],
            edges: [],
          },
        ],
        edges: [],
        start_block: 0,
      },
      null,
      2,
    ),
  );

  it('a body spread over many 1 MiB chunks, and a gzip header with a file name and a comment', async () => {
    // FNAME | FCOMMENT, as `gzip -N` and some archivers write.
    const plain = gzipSync(pretty);
    const header = Buffer.from([0x1f, 0x8b, 8, 0x18, 0, 0, 0, 0, 0, 3]);
    const named = Buffer.concat([header, Buffer.from('x.sdfg\0a comment\0', 'latin1'), plain.subarray(10)]);
    for (const bytes of [plain, named]) {
      const { preview, decoded } = await decodeWithPreview(bytes, 'x.sdfgz', 0);
      expect(preview).not.toBeNull();
      expect([...statesOf(preview!.root)][0]!.nodes[0]).toMatchObject({ kind: 'nested_sdfg', deferred: true });
      expect((await decoded()).json.equals(pretty)).toBe(true);
    }
  });

  it('a corrupt or truncated stream gets no preview, and its decoding fails naming the file', async () => {
    const gz = gzipSync(pretty);
    const truncated = gz.subarray(0, gz.length >> 1);
    const corrupt = Buffer.from(gz);
    corrupt.fill(0x55, 200, 400);
    for (const [bytes, why] of [
      [truncated, /truncated/],
      [corrupt, /cannot be decompressed/],
    ] as const) {
      const r = await decodeWithPreview(bytes, 'bad.sdfgz', 0);
      expect(r.preview).toBeNull();
      await expect(r.decoded()).rejects.toMatchObject({ kind: 'input', file: 'bad.sdfgz', message: expect.stringMatching(why) });
    }
  });
});
