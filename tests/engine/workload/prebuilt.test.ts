/**
 * `profile workload.json` with a `prebuilt` program: the folder's libraries run in its place, its symbol values
 * and modes are checked against the workload's.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Mode } from '../../../electron/engine/analysis/types.js';
import { loadSubject } from '../../../electron/engine/advise/subject.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { buildFolder } from '../../../electron/engine/profile/prebuilt.js';
import { profileWorkload, type WorkloadProfileOptions } from '../../../electron/engine/workload/profile.js';
import { NodeWorkloadHost } from '../../../electron/runner/workload-host.js';
import { makeDaceFolder } from '../../fixtures/dace-folders.js';
import { writeWorkload } from './fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function options(over: Partial<WorkloadProfileOptions> = {}): WorkloadProfileOptions {
  return {
    modes: ['SCOPED', 'PERSISTENT', 'EXTERNAL'],
    layout: 'packed',
    steps: null,
    warmup: 0,
    calls: 2,
    processes: 1,
    symbols: new Map(),
    defaultSymbol: null,
    seed: 0n,
    keepOutputs: true,
    timeoutMs: 120_000,
    cxxflags: ['-O1'],
    host: new NodeWorkloadHost(),
    ...over,
  };
}

/** writer, reader, writer (reader reads the C writer writes), with `writer` as given. */
function fixture(writer: Record<string, unknown>): string {
  const path = writeWorkload({
    programs: { writer, reader: { sdfg: 'reader.sdfg' } },
    sequence: ['writer', 'reader', 'writer'],
  });
  dirs.push(dirname(path));
  return path;
}

async function buildWriter(path: string, modes: Mode[], n: bigint): Promise<string> {
  const outDir = join(dirname(path), `build-writer-${n}-${modes.join('-')}`);
  await buildFolder(join(dirname(path), 'writer.sdfg'), {
    modes,
    layout: 'packed',
    symbols: new Map([['N', n]]),
    defaultSymbol: null,
    outDir,
    cxxflags: ['-O1'],
  });
  return outDir;
}

describe('profile workload.json with a prebuilt program', () => {
  it("runs the folder's libraries: the same outputs as the all-SDFG workload, and verification passes", async () => {
    const sdfgPath = fixture({ sdfg: 'writer.sdfg' });
    const folder = await buildWriter(sdfgPath, ['SCOPED', 'PERSISTENT', 'EXTERNAL'], 64n);
    const prebuiltPath = fixture({ prebuilt: folder });
    const progress: string[] = [];
    const pre = await profileWorkload(prebuiltPath, options(), (m) => progress.push(m));
    const all = await profileWorkload(sdfgPath, options());

    expect(progress.filter((m) => m.startsWith('load '))).toHaveLength(3);
    expect(pre.result.programs.find((p) => p.key === 'writer')!.source).toBe(folder);
    for (const [label, checks] of Object.entries(pre.result.verification)) {
      expect(checks.length, label).toBe(2 * 3);
      expect(
        checks.every((c) => c.ok && !c.staleWorkspace),
        label,
      ).toBe(true);
    }
    expect(pre.result.footprint).toEqual(all.result.footprint);
    expect(pre.result.findings.filter((f) => /differs|wrote past|reads workspace/.test(f))).toEqual([]);
    expect(Object.keys(pre.outputs!)).toEqual(Object.keys(all.outputs!));
    for (const label of Object.keys(all.outputs!)) {
      for (const [name, bytes] of Object.entries(all.outputs![label]!)) {
        expect(Buffer.from(pre.outputs![label]![name]!).equals(Buffer.from(bytes)), `${label} ${name}`).toBe(true);
      }
    }
  }, 300_000);

  it('refuses symbol values other than those the folder was built for, naming program, symbol, values and folder', async () => {
    const path = fixture({ prebuilt: 'build-writer-32-SCOPED' });
    await buildWriter(path, ['SCOPED'], 32n);
    await expect(profileWorkload(path, options({ modes: ['SCOPED'] }))).rejects.toThrow(
      /program 'writer' runs with N=64 here, but the build folder \S*build-writer-32-SCOPED was built for N=32/,
    );
  }, 300_000);

  it('refuses a mode the folder has no library for, naming the folder and what it holds', async () => {
    const path = fixture({ prebuilt: 'build-writer-64-SCOPED' });
    await buildWriter(path, ['SCOPED'], 64n);
    await expect(profileWorkload(path, options({ modes: ['EXTERNAL'] }))).rejects.toThrow(
      /program 'writer': the build folder \S*build-writer-64-SCOPED has no EXTERNAL \(packed\) library \(it holds SCOPED;/,
    );
  }, 300_000);
});

describe('a DaCe build folder as a workload program (docs/workload.md, "DaCe build folders")', () => {
  it('advise reads the SDFG DaCe saved in it; profile refuses a mode no folder was built in, naming the folders and their modes', async () => {
    const path = fixture({ prebuilt: '.dacecache/writer' });
    const folder = join(dirname(path), '.dacecache', 'writer');
    await makeDaceFolder(join(dirname(path), 'writer.sdfg'), folder, {
      mode: 'PERSISTENT',
      symbols: new Map([['N', 64n]]),
      library: 'int x;',
    });
    const subject = await loadSubject(path, { symbols: new Map(), defaultSymbol: null, target: null });
    const writer = subject.calls.find((c) => c.program === 'writer')!;
    // The build's SDFG: its transient is Persistent, as DaCe saved it after code generation in that mode.
    expect(writer.file.path).toBe(join(folder, 'program.sdfg'));
    expect([...writer.file.root.arrays.values()].filter((a) => a.transient).map((a) => a.lifetime)).toEqual(['Persistent']);
    const err = await profileWorkload(path, options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).kind).toBe('usage');
    expect((err as TlabError).jsonPath).toBe('$.programs.writer.prebuilt');
    expect((err as TlabError).describe()).toMatch(
      /^\S+: at \$\.programs\.writer\.prebuilt: program 'writer': no DaCe build folder in SCOPED, EXTERNAL mode \(the folders: \S*\.dacecache\/writer \(PERSISTENT\); a DaCe library is built in one mode, and SCOPED is always run as the reference\)/,
    );
  }, 300_000);
});
