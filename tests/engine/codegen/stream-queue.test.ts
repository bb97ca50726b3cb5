/**
 * The stream queue's bulk moves and ring arithmetic (native/include/transient_stream.h, codegen/streams.ts):
 * a contiguous Array → Stream copy is one `tlab_stream_push_n` and Stream → Array one `tlab_stream_pop_n` (DaCe's
 * push(ptr, n) / pop(ptr, n)) instead of a push or pop per element; the ring wraps by a compare instead of a
 * division. A C++ program under AddressSanitizer drives a queue whose capacity is no power of two through
 * wrapped pushes, growth while wrapped, bulk moves across the ring's end and short bulk pops, against a FIFO
 * model; a strided copy keeps the element loop.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { generateProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { StateBuilder, sdfgText } from '../../../bench/lib/construct-sdfg.js';
import { removeScratchDirs, run, RUNTIME_INCLUDE, scratchDir } from './compile.js';
import { ASAN_FLAGS } from './driver.js';

afterAll(removeScratchDirs);

const QUEUE_PROGRAM = String.raw`
#include "transient_runtime.h"
#include "transient_stream.h"
#include <deque>

static std::deque<double> model;
static int failures = 0;
static void check(bool ok, const char *what) {
  if (!ok) { std::fprintf(stderr, "FAIL %s\n", what); ++failures; }
}
static void push(tlab_stream<double> &s, double v) { tlab_stream_push(s, 0, v); model.push_back(v); }
static void pop(tlab_stream<double> &s) {
  const double v = tlab_stream_pop(s, 0);
  check(!model.empty() && v == model.front(), "pop order");
  model.pop_front();
}
static void push_n(tlab_stream<double> &s, int n, double base) {
  double buf[64];
  for (int k = 0; k < n; ++k) { buf[k] = base + k; model.push_back(base + k); }
  tlab_stream_push_n(s, 0, buf, n);
}
static void pop_n(tlab_stream<double> &s, int n) {
  double buf[64];
  for (int k = 0; k < 64; ++k) buf[k] = -1;
  const size_t before = model.size();
  tlab_stream_wait(s, 0);
  tlab_stream_pop_n(s, 0, buf, n);
  const int got = int(before < size_t(n) ? before : size_t(n));
  for (int k = 0; k < got; ++k) { check(buf[k] == model.front(), "pop_n order"); model.pop_front(); }
  for (int k = got; k < 64; ++k) check(buf[k] == -1, "pop_n wrote past what the queue held");
}

int main() {
  tlab_stream<double> s;
  tlab_stream_open(s, 1, 3, 0);
  push(s, 1); push(s, 2); pop(s); pop(s);      // head at 2 of capacity 3
  push(s, 3); push(s, 4); push(s, 5);          // wraps: slots 2, 0, 1
  push(s, 6);                                  // full and wrapped: grows to 6, in FIFO order
  pop(s);
  push_n(s, 7, 10);                            // needs 10 > 6: one growth to 12, across the ring's end
  push_n(s, 0, 99);                            // nothing
  pop_n(s, 4);
  push_n(s, 5, 20);                            // wraps at the end of the ring
  pop_n(s, 3); pop(s);
  pop_n(s, 40);                                // fewer queued than asked: takes what there is
  check(tlab_stream_empty(s, 0) && model.empty(), "drained");
  for (int r = 0; r < 50; ++r) { push_n(s, 7, r * 100); pop_n(s, 5); push(s, r); pop(s); }
  while (!model.empty()) pop(s);
  check(tlab_stream_empty(s, 0), "empty at the end");
  tlab_stream_close(s);
  std::printf("ok %d\n", failures);
  return failures == 0 ? 0 : 1;
}
`;

/** A → S (stream) → B over a subset: `stride` 1 is contiguous, 2 every other element. */
function copyProgram(stride: number): string {
  const s = new StateBuilder('copy');
  const a = s.access('A');
  const q = s.access('S');
  const b = s.access('B');
  const subset = stride === 1 ? ['0:N - 1'] : [`0:2*N - 2:${stride}`];
  s.edges.push({
    type: 'MultiConnectorEdge',
    attributes: { data: { type: 'Memlet', attributes: { data: 'A', subset: rangeOf(subset[0]!) } } },
    src: String(a),
    dst: String(q),
    src_connector: null,
    dst_connector: null,
  });
  s.edge(q, null, b, null, 'B', ['0:N - 1']);
  const doc = JSON.parse(sdfgText('stream_copy', { A: { shape: ['2*N'] }, B: { shape: ['N'] } }, { N: 'int32' }, [s])) as {
    attributes: { _arrays: Record<string, unknown> };
  };
  doc.attributes._arrays['S'] = {
    type: 'Stream',
    attributes: { shape: ['1'], offset: ['0'], buffer_size: '0', dtype: 'float64', transient: true },
  };
  return JSON.stringify(doc);
}

function rangeOf(dim: string): object {
  const [start, end, step] = dim.split(':');
  return { type: 'Range', ranges: [{ start: start!.trim(), end: end!.trim(), step: (step ?? '1').trim(), tile: '1' }] };
}

function generated(text: string): string {
  const file = parseSdfgJson(JSON.parse(text) as unknown, 'stream_copy.sdfg', 0, false);
  const analysis = analyze(file, { symbols: new Map([['N', 8n]]), defaultSymbol: null, target: null });
  return generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
}

describe('stream queue: bulk moves and ring arithmetic', () => {
  test('wrapped pushes, growth while wrapped and bulk moves across the ring end keep FIFO order (ASan)', async () => {
    const dir = scratchDir('stream-queue');
    const src = join(dir, 'queue.cpp');
    const exe = join(dir, 'queue');
    await writeFile(src, QUEUE_PROGRAM);
    const c = await run('g++', ['-std=c++20', '-O1', ...ASAN_FLAGS, '-I', RUNTIME_INCLUDE, '-o', exe, src]);
    expect(c.code, c.output).toBe(0);
    const r = await run(exe, []);
    expect(r.output).toBe('ok 0\n');
    expect(r.code).toBe(0);
  });

  test('the ring wraps without a division per element', async () => {
    const header = await readFile(join(RUNTIME_INCLUDE, 'transient_stream.h'), 'utf8');
    expect(header).not.toMatch(/%\s*q\.capacity/);
  });

  test("the streams fixture's contiguous copies are one bulk push and one bulk pop", async () => {
    const file = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'streams.sdfg'));
    const analysis = analyze(file, { symbols: new Map([['N', 64n]]), defaultSymbol: null, target: null });
    const source = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
    expect(source).toMatch(/tlab_stream_push_n\(R, 0, &A\[0\], int64_t\(\(N - 1\) - \(0\) \+ 1\)\);/);
    expect(source).toMatch(/tlab_stream_wait\(R, 0\);\n\s*tlab_stream_pop_n\(R, 0, &B\[0\], int64_t\(\(N - 1\) - \(0\) \+ 1\)\);/);
    // The parallel producer's pushes stay one locked push per element.
    expect(source).toContain('tlab_stream_push_locked(Q, 0,');
  });

  test('a strided array subset keeps the element loop', () => {
    expect(generated(copyProgram(1))).toContain('tlab_stream_push_n(S, 0, &A[0]');
    const strided = generated(copyProgram(2));
    expect(strided).not.toContain('tlab_stream_push_n');
    expect(strided).toMatch(/for \(int64_t __k0 = 0;[^\n]*\n\s*tlab_stream_push\(S, 0, A\[/);
    // The pop side is contiguous either way.
    expect(strided).toContain('tlab_stream_pop_n(S, 0, &B[0]');
  });
});
