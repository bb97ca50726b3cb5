/**
 * `profile workload.json` whose programs are DaCe build folders, one per mode (docs/workload.md, "DaCe build
 * folders as programs"), end to end through the built CLI. The folders are laid out as DaCe does by
 * tests/fixtures/dace-folders.ts from our own generator (CI has no DaCe); each folder's mode is read from its build.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../electron/engine/paths.js';
import { planProfile } from '../../electron/engine/profile/plan.js';
import type { WorkloadResult } from '../../electron/engine/workload/result.js';
import { makeDaceFolder } from '../fixtures/dace-folders.js';
import { runCli } from './run-cli.js';

const symbols = new Map([
  ['I', 16n],
  ['J', 16n],
  ['K', 8n],
]);
const QUICK = ['--calls', '4', '--warmup', '1', '--processes', '1'];
const PROGRAMS = ['hdiff', 'vsmooth'] as const;

let dir: string;
/** program → mode → folder (names that say nothing about the mode: it is read from each build). */
const folders: Record<string, Record<string, string>> = {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-workload-dace-'));
  for (const p of PROGRAMS) {
    const sdfg = join(examplesDir(), `${p}.sdfg`);
    folders[p] = {
      SCOPED: await makeDaceFolder(sdfg, join(dir, `${p}-1`, '.dacecache', p), { mode: 'SCOPED', symbols }),
      EXTERNAL: await makeDaceFolder(sdfg, join(dir, `${p}-2`, '.dacecache', p), { mode: 'EXTERNAL', symbols, gzip: true }),
      PERSISTENT: await makeDaceFolder(sdfg, join(dir, `${p}-3`, '.dacecache', p), { mode: 'PERSISTENT', symbols }),
    };
  }
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cache: join(dir, 'cache'), timeoutMs: 300_000 });

async function workload(name: string, prebuilt: Record<string, unknown>): Promise<string> {
  const path = join(dir, `${name}.json`);
  const doc = {
    schema: 'transient-lab/workload@1',
    name,
    programs: Object.fromEntries(Object.entries(prebuilt).map(([k, v]) => [k, { prebuilt: v }])),
    symbols: { I: 16, J: 16, K: 8 },
    sequence: ['hdiff', 'vsmooth', 'hdiff'],
    steps: 2,
  };
  await writeFile(path, JSON.stringify(doc));
  return path;
}

/** What our analysis says of each program (independent of the runner): EXTERNAL (dace) need, SCOPED allocations. */
async function expected(p: string): Promise<{ workspace: number; allocs: number }> {
  const plan = await planProfile(join(examplesDir(), `${p}.sdfg`), {
    modes: ['EXTERNAL'],
    layout: 'dace',
    calls: 1,
    symbols,
    defaultSymbol: null,
  });
  const ext = plan.variants[0]!.program.externals.find((e) => e.storage === 'CPU_Heap')!;
  return { workspace: Number(ext.bytes), allocs: Number(plan.analysis.modes.SCOPED.perCall.allocs) };
}

