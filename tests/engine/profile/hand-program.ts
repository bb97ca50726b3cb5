/**
 * A hand-written program library following docs/runtime-abi.md (not generated): `y = 2·x + 1` through one
 * transient `tmp[N]`, in SCOPED (tlab_alloc per call) or EXTERNAL (a workspace slot) form, with optional
 * deliberate faults so the build, runner and verification paths can be tested without the code generator.
 */
import type { GeneratedProgram } from '../../../electron/engine/codegen/types.js';
import type { Mode } from '../../../electron/engine/analysis/types.js';

export type Fault =
  | 'none'
  | 'segfault'
  | 'hang'
  | 'uninitialised'
  | 'overflow'
  | 'wrong-result'
  | 'syntax-error'
  | 'slow'
  | 'segfault-late'
  | 'arg-overrun'
  | 'arg-underrun'
  | 'arg-overrun-late'
  | 'heap-smash';

export const SYNTAX_ERROR_LINE_TEXT = '  double broken = ;';

/** `slow`: every call sleeps 30 ms. `segfault-late`: the 4th call of the process crashes (with one warm-up call
 * and no verification, that is the second timed call). `arg-overrun`: every call writes y[N], one element past
 * the argument's end; `arg-underrun`: x[-2]; `arg-overrun-late`: the 4th call of the process writes y[N + 1].
 * `heap-smash`: every call overwrites the malloc header of a block of its own and frees it (glibc aborts). */
