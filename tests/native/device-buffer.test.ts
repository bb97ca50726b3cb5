/**
 * The addon's GPU surface (native/src/device_buffer.cc, program_library_gpu_napi.cc and the GPU parts of library_loader.cc) on the
 * host-memory test double of chain_gpu (tests/fixtures/gpu/host_memory_device_chain.cc): a GPU library is
 * recognised and checked at load, device buffers copy and refuse misuse, workspaces must be the right kind of
 * memory, calls go through the timed hook and a CUDA error names the call.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceBuffer, ProgramLibrary } from '../../native/index.js';
import { loadNativeAddon, type NativeAddon } from '../../electron/runner/native.js';
import { packageRoot } from '../../electron/engine/paths.js';
import { chainGpuProgram, compileChainDouble } from '../engine/profile/host-device-double.js';
import { fixtureBuilds, fixtureSource } from './fixtureBuild.js';

const N = 32;
let addon: NativeAddon;
let dir: string;
const libs: Record<string, string> = {};
let cpuLib: string;
let cpuBuilds: ReturnType<typeof fixtureBuilds>;

beforeAll(async () => {
  addon = loadNativeAddon();
  dir = mkdtempSync(join(tmpdir(), 'tlab-native-gpu-'));
  for (const [name, mode, fault] of [
    ['scoped', 'SCOPED', 'none'],
    ['external', 'EXTERNAL', 'none'],
    ['failing', 'SCOPED', 'cuda-error'],
  ] as const) {
    libs[name] = join(dir, `${name}.so`);
    compileChainDouble(await chainGpuProgram(mode, { n: N }), libs[name], fault);
  }
  cpuBuilds = fixtureBuilds();
  cpuLib = cpuBuilds.compile('t', fixtureSource);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  cpuBuilds?.dispose();
});

const symbols = BigInt64Array.of(BigInt(N));
function argsOn(
  lib: ProgramLibrary,
  x: Float64Array,
): { inp: DeviceBuffer; out: DeviceBuffer; argv: [DeviceBuffer, DeviceBuffer, Int32Array] } {
  const inp = lib.deviceAlloc(N * 8);
  const out = lib.deviceAlloc(N * 8);
  inp.upload(x);
  return { inp, out, argv: [inp, out, Int32Array.of(N)] };
}

describe('native addon: GPU program libraries', () => {
  it('knows a GPU library by its timing hook and reads its constants; CPU libraries have gpu null', () => {
    const lib = addon.load(libs.scoped!);
    expect(lib.gpu).toEqual({ pooled: false, releaseThreshold: 2n ** 64n - 1n, kernels: 5, cudaRuntimeVersion: 1 });
    expect(lib.programName).toBe('chain_gpu');
    expect(addon.load(cpuLib).gpu).toBeNull();
    expect(() => addon.load(cpuLib).deviceAlloc(8)).toThrow(/deviceAlloc\(\) needs a GPU program library/);
  });

  it('refuses a library that has the timing hook but not the rest of the GPU runner ABI', () => {
    const src = join(dir, 'partial.cc');
    writeFileSync(
      src,
      `#include "transient_runtime.h"
extern "C" {
void *__tlab_init(const int64_t *, void *const *) { return nullptr; }
void __tlab_program(void *, void *const *) {}
int __tlab_exit(void *) { return 0; }
uint64_t __tlab_external_size(void *, const char *, const int64_t *) { return UINT64_MAX; }
int __tlab_set_external(void *, const char *, char *, const int64_t *) { return -1; }
uint32_t __tlab_external_slot_count(const char *) { return 0; }
int __tlab_set_external_offsets(void *, const char *, char *, const uint64_t *, uint32_t) { return -1; }
int __tlab_gpu_timed_program(void *, void *const *, uint64_t *, float *) { return 0; }
}
`,
    );
    const so = join(dir, 'libpartial.so');
    execFileSync('g++', ['-std=c++17', '-shared', '-fPIC', '-I', join(packageRoot(), 'native', 'include'), src, '-o', so]);
    expect(() => addon.load(so)).toThrow(
      /exports __tlab_gpu_timed_program but not __tlab_gpu_last_error, __tlab_gpu_error_string, .*__tlab_cuda_runtime_version/,
    );
  });

  it('runs through the timed hook on device buffers and returns device times per call', () => {
    const lib = addon.load(libs.scoped!);
    lib.init(symbols);
    const x = Float64Array.from({ length: N }, (_, i) => i / 4);
    const { out, argv } = argsOn(lib, x);
    const stats = lib.run(argv, 3);
    expect(stats.deviceNs).toHaveLength(3);
    expect(stats.hostReturnNs).toHaveLength(3);
    expect(stats.hostSyncNs).toHaveLength(3);
    expect(Array.from(stats.allocs)).toEqual([4, 4, 4]);
    const events = lib.lastEvents();
    expect(events).toHaveLength(8);
    expect(events.every((e) => e.device === true)).toBe(true);
    const y = new Float64Array(N);
    out.download(y);
    expect(y[7]).toBe(3 * Math.max(Math.sqrt(Math.abs((2 * x[7]! + 1) / 2 - 3)) + 1, 2) + x[7]!);
    expect(lib.poolAttributes(false)).toEqual({ reservedCurrentBytes: 0, reservedHighBytes: 0, usedCurrentBytes: 0, usedHighBytes: 0 });
    expect(lib.gpuLastError()).toBeNull();
    lib.exit();
  });

  it('the double is honest: host memory where the program needs device pointers is an illegal address', () => {
    const lib = addon.load(libs.scoped!);
    lib.init(symbols);
    expect(() => lib.run([new Float64Array(N), new Float64Array(N), Int32Array.of(N)], 1)).toThrow(
      /^CUDA error in call 1 of 1 of __program_chain_gpu: cudaError 700: an illegal memory access was encountered/,
    );
    lib.exit();
  });

  it('device buffers check their bounds, their arguments and use after free', () => {
    const lib = addon.load(libs.scoped!);
    const b = lib.deviceAlloc(16);
    expect(b.byteLength).toBe(16);
    b.upload(new Uint8Array([1, 2, 3, 4]), 12);
    const back = new Uint8Array(4);
    b.download(back, 12);
    expect(Array.from(back)).toEqual([1, 2, 3, 4]);
    b.fill(7);
    b.download(back);
    expect(Array.from(back)).toEqual([7, 7, 7, 7]);
    expect(() => b.upload(new Uint8Array(8), 12)).toThrow(
      /^usage: upload\(source: ArrayBufferView, offset\?: number\): void — 8 bytes at offset 12 do not fit the 16-byte device buffer/,
    );
    expect(() => b.download(new Uint8Array(17))).toThrow(/do not fit the 16-byte device buffer/);
    expect(() => (b as unknown as { fill(x: unknown): void }).fill(256)).toThrow(
      /^usage: fill\(byte: number\): void — byte must be an integer between 0 and 255/,
    );
    expect(() => (lib as unknown as { deviceAlloc(x: unknown): void }).deviceAlloc(-1)).toThrow(
      /^usage: deviceAlloc\(bytes: number\): DeviceBuffer — bytes must be an integer/,
    );
    b.free();
    expect(() => b.free()).toThrow(/DeviceBuffer.free\(\) called twice/);
    expect(() => b.upload(new Uint8Array(1))).toThrow(/DeviceBuffer.upload\(\) called after free\(\)/);
    lib.init(symbols);
    expect(() => lib.run([b, b, Int32Array.of(N)], 1)).toThrow(/args\[0\]: the DeviceBuffer was freed/);
    lib.exit();
  });

  it('slices share their allocation: program arguments, bounds, and freed with it (never alone)', () => {
    const lib = addon.load(libs.scoped!);
    lib.init(symbols);
    // One arena: [guard 64][inp N·8][guard 64][out N·8][guard 64], as the runner lays out device arguments.
    const arena = lib.deviceAlloc(3 * 64 + 2 * N * 8);
    arena.fill(0x5a);
    const inp = arena.slice(64, N * 8);
    const out = arena.slice(128 + N * 8, N * 8);
    expect([inp.byteLength, out.byteLength]).toEqual([N * 8, N * 8]);
    const x = Float64Array.from({ length: N }, (_, i) => i);
    inp.upload(x);
    lib.run([inp, out, Int32Array.of(N)], 1);
    const y = new Float64Array(N);
    out.download(y);
    expect(y[3]).toBe(3 * Math.max(Math.sqrt(Math.abs((2 * 3 + 1) / 2 - 3)) + 1, 2) + 3);
    // The guards around the slices are untouched; the slice's bytes are where the arena says.
    const whole = new Uint8Array(arena.byteLength);
    arena.download(whole);
    expect(whole.subarray(0, 64).every((b) => b === 0x5a) && whole.subarray(64 + N * 8, 128 + N * 8).every((b) => b === 0x5a)).toBe(true);
    expect(new Float64Array(whole.slice(64, 64 + N * 8).buffer)[5]).toBe(5);
    expect(() => arena.slice(arena.byteLength - 8, 16)).toThrow(
      /^usage: slice\(offset: number, bytes: number\): DeviceBuffer — 16 bytes at offset \d+ do not fit/,
    );
    expect(() => inp.free()).toThrow(/free\(\) called on a slice; free the buffer it was sliced from/);
    arena.free();
    expect(() => inp.upload(x)).toThrow(/DeviceBuffer.upload\(\) called after free\(\)/);
    expect(() => lib.run([inp, out, Int32Array.of(N)], 1)).toThrow(/args\[0\]: the DeviceBuffer was freed/);
    lib.exit();
  });

  it('a GPU workspace must be device memory, a host workspace host memory', () => {
    const lib = addon.load(libs.external!);
    lib.init(symbols);
    const bytes = Number(lib.externalSize('GPU_Global', symbols));
    expect(bytes).toBe(2 * N * 8);
    expect(() => lib.setExternal('GPU_Global', new Uint8Array(bytes), symbols)).toThrow(
      /storage 'GPU_Global' is device memory; pass a DeviceBuffer/,
    );
    expect(() => lib.setExternal('CPU_Heap', lib.deviceAlloc(8), symbols)).toThrow(
      /storage 'CPU_Heap' is host memory; pass an ArrayBufferView, not a DeviceBuffer/,
    );
    expect(() => lib.setExternal('GPU_Global', lib.deviceAlloc(bytes - 8), symbols)).toThrow(
      /workspace for storage 'GPU_Global' is too small/,
    );
    const ws = lib.deviceAlloc(bytes);
    lib.setExternal('GPU_Global', ws, symbols);
    const { argv } = argsOn(lib, new Float64Array(N));
    expect(Array.from(lib.run(argv, 2).allocs)).toEqual([0, 0]);
    lib.exit();
  });

  it('a CUDA error from a call names the call and the error text, in run() and in timeCalls()', () => {
    const lib = addon.load(libs.failing!);
    lib.init(symbols);
    const { argv } = argsOn(lib, new Float64Array(N));
    // The double fails its third call of the process.
    expect(() => lib.run(argv, 5)).toThrow(
      /^CUDA error in call 3 of 5 of __program_chain_gpu: cudaError 700: an illegal memory access was encountered \(library /,
    );
    lib.exit();
    // A fresh copy (dlopen caches by path, and the call counter is the library's): the first call, then timed
    // call 2 of 5 is the third call.
    const copy = join(dir, 'failing-copy.so');
    copyFileSync(libs.failing!, copy);
    const fresh = addon.load(copy);
    fresh.init(symbols);
    const second = argsOn(fresh, new Float64Array(N));
    expect(() => fresh.timeCalls(second.argv, 0, 0, 5, null)).toThrow(
      /^CUDA error in timed call 2 of 5 of __program_chain_gpu: cudaError 700: an illegal memory access was encountered/,
    );
    fresh.exit();
  });
});
