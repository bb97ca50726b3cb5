/**
 * A stand-alone C++ driver for generated libraries (no Node addon): dlopen, `__tlab_init` (with the inputs), workspace set-up
 * through `__tlab_external_size`/`__tlab_set_external`, two calls of `__tlab_program` with fresh inputs from
 * the generator in reference.ts, outputs of the second call written as raw bytes, `__tlab_exit`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis } from '../../../electron/engine/analysis/index.js';
import { generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import type { Layout } from '../../../electron/engine/codegen/types.js';
import { inputArray } from './reference.js';
import { compileLibrary, inParallel, run } from './compile.js';

/** Every mode and layout a generated program can be built in. */
export const ALL_VARIANTS: ReadonlyArray<{ mode: 'SCOPED' | 'PERSISTENT' | 'POOL' | 'EXTERNAL'; layout: Layout }> = [
  { mode: 'SCOPED', layout: 'dace' },
  { mode: 'PERSISTENT', layout: 'dace' },
  { mode: 'POOL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'packed' },
];

/** Flags for a library and a driver under AddressSanitizer. */
export const ASAN_FLAGS: readonly string[] = ['-fsanitize=address', '-fno-omit-frame-pointer'];

/** One generated variant and its sanitized library (`ok` false with the compiler's output when it failed). */
export interface SanitizedVariant {
  p: GeneratedProgram;
  library: string;
  ok: boolean;
  output: string;
}

/**
 * Every mode and layout of `analysis` generated and compiled at -O1 with AddressSanitizer (for a driver built
 * with `compileDriver(dir, true)`), two at a time; libraries are named `<prefix>_<mode>_<layout>`. `libs`
 * gives a variant's linker flags (blas expansions link OpenBLAS).
 */
export async function compileAllVariants(
  file: SdfgFile,
  analysis: Analysis,
  dir: string,
  prefix: string,
  libs: (p: GeneratedProgram) => string[] = () => [],
): Promise<SanitizedVariant[]> {
  const jobs = ALL_VARIANTS.map((v) => generateProgram(file, analysis, v));
  return inParallel(jobs, 2, async (p) => ({
    p,
    ...(await compileLibrary(p.source, dir, `${prefix}_${p.mode}_${p.layout}`, '-O1', [...ASAN_FLAGS], libs(p))),
  }));
}

/** The driver's deterministic input for argument `name` of `p` (see reference.ts inputArray). */
export function inputFor(p: GeneratedProgram, name: string): Float64Array {
  const i = p.args.findIndex((a) => a.name === name);
  if (i < 0) throw new Error(`no argument ${name}`);
  return inputArray(i, Number(p.args[i]!.totalElements));
}

const DRIVER_SOURCE = String.raw`
#include <dlfcn.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

typedef void *(*init_fn)(const int64_t *, void *const *);
typedef void (*program_fn)(void *, void *const *);
typedef int (*exit_fn)(void *);
typedef uint64_t (*size_fn)(void *, const char *, const int64_t *);
typedef int (*set_fn)(void *, const char *, char *, const int64_t *);
typedef void (*poison_fn)(int, int);

static double input_value(long arg, long long i) { return (double)((i * 37 + arg * 101) % 97) / 97.0 + 0.5; }

// usage: driver LIB OUT "sym1 sym2 ..." "S1 S2 ..." then per argument: a <elements> | s <value> | y <value>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 2; }
  init_fn init = (init_fn)dlsym(lib, "__tlab_init");
  program_fn program = (program_fn)dlsym(lib, "__tlab_program");
  exit_fn fini = (exit_fn)dlsym(lib, "__tlab_exit");
  size_fn ext_size = (size_fn)dlsym(lib, "__tlab_external_size");
  set_fn ext_set = (set_fn)dlsym(lib, "__tlab_set_external");
  poison_fn poison = (poison_fn)dlsym(lib, "__tlab_set_poison");
  if (!init || !program || !fini || !ext_size || !ext_set || !poison) { fprintf(stderr, "missing export\n"); return 3; }
  poison(1, 0x7f);  // any read of memory the program did not write shows up as a huge value
  std::vector<int64_t> syms;
  for (char *p = strtok(argv[3], " "); p; p = strtok(nullptr, " ")) syms.push_back(atoll(p));
  std::vector<std::vector<double>> arrays;
  std::vector<int> ints;
  std::vector<double> doubles;
  ints.reserve(64); doubles.reserve(64); arrays.reserve(64);
  std::vector<void *> args;
  std::vector<long> array_arg;
  for (int i = 5; i + 1 < argc; i += 2) {
    if (argv[i][0] == 'a') { arrays.emplace_back(atoll(argv[i + 1])); args.push_back(arrays.back().data()); array_arg.push_back((long)args.size() - 1); }
    else if (argv[i][0] == 's') { doubles.push_back(atof(argv[i + 1])); args.push_back(&doubles.back()); }
    else { ints.push_back(atoi(argv[i + 1])); args.push_back(&ints.back()); }
  }
  auto fill = [&] {
    for (size_t a = 0; a < arrays.size(); ++a)
      for (size_t e = 0; e < arrays[a].size(); ++e) arrays[a][e] = input_value(array_arg[a], (long long)e);
  };
  fill();
  args.push_back(nullptr);  // never empty
  // Init gets the arguments too (a program whose init code reads them takes them: docs/runtime-abi.md).
  void *h = init(syms.data(), args.data());
  if (!h) { fprintf(stderr, "init failed\n"); return 4; }
  std::vector<std::string> storages;
  for (char *p = strtok(argv[4], " "); p; p = strtok(nullptr, " ")) storages.push_back(p);
  std::vector<char *> workspaces;
  for (auto &s : storages) {
    uint64_t bytes = ext_size(h, s.c_str(), syms.data());
    printf("size %s %llu\n", s.c_str(), (unsigned long long)bytes);
    char *ws = (char *)aligned_alloc(256, ((bytes + 255) / 256) * 256 + 256);
    workspaces.push_back(ws);
    memset(ws, 0x7f, ((bytes + 255) / 256) * 256);
    if (ext_set(h, s.c_str(), ws, syms.data()) != 0) { fprintf(stderr, "set failed\n"); return 5; }
  }
  for (int call = 0; call < 2; ++call) {
    fill();
    program(h, args.data());
  }
  FILE *out = fopen(argv[2], "wb");
  for (auto &a : arrays) fwrite(a.data(), sizeof(double), a.size(), out);
  fclose(out);
  int rc = fini(h) == 0 ? 0 : 6;
  for (char *ws : workspaces) free(ws);
  return rc;
}
`;

export interface DriverRun {
  /** Every array argument after the second call, in argument order. */
  arrays: Map<string, Float64Array>;
  externalSizes: Map<string, bigint>;
}

/** Runs a compiled program library (double arrays, int symbols, double scalars: what the examples use). */
export async function runProgram(
  driver: string,
  library: string,
  p: GeneratedProgram,
  scalars: Record<string, number>,
  outFile: string,
): Promise<DriverRun> {
  const argv = [library, outFile, p.initSymbols.map((s) => String(p.symbols[s])).join(' '), p.externals.map((e) => e.storage).join(' ')];
  for (const a of p.args) {
    if (a.kind === 'array') {
      if (a.ctype !== 'double') throw new Error(`the test driver handles double arrays only, not ${a.ctype}`);
      argv.push('a', String(a.totalElements));
    } else if (a.kind === 'scalar') argv.push('s', String(scalars[a.name]));
    else argv.push('y', String(p.symbols[a.name]));
  }
  const r = await run(driver, argv, 120_000);
  if (r.code !== 0) throw new Error(`driver failed (${r.code}): ${r.output}`);
  const bytes = readFileSync(outFile);
  const all = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  const arrays = new Map<string, Float64Array>();
  let at = 0;
  for (const a of p.args) {
    if (a.kind !== 'array') continue;
    const n = Number(a.totalElements);
    arrays.set(a.name, all.slice(at, at + n));
    at += n;
  }
  const externalSizes = new Map<string, bigint>();
  for (const m of r.output.matchAll(/^size (\S+) (\d+)$/gm)) externalSizes.set(m[1]!, BigInt(m[2]!));
  return { arrays, externalSizes };
}

/** `sanitize`: build with AddressSanitizer, so that libraries built with `ASAN_FLAGS` report every heap
 * overrun, use after free and leak (the driver exits non-zero with the report). */
export async function compileDriver(dir: string, sanitize = false): Promise<string> {
  const { writeFileSync } = await import('node:fs');
  const src = join(dir, 'driver.cpp');
  const exe = join(dir, sanitize ? 'driver-asan' : 'driver');
  writeFileSync(src, DRIVER_SOURCE);
  const r = await run('g++', ['-std=c++20', '-O1', ...(sanitize ? ASAN_FLAGS : []), '-o', exe, src, '-ldl']);
  if (r.code !== 0) throw new Error(`driver does not compile: ${r.output}`);
  return exe;
}
