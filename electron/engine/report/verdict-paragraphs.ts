/**
 * The report's verdict: view/verdict.ts's decisions (the run's noise, the fastest mode, each EXTERNAL layout
 * against POOL) written as paragraphs whose every number is keyed to the result (numbers.ts), followed by the
 * allocations, the memory each mode holds, the workspace, the transients and the verification.
 */
import type { ModeResult, ProfileResult } from '../profile/result.js';
import { intervalConfidence, mannWhitneyMinP, SIGNIFICANCE } from '../profile/significance.js';
import { num } from '../view/analysis-doc.js';
import { heldMemory, profileVerdict, verificationBadge, type Headline, type TimeComparison, type Verdict } from '../view/verdict.js';
import { FATES, type AnalysisView } from '../view/types.js';
import { key, N, perCall, workspaceSum } from './numbers.js';
import type { Paragraph } from './types.js';

const modeOf = (result: ProfileResult, label: string | null): ModeResult | undefined => result.modes.find((m) => m.label === label);
const list = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const level = (): string => `${Number((intervalConfidence() * 100).toPrecision(3))} %`;

/** Why the run is noisy, with the figures that show it, and what the comparisons use instead. */
function noiseParagraph(v: Verdict, r: number): Paragraph | null {
  if (!v.noise.noisy) return null;
  const clauses: Paragraph[] = [];
  const split = [...new Set(v.noise.findings.filter((f) => f.kind === 'multimodal').map((f) => f.mode))];
  if (split.length)
    clauses.push([
      `the call times of ${list(split)} fall into separate groups (Hartigan’s dip test on the log times, p < ${SIGNIFICANCE})`,
    ]);
  for (const f of v.noise.findings) {
    if (f.kind !== 'processes' || !f.range) continue;
    clauses.push([
      `the ${f.range.processes} processes of ${f.mode} have medians from `,
      N.ns(key('processMedianMin', r, f.mode), f.range.lo),
      ' to ',
      N.ns(key('processMedianMax', r, f.mode), f.range.hi),
    ]);
  }
  const warm = [...new Set(v.noise.findings.filter((f) => f.kind === 'warmup').map((f) => f.mode))];
  if (warm.length) clauses.push([`the warm-up of ${list(warm)} hit its cap before the page faults per call settled`]);
  const out: Paragraph = ['This run is noisy, so its medians are no fair summary: '];
  clauses.forEach((c, i) => out.push(...(i ? ['; '] : []), ...c));
  out.push(
    `. Every comparison below is therefore made at p10, the time the fastest tenth of the calls stay under (what a call costs when nothing else gets in its way), and two modes are said to differ only when the distribution-free ${level()} intervals of their p10 do not overlap.`,
  );
  return out;
}

/** "median 231 ms vs 327 ms" or "p10 …", keyed. */
function figures(t: TimeComparison, s: ModeResult, b: ModeResult, r: number): Paragraph {
  const q = t.statistic === 'p10' ? 'p10' : 'median';
  return [
    `${q} `,
    N.ns(key(q, r, s.label), t.statistic === 'p10' ? s.summary.p10Ns : s.summary.medianNs),
    ' vs ',
    N.ns(key(q, r, b.label), t.statistic === 'p10' ? b.summary.p10Ns : b.summary.medianNs),
  ];
}

/** How the test decided: Mann–Whitney's p over the calls, or whether the p10 intervals overlap. */
function evidence(t: TimeComparison, s: ModeResult, b: ModeResult, r: number): Paragraph {
  if (t.statistic === 'p10') return [`; their ${level()} intervals ${t.verdict === 'no-difference' ? 'overlap' : 'do not overlap'}`];
  return [
    '; two-sided Mann–Whitney ',
    N.p(`p|${r}|${s.label}|${b.label}`, t.p),
    ' over ',
    N.count(key('calls', r, s.label), s.calls.totalNs.length),
    ' and ',
    N.count(key('calls', r, b.label), b.calls.totalNs.length),
    ' timed calls',
  ];
}

function factor(t: TimeComparison, s: ModeResult, b: ModeResult, r: number): Paragraph {
  const faster = t.verdict === 'faster';
  const name = `${t.statistic === 'p10' ? 'p10' : ''}${faster ? 'speedup' : 'slowdown'}`;
  return [N.ratio(`${name}|${r}|${s.label}|${b.label}`, faster ? t.ratio : 1 / t.ratio)];
}

