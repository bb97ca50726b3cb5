/**
 * Stack transients (Register storage, small local arrays, scalars kept as locals) get the verification poison
 * too, so a read of one before any write is reported as an uninitialised read instead of passing silently
 * with zeros. Two hand-written fixtures (tests/fixtures/sdfg) hold the same Register scalar `t` and Register
 * array `w[4]`: state `use` computes B[0] = A[0] + t + w[2], state `define` sets t = 2·A[1] and w = A[0:4].
 * `register_read_before_write` runs `use` first, `register_written_first` runs `define` first.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { generateProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const READ_FIRST = join(FIXTURES, 'register_read_before_write.sdfg');
const WRITTEN_FIRST = join(FIXTURES, 'register_written_first.sdfg');

let scratch: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tlab-stack-poison-'));
  process.env.TRANSIENT_LAB_CACHE = join(scratch, 'cache');
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(scratch, { recursive: true, force: true });
});

async function profileAll(path: string): Promise<ProfileResult> {
  return profile(path, {
    ...DEFAULT_PROFILE_OPTIONS,
    runner: new NodeRunnerHost(),
    symbols: new Map([['N', 8n]]),
    layout: 'both',
    calls: 2,
    warmup: 0,
    processes: 1,
    timeoutMs: 120_000,
  });
}

describe('generated code for stack transients', () => {
  it('declares them uninitialised and poisons them right after the declaration, in every mode', async () => {
    const file = await readSdfgFile(READ_FIRST);
    const analysis = analyze(file, { symbols: new Map([['N', 8n]]), defaultSymbol: null, target: null });
    const sources = new Map<string, string>();
    for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const) {
      const p = generateProgram(file, analysis, { mode, layout: 'packed' });
      sources.set(mode, p.source);
      expect(p.stackTransients, mode).toEqual(['0:t', '0:w']);
      expect(p.source).toContain('double t_stack[1]; double *t = t_stack;\n  tlab_poison_stack(t, size_t(1) * sizeof(double));');
      expect(p.source).toContain('double w_stack[4]; double *w = w_stack;\n  tlab_poison_stack(w, size_t(4) * sizeof(double));');
      expect(p.source).not.toMatch(/_stack\[\d+\] = \{\}/);
      // Poisoning a stack transient is not an allocation: it never reaches the event buffer.
      expect(p.source).not.toContain('tlab_alloc(');
    }
    expect(sources.get('POOL')).toBe(sources.get('SCOPED'));
  });

  it('zeroes a setzero stack transient after poisoning it', async () => {
    const file = await readSdfgFile(READ_FIRST);
    for (const st of file.root.body.kind === 'region' ? file.root.body.blocks : []) {
      if (st.kind !== 'state') continue;
      for (const n of st.nodes) if (n.kind === 'access' && n.data === 't') n.setzero = true;
    }
    const analysis = analyze(file, { symbols: new Map([['N', 8n]]), defaultSymbol: null, target: null });
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'packed' });
    expect(p.source).toContain('tlab_poison_stack(t, size_t(1) * sizeof(double));\n  std::memset(t, 0, size_t(1) * sizeof(double));');
    expect(p.source).not.toContain('std::memset(w,');
  });
});

describe('verification of stack transients', () => {
  it('reports a Register scalar and a stack array read before being written as an uninitialised read', async () => {
    const result = await profileAll(READ_FIRST);
    expect(result.verification.ok).toBe(false);
    const uninitialised = result.verification.details.filter((d) => d.kind === 'uninitialised-read');
    // Every mode keeps Register data on the stack, so every mode now sees the poison change B[0].
    expect(uninitialised.map((d) => d.mode)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (dace)', 'EXTERNAL (packed)']);
    const scoped = uninitialised.find((d) => d.mode === 'SCOPED')!;
    expect(scoped.array).toBe('B');
    expect(scoped.index).toEqual([0]);
    expect(scoped.transients).toEqual(['0:t', '0:w']);
    expect(scoped.message).toContain('the program reads a transient before writing it; candidates: 0:t, 0:w');
    expect(result.verification.details.filter((d) => d.kind === 'guard-overflow')).toEqual([]);
  });

  it('agrees in every mode when the same transients are written first', async () => {
    const result = await profileAll(WRITTEN_FIRST);
    expect(result.verification.details.filter((d) => d.kind !== 'note')).toEqual([]);
    expect(result.verification.ok).toBe(true);
    expect(result.verification.identical).toBe(true);
    expect(result.modes).toHaveLength(5);
    expect(new Set(result.modes.map((m) => JSON.stringify(m.outputChecksums))).size).toBe(1);
  });

  it('agrees when the read-first transients are setzero (zeroing still happens after the poison)', async () => {
    const json = JSON.parse(await readFile(READ_FIRST, 'utf8')) as {
      nodes: Array<{ nodes: Array<{ type: string; attributes: Record<string, unknown> }> }>;
    };
    for (const state of json.nodes) {
      for (const n of state.nodes)
        if (n.type === 'AccessNode' && (n.attributes.data === 't' || n.attributes.data === 'w')) n.attributes.setzero = true;
    }
    const path = join(scratch, 'register_read_before_write_setzero.sdfg');
    await writeFile(path, JSON.stringify(json));
    const result = await profileAll(path);
    expect(result.verification.details.filter((d) => d.kind !== 'note')).toEqual([]);
    expect(result.verification.ok).toBe(true);
  });
});
