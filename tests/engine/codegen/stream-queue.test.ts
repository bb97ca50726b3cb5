/**
 * The stream queue (native/include/transient_stream.h, codegen/streams.ts): a cycle of blocks whose drained blocks
 * pushes reuse, with bulk moves: a contiguous Array → Stream copy is one `tlab_stream_push_n` and Stream → Array
 * one `tlab_stream_pop_n` (DaCe's push(ptr, n) / pop(ptr, n)) instead of a push or pop per element. C++ programs
 * under AddressSanitizer drive queues against FIFO models, with the real block size and with blocks of a few
 * elements (pushes and bulk moves across block ends, reuse of drained blocks, several queues of one stream), and
 * read a consume-like loop's allocations from the runtime's own event records: a million pushes and pops through
 * a queue that never holds more than 1000 elements allocate blocks for those 1000 only, none larger than a block
 * (the doubling ring this replaced allocated about twice the peak, its largest ring 8 KiB here, and 8 MiB rings at
 * the constructs bench's million queued elements, which glibc mapped and unmapped at every call). A strided copy
 * keeps the element loop.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { generateProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { StateBuilder, sdfgText } from '../../../bench/lib/construct-sdfg.js';
import { removeScratchDirs, run, RUNTIME_INCLUDE, scratchDir, streamBlockBytes } from './compile.js';
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

/* Three queues of one stream, each against its own model, in a seeded mix of every operation: for 2500 steps
 * pushes outnumber pops, for the next 2500 pops win, and so on, so the queues grow, drain and grow again. */
static void several_queues() {
  tlab_stream<double> s;
  tlab_stream_open(s, 3, 2, 0);
  std::deque<double> m[3];
  uint64_t x = 12345;
  auto next = [&x]() { x = x * 6364136223846793005ull + 1442695040888963407ull; return x >> 33; };
  double v = 0, buf[40];
  for (int step = 0; step < 20000; ++step) {
    const int q = int(next() % 3), op = int(next() % 6), n = int(next() % 40);
    const bool grow = (step / 2500) % 2 == 0;
    if (op < 2 || (grow && op < 4)) {
      tlab_stream_push(s, q, v); m[q].push_back(v++);
    } else if (op == 4 && grow) {
      for (int k = 0; k < n; ++k) { buf[k] = v; m[q].push_back(v++); }
      tlab_stream_push_n(s, q, buf, n);
    } else if (op >= 4) {
      if (m[q].empty()) { check(tlab_stream_empty(s, q), "queues: empty"); continue; }
      tlab_stream_pop_n(s, q, buf, n);
      const int got = int(std::min<size_t>(m[q].size(), size_t(n)));
      for (int k = 0; k < got; ++k) { check(buf[k] == m[q].front(), "queues: pop_n order"); m[q].pop_front(); }
    } else if (!m[q].empty()) {
      check(tlab_stream_pop(s, q) == m[q].front(), "queues: pop order"); m[q].pop_front();
    }
    check(tlab_stream_empty(s, q) == m[q].empty(), "queues: empty");
  }
  tlab_stream_close(s);
}

int main() {
  tlab_stream<double> s;
  tlab_stream_open(s, 1, 3, 0);
  push(s, 1); push(s, 2); pop(s); pop(s);      // head at 2 of the first block's 3
  push(s, 3); push(s, 4); push(s, 5);          // past the first block's end
  push(s, 6);
  pop(s);
  push_n(s, 7, 10);                            // a run across block ends
  push_n(s, 0, 99);                            // nothing
  pop_n(s, 4);
  push_n(s, 5, 20);
  pop_n(s, 3); pop(s);
  pop_n(s, 40);                                // fewer queued than asked: takes what there is
  check(tlab_stream_empty(s, 0) && model.empty(), "drained");
  for (int r = 0; r < 50; ++r) { push_n(s, 7, r * 100); pop_n(s, 5); push(s, r); pop(s); }
  while (!model.empty()) pop(s);
  check(tlab_stream_empty(s, 0), "empty at the end");
  for (int r = 0; r < 300; ++r) { push(s, r); tlab_stream_push_locked(s, 0, double(-r)); model.push_back(-r); }
  pop_n(s, 64);
  while (!model.empty()) pop(s);
  tlab_stream_close(s);
  several_queues();
  std::printf("ok %d\n", failures);
  return failures == 0 ? 0 : 1;
}
`;

/** A consume-like loop: 1000 elements queued, then a million pops each followed by a push, then drained. Prints
 * the stream's allocations from the runtime's event records. */
const FOOTPRINT_PROGRAM = String.raw`
#include "transient_runtime.h"
#include "transient_stream.h"

