/**
 * The verdict of a profile result (electron/engine/view/verdict.ts), which the CLI, the window and the reports
 * all render: on the two recorded vadv runs (a quiet one and one beside CPU hogs; tests/fixtures/profile/
 * README.md), on the older hdiff run, and on edits of them with known answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/engine/paths.js';
import { formatProfile } from '../../../electron/engine/profile/format.js';
import type { ModeResult, ProfileResult } from '../../../electron/engine/profile/result.js';
import { mannWhitney, summarize } from '../../../electron/engine/profile/stats.js';
import {
  compareResults,
  heldMemory,
  profileVerdict,
  ratioText,
  sameCode,
  sameCodeSpread,
  verificationBadge,
} from '../../../electron/engine/view/verdict.js';
import { compareTimes, modeSample } from '../../../electron/engine/view/time-comparison.js';
import { formatNs } from '../../../electron/engine/view/format.js';

const load = (name: string): ProfileResult =>
  JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', name), 'utf8')) as ProfileResult;
const clean = (): ProfileResult => load('vadv-cpu-clean.json');
const noisy = (): ProfileResult => load('vadv-cpu-noisy.json');
const mode = (r: ProfileResult, label: string): ModeResult => r.modes.find((m) => m.label === label)!;

/** A mode whose every call takes `factor` times as long (summary recomputed as the profiler does). */
function scaled(m: ModeResult, factor: number, label = m.label): ModeResult {
  const calls = { ...m.calls, totalNs: m.calls.totalNs.map((t) => t * factor) };
  return { ...m, label, calls, summary: summarize(calls) };
}

/** The first `n` calls of every mode, as a run of one process with `n` calls would have. */
function firstCalls(r: ProfileResult, n: number): ProfileResult {
  const cut = (xs: number[]) => xs.slice(0, n);
  const modes = r.modes.map((m) => {
    const calls = {
      totalNs: cut(m.calls.totalNs),
      allocNs: cut(m.calls.allocNs),
      freeNs: cut(m.calls.freeNs),
      allocs: cut(m.calls.allocs),
      frees: cut(m.calls.frees),
      allocBytes: cut(m.calls.allocBytes),
      minorFaults: cut(m.calls.minorFaults),
    };
    return { ...m, calls, summary: summarize(calls), warmupCalls: m.warmupCalls?.slice(0, 1) };
  });
  return { ...r, settings: { ...r.settings, calls: n, processes: 1 }, modes };
}