/** Too few calls: what the test can reach with them at best, and how many would do. */
function tooFewSentence(t: TimeComparison, s: ModeResult, b: ModeResult, r: number, what: string): Paragraph {
  const calls = [
    N.count(key('calls', r, s.label), s.calls.totalNs.length),
    ' and ',
    N.count(key('calls', r, b.label), b.calls.totalNs.length),
  ];
  const need = N.count(`needCalls.${t.statistic}|${r}`, t.needCalls ?? NaN);
  if (t.statistic === 'p10')
    return [
      `${what}: too few timed calls to test (`,
      ...calls,
      ` cannot bound a p10 at ${level()}); `,
      need,
      ' timed calls per mode (calls × processes) would.',
    ];
  return [
    `${what}: too few timed calls to test (with `,
    ...calls,
    ' timed calls the smallest p-value the Mann–Whitney test can reach is ',
    N.p(`minP|${r}|${s.label}|${b.label}`, mannWhitneyMinP(s.calls.totalNs.length, b.calls.totalNs.length)),
    `, not below ${SIGNIFICANCE}); `,
    need,
    ' timed calls per mode (calls × processes) would.',
  ];
}

/** The fastest mode against the runner-up, or why none is named. */
function primarySentence(h: Headline, result: ProfileResult, r: number): Paragraph {
  const s = modeOf(result, h.subject);
  const b = modeOf(result, h.baseline);
  const t = h.time;
  if (!t || !s || !b || h.sameCode) return [`${h.text}.`];
  if (t.verdict === 'too-few-calls') return tooFewSentence(t, s, b, r, 'Which mode is fastest');
  if (t.verdict !== 'faster') {
    return [
      `No mode is clearly fastest: ${list(h.tied)} are within the noise of each other (the two fastest, ${s.label} and ${b.label}: `,
      ...figures(t, s, b, r),
      ...evidence(t, s, b, r),
      ').',
    ];
  }
  return [
    `${s.label} is the fastest mode: `,
    ...factor(t, s, b, r),
    ` faster per call${t.statistic === 'p10' ? ' at p10' : ''} than the runner-up, ${b.label} (`,
    ...figures(t, s, b, r),
    ...evidence(t, s, b, r),
    ').',
  ];
}

/** An EXTERNAL layout against POOL (or SCOPED). */
function pairSentence(h: Headline, s: ModeResult, b: ModeResult, r: number): Paragraph {
  const t = h.time!;
  if (t.verdict === 'too-few-calls') return tooFewSentence(t, s, b, r, `${s.label} against ${b.label}`);
  if (t.verdict === 'faster' || t.verdict === 'slower') {
    return [
      `${s.label} is `,
      ...factor(t, s, b, r),
      ` ${t.verdict} per call${t.statistic === 'p10' ? ' at p10' : ''} than ${b.label} (`,
      ...figures(t, s, b, r),
      ...evidence(t, s, b, r),
      ').',
    ];
  }
  const none = t.statistic === 'p10' ? 'no clear difference at p10' : 'no significant difference in time per call';
  return [
    `${s.label} and ${b.label} show ${none}: `,
    ...figures(t, s, b, r),
    ...evidence(t, s, b, r),
    ` (a difference is claimed only when ${t.statistic === 'p10' ? 'the intervals do not overlap' : `p < ${SIGNIFICANCE}`}). On this program and machine, choosing between them does not change the call time beyond the noise.`,
  ];
}

