import { cp, mkdtemp, readFile, rm, truncate, unlink, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, DACE_CXXFLAGS, findCompiler, findNvcc, libsDir, parseCxxflags } from '../../../electron/engine/compile/index.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { handProgram, SYNTAX_ERROR_LINE_TEXT } from '../profile/hand-program.js';

// nvcc (GPU programs) is a feature of the machine: without it the nvcc test is reported as skipped.
const haveNvcc = await findNvcc().then(
  () => true,
  () => false,
);

let cache: string;
let runDir: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;

beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-test-'));
  runDir = await mkdtemp(join(tmpdir(), 'tlab-run-test-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
});

afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
  await rm(runDir, { recursive: true, force: true });
});

describe('compiler detection', () => {
  it('finds a compiler and reports its name and version', async () => {
    const c = await findCompiler();
    expect(['g++', 'clang++']).toContain(c.name);
    expect(c.version).toMatch(/^\d+\.\d+/);
    expect(c.versionLine.length).toBeGreaterThan(0);
  });
});

describe('build cache', () => {
  it('misses, then hits, and gives every build its own library path', async () => {
    const program = handProgram({ salt: `miss-hit-${Date.now()}` });
    const first = await buildProgram(program, { runDir });
    expect(first.cached).toBe(false);
    expect(first.libPath.startsWith(runDir)).toBe(true);
    expect(existsSync(join(libsDir(), first.key, 'program.so'))).toBe(true);
    const second = await buildProgram(program, { runDir });
    expect(second.cached).toBe(true);
    expect(second.key).toBe(first.key);
    expect(second.libPath).not.toBe(first.libPath);
    expect((await stat(second.libPath)).size).toBe((await stat(first.libPath)).size);
  });

  it('keys on the source: a different program is a different entry', async () => {
    const a = await buildProgram(handProgram({ salt: 'key-a' }), { runDir });
    const b = await buildProgram(handProgram({ salt: 'key-b' }), { runDir });
    expect(a.key).not.toBe(b.key);
  });

  it('rebuilds a truncated library instead of handing it out', async () => {
    const program = handProgram({ salt: 'truncated' });
    const first = await buildProgram(program, { runDir });
    const lib = join(libsDir(), first.key, 'program.so');
    const fullSize = (await stat(lib)).size;
    await truncate(lib, 100);
    const again = await buildProgram(program, { runDir });
    expect(again.cached).toBe(false);
    expect((await stat(lib)).size).toBe(fullSize);
    expect((await stat(again.libPath)).size).toBe(fullSize);
  });

  it('rebuilds an entry whose marker file is missing', async () => {
    const program = handProgram({ salt: 'no-marker' });
    const first = await buildProgram(program, { runDir });
    await unlink(join(libsDir(), first.key, 'entry.json'));
    const again = await buildProgram(program, { runDir });
    expect(again.cached).toBe(false);
    expect(existsSync(join(libsDir(), first.key, 'entry.json'))).toBe(true);
    expect((await buildProgram(program, { runDir })).cached).toBe(true);
  });

  it('rebuilds an entry whose library bytes no longer match the recorded hash', async () => {
    const program = handProgram({ salt: 'flipped' });
    const first = await buildProgram(program, { runDir });
    const lib = join(libsDir(), first.key, 'program.so');
    const bytes = await readFile(lib);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(lib, bytes);
    expect((await buildProgram(program, { runDir })).cached).toBe(false);
  });
});

