/** The headline of a profile result, on a real result of `profile assets/examples/hdiff.sdfg` and on edits of it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/engine/paths.js';
import { formatProfile } from '../../../electron/engine/profile/format.js';
import type { ModeResult, ProfileResult } from '../../../electron/engine/profile/result.js';
import { mannWhitney, summarize } from '../../../electron/engine/profile/stats.js';
import { compareResults, profileHeadline, profileHeadlines, verificationBadge } from '../../../electron/engine/view/headline.js';

/** Real: 3 processes × 40 calls of hdiff (I=128, J=128, K=40) per mode on this VM; both EXTERNAL layouts. */
const load = (): ProfileResult => JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), 'utf8')) as ProfileResult;
const mode = (r: ProfileResult, label: string): ModeResult => r.modes.find((m) => m.label === label)!;

/** A mode whose every call takes `factor` times as long (summary recomputed as the profiler does). */
function scaled(m: ModeResult, factor: number, label = m.label): ModeResult {
  const calls = { ...m.calls, totalNs: m.calls.totalNs.map((t) => t * factor) };
  return { ...m, label, calls, summary: summarize(calls) };
}

describe('profile headline', () => {
  it('agrees with the profiler on which EXTERNAL layouts differ from POOL', () => {
    const r = load();
    const pool = mode(r, 'POOL');
    const cli = formatProfile(r);
    for (const h of profileHeadlines(r)) {
      const ext = mode(r, h.subject!);
      const { p } = mannWhitney(pool.calls.totalNs, ext.calls.totalNs);
      expect(h.time!.p).toBeCloseTo(p, 12);
      const significant = p < 0.01;
      expect(h.time!.verdict === 'no-difference').toBe(!significant);
      // The CLI's own sentence for this pair says the same.
      const line = cli.split('\n').find((l) => l.startsWith(`${h.subject} vs POOL`))!;
      expect(line.includes('no significant difference')).toBe(!significant);
    }
  });

  it('puts the packed layout first and says exactly that there is no difference when the test finds none', () => {
    const r = load();
    const h = profileHeadline(r);
    expect(h.subject).toBe('EXTERNAL (packed)');
    expect(h.baseline).toBe('POOL');
    // In this run EXTERNAL (packed) and POOL are within the noise (Mann–Whitney p = 0.13).
    expect(h.time!.verdict).toBe('no-difference');
    expect(h.text).toBe(
      'EXTERNAL (packed) vs POOL: no significant difference per call (medians 72.0 ms vs 71.8 ms, p = 0.13), 3 fewer allocations per call (3 → 0), 15.2 MiB workspace',
    );
    expect(h.allocsSaved).toBe(3);
    expect(h.workspaceBytes).toBe(15975680);
  });

  it('names the factor and the p-value when EXTERNAL is faster', () => {
    const r = load();
    const pool = mode(r, 'POOL');
    r.modes = r.modes.map((m) => (m.label === 'EXTERNAL (packed)' ? scaled(pool, 1 / 1.37, m.label) : m));
    r.modes = r.modes.map((m) => (m.label === 'EXTERNAL (packed)' ? { ...m, mode: 'EXTERNAL', layout: 'packed', workspaceBytes: { CPU_Heap: 96 * 2 ** 20 }, summary: { ...m.summary, allocsPerCall: 0 } } : m));
    const h = profileHeadline(r);
    expect(h.time!.verdict).toBe('faster');
    expect(h.time!.ratio).toBeCloseTo(1.37, 6);
    expect(h.text).toBe('EXTERNAL (packed) vs POOL: 1.37× faster per call (p < 0.001), 3 fewer allocations per call (3 → 0), 96.0 MiB workspace');
  });

  it('says slower when EXTERNAL is slower', () => {
    const r = load();
    const pool = mode(r, 'POOL');
    r.modes = r.modes.map((m) => (m.label === 'EXTERNAL (packed)' ? { ...scaled(pool, 1.5, m.label), mode: 'EXTERNAL', layout: 'packed', workspaceBytes: m.workspaceBytes } : m));
    const h = profileHeadline(r);
    expect(h.time!.verdict).toBe('slower');
    expect(h.parts.time).toBe('1.50× slower per call (p < 0.001)');
  });

  it('falls back to SCOPED without POOL, and explains a result without EXTERNAL', () => {
    const r = load();
    const noPool = { ...r, modes: r.modes.filter((m) => m.mode !== 'POOL') };
    expect(profileHeadline(noPool).baseline).toBe('SCOPED');
    const noExt = { ...r, modes: r.modes.filter((m) => m.mode !== 'EXTERNAL') };
    const h = profileHeadline(noExt);
    expect(h.time).toBeNull();
    expect(h.text).toMatch(/No EXTERNAL run/);
  });

  it('does not test a difference on a single call', () => {
    const r = load();
    r.modes = r.modes.map((m) => ({ ...m, calls: { ...m.calls, totalNs: m.calls.totalNs.slice(0, 1) } }));
    const h = profileHeadline(r);
    expect(h.time!.verdict).toBe('too-few-calls');
    expect(h.parts.time).toMatch(/^too few calls to test a difference/);
  });
});

describe('comparing results', () => {
  it('flags a mode that got slower beyond the noise and leaves identical ones alone', () => {
    const before = load();
    const after = load();
    after.modes = after.modes.map((m) => (m.label === 'POOL' ? scaled(m, 1.25) : m));
    const changes = compareResults([
      { label: 'before', result: before },
      { label: 'after', result: after },
    ]);
    expect(changes.map((c) => c.mode)).toEqual(before.modes.map((m) => m.label));
    const pool = changes.find((c) => c.mode === 'POOL')!;
    expect(pool.time.verdict).toBe('slower');
    expect(pool.text).toBe('POOL: after 1.25× slower per call (p < 0.001) than before');
    for (const c of changes.filter((x) => x.mode !== 'POOL')) expect(c.time.verdict).toBe('no-difference');
  });
});

describe('verification badge', () => {
  it('reports success and failure in words', () => {
    const r = load();
    expect(verificationBadge(r)).toEqual({ ok: true, text: 'Verified: all modes bitwise identical', details: [] });
    r.verification = { identical: false, ok: false, vacuous: false, compared: ['out'], details: [{ kind: 'divergence', mode: 'POOL', reference: 'SCOPED', message: 'POOL differs from SCOPED in out[3, 0, 7]' }] };
    expect(verificationBadge(r)).toEqual({ ok: false, text: 'Verification failed: 1 problem', details: ['POOL differs from SCOPED in out[3, 0, 7]'] });
  });

  it('never calls a comparison of nothing "identical"', () => {
    const r = load();
    const why = 'nothing was compared across modes: the program writes no array argument';
    r.verification = { identical: true, ok: true, vacuous: true, compared: [], details: [{ kind: 'note', mode: 'all', message: why }] };
    expect(verificationBadge(r)).toEqual({ ok: true, text: 'Verified: no outputs to compare across modes', details: [why] });
  });
});