describe('profile workload.json with DaCe build folders as programs', () => {
  it("PERSISTENT and SCOPED footprints of DaCe folders are the hooks' figures, checked against the all-SDFG workload", async () => {
    const path = await workload('dace-held', {
      hdiff: [folders.hdiff!.PERSISTENT, folders.hdiff!.SCOPED],
      vsmooth: [folders.vsmooth!.SCOPED, folders.vsmooth!.PERSISTENT],
    });
    const out = join(dir, 'held.json');
    const r = await cli(['profile', path, '--modes', 'scoped,persistent', ...QUICK, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sdfgs = join(dir, 'held-sdfg.json');
    await writeFile(
      sdfgs,
      JSON.stringify({
        schema: 'transient-lab/workload@1',
        programs: Object.fromEntries(PROGRAMS.map((p) => [p, { sdfg: join(examplesDir(), `${p}.sdfg`) }])),
        symbols: { I: 16, J: 16, K: 8 },
        sequence: ['hdiff', 'vsmooth', 'hdiff'],
        steps: 2,
      }),
    );
    const outSdfg = join(dir, 'held-sdfg-result.json');
    const g = await cli(['profile', sdfgs, '--modes', 'scoped,persistent', ...QUICK, '--out', outSdfg]);
    expect(g.code).toBe(0);
    const dace = JSON.parse(await readFile(out, 'utf8')) as WorkloadResult;
    const ours = JSON.parse(await readFile(outSdfg, 'utf8')) as WorkloadResult;
    expect(dace.footprint.PERSISTENT!.CPU_Heap).toBeGreaterThan(0);
    expect(dace.footprint.SCOPED!.CPU_Heap).toBeGreaterThan(0);
    // SCOPED: the largest per-call peak, from the hooks' events, exactly as our runtime header records it.
    expect(dace.footprint.SCOPED).toEqual(ours.footprint.SCOPED);
    // PERSISTENT: everything the DaCe libraries' init allocates (the hooks see the state and runtime too), so at
    // least the transients the header counts.
    expect(dace.footprint.PERSISTENT!.CPU_Heap).toBeGreaterThanOrEqual(ours.footprint.PERSISTENT!.CPU_Heap!);
  }, 300_000);

  it('runs each mode on the folder built in it: verified against SCOPED, one EXTERNAL workspace sized to the larger program, allocations interposed', async () => {
    // Folders in any order: the mode of each is read from its build.
    const path = await workload('dace-pair', {
      hdiff: [folders.hdiff!.EXTERNAL, folders.hdiff!.SCOPED],
      vsmooth: [folders.vsmooth!.SCOPED, folders.vsmooth!.EXTERNAL],
    });
    const out = join(dir, 'pair.json');
    const r = await cli(['profile', path, '--modes', 'scoped,external', ...QUICK, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^(SCOPED|EXTERNAL \(dace\)) +\d/.test(l));
    expect(rows.map((l) => l.split(/\s{2,}/)[0])).toEqual(['SCOPED', 'EXTERNAL (dace)']);
    expect(r.stdout).not.toMatch(/n\/m/);
    expect(r.stdout).toContain('verification: every call of 2 steps in EXTERNAL (dace) matches SCOPED at every position (6 calls checked)');

    const result = JSON.parse(await readFile(out, 'utf8')) as WorkloadResult;
    const h = await expected('hdiff');
    const v = await expected('vsmooth');
    // The two programs need different workspaces: the shared one is the larger, as each library's size function says.
    expect(h.workspace).not.toBe(v.workspace);
    expect(result.perProgram.hdiff!.workspace).toEqual({ CPU_Heap: h.workspace });
    expect(result.perProgram.vsmooth!.workspace).toEqual({ CPU_Heap: v.workspace });
    expect(result.footprint['EXTERNAL (dace)']).toEqual({ CPU_Heap: Math.max(h.workspace, v.workspace) });
    // Interposed inside the DaCe libraries: SCOPED's transients are allocated in every call (hdiff twice a step);
    // EXTERNAL's live in the workspace.
    expect(h.allocs + v.allocs).toBeGreaterThan(0);
    expect(result.perStep.SCOPED!.allocs).toBe(2 * h.allocs + v.allocs);
    expect(result.perStep.SCOPED!.allocationsUnmeasured).toBeUndefined();
    expect(result.perCallByProgram.SCOPED!.vsmooth!.allocs).toBe(v.allocs);
    expect(result.perStep['EXTERNAL (dace)']!.allocs).toBe(0);
    expect(
      Object.values(result.verification)
        .flat()
        .every((c) => c.ok),
    ).toBe(true);
    // One folder per mode of one SDFG: no warning that they come from different SDFGs.
    expect(result.findings.filter((f) => /different SDFGs/.test(f))).toEqual([]);
  }, 300_000);

  it('refuses a mode that a program has no folder for, naming the folders and their modes', async () => {
    const path = await workload('dace-missing', {
      hdiff: [folders.hdiff!.SCOPED, folders.hdiff!.EXTERNAL],
      vsmooth: folders.vsmooth!.SCOPED,
    });
    const r = await cli(['profile', path, '--modes', 'scoped,external', ...QUICK]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${path}: at $.programs.vsmooth.prebuilt: program 'vsmooth': no DaCe build folder in EXTERNAL mode`);
    expect(r.stderr).toContain(`(the folders: ${folders.vsmooth!.SCOPED} (SCOPED);`);
  }, 300_000);

  it('refuses two folders of one mode, and a folder in the array that is not a DaCe build, at its JSON path', async () => {
    const twice = await workload('dace-twice', {
      hdiff: [folders.hdiff!.SCOPED, folders.hdiff!.SCOPED],
      vsmooth: [folders.vsmooth!.SCOPED],
    });
    const r = await cli(['profile', twice, '--modes', 'scoped', ...QUICK]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /at \$\.programs\.hdiff\.prebuilt\[1\]: program 'hdiff': \S+ and \S+ are both built in SCOPED mode: name one folder per mode/,
    );
    const stray = await workload('dace-stray', { hdiff: [folders.hdiff!.SCOPED, dir], vsmooth: [folders.vsmooth!.SCOPED] });
    const s = await cli(['profile', stray, '--modes', 'scoped', ...QUICK]);
    expect(s.code).toBe(3);
    expect(s.stderr).toContain(`at $.programs.hdiff.prebuilt[1]: ${dir} is not a DaCe build folder`);
  }, 300_000);

  it('warns when the folders of one program come from different SDFGs', async () => {
    const other = await makeDaceFolder(join(examplesDir(), 'hdiff.sdfg'), join(dir, 'hdiff-3', '.dacecache', 'hdiff'), {
      mode: 'EXTERNAL',
      symbols,
      edit: (j) => ((j.attributes as { hash?: string }).hash = 'x'),
    });
    const path = await workload('dace-other', {
      hdiff: [folders.hdiff!.SCOPED, other],
      vsmooth: [folders.vsmooth!.SCOPED, folders.vsmooth!.EXTERNAL],
    });
    const r = await cli(['profile', path, '--modes', 'scoped,external', ...QUICK]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^finding: hdiff: its DaCe build folders come from different SDFGs \(sha256 without lifetimes/m);
  }, 300_000);

  it('a DaCe library that bypasses interposition gets n/m, not 0, and a finding naming the program', async () => {
    // The allocator reached through dlsym, never through the library's GOT: as a statically linked one would be.
    const bypass = await makeDaceFolder(join(examplesDir(), 'hdiff.sdfg'), join(dir, 'bypass', '.dacecache', 'hdiff'), {
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
    const path = await workload('dace-bypass', { hdiff: bypass, vsmooth: [folders.vsmooth!.SCOPED] });
    const out = join(dir, 'bypass.json');
    const r = await cli(['profile', path, '--modes', 'scoped', ...QUICK, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^SCOPED +\S+ \S+ +\S+ \S+ +\S+ \S+ +n\/m +n\/m +/m);
    expect(r.stdout).toMatch(
      /^finding: SCOPED: interposition intercepted no allocation call of the DaCe-built program hdiff although it allocates \(3 per call\)/m,
    );
    const result = JSON.parse(await readFile(out, 'utf8')) as WorkloadResult;
    expect(result.perCallByProgram.SCOPED!.hdiff!.allocationsUnmeasured).toMatch(/bypasses interposition/);
    expect(result.perCallByProgram.SCOPED!.vsmooth!.allocationsUnmeasured).toBeUndefined();
    expect(result.perStep.SCOPED!.allocationsUnmeasured).toMatch(/bypasses interposition/);
  }, 300_000);
});
