/** `build` and `profile --prebuilt` end to end, through the built CLI (dist/, built by tests/global-setup.ts). */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, examplesDir } from '../../electron/engine/paths.js';
import { DEFAULT_CUDA_ARCH, findNvcc } from '../../electron/engine/compile/index.js';
import { BUILD_SCHEMA, parseManifest } from '../../electron/engine/profile/manifest.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { runCli, type CliRun } from './run-cli.js';

const hdiff = join(examplesDir(), 'hdiff.sdfg');

let dir: string;
let out: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-build-'));
  out = join(dir, 'hdiff-build');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliRun> {
  return runCli(args, { cache: join(dir, 'cache'), timeoutMs: 300_000 });
}

describe('build usage errors (exit 2)', () => {
  it.each([
    [['build', hdiff], /--out DIR is required/],
    [['build', '--out', 'x'], /expected exactly one SDFG file/],
    [['build', hdiff, '--out', 'x', '--modes', 'heap'], /unknown mode 'heap'/],
    [['profile', '--prebuilt', 'x', hdiff], /give no FILE/],
    [['profile', '--prebuilt', 'x', '--symbols', 'I=4'], /--symbols cannot be used with --prebuilt/],
  ])('%j', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('build refuses what it cannot build', () => {
  it('a GPU program outside the CUDA subset: exit 4 with the JSON path of what blocks it', async () => {
    // tmp is declared [1] and indexed with 2 dimensions (docs/gpu.md, coverage).
    const gpu = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__default_storage_2.sdfg');
    const r = await cli(['build', gpu, '--default-symbol', '8', '--out', join(dir, 'gpu-blocked')]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/: at \$\.nodes\[0\]\.edges\[1\]: /);
    expect(r.stderr).toMatch(/the subset has 2 dimension\(s\) but 'tmp' has 1/);
    expect(r.stderr).not.toMatch(/^\s+at .*\.js:\d+/m);
  });
});

// nvcc is what a GPU build needs (no device): a machine without it reports this test as skipped.
const haveNvcc = await findNvcc().then(
  () => true,
  () => false,
);

describe('build of a GPU program (nvcc, no device needed)', () => {
  it.skipIf(!haveNvcc)(
    'compiles every mode with nvcc into a folder that profile --prebuilt refuses here with the no-device message',
    async () => {
      const gpuOut = join(dir, 'chain-gpu');
      const chainGpu = join(examplesDir(), 'gpu', 'chain_gpu.sdfg');
      const r = await cli(['build', chainGpu, '--default-symbol', '64', '--out', gpuOut]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\(GPU\): 4 libraries in /);
      const m = parseManifest(await readFile(join(gpuOut, 'manifest.json'), 'utf8'), 'manifest.json');
      expect(m.target).toBe('gpu');
      expect(m.variants.map((v) => v.label)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (packed)']);
      for (const v of m.variants) {
        expect(v.target).toBe('gpu');
        expect(v.source).toMatch(/\.cu$/);
        expect(v.compiler.name).toBe('nvcc');
        expect(v.flags).toEqual(
          expect.arrayContaining([
            '-std=c++17',
            '-O3',
            '--use_fast_math',
            '--extended-lambda',
            '-cudart=shared',
            `-arch=${DEFAULT_CUDA_ARCH}`,
          ]),
        );
        const lib = await readFile(join(gpuOut, v.library));
        expect([...lib.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
        // The library carries device code for the architecture it was built for (an ELF section nvcc adds).
        expect(lib.includes(Buffer.from('.nv_fatbin'))).toBe(true);
        const source = await readFile(join(gpuOut, v.source), 'utf8');
        expect(source).toContain('#include "transient_cuda_runtime.h"');
      }
      const pool = await readFile(join(gpuOut, m.variants.find((v) => v.mode === 'POOL')!.source), 'utf8');
      expect(pool).toMatch(/tlab_cuda_malloc_async\(/);
      const external = m.variants.find((v) => v.mode === 'EXTERNAL')!;
      expect(Number(external.workspaceBytes.GPU_Global)).toBeGreaterThan(0);

      // Same SDFG, symbols and flags: the second build comes from the cache (the key holds nvcc and its flags).
      const again = await cli(['build', chainGpu, '--default-symbol', '64', '--out', join(dir, 'chain-gpu-2')]);
      expect(again.code).toBe(0);
      const m2 = parseManifest(await readFile(join(dir, 'chain-gpu-2', 'manifest.json'), 'utf8'), 'manifest.json');
      expect(m2.variants.map((v) => v.librarySha256)).toEqual(m.variants.map((v) => v.librarySha256));

      // Without a CUDA device, running the folder stops with the device probe's message, before anything loads;
      // with one it runs (tests/engine/profile/gpu-device.test.ts checks that run).
      const p = await cli(['profile', '--prebuilt', gpuOut, '--calls', '1']);
      if ((await probeDevices()).devices.length) {
        expect(p.code).toBe(0);
        return;
      }
      expect(p.code).toBe(4);
      expect(p.stderr).toMatch(/this is a GPU program and this machine has no CUDA device/);
      expect(p.stderr).not.toMatch(/^\s+at .*\.js:\d+/m);
    },
  );
});

describe('build, then profile --prebuilt', () => {
  it('writes one library and source per mode/layout and a valid manifest', async () => {
    const r = await cli(['build', hdiff, '--symbols', 'I=16,J=16,K=4', '--layout', 'both', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^hdiff \(CPU\): 5 libraries in /);
    const text = await readFile(join(out, 'manifest.json'), 'utf8');
    const m = parseManifest(text, 'manifest.json');
    expect(m.schema).toBe(BUILD_SCHEMA);
    expect(m.target).toBe('cpu');
    expect(m.symbols).toEqual({ I: 16, J: 16, K: 4 });
    expect(m.variants.map((v) => v.label)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (dace)', 'EXTERNAL (packed)']);
    for (const v of m.variants) {
      expect(existsSync(join(out, v.library))).toBe(true);
      expect(await readFile(join(out, v.source), 'utf8')).toMatch(/^\/\/ Generated by Transient Lab from hdiff\.sdfg/);
    }
    const packed = m.variants.find((v) => v.layout === 'packed')!;
    expect(Number(packed.workspaceBytes.CPU_Heap)).toBeGreaterThan(0);
    expect(m.variants.find((v) => v.mode === 'SCOPED')!.workspaceBytes).toEqual({});
    expect(existsSync(join(out, m.sdfg.file))).toBe(true);
  });

  it('profile --prebuilt runs the folder without a compiler and writes the same result JSON', async () => {
    const result = join(dir, 'prebuilt.json');
    // A compiler that cannot run proves nothing is compiled.
    const r = await runCli(
      ['profile', '--prebuilt', out, '--modes', 'scoped,external', '--calls', '2', '--warmup', '0', '--processes', '1', '--out', result],
      { cache: join(dir, 'empty-cache'), timeoutMs: 300_000, env: { CXX: '/nonexistent/c++' } },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(await readFile(result, 'utf8')) as ProfileResult;
    expect(doc.schema).toBe('transient-lab/profile@1');
    expect(doc.modes.map((m) => m.label)).toEqual(['SCOPED', 'EXTERNAL (dace)', 'EXTERNAL (packed)']);
    expect(doc.verification.ok).toBe(true);
    expect(doc.modes.every((m) => m.build.cached)).toBe(true);
  });

  it('a changed library is refused with the manifest path', async () => {
    const bad = join(dir, 'tampered');
    await cp(out, bad, { recursive: true });
    await writeFile(join(bad, 'POOL.so'), 'not a library');
    const r = await cli(['profile', '--prebuilt', bad, '--calls', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(join(bad, 'manifest.json'));
    expect(r.stderr).toMatch(/at \$\.variants\[2\]\.librarySha256: POOL: library POOL\.so changed after the build/);
  });

  it('a bad manifest field is refused with its JSON path; a folder without one says so', async () => {
    const bad = join(dir, 'bad-manifest');
    await cp(out, bad, { recursive: true });
    const m = JSON.parse(await readFile(join(bad, 'manifest.json'), 'utf8'));
    m.variants[1].layout = 'dace';
    await writeFile(join(bad, 'manifest.json'), JSON.stringify(m));
    let r = await cli(['profile', '--prebuilt', bad]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/at \$\.variants\[1\]\.layout: expected null for PERSISTENT, got 'dace'/);
    r = await cli(['profile', '--prebuilt', dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no manifest\.json here: not a folder written by `transient-lab build`/);
  });

  it('--modes asks for a mode the folder lacks: exit 2 naming what it holds', async () => {
    const part = join(dir, 'scoped-only');
    const b = await cli(['build', hdiff, '--symbols', 'I=16,J=16,K=4', '--modes', 'scoped', '--out', part]);
    expect(b.code).toBe(0);
    const r = await cli(['profile', '--prebuilt', part, '--modes', 'pool']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the folder has no POOL build \(it holds SCOPED\)/);
  });
});
