/**
 * `profile FOLDER [MORE…]` on DaCe build folders, end to end through the built CLI (docs/dace-folders.md). The
 * folders are laid out as DaCe does by tests/fixtures/dace-folders.ts from our own generator (CI has no DaCe);
 * the libraries are called through libffi with the signatures of each folder's own header.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../electron/engine/paths.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { makeDaceFolder } from '../fixtures/dace-folders.js';
import { connect, serve } from '../server/serve-process.js';
import { runCli } from './run-cli.js';

const hdiff = join(examplesDir(), 'hdiff.sdfg');
const symbols = new Map([
  ['I', 16n],
  ['J', 16n],
  ['K', 8n],
]);
const SYMBOLS = ['--symbols', 'I=16,J=16,K=8'];
const QUICK = ['--calls', '5', '--warmup', '1', '--processes', '1'];

let dir: string;
let scoped: string;
let persistent: string;
let external: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-dace-'));
  // Names that say nothing about the mode: it is read from each build.
  scoped = await makeDaceFolder(hdiff, join(dir, 'a', '.dacecache', 'hdiff'), { mode: 'SCOPED', symbols });
  persistent = await makeDaceFolder(hdiff, join(dir, 'b', '.dacecache', 'hdiff'), { mode: 'PERSISTENT', symbols, gzip: true });
  external = await makeDaceFolder(hdiff, join(dir, 'c', '.dacecache', 'hdiff'), { mode: 'EXTERNAL', symbols });
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cache: join(dir, 'cache'), timeoutMs: 300_000 });

describe('profile on DaCe build folders', () => {
  it('one folder prints the table of an SDFG profile, with its mode read from the build and allocations interposed', async () => {
    const out = join(dir, 'one.json');
    const r = await cli(['profile', '--prebuilt', external, ...SYMBOLS, ...QUICK, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^mode\s+median\/call\s+p10\s+p90\s+allocs\/call\s+alloc\+free\s+faults\/call\s+workspace\s+vs SCOPED( \(p10\))?$/m,
    );
    // EXTERNAL: every transient lives in the workspace, so the hooks see no allocation in a program call.
    expect(r.stdout).toMatch(/^EXTERNAL \(dace\)\s+\S+ \S+\s+\S+ \S+\s+\S+ \S+\s+0\s+0\.0%\s+/m);
    expect(r.stdout).toContain(`EXTERNAL (dace) ← ${external} (`);
    expect(r.stdout).toMatch(
      /exports __dace_get_external_memory_size_CPU_Heap; SDFG sha256 [0-9a-f]{12}\); built by DaCe 2\.0\.0a6, \d{4}-\d\d-\d\d, Release, g\+\+, flags -std=c\+\+17 -fPIC -O3 -march=native/,
    );
    expect(r.stdout).not.toMatch(/n\/m/);
    expect(r.stdout).toMatch(/^note: Allocation counts, bytes and times of the DaCe-built libraries were measured by interposition/m);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    expect(result.modes[0]!.allocationsMeasured).toBeUndefined();
    expect(result.modes[0]!.interposition).toMatchObject({ interceptedCalls: 0, expectedAllocationsPerCall: 0, skipped: [] });
    expect(result.warnings.filter((w) => /interpos/.test(w))).toEqual([]);
    expect(result.modes[0]!.workspaceBytes['CPU_Heap']).toBeGreaterThan(0);
    expect(result.modes[0]!.daceFolder?.path).toBe(external);
  });

  it('three folders of one program compare their modes in one run, verified against each other', async () => {
    const out = join(dir, 'three.json');
    const html = join(dir, 'three.html');
    const r = await cli(['profile', external, scoped, persistent, ...SYMBOLS, ...QUICK, '--out', out, '--report', html]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Canonical order (SCOPED first, the reference), whatever the order on the command line.
    const rows = r.stdout.split('\n').filter((l) => /^(SCOPED|PERSISTENT|EXTERNAL \(dace\))\s+\d/.test(l));
    expect(rows.map((l) => l.split(/\s{2,}/)[0])).toEqual(['SCOPED', 'PERSISTENT', 'EXTERNAL (dace)']);
    // Measured allocation columns, interposed: SCOPED's three transients (lap, flx, fly) every call, none elsewhere.
    expect(rows.map((l) => l.split(/\s{2,}/).slice(4, 6))).toEqual([
      ['3', expect.stringMatching(/^\d+\.\d%$/)],
      ['0', '0.0%'],
      ['0', '0.0%'],
    ]);
    expect(r.stdout).not.toMatch(/n\/m/);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    const [s, p, e] = result.modes;
    expect(s!.summary.allocShare).toBeGreaterThan(0);
    // lap (18×18×8), flx (17×16×8) and fly (16×17×8) doubles at I=16, J=16, K=8: what our runtime header records.
    expect(new Set(s!.calls.allocBytes)).toEqual(new Set([(18 * 18 + 17 * 16 + 16 * 17) * 8 * 8]));
    expect(s!.summary.allocBytesPerCall).toBe(55_552);
    expect(s!.sampledCall?.events.map((ev) => ev.kind)).toEqual(['alloc', 'alloc', 'alloc', 'free', 'free', 'free']);
    expect([p!.summary.allocBytesPerCall, e!.summary.allocBytesPerCall]).toEqual([0, 0]);
    expect(result.modes.map((m) => m.interposition?.expectedAllocationsPerCall)).toEqual([3, 0, 0]);
    expect(result.modes.every((m) => m.allocationsMeasured === undefined)).toBe(true);
    expect(r.stdout).toContain(`SCOPED ← ${scoped} (no Persistent, External or pooled transient`);
    expect(r.stdout).toContain(`PERSISTENT ← ${persistent} (`);
    expect(r.stdout).toMatch(/verification: all modes produced bitwise identical outputs/);
    // Each folder's program.sdfg differs only in what its mode changes: one program, no warning.
    expect(r.stdout).not.toMatch(/different SDFGs/);
    // The report's header names each mode's folder and how it was built.
    const report = await readFile(html, 'utf8');
    for (const [label, folder] of [
      ['SCOPED', scoped],
      ['PERSISTENT', persistent],
      ['EXTERNAL (dace)', external],
    ] as const)
      expect(report).toMatch(
        new RegExp(
          `DaCe build: ${label.replace(/[()]/g, '\\$&')}<[^]*?built by DaCe 2\\.0\\.0a6, \\d{4}-\\d\\d-\\d\\d, Release, g\\+\\+, flags -std=c\\+\\+17 -fPIC -O3 -march=native \\(${folder.replace(/[.]/g, '\\.')}\\)`,
        ),
      );
  });
});

describe('allocations of a DaCe library that bypasses interposition', () => {
  it('are unknown, not 0: n/m naming why, and the warning that the SDFG says 3 per call', async () => {
    // The allocator reached through dlsym, never through the library's GOT: as a statically linked one would be.
    const bypass = await makeDaceFolder(hdiff, join(dir, 'bypass', 'hdiff'), {
      mode: 'SCOPED',
      symbols,
      library: `#include <dlfcn.h>
#include <cstddef>
typedef void *(*alloc_fn)(size_t);
typedef void (*free_fn)(void *);
extern "C" void *__dace_init_hdiff(int, int, int) { static int s; return &s; }
extern "C" int __dace_exit_hdiff(void *) { return 0; }
extern "C" void __program_hdiff(void *, double *, double *, double *, int, int, int) {
  static alloc_fn m = (alloc_fn)dlsym(RTLD_DEFAULT, "malloc");
  static free_fn f = (free_fn)dlsym(RTLD_DEFAULT, "free");
  for (int t = 0; t < 3; ++t) { volatile char *p = (char *)m(4096); p[0] = 1; f((void *)p); }
}`,
    });
    const out = join(dir, 'bypass.json');
    const r = await cli(['profile', bypass, ...SYMBOLS, ...QUICK, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^SCOPED\s+\S+ \S+\s+\S+ \S+\s+\S+ \S+\s+n\/m\s+n\/m\s+/m);
    expect(r.stdout).toMatch(/^n\/m: SCOPED: allocations not measured: interposition intercepted none of the 3 allocations per call/m);
    expect(r.stdout).toMatch(/SCOPED: interposition intercepted no allocation call although the program allocates \(3 per call\)/);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    expect(result.modes[0]!.allocationsMeasured).toBe(false);
    expect(result.modes[0]!.interposition).toMatchObject({ interceptedCalls: 0, expectedAllocationsPerCall: 3 });
  });
});

describe('analyze on a DaCe build folder', () => {
  it('analyses the SDFG DaCe saved, with the build line from its CMakeCache', async () => {
    const r = await cli(['analyze', persistent, ...SYMBOLS]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^DaCe build folder ${persistent.replace(/[.]/g, '\\.')}: built by DaCe 2\\.0\\.0a6, \\d{4}-\\d\\d-\\d\\d, Release, g\\+\\+, flags -std=c\\+\\+17`,
        'm',
      ),
    );
    expect(r.stdout).toContain(`File:       ${join(persistent, 'program.sdfgz')}`);
    expect(r.stdout).toMatch(/^0:lap\s+float64.*Persistent/m);
  });
});

describe('serve and the window open a DaCe build folder as its SDFG', () => {
  it(
    "serve FOLDER opens the folder at start, and openFile(FOLDER) opens its program.sdfg with the build's line",
    { timeout: 120_000 },
    async () => {
      const s = await serve(['--root', dir, persistent]);
      try {
        const client = await connect(s);
        const env = await client.environment({});
        // The folder itself, so that the window shows how it was built.
        expect(env.openAtStart).toEqual([persistent]);
        const doc = await client.openFile({ path: scoped });
        expect([doc.name, doc.path, doc.stats.transients]).toEqual(['hdiff', join(scoped, 'program.sdfg'), 3]);
        expect(doc.daceBuild).toEqual({ folder: scoped, builtBy: expect.stringMatching(/^built by DaCe 2\.0\.0a6, \d{4}-/) as unknown });
        client.close();
      } finally {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    },
  );
});

describe('DaCe build folders that are wrong: a clear error, and the runner host survives', () => {
  it('a header that disagrees with the SDFG: exit 3 with both signatures', async () => {
    const bad = await makeDaceFolder(hdiff, join(dir, 'wrong', 'hdiff'), {
      mode: 'SCOPED',
      symbols,
      library: 'int x;',
      editHeader: (t) => t.replaceAll(', int K)', ', long long K)'),
    });
    const r = await cli(['profile', bad, ...SYMBOLS, ...QUICK]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/include\/hdiff\.h and program\.sdfg disagree on __program_hdiff/);
    expect(r.stderr).toMatch(/include\/hdiff\.h: void __program_hdiff\(.*long long K\)\n\s+the SDFG: void __program_hdiff\(.*int K\)/);
  });

  it('a missing library: exit 3 naming the folder', async () => {
    const bad = await makeDaceFolder(hdiff, join(dir, 'nolib', 'hdiff'), { mode: 'SCOPED', symbols, noLibrary: true });
    const r = await cli(['profile', bad, ...SYMBOLS, ...QUICK]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${bad}: no libhdiff.so in build/, build/<config>/ or the folder itself`);
  });

  it('a library without __dace_exit_hdiff: the run fails naming the symbol', async () => {
    const bad = await makeDaceFolder(hdiff, join(dir, 'nosym', 'hdiff'), {
      mode: 'SCOPED',
      symbols,
      library: `extern "C" void *__dace_init_hdiff(int, int, int) { static int s; return &s; }
extern "C" void __program_hdiff(void *, double *, double *, double *, int, int, int) {}`,
    });
    const r = await cli(['profile', bad, ...SYMBOLS, ...QUICK]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/does not export __dace_exit_hdiff/);
  });

  it('a library that crashes: the run reports the signal and the step, and the next run works', async () => {
    const bad = await makeDaceFolder(hdiff, join(dir, 'crash', 'hdiff'), {
      mode: 'SCOPED',
      symbols,
      library: `extern "C" void *__dace_init_hdiff(int, int, int) { static int s; return &s; }
extern "C" int __dace_exit_hdiff(void *) { return 0; }
extern "C" void __program_hdiff(void *, double *, double *, double *, int, int, int) { volatile int *p = nullptr; *p = 1; }`,
    });
    const r = await cli(['profile', bad, ...SYMBOLS, ...QUICK]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/SIGSEGV/);
    expect(r.stderr).toMatch(/SCOPED/);
    expect(r.stderr).not.toMatch(/^\s+at .*\.js:\d+/m);
    const again = await cli(['profile', scoped, ...SYMBOLS, ...QUICK]);
    expect(again.code).toBe(0);
  });

  it('folders of different programs are compared, with a warning showing both hashes', async () => {
    const other = await makeDaceFolder(hdiff, join(dir, 'other', 'hdiff'), {
      mode: 'SCOPED',
      symbols,
      edit: (j) => ((j.attributes as { hash?: string }).hash = 'x'),
    });
    const r = await cli(['profile', scoped, other, ...SYMBOLS, ...QUICK]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /warning: the folders come from different SDFGs \(sha256 without lifetimes, storages and pool flags of transients: .*hdiff [0-9a-f]{12}, .*hdiff [0-9a-f]{12}\)/,
    );
    expect(r.stdout).toMatch(/^SCOPED #2\s+/m);
  });

  it('usage: options a DaCe build fixes, and a mix of folders and files', async () => {
    const modes = await cli(['profile', scoped, '--modes', 'scoped', ...SYMBOLS]);
    expect(modes.code).toBe(2);
    expect(modes.stderr).toMatch(/--modes cannot be used with DaCe build folders: each folder is built in one mode/);
    const mixed = await cli(['profile', scoped, hdiff, ...SYMBOLS]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/hdiff\.sdfg is not a DaCe build folder/);
    const gpu = await cli(['profile', scoped, '--gpu', 'host', ...SYMBOLS]);
    expect(gpu.code).toBe(2);
    expect(gpu.stderr).toMatch(/--gpu cannot be used with DaCe build folders: .*cannot re-target DaCe's CUDA to the host backend/);
  });

  it("a GPU build (DaCe's CUDA in src/cuda/) is refused on this machine, GPU or not, saying what to run instead", async () => {
    const gpu = await makeDaceFolder(hdiff, join(dir, 'gpu', 'hdiff'), { mode: 'SCOPED', symbols, library: 'int x;' });
    await mkdir(join(gpu, 'src', 'cuda'), { recursive: true });
    await writeFile(join(gpu, 'src', 'cuda', 'hdiff_cuda.cu'), '// DaCe AUTO-GENERATED FILE\n');
    const r = await cli(['profile', gpu, ...SYMBOLS, ...QUICK]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /a GPU DaCe build: it holds DaCe's CUDA code \(src\/cuda\/hdiff_cuda\.cu\)\. Profiling DaCe-built GPU libraries is not supported yet, on any machine/,
    );
    expect(r.stderr).toContain(`transient-lab profile ${join(gpu, 'program.sdfg')} --gpu host`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