describe('the verdict of a quiet run', () => {
  it('names the fastest mode that ran (PERSISTENT here), not EXTERNAL against POOL, with time, allocations and memory', () => {
    const r = clean();
    const v = profileVerdict(r);
    expect(v.noise.noisy).toBe(false);
    expect(v.noiseText).toBeNull();
    expect(v.statistic).toBe('median');
    const h = v.primary;
    expect([h.kind, h.subject, h.baseline, h.time!.verdict]).toEqual(['winner', 'PERSISTENT', 'EXTERNAL (packed)', 'faster']);
    const { p } = mannWhitney(mode(r, 'EXTERNAL (packed)').calls.totalNs, mode(r, 'PERSISTENT').calls.totalNs);
    expect(h.time!.p).toBeCloseTo(p, 12);
    expect(h.time!.ratio).toBeCloseTo(mode(r, 'EXTERNAL (packed)').summary.medianNs / mode(r, 'PERSISTENT').summary.medianNs, 12);
    // Before: "EXTERNAL (packed) vs POOL: 1.63× faster per call (p < 0.001), 3 fewer allocations per call
    // (3 → 0), 960 KiB workspace", silent about PERSISTENT, the fastest mode of the run.
    expect(v.text).toBe(
      'PERSISTENT is fastest: 1.06× faster per call than the runner-up, EXTERNAL (packed) (p < 0.001); the same allocations per call (0); holds 960 KiB (init) vs 960 KiB (workspace) for transients',
    );
    expect([h.parts.title, h.parts.big, h.parts.detail]).toEqual([
      'Fastest mode: PERSISTENT',
      'PERSISTENT 1.06× faster per call',
      'than the runner-up, EXTERNAL (packed) (p < 0.001)',
    ]);
  });

  it('keeps EXTERNAL against POOL as the secondary line', () => {
    const r = clean();
    const [pair, ...rest] = profileVerdict(r).secondary;
    expect(rest).toEqual([]);
    expect([pair!.kind, pair!.subject, pair!.baseline, pair!.time!.verdict, pair!.time!.statistic]).toEqual([
      'pair',
      'EXTERNAL (packed)',
      'POOL',
      'faster',
      'median',
    ]);
    expect(pair!.text).toBe(
      'EXTERNAL (packed) vs POOL: 1.63× faster per call (p < 0.001), 3 fewer allocations per call (3 → 0), holds 960 KiB (workspace) vs 960 KiB (per-call peak) for transients',
    );
  });

  it('DaCe-built modes (allocations not measured) never read as "the same allocations per call (0)"', () => {
    const r = clean();
    const unmeasured = { ...r, modes: r.modes.map((m) => ({ ...m, allocationsMeasured: false as const })) };
    const v = profileVerdict(unmeasured);
    expect(v.text).toContain('allocations per call not measured');
    expect(v.text).not.toMatch(/the same allocations|fewer allocations/);
    expect(formatProfile(unmeasured)).toMatch(/^PERSISTENT\s+\S+ \S+\s+\S+ \S+\s+\S+ \S+\s+n\/m\s+n\/m\s/m);
  });

  it('the CLI prints the same verdict', () => {
    const r = clean();
    const v = profileVerdict(r);
    const cli = formatProfile(r).split('\n');
    expect(cli).toContain(`verdict: ${v.text}.`);
    expect(cli).toContain(`${v.secondary[0]!.text}.`);
    expect(cli.some((l) => l.startsWith('noise:'))).toBe(false);
  });

  it('says there is no clear winner when the two fastest are within the noise', () => {
    const r = clean();
    const persistent = mode(r, 'PERSISTENT');
    r.modes = r.modes.map((m) =>
      m.label === 'EXTERNAL (packed)'
        ? { ...scaled(persistent, 1, m.label), mode: 'EXTERNAL', layout: 'packed', workspaceBytes: m.workspaceBytes }
        : m,
    );
    const h = profileVerdict(r).primary;
    expect(h.time!.verdict).toBe('no-difference');
    expect(h.tied).toEqual(['PERSISTENT', 'EXTERNAL (packed)']);
    expect(h.parts.big).toBe('No clear winner');
    expect(h.text).toMatch(
      /^No clear winner: PERSISTENT and EXTERNAL \(packed\) are within the noise of each other \(the two fastest: medians .+, p = 1\.00\)$/,
    );
  });
});