/** GPU results: the verdict above is on host time; this is the same pair on device time (CUDA events). */
function deviceSentence(h: Headline, s: ModeResult | undefined, b: ModeResult | undefined, r: number): Paragraph {
  const lead =
    'These times are host time per call, with the device synchronised before the clock stops, so they include the host side of every CUDA allocation call.';
  const d = h.device;
  if (!d || !s?.gpu || !b?.gpu) return [`${lead} Device times were not recorded for both modes.`];
  const pair = `${s.label}|${b.label}`;
  const p10 = d.statistic === 'p10';
  const q = p10 ? 'deviceP10' : 'deviceMedian';
  const figures = [
    p10 ? 'p10 ' : 'median ',
    N.ns(key(q, r, s.label), d.values.subject),
    ' vs ',
    N.ns(key(q, r, b.label), d.values.baseline),
  ];
  const how = p10
    ? [`; their ${level()} intervals ${d.verdict === 'no-difference' ? 'overlap' : 'do not overlap'}`]
    : ['; ', N.p(`deviceP|${r}|${pair}`, d.p)];
  if (d.verdict === 'faster' || d.verdict === 'slower') {
    const f = d.verdict === 'faster' ? d.ratio : 1 / d.ratio;
    const ratioKey = `${p10 ? 'deviceP10' : 'device'}${d.verdict === 'faster' ? 'Speedup' : 'Slowdown'}|${r}|${pair}`;
    return [
      `${lead} On device time (CUDA events), ${s.label} is `,
      N.ratio(ratioKey, f),
      ` ${d.verdict} per call${p10 ? ' at p10' : ''} (`,
      ...figures,
      ...how,
      ').',
    ];
  }
  if (d.verdict === 'no-difference')
    return [
      `${lead} On device time (CUDA events) they show no ${p10 ? 'clear difference at p10' : 'significant difference'}: `,
      ...figures,
      ...how,
      '.',
    ];
  return [`${lead} On device time: too few calls to test a difference (`, ...figures, ').'];
}

/** What each mode holds for its transients: the memory side of "which mode". */
function memorySentence(result: ProfileResult, r: number): Paragraph {
  const out: Paragraph = [
    'Memory held for transients (the workspace and init allocations for the whole run, plus the most bytes live at once inside a call): ',
  ];
  result.modes.forEach((m, i) => {
    const h = heldMemory(m);
    out.push(i ? (i === result.modes.length - 1 ? ' and ' : ', ') : '', `${m.label} `);
    if (h.bytes === null) out.push(h.text);
    else if (h.bytes === 0) out.push('nothing');
    else out.push(N.bytes(key('held', r, m.label), h.bytes), h.text.slice(h.text.indexOf(' (')));
  });
  out.push('.');
  return out;
}

function allocationSentence(s: ModeResult, b: ModeResult, r: number): Paragraph {
  const allocsS = s.summary.allocsPerCall;
  const allocsB = b.summary.allocsPerCall;
  const freesS = perCall.frees(s);
  const freesB = perCall.frees(b);
  const out: Paragraph = [];
  const saved = allocsB - allocsS;
  const savedFrees = freesB - freesS;
  if (Math.abs(saved) < 0.05 && Math.abs(savedFrees) < 0.05) {
    out.push(
      allocsS === 0
        ? `Neither ${s.label} nor ${b.label} allocates during a call.`
        : `${s.label} and ${b.label} make the same number of allocations per call (`,
      ...(allocsS === 0 ? [] : [N.count(key('allocsPerCall', r, s.label), allocsS), ').']),
    );
  } else {
    out.push(
      `${s.label} ${saved >= 0 ? 'removes' : 'adds'} `,
      N.count(`allocsSaved|${r}|${s.label}|${b.label}`, Math.abs(saved)),
      ` allocation${Math.abs(saved) === 1 ? '' : 's'} and `,
      N.count(`freesSaved|${r}|${s.label}|${b.label}`, Math.abs(savedFrees)),
      ` free${Math.abs(savedFrees) === 1 ? '' : 's'} per call: ${b.label} makes `,
      N.count(key('allocsPerCall', r, b.label), allocsB),
      ' allocations and ',
      N.count(key('freesPerCall', r, b.label), freesB),
      ' frees per call and spends ',
      N.ns(key('allocatorNs', r, b.label), perCall.allocatorNs(b)),
      ' of each call inside the allocator (',
      N.percent(key('allocShare', r, b.label), b.summary.allocShare),
      ` of its time); ${s.label} makes `,
      N.count(key('allocsPerCall', r, s.label), allocsS),
      ' and ',
      N.count(key('freesPerCall', r, s.label), freesS),
      '.',
    );
  }
  const fb = b.summary.minorFaultsPerCall;
  const fs = s.summary.minorFaultsPerCall;
  if (Number.isFinite(fb) && Number.isFinite(fs) && fb > fs + 0.5) {
    out.push(
      ` ${b.label} also takes `,
      N.count(key('faultsPerCall', r, b.label), fb),
      ' minor page faults per call to ',
      N.count(key('faultsPerCall', r, s.label), fs),
      ` for ${s.label}: memory allocated afresh is touched page by page again on every call, a cost that lands in the computation rather than in the allocator.`,
    );
  }
  return out;
}

