/**
 * A program that accumulates into a transient nothing initialises (ICON velocity's
 * `vcflmax(jb) = MAX(vcflmax(jb), maxvcfl)`, a Reduce without identity): the packed layout correctly gives the
 * transient the bytes of one that died before, so EXTERNAL (packed) reads that one's leftovers where the other
 * modes read fresh poison, and its output differs. The two poison patterns cannot show the read (a max ignores
 * a NaN and a large negative alike), so verification names it from the program: an uninitialised read, not a
 * divergence (a packing bug). Fixture: tests/fixtures/sdfg/reduce_accumulate_uninit.sdfg (tmp = A[:,0]²+1 is
 * read by B, then vmax[i] max= -A[i,j]²-1 with no init, out = max(0, max(vmax))).
 *
 * Needs the native addon and dist/: tests/global-setup.ts builds them or fails the run.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { accumulatedBeforeWritten } from '../../../electron/engine/model/accumulate-first.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'reduce_accumulate_uninit.sdfg');
const VELOCITY = join(
  corpusDir(),
  'spcl__dace__tests__sdfg__data__sdfg_reconstruction__velocity_no_nproma_if_prop_lvn_only_0_istep_1.sdfgz',
);
const N = 64;
const M = 8;
const symbols = new Map([
  ['N', BigInt(N)],
  ['M', BigInt(M)],
]);

let cache: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-accumulate-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
});

/** The fixture's JSON with `edit` applied, parsed. */
async function editedFixture(edit: (json: { nodes: Array<{ nodes: Array<{ attributes: Record<string, unknown> }> }> }) => void) {
  const json = JSON.parse(await readFile(FIXTURE, 'utf8'));
  edit(json);
  return parseSdfgJson(json, FIXTURE, 0, false);
}

describe('transients only ever accumulated into', () => {
  it('names the WCR-only transient of the fixture, and nothing once it is set to zero first', async () => {
    expect(accumulatedBeforeWritten(await readSdfgFile(FIXTURE))).toEqual(['0:vmax']);
    const zeroed = await editedFixture((j) => {
      j.nodes[2]!.nodes.find((n) => n.attributes['data'] === 'vmax')!.attributes['setzero'] = true;
    });
    expect(accumulatedBeforeWritten(zeroed)).toEqual([]);
  });

  it('counts a Reduce without identity as an accumulation, one with an identity as a write', async () => {
    const noIdentity = await editedFixture((j) => {
      delete j.nodes[3]!.nodes[1]!.attributes['identity'];
    });
    expect(accumulatedBeforeWritten(noIdentity)).toEqual(['0:red', '0:vmax']);
    // library_reduce's Reduces without identity write arguments, which the caller initialises.
    expect(accumulatedBeforeWritten(await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'library_reduce.sdfg')))).toEqual(
      [],
    );
  });

  it('finds vcflmax in ICON velocity (a Reduce without identity in a callee inside a map)', async () => {
    expect(accumulatedBeforeWritten(await readSdfgFile(VELOCITY))).toEqual(['0:vcflmax']);
  });
});

describe('liveness of the pattern', () => {
  it('starts vmax at its first accumulation, so the packed layout legitimately gives it the bytes of tmp', async () => {
    const a = analyze(await readSdfgFile(FIXTURE), { symbols, defaultSymbol: null, target: null });
    const live = (id: string) => a.transients.find((t) => t.id === id)!.live!;
    expect(live('0:tmp').last).toBeLessThan(live('0:vmax').first);
    const packed = a.layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:vmax')).toBe(packed.offsets.get('0:tmp'));
  });
});

describe('verification of a program that accumulates into uninitialised memory', () => {
  it('runs in every mode, computes B right everywhere, and reports the packed difference as an uninitialised read', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tlab-accumulate-out-'));
    try {
      const result = await profile(FIXTURE, {
        ...DEFAULT_PROFILE_OPTIONS,
        runner: new NodeRunnerHost(),
        modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
        layout: 'both',
        calls: 1,
        warmup: 0,
        processes: 1,
        symbols,
        saveOutputs: out,
        timeoutMs: 120_000,
      });
      const v = result.verification;
      expect(v.details.filter((d) => d.kind === 'divergence')).toEqual([]);
      const reads = v.details.filter((d) => d.kind === 'uninitialised-read');
      expect(reads.map((d) => [d.mode, d.array, d.transients])).toEqual([['EXTERNAL (packed)', 'out', ['0:vmax']]]);
      expect(reads[0]!.message).toMatch(/reads uninitialised memory: it accumulates into 0:vmax/);
      expect(v.ok).toBe(false);

      // B, the well-defined output, from the math: B[i] = 2·(A[i,0]² + 1).
      const dirs = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed'];
      for (const dir of dirs) {
        const f64 = async (name: string) => {
          const { data } = await readNpy(join(result.savedOutputs?.dir ?? out, dir, `${name}.npy`));
          return new Float64Array(data.buffer, data.byteOffset, data.byteLength / 8);
        };
        const A = await f64('A');
        const B = await f64('B');
        for (let i = 0; i < N; i++) expect(B[i]).toBeCloseTo(2 * (A[i * M]! * A[i * M]! + 1), 12);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 300_000);
});