describe('modes that ran the same library', () => {
  // example.sdfg (no transients) builds one library five times; a busy machine then read "PERSISTENT 1.08× faster
  // per call than SCOPED (p < 0.001)" between two runs of the same code.
  it('every mode the same code: no winner, the spread said to be the machine’s, no pair lines, "same code" in the ratio column', () => {
    const r = clean();
    const first = r.modes[0]!.label;
    r.modes = r.modes.map((m, i) => (i === 0 ? m : { ...m, sameCodeAs: first }));
    const v = profileVerdict(r);
    const h = v.primary;
    expect(h.sameCode).toBe(true);
    expect(h.parts.big).toBe('All modes run the same code');
    expect(h.tied).toEqual(['PERSISTENT', 'EXTERNAL (packed)', 'SCOPED', 'POOL']);
    expect(v.text).toBe(
      `All modes run the same code: every mode generated the same program (the memory modes change nothing in it), so their times differ only by the machine and the order of the runs: PERSISTENT ${formatNs(mode(r, 'PERSISTENT').summary.medianNs)} to POOL ${formatNs(mode(r, 'POOL').summary.medianNs)} median`,
    );
    expect(v.secondary.every((p) => p.sameCode && p.parts.big === 'Same code')).toBe(true);
    const cli = formatProfile(r).split('\n');
    expect(cli).toContain(`verdict: ${v.text}.`);
    expect(cli.some((l) => l.includes('runs the same code as'))).toBe(false);
    const rows = cli.filter((l) => /^(SCOPED|PERSISTENT|POOL|EXTERNAL) /.test(l));
    expect(rows.map((l) => l.trimEnd().endsWith('same code'))).toEqual([false, true, true, true]);
    expect(rows[0]!.trimEnd().endsWith('1.00×')).toBe(true);
  });

  it('a twin of the fastest is not its runner-up: the fastest is compared with the fastest mode of other code', () => {
    const r = clean();
    // EXTERNAL (packed), the runner-up of this run, marked as PERSISTENT's library.
    r.modes = r.modes.map((m) => (m.label === 'EXTERNAL (packed)' ? { ...m, sameCodeAs: 'PERSISTENT' } : m));
    const h = profileVerdict(r).primary;
    expect(h.sameCode).toBe(false);
    expect([h.subject, h.baseline]).toEqual(['PERSISTENT', 'SCOPED']);
    expect(h.parts.detail).toMatch(/^than the runner-up, SCOPED \(p < 0\.001\); EXTERNAL \(packed\) ran the same code as PERSISTENT$/);
    expect(ratioText(r, mode(r, 'SCOPED'), mode(r, 'EXTERNAL (packed)'), 'median')).toBe(
      `${(mode(r, 'SCOPED').summary.medianNs / mode(r, 'EXTERNAL (packed)').summary.medianNs).toFixed(2)}×`,
    );
  });

  it('an EXTERNAL layout that ran POOL’s library says so instead of a time comparison', () => {
    const r = clean();
    r.modes = r.modes.map((m) => (m.label === 'EXTERNAL (packed)' ? { ...m, sameCodeAs: 'POOL' } : m));
    const [pair] = profileVerdict(r).secondary;
    expect(pair!.sameCode).toBe(true);
    expect(pair!.text).toBe(
      'EXTERNAL (packed) runs the same code as POOL: the same library, so the memory mode changes nothing in this program',
    );
  });

  it('a result written before sameCodeAs knows POOL = SCOPED on CPU from its note', () => {
    const r = clean();
    expect(sameCode(r, mode(r, 'POOL'), mode(r, 'SCOPED'))).toBe(true);
    expect(sameCode(r, mode(r, 'PERSISTENT'), mode(r, 'SCOPED'))).toBe(false);
    expect(ratioText(r, mode(r, 'SCOPED'), mode(r, 'POOL'), 'median')).toBe('same code');
    r.notes = [];
    expect(sameCode(r, mode(r, 'POOL'), mode(r, 'SCOPED'))).toBe(false);
  });
});