function workspaceSentence(result: ProfileResult, r: number, view: AnalysisView | null): Paragraph | null {
  const packed = result.modes.find((m) => m.mode === 'EXTERNAL' && m.layout === 'packed');
  const dace = result.modes.find((m) => m.mode === 'EXTERNAL' && m.layout === 'dace');
  const packedBytes = packed ? workspaceSum(packed) : null;
  const daceBytes = dace ? workspaceSum(dace) : null;
  let p: number | null = null;
  let d: number | null = null;
  let keys = { p: '', d: '' };
  if (packedBytes !== null && daceBytes !== null) {
    [p, d] = [packedBytes, daceBytes];
    keys = { p: key('workspace', r, packed!.label), d: key('workspace', r, dace!.label) };
  } else if (view && view.workspace.length && view.workspace.every((w) => w.packed && w.dace.bytes !== null)) {
    p = view.workspace.reduce((s, w) => s + num(w.packed!.bytes), 0);
    d = view.workspace.reduce((s, w) => s + num(w.dace.bytes), 0);
    keys = { p: 'analysis|workspace.packed', d: 'analysis|workspace.dace' };
  }
  const lower =
    view && view.workspace.length && view.workspace.every((w) => w.packed)
      ? view.workspace.reduce((s, w) => s + num(w.packed!.lowerBound), 0)
      : null;
  if (p === null || d === null) {
    const only = packed ?? dace;
    const bytes = only ? workspaceSum(only) : null;
    if (!only || bytes === null)
      return view && view.workspace.length === 0 ? ['No transient is eligible for the EXTERNAL workspace.'] : null;
    return [
      `The ${only.layout === 'packed' ? 'lifetime-packed' : 'DaCe-layout'} workspace of ${only.label} is `,
      N.bytes(key('workspace', r, only.label), bytes),
      '.',
    ];
  }
  const out: Paragraph = [
    'The EXTERNAL workspace is ',
    N.bytes(keys.p, p),
    " with Transient Lab's lifetime-packed layout vs ",
    N.bytes(keys.d, d),
    " in DaCe's back-to-back layout",
  ];
  if (d > p)
    out.push(': packing saves ', N.bytes(`workspaceSaved|${r}`, d - p), ' (', N.percent(`workspaceSavedShare|${r}`, (d - p) / d), ')');
  else if (d === p) out.push(': the same size, packing finds no reuse on this program');
  else out.push(': packing costs ', N.bytes(`workspaceCost|${r}`, p - d), ' more, as alignment takes more than reuse gains');
  if (lower !== null) {
    out.push(
      p === lower
        ? '; the packed layout reaches the lower bound (the most bytes live at once, '
        : '; no layout can be smaller than the most bytes live at once, ',
      N.bytes('analysis|workspace.lowerBound', lower),
      ')',
    );
  }
  out.push('.');
  return out;
}