int main() {
  tlab_reset(&tlab_runtime_events, 0);
  tlab_stream<double> s;
  tlab_stream_open(s, 1, 4, 0);
  double sum = 0;
  for (int i = 0; i < 1000; ++i) tlab_stream_push(s, 0, double(i));
  const uint64_t queued = tlab_runtime_events.count.load();
  for (int i = 1000; i < 1001000; ++i) { sum += tlab_stream_pop(s, 0); tlab_stream_push(s, 0, double(i)); }
  const uint64_t cycled = tlab_runtime_events.count.load() - queued;
  while (!tlab_stream_empty(s, 0)) sum += tlab_stream_pop(s, 0);
  tlab_stream_close(s);
  uint64_t allocs = 0, frees = 0, site = 0, added = 0, largest = 0, freed = 0;
  for (uint64_t k = 0; k < tlab_runtime_events.count.load(); ++k) {
    const tlab_event &e = tlab_runtime_events.events[k];
    if (e.kind == TLAB_EVENT_FREE) { ++frees; freed += e.bytes; continue; }
    if (allocs++ == 0) { site = e.bytes; continue; }
    added += e.bytes;
    largest = e.bytes > largest ? e.bytes : largest;
  }
  std::printf("{\"sum\": %.0f, \"allocs\": %lu, \"frees\": %lu, \"site\": %lu, \"added\": %lu, \"largest\": %lu, "
              "\"freed\": %lu, \"cycledEvents\": %lu}\n", sum, (unsigned long)allocs, (unsigned long)frees,
              (unsigned long)site, (unsigned long)added, (unsigned long)largest, (unsigned long)freed,
              (unsigned long)cycled);
  return 0;
}
`;

/** Drains a queue across a block end, then pops once more (argv[1] "pop") or waits for a bulk pop ("wait"). */
const EMPTY_POP_PROGRAM = String.raw`
#include <cstring>
#include "transient_runtime.h"
#include "transient_stream.h"

int main(int argc, char **argv) {
  tlab_stream<double> s;
  tlab_stream_open(s, 1, 4, 0);
  for (int i = 0; i < 300; ++i) tlab_stream_push(s, 0, double(i));
  for (int i = 0; i < 300; ++i) (void)tlab_stream_pop(s, 0);
  std::printf("drained\n");
  std::fflush(stdout);
  if (argc > 1 && std::strcmp(argv[1], "wait") == 0) tlab_stream_wait(s, 0);
  else (void)tlab_stream_pop(s, 0);
  tlab_stream_close(s);
  return 0;
}
`;

async function compileAndRun(name: string, source: string, defines: string[] = []): Promise<string> {
  const dir = scratchDir('stream-queue');
  const src = join(dir, `${name}.cpp`);
  const exe = join(dir, name);
  await writeFile(src, source);
  const c = await run('g++', ['-std=c++20', '-O1', ...ASAN_FLAGS, ...defines, '-I', RUNTIME_INCLUDE, '-o', exe, src]);
  expect(c.code, c.output).toBe(0);
  const r = await run(exe, []);
  expect(r.code, r.output).toBe(0);
  return r.output;
}

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

describe('stream queue: blocks and bulk moves', () => {
  test.each([
    ['1 KiB blocks', []],
    ['blocks of 5 doubles', ['-DTLAB_STREAM_BLOCK_BYTES=64']],
  ])('FIFO order across block ends, bulk moves and several queues (ASan, %s)', async (_label, defines) => {
    expect(await compileAndRun('queue', QUEUE_PROGRAM, defines)).toBe('ok 0\n');
  });

  test('a pop or a bulk pop from a drained queue stops the program with its message', async () => {
    const dir = scratchDir('stream-queue');
    const src = join(dir, 'empty.cpp');
    const exe = join(dir, 'empty');
    await writeFile(src, EMPTY_POP_PROGRAM);
    const c = await run('g++', ['-std=c++20', '-O1', '-I', RUNTIME_INCLUDE, '-o', exe, src]);
    expect(c.code, c.output).toBe(0);
    for (const how of ['pop', 'wait']) {
      const r = await run(exe, [how]);
      expect(r.code, how).not.toBe(0);
      expect(r.output, how).toBe("drained\ntransient_stream: pop from an empty stream (DaCe's pop would wait forever)\n");
    }
  });

  test('a million pushes and pops through a queue that holds at most 1000 allocate blocks for those 1000 alone', async () => {
    const block = streamBlockBytes();
    const perBlock = Math.floor((block - 24) / 8);
    const r = JSON.parse(await compileAndRun('footprint', FOOTPRINT_PROGRAM)) as Record<string, number>;
    expect(r['sum']).toBe((1001000 * 1000999) / 2);
    // The site's allocation is what the analysis counts: a 48-byte header and buffer_size's 4 doubles.
    expect(r['site']).toBe(48 + 4 * 8);
    // The 996 elements past the first block fill ceil(996 / perBlock) blocks. While the queue cycles, the head's
    // and the tail's blocks are partly empty, which may take one block more; nothing is allocated per element.
    const needed = Math.ceil(996 / perBlock);
    expect(r['allocs']! - 1).toBeGreaterThanOrEqual(needed);
    expect(r['allocs']! - 1).toBeLessThanOrEqual(needed + 1);
    expect(r['cycledEvents']).toBeLessThanOrEqual(1);
    expect(r['largest']).toBe(block);
    expect(r['added']).toBe((r['allocs']! - 1) * block);
    expect(r['added']).toBeLessThanOrEqual(1000 * 8 + 2 * block);
    expect([r['frees'], r['freed']]).toEqual([r['allocs'], r['site']! + r['added']!]);
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