describe('compiler errors', () => {
  it('show the compiler message, the generated line and the SDFG element it came from', async () => {
    const program = handProgram({ fault: 'syntax-error', salt: `err-${Date.now()}` });
    const err = await buildProgram(program, { runDir, sdfgFile: 'demo.sdfg' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    const e = err as TlabError;
    expect(e.kind).toBe('build');
    expect(e.file).toBe('demo.sdfg');
    expect(e.jsonPath).toBe('$.nodes[0].nodes[3]');
    const text = e.describe();
    expect(text).toMatch(/program\.cpp:\d+:\d+: error: /);
    expect(text).toContain(SYNTAX_ERROR_LINE_TEXT.trim());
    expect(text).toContain('generated from SDFG element $.nodes[0].nodes[3]');
    const kept = /generated source kept at (\S+)/.exec(text)?.[1];
    expect(kept).toBeDefined();
    expect(await readFile(kept!, 'utf8')).toBe(program.source);
  });

  it.skipIf(!haveNvcc)('of nvcc, for a GPU program, name program.cu, the generated line and the SDFG element', async () => {
    const cpu = handProgram({ fault: 'syntax-error', salt: `nvcc-err-${Date.now()}` });
    const program = { ...cpu, gpu: { language: 'cuda' as const, pooled: false, poolReleaseThreshold: 0n, kernels: 0 } };
    const err = await buildProgram(program, { runDir, sdfgFile: 'demo.sdfg' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    const e = err as TlabError;
    expect(e.kind).toBe('build');
    expect(e.message).toMatch(/^nvcc [\d.]+ failed to compile the generated SCOPED program/);
    expect(e.jsonPath).toBe('$.nodes[0].nodes[3]');
    const text = e.describe();
    expect(text).toMatch(/program\.cu:\d+: error: /);
    expect(text).toContain(SYNTAX_ERROR_LINE_TEXT.trim());
    const kept = /generated source kept at (\S+)/.exec(text)?.[1];
    expect(kept).toMatch(/program\.cu$/);
    expect(await readFile(kept!, 'utf8')).toBe(program.source);
  });

  it('fails clearly when the runtime header is missing', async () => {
    const err = await buildProgram(handProgram(), { runDir, includeDir: join(runDir, 'no-such-include') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).kind).toBe('build');
    expect((err as TlabError).message).toContain('transient_runtime.h');
  });

  it('reads every header the host CUDA runtime includes for a --gpu host build (each is part of the cache key)', async () => {
    // The headers transient_cuda_host_runtime.h includes, followed through their own includes.
    const include = join(packageRoot(), 'native', 'include');
    const headers: string[] = [];
    const visit = async (name: string): Promise<void> => {
      if (headers.includes(name)) return;
      headers.push(name);
      for (const m of (await readFile(join(include, name), 'utf8')).matchAll(/^#include "([^"]+)"/gm)) await visit(m[1]!);
    };
    await visit('transient_cuda_host_runtime.h');
    expect(headers.length).toBeGreaterThan(2);
    const program = { ...handProgram(), gpu: { language: 'cuda' as const, pooled: false, poolReleaseThreshold: 0n, kernels: 0 } };
    for (const name of headers) {
      // A copy of the runtime headers without `name`: the build must miss it before it compiles anything.
      const dir = await mkdtemp(join(runDir, 'include-'));
      await cp(include, dir, { recursive: true });
      await unlink(join(dir, name));
      const err = await buildProgram(program, { runDir, includeDir: dir, gpuBackend: 'host' }).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(TlabError);
      expect((err as TlabError).message, name).toBe(
        `the runtime header ${join(dir, name)} is missing: the native part of Transient Lab is not installed (run npm run build)`,
      );
    }
  });

  it('fails clearly when the cache folder cannot be created', async () => {
    const blocker = join(cache, 'a-file');
    await writeFile(blocker, 'x');
    const saved = process.env.TRANSIENT_LAB_CACHE;
    process.env.TRANSIENT_LAB_CACHE = join(blocker, 'cache');
    try {
      const err = await buildProgram(handProgram(), { runDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TlabError);
      expect((err as TlabError).kind).toBe('build');
      expect((err as TlabError).message).toMatch(/cannot create the build cache folder .*a-file\/cache/);
      expect((err as TlabError).details.join('\n')).toContain('TRANSIENT_LAB_CACHE');
    } finally {
      process.env.TRANSIENT_LAB_CACHE = saved;
    }
  });
});

describe('compiler flags', () => {
  it("builds with C++20 and DaCe's default CPU flags unless told otherwise", async () => {
    const r = await buildProgram(handProgram({ salt: 'flags-default' }), { runDir });
    expect(r.cxxflags).toEqual([...DACE_CXXFLAGS]);
    expect(r.cxxflags).toEqual(['-O3', '-march=native', '-fno-math-errno', '-fno-trapping-math', '-fno-signed-zeros', '-freciprocal-math']);
    expect(r.flags[0]).toBe('-std=c++20');
    expect(r.flags).toEqual(expect.arrayContaining([...DACE_CXXFLAGS, '-shared', '-fPIC']));
  });

  it('takes the caller’s flags instead, and keys the cache on them', async () => {
    const program = handProgram({ salt: 'flags-override' });
    const dace = await buildProgram(program, { runDir });
    const o2 = await buildProgram(program, { runDir, cxxflags: ['-O2'] });
    expect(o2.cxxflags).toEqual(['-O2']);
    expect(o2.flags).not.toContain('-O3');
    expect(o2.key).not.toBe(dace.key);
    expect(o2.cached).toBe(false);
    expect((await buildProgram(program, { runDir, cxxflags: ['-O2'] })).cached).toBe(true);
  });

  it('refuses flags that are not options or that the build owns', async () => {
    expect(parseCxxflags('  -O2   -march=znver3 ')).toEqual(['-O2', '-march=znver3']);
    for (const bad of ['O2', '-o x.so', '-c', '-shared', 'program.cpp']) {
      expect(() => parseCxxflags(bad), bad).toThrow(TlabError);
    }
    await expect(buildProgram(handProgram({ salt: 'flags-bad' }), { runDir, cxxflags: ['-o', '/tmp/x'] })).rejects.toThrow(
      /--cxxflags: -o is set by the build itself/,
    );
  });
});