function transientsSentence(view: AnalysisView | null, note: string): Paragraph {
  if (!view) return ['Which transients stay scoped, and why, comes from the program’s analysis, which this report does not have: ', note];
  const f = (fate: (typeof FATES)[number]): number => view.totals.fates[FATES.indexOf(fate)] ?? 0;
  const t = view.table;
  const scopedRows: number[] = [];
  for (let i = 0; i < t.count; i++) if (FATES[t.fate[i]!] === 'scoped') scopedRows.push(i);
  const out: Paragraph = [
    N.count('analysis|holdingMemory', view.totals.holdingMemory),
    ` of the program’s `,
    N.count('analysis|transients', view.totals.transients),
    ' transients hold memory: ',
    N.count('analysis|fate.external', f('external')),
    ' move into the workspace in EXTERNAL (and to init in PERSISTENT), ',
    N.count('analysis|fate.persistent', f('persistent')),
    ' move to init in PERSISTENT only, and ',
    N.count('analysis|fate.scoped', f('scoped')),
    scopedRows.length === 1 ? ' stays scoped' : ' stay scoped',
  ];
  if (!scopedRows.length) out.push(' (allocated on every call in every mode).');
  else {
    const byReason = new Map<string, string[]>();
    for (const i of scopedRows) {
      const reason = t.reason[i]! < 0 ? 'no reason recorded' : t.dict.reason[t.reason[i]!]!;
      const list = byReason.get(reason) ?? [];
      list.push(t.id[i]!);
      byReason.set(reason, list);
    }
    const groups = [...byReason.entries()].sort((a, b) => b[1].length - a[1].length);
    const shown = groups.slice(0, 4).map(([reason, ids]) => {
      const names = ids.length <= 4 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
      return `${names}: ${reason.length > 160 ? `${reason.slice(0, 157)}…` : reason}`;
    });
    const rest = groups.length > 4 ? `; and ${groups.length - 4} other reasons (see the transients table)` : '';
    out.push(`, allocated on every call in every mode, because of what the eligibility rules found (${shown.join('; ')}${rest}).`);
  }
  const fixed = f('init') + f('workspace');
  if (fixed) out.push(' ', N.count('analysis|fate.fixed', fixed), ' more are already Persistent or External in the file.');
  return out;
}

/** The verdict of result `r` (the reference, in a comparison). */
export function verdictParagraphs(result: ProfileResult, r: number, view: AnalysisView | null, analysisNote: string): Paragraph[] {
  const out: Paragraph[] = [];
  const v = profileVerdict(result);
  const noise = noiseParagraph(v, r);
  if (noise) out.push(noise);
  const p = v.primary;
  const same = (h: Headline): boolean => h.subject === p.subject && h.baseline === p.baseline && p.time?.verdict === 'faster';
  const time: Paragraph = [...primarySentence(p, result, r)];
  for (const h of v.secondary) {
    const s = modeOf(result, h.subject);
    const b = modeOf(result, h.baseline);
    if (same(h) || (p.sameCode && h.sameCode)) continue;
    time.push(' ', ...(!h.time || !s || !b || h.sameCode ? [`${h.text}.`] : pairSentence(h, s, b, r)));
  }
  const pair = v.secondary[0];
  if (pair?.basis === 'host') time.push(' ', ...deviceSentence(pair, modeOf(result, pair.subject), modeOf(result, pair.baseline), r));
  if (result.notes.some((n) => n.startsWith('POOL generated the same code as SCOPED'))) {
    time.push(' On CPU, POOL runs the same code as SCOPED (DaCe pools only GPU_Global arrays).');
  }
  out.push(time);
  // Allocations: the winner against the runner-up, then the tool's own pair (EXTERNAL against POOL).
  const pairs: Array<[ModeResult, ModeResult]> = [];
  const add = (h: Headline | undefined): void => {
    const s = modeOf(result, h?.subject ?? null);
    const b = modeOf(result, h?.baseline ?? null);
    if (s && b && !pairs.some(([x, y]) => x === s && y === b)) pairs.push([s, b]);
  };
  if (p.time?.verdict === 'faster' && !p.sameCode) add(p);
  add(pair);
  const allocs: Paragraph = [];
  for (const [s, b] of pairs) allocs.push(...(allocs.length ? [' '] : []), ...allocationSentence(s, b, r));
  if (allocs.length) out.push(allocs);
  out.push(memorySentence(result, r));
  const ws = workspaceSentence(result, r, view);
  if (ws) out.push(ws);
  out.push(transientsSentence(view, analysisNote));
  const badge = verificationBadge(result);
  out.push(
    badge.ok
      ? [
          `${badge.text}, checked before any timing (poisoned memory, guarded workspace slots); no uninitialised read, no workspace overflow.`,
        ]
      : [`${badge.text}. `, badge.details.slice(0, 3).join(' '), ' Timings of modes that compute different outputs are not comparable.'],
  );
  const caveats: string[] = [...result.warnings.filter((w) => /busy/.test(w)).map((w) => `Caveat: ${w}.`)];
  if (result.modes.some((m) => m.eventsOverflowed))
    caveats.push('Caveat: the allocation event buffer overflowed in some calls, so allocation counts and times are lower bounds.');
  if (caveats.length) out.push([caveats.join(' ')]);
  return out;
}