export function handProgram(opts: { mode?: Mode; fault?: Fault; n?: number; salt?: string } = {}): GeneratedProgram {
  const mode = opts.mode ?? 'SCOPED';
  const fault = opts.fault ?? 'none';
  const n = opts.n ?? 16;
  const external = mode === 'EXTERNAL';
  const lines: string[] = [];
  const origins = new Map<number, string>();
  const emit = (text: string, origin?: string) => {
    lines.push(text);
    if (origin) origins.set(lines.length, origin);
  };
  emit(`// hand-written test program (${mode}, fault ${fault}) ${opts.salt ?? ''}`);
  emit('#include "transient_runtime.h"');
  emit('#include <cstdint>');
  emit('#include <cstdlib>');
  emit('#include <cstring>');
  emit('#include <ctime>');
  emit('struct prog_state_t { double *tmp; };');
  emit('extern "C" {');
  emit('prog_state_t *__dace_init_prog(int N) { (void)N; return new prog_state_t(); }');
  emit('int __dace_exit_prog(prog_state_t *s) { delete s; return 0; }');
  emit('void __program_prog(prog_state_t *s, double *__restrict__ x, double *__restrict__ y, int N) {', '$.nodes[0]');
  emit(
    external ? '  double *tmp = s->tmp;' : '  double *tmp = static_cast<double *>(tlab_alloc(sizeof(double) * N, 64, 0));',
    '$.arrays.tmp',
  );
  if (fault === 'syntax-error') emit(SYNTAX_ERROR_LINE_TEXT, '$.nodes[0].nodes[3]');
  emit(`  for (int i = ${fault === 'uninitialised' ? 1 : 0}; i < N; ++i) tmp[i] = 2.0 * x[i];`, '$.nodes[0].nodes[1]');
  emit(`  for (int i = 0; i < N; ++i) y[i] = tmp[i] + ${fault === 'wrong-result' ? '1.5' : '1.0'};`, '$.nodes[0].nodes[2]');
  if (fault === 'overflow') emit('  tmp[N] = 42.0;');
  if (fault === 'segfault') emit('  *reinterpret_cast<volatile int *>(static_cast<uintptr_t>(8)) = 1;');
  if (fault === 'hang') emit('  for (volatile int spin = 0;; spin = spin + 1) {}');
  if (fault === 'slow') emit('  { struct timespec ts = {0, 30000000}; nanosleep(&ts, nullptr); }');
  if (fault === 'segfault-late')
    emit('  { static int calls = 0; if (++calls == 4) *reinterpret_cast<volatile int *>(static_cast<uintptr_t>(8)) = 1; }');
  if (fault === 'arg-overrun') emit('  y[N] = 42.0;');
  if (fault === 'arg-underrun') emit('  x[-2] = 42.0;');
  if (fault === 'arg-overrun-late') emit('  { static int calls = 0; if (++calls == 4) y[N + 1] = 42.0; }');
  // A size field below the smallest chunk: glibc's free() aborts with "free(): invalid size".
  if (fault === 'heap-smash')
    emit(
      '  { char *volatile p = static_cast<char *>(std::malloc(48)); *reinterpret_cast<volatile uint64_t *>(p - 8) = 0x11; std::free(p); }',
    );
  if (!external) emit('  tlab_free(tmp, sizeof(double) * N, 64, 0);');
  emit('}');
  emit('void *__tlab_init(const int64_t *syms, void *const *) { return __dace_init_prog(static_cast<int>(syms[0])); }');
  emit('void __tlab_program(void *h, void *const *argv) {');
  emit(
    '  __program_prog(static_cast<prog_state_t *>(h), static_cast<double *>(argv[0]), static_cast<double *>(argv[1]), *static_cast<const int *>(argv[2]));',
  );
  emit('}');
  emit('int __tlab_exit(void *h) { return __dace_exit_prog(static_cast<prog_state_t *>(h)); }');
  emit('static bool heap(const char *storage) { return std::strcmp(storage, "CPU_Heap") == 0; }');
  emit(
    `uint64_t __tlab_external_size(void *h, const char *storage, const int64_t *syms) { (void)h; return ${external ? 'heap(storage) ? 8u * static_cast<uint64_t>(syms[0]) : UINT64_MAX' : '(void)storage, (void)syms, UINT64_MAX'}; }`,
  );
  emit(
    `int __tlab_set_external(void *h, const char *storage, char *base, const int64_t *syms) { (void)syms; if (!${external ? 'heap(storage)' : 'false && storage'}) return -1; static_cast<prog_state_t *>(h)->tmp = reinterpret_cast<double *>(base); return 0; }`,
  );
  emit(
    `uint32_t __tlab_external_slot_count(const char *storage) { return ${external ? 'heap(storage) ? 1u : 0u' : '(void)storage, 0u'}; }`,
  );
  emit(`int __tlab_set_external_offsets(void *h, const char *storage, char *base, const uint64_t *offsets, uint32_t n) {`);
  emit(`  if (!${external ? 'heap(storage)' : 'false && storage'}) return -1;`);
  emit('  if (n != 1) return -2;');
  emit('  static_cast<prog_state_t *>(h)->tmp = reinterpret_cast<double *>(base + offsets[0]);');
  emit('  return 0;');
  emit('}');
  emit('}');
  const bytes = BigInt(8 * n);
  return {
    name: 'prog',
    mode,
    layout: 'packed',
    source: lines.join('\n') + '\n',
    args: [
      {
        name: 'x',
        kind: 'array',
        dtype: 'float64',
        ctype: 'double',
        elementBytes: 8,
        shape: [BigInt(n)],
        totalElements: BigInt(n),
        strides: [1n],
        written: false,
        read: true,
      },
      {
        name: 'y',
        kind: 'array',
        dtype: 'float64',
        ctype: 'double',
        elementBytes: 8,
        shape: [BigInt(n)],
        totalElements: BigInt(n),
        strides: [1n],
        written: true,
        read: false,
      },
      {
        name: 'N',
        kind: 'symbol',
        dtype: 'int32',
        ctype: 'int',
        elementBytes: 4,
        shape: [],
        totalElements: 1n,
        strides: [],
        written: false,
        read: true,
      },
    ],
    initSymbols: ['N'],
    symbols: { N: BigInt(n) },
    transientIds: ['0:tmp'],
    externals: external ? [{ storage: 'CPU_Heap', layout: 'packed', bytes, slots: [{ id: '0:tmp', bytes, offset: 0n }] }] : [],
    usesOpenMP: false,
    libraries: [],
    nondeterministicFloat: false,
    stackTransients: [],
    lineOrigins: origins,
    warnings: [],
  };
}