describe("the run's own A/A control: the spread between modes of one library", () => {
  // hello_world's five modes (one library) on a busy machine, 3 processes × 50 calls: 9 of 10 pairs differed at
  // p < 0.01 by 1–4 %. Calls of one process are not independent draws, so the test alone overclaims.
  it('is the widest ratio between twins (POOL and SCOPED here), and a difference within it is not claimed', () => {
    const r = clean();
    const spread = sameCodeSpread(r, 'median')!;
    expect(spread.between).toBe('SCOPED and POOL');
    expect(spread.ratio).toBeCloseTo(mode(r, 'POOL').summary.medianNs / mode(r, 'SCOPED').summary.medianNs, 12);
    // EXTERNAL (packed) made 1.5 % slower than PERSISTENT: Mann–Whitney alone calls it a difference.
    const persistent = mode(r, 'PERSISTENT');
    r.modes = r.modes.map((m) =>
      m.label === 'EXTERNAL (packed)'
        ? { ...scaled(persistent, 1.015, m.label), mode: 'EXTERNAL', layout: 'packed', workspaceBytes: m.workspaceBytes }
        : m,
    );
    const bare = compareTimes(modeSample(persistent), modeSample(mode(r, 'EXTERNAL (packed)')), 'median');
    expect(bare.verdict).toBe('faster');
    const h = profileVerdict(r).primary;
    expect(h.time!.verdict).toBe('no-difference');
    expect(h.parts.big).toBe('No clear winner');
    expect(h.time!.evidence).toMatch(
      /^1\.0\d× apart \(p < 0\.001\), within the 1\.0\d× between SCOPED and POOL, which ran the same library in this run$/,
    );
    // Wider than the spread: still claimed (the fixture's own 1.06×).
    expect(profileVerdict(clean()).primary.time!.verdict).toBe('faster');
  });

  it('is absent without twins: a run of SCOPED, PERSISTENT and EXTERNAL only has no control', () => {
    const r = clean();
    r.modes = r.modes.filter((m) => m.mode !== 'POOL');
    expect(sameCodeSpread(r, 'median')).toBeNull();
  });
});

describe('too few calls to test', () => {
  it('--calls 2 with one process says so and how many calls would do, instead of "no significant difference"', () => {
    const v = profileVerdict(firstCalls(clean(), 2));
    expect(v.primary.time!.verdict).toBe('too-few-calls');
    expect(v.primary.time!.needCalls).toBe(6);
    expect(v.text).toBe(
      'Too few calls to test which mode is fastest: 2 timed calls per mode can reach p = 0.25 at best, not p < 0.01; 6 per mode would',
    );
    expect(v.secondary[0]!.text).toMatch(
      /^EXTERNAL \(packed\) vs POOL: too few calls to test \(2 timed calls per mode can reach p = 0\.25 at best, not p < 0\.01; 6 per mode would\)/,
    );
    expect(v.text).not.toMatch(/no significant difference/);
    // The window's line under the big words still gives the lowest time measured, marked untested.
    const r = firstCalls(clean(), 2);
    const low = [...r.modes].sort((a, b) => a.summary.medianNs - b.summary.medianNs)[0]!;
    expect(v.primary.parts.detail).toBe(
      `2 timed calls per mode can reach p = 0.25 at best, not p < 0.01; 6 per mode would · lowest median measured: ${low.label} ${formatNs(low.summary.medianNs)} (untested)`,
    );
  });

  it('tests once the calls can reach the threshold', () => {
    expect(profileVerdict(firstCalls(clean(), 5)).primary.time!.verdict).toBe('too-few-calls');
    expect(profileVerdict(firstCalls(clean(), 6)).primary.time!.verdict).not.toBe('too-few-calls');
  });
});

describe('the verdict of a noisy run', () => {
  it('says the run is noisy and why in the headline itself, and compares p10', () => {
    const r = noisy();
    const v = profileVerdict(r);
    // Before: "EXTERNAL (packed) vs POOL: 2.49× faster per call (p < 0.001), 3 fewer allocations per call
    // (3 → 0), 960 KiB workspace" — from medians of 421 µs and 1.05 ms whose calls reach 1.2 s and 2.1 s at p90.
    expect(v.text).toBe(
      'Noisy run: call times fall into separate groups in SCOPED, PERSISTENT, POOL and EXTERNAL (packed) (Hartigan’s dip test, p < 0.001); the processes of SCOPED and POOL disagree (medians up to 44.7× apart). Compared at p10 (the fastest tenth of the calls), not at the median. No clear winner at p10: PERSISTENT and EXTERNAL (packed) are within the noise of each other (the two fastest: p10 320 µs vs 323 µs; their 99.5 % intervals overlap)',
    );
    expect(v.secondary[0]!.text).toBe(
      'EXTERNAL (packed) vs POOL: 1.96× faster at p10 (p10 323 µs vs 635 µs; their 99.5 % intervals do not overlap), 3 fewer allocations per call (3 → 0), holds 960 KiB (workspace) vs 960 KiB (per-call peak) for transients',
    );
    expect(v.noise.noisy).toBe(true);
    expect(v.statistic).toBe('p10');
    expect(v.text.startsWith(`${v.noiseText!}. `)).toBe(true);
    expect(v.noiseText).toMatch(/^Noisy run: .+\. Compared at p10 \(the fastest tenth of the calls\), not at the median$/);
    expect(v.primary.time?.statistic ?? 'p10').toBe('p10');
    for (const h of v.secondary) expect(h.time!.statistic).toBe('p10');
    expect(v.text).not.toMatch(/per call \(p [<=]/);
    // The console's ratio column is taken at p10 too, and says so; a quiet run's stays at the median.
    const lines = formatProfile(r).split('\n');
    expect(lines.find((l) => l.startsWith('mode '))).toMatch(/ vs SCOPED \(p10\)$/);
    const ratio = (m: string) =>
      lines
        .find((l) => l.startsWith(`${m} `))!
        .trim()
        .split(/\s+/)
        .at(-1);
    const p10 = (m: string) => r.modes.find((x) => x.label === m)!.summary.p10Ns;
    expect(ratio('PERSISTENT')).toBe(`${(p10('SCOPED') / p10('PERSISTENT')).toFixed(2)}×`);
    expect(
      formatProfile(clean())
        .split('\n')
        .find((l) => l.startsWith('mode ')),
    ).toMatch(/ vs SCOPED$/);
  });

  it('a busy machine’s bimodal calls (p10 2.4 ms, median 32 ms) no longer give "2.29× faster, p = 0.008"', () => {
    // POOL: most calls waited for a core (32 ms), a few ran undisturbed (2.4 ms); EXTERNAL: fewer waited. The
    // medians differ 2.3× and Mann–Whitney finds it "significant", but the undisturbed calls are the same.
    const r = clean();
    const mix = (share: number, seed: number) =>
      Array.from({ length: 600 }, (_, i) =>
        ((i * 7919 + seed) % 1000) / 1000 < share ? 2.4e6 * (1 + ((i * 31) % 17) / 400) : 32e6 * (1 + ((i * 13) % 23) / 100),
      );
    const withCalls = (m: ModeResult, totalNs: number[]): ModeResult => scaled({ ...m, calls: { ...m.calls, totalNs } }, 1);
    r.modes = r.modes.map((m) =>
      m.label === 'POOL' ? withCalls(m, mix(0.2, 1)) : m.label === 'EXTERNAL (packed)' ? withCalls(m, mix(0.45, 2)) : m,
    );
    const pair = profileVerdict(r).secondary[0]!;
    expect(mannWhitney(mode(r, 'POOL').calls.totalNs, mode(r, 'EXTERNAL (packed)').calls.totalNs).p).toBeLessThan(0.01);
    expect(profileVerdict(r).noiseText).toMatch(/call times fall into separate groups in POOL and EXTERNAL \(packed\)/);
    expect(pair.time!.statistic).toBe('p10');
    expect(pair.time!.verdict).toBe('no-difference');
    expect(pair.text).toMatch(
      /^EXTERNAL \(packed\) vs POOL: no clear difference at p10 \(p10 2\.\d+ ms vs 2\.\d+ ms; their 99\.5 % intervals overlap\)/,
    );
  });
});

describe('memory held for transients', () => {
  it('is the workspace for EXTERNAL, init for PERSISTENT, the peak of a call for SCOPED and POOL', () => {
    const r = clean();
    expect(heldMemory(mode(r, 'EXTERNAL (packed)'))).toMatchObject({
      bytes: 983040,
      workspace: 983040,
      perCallPeak: 0,
      text: '960 KiB (workspace)',
    });
    const pool = heldMemory(mode(r, 'POOL'));
    const events = mode(r, 'POOL').sampledCall!.events;
    let live = 0;
    let peak = 0;
    for (const e of events) peak = Math.max(peak, (live += e.kind === 'alloc' ? e.bytes : -e.bytes));
    expect(pool).toMatchObject({ bytes: peak, perCallPeak: peak, workspace: 0 });
    expect(pool.text).toMatch(/ \(per-call peak\)$/);
    const persistent = mode(r, 'PERSISTENT');
    expect(heldMemory({ ...persistent, initBytes: 983040 })).toMatchObject({ bytes: 983040, text: '960 KiB (init)' });
    // A result written before init sizes were recorded: PERSISTENT's memory is said to be unknown, not 0.
    const { initBytes: _, ...old } = persistent;
    expect(heldMemory(old as ModeResult)).toMatchObject({ bytes: null, text: 'an unknown amount (this result has no init sizes)' });
  });
});

describe('comparing results', () => {
  it('flags a mode that got slower beyond the noise and leaves identical ones alone', () => {
    const before = clean();
    const after = clean();
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

  it('compares a mode at p10 when either side is noisy, and says which side and why', () => {
    const changes = compareResults([
      { label: 'quiet', result: clean() },
      { label: 'busy', result: noisy() },
    ]);
    const flagged = changes.filter((c) => c.noise.length);
    expect(flagged.length).toBeGreaterThan(0);
    for (const c of flagged) {
      expect(c.time.statistic).toBe('p10');
      expect(c.noise.every((n) => n.startsWith('busy: ') || n.startsWith('quiet: '))).toBe(true);
      expect(c.text).toContain('so compared at p10');
    }
  });
});

describe('verification badge', () => {
  it('reports success and failure in words', () => {
    const r = clean();
    expect(verificationBadge(r)).toEqual({ ok: true, text: 'Verified: all modes bitwise identical', details: [] });
    r.verification = {
      identical: false,
      ok: false,
      vacuous: false,
      compared: ['out'],
      details: [{ kind: 'divergence', mode: 'POOL', reference: 'SCOPED', message: 'POOL differs from SCOPED in out[3, 0, 7]' }],
    };
    expect(verificationBadge(r)).toEqual({
      ok: false,
      text: 'Verification failed: 1 problem',
      details: ['POOL differs from SCOPED in out[3, 0, 7]'],
    });
  });

  it('never calls a comparison of nothing "identical"', () => {
    const r = clean();
    const why = 'nothing was compared across modes: the program writes no array argument';
    r.verification = { identical: true, ok: true, vacuous: true, compared: [], details: [{ kind: 'note', mode: 'all', message: why }] };
    expect(verificationBadge(r)).toEqual({ ok: true, text: 'Verified: no outputs to compare across modes', details: [why] });
  });
});

describe('a run on cores other processes kept busy', () => {
  // The sample can look clean to the detectors (few calls, one process) while the machine was busy: the
  // headline must still say so, from what the result records (machine.othersBusy, sampled before timing).
  it('says so above the verdict, with the share and the core count; quiet or unrecorded runs say nothing', () => {
    const busy = clean();
    const v = profileVerdict({ ...busy, machine: { ...busy.machine, othersBusy: 0.93 } });
    expect(v.busyText).toBe(
      `Busy machine: other processes kept 93% of the ${busy.machine.cores} cores busy just before timing: times can be inflated and noisy (OpenMP regions suffer most); rerun on a quiet machine for numbers to quote`,
    );
    expect(v.noiseText).toBeNull();
    expect(profileVerdict({ ...busy, machine: { ...busy.machine, othersBusy: 0.05 } }).busyText).toBeNull();
    expect(profileVerdict(clean()).busyText).toBeNull();
  });
});
