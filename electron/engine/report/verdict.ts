/**
 * The verdict paragraph: what the result says about the memory modes, in sentences whose every number comes
 * from the result (or from the program's analysis, for the workspace and the transients). Whether two modes
 * differ in time is the profiler's own Mann–Whitney verdict (view/headline.ts); when it finds no difference
 * the verdict says so instead of naming a winner.
 */
import type { ModeResult, ProfileResult } from '../profile/result.js';
import { SIGNIFICANCE } from '../profile/format.js';
import { num } from '../view/analysis-doc.js';
import { profileHeadlines, verificationBadge, type Headline } from '../view/headline.js';
import { FATES, type AnalysisView } from '../view/types.js';
import { key, N, perCall, workspaceSum } from './numbers.js';
import type { Paragraph } from './types.js';

const modeOf = (result: ProfileResult, label: string | null): ModeResult | undefined => result.modes.find((m) => m.label === label);

function timeSentence(h: Headline, s: ModeResult, b: ModeResult, r: number): Paragraph {
  const t = h.time!;
  const pair = `${s.label}|${b.label}`;
  const medians = [N.ns(key('median', r, s.label), s.summary.medianNs), ' vs ', N.ns(key('median', r, b.label), b.summary.medianNs)];
  const p = N.p(`p|${r}|${pair}`, t.p);
  if (t.verdict === 'faster' || t.verdict === 'slower') {
    const factor = t.verdict === 'faster' ? t.ratio : 1 / t.ratio;
    return [
      `${s.label} is `,
      N.ratio(`${t.verdict === 'faster' ? 'speedup' : 'slowdown'}|${r}|${pair}`, factor),
      ` ${t.verdict} per call than ${b.label} (median `,
      ...medians,
      '; two-sided Mann–Whitney ',
      p,
      ' over ',
      N.count(key('calls', r, s.label), s.calls.totalNs.length),
      ' and ',
      N.count(key('calls', r, b.label), b.calls.totalNs.length),
      ' timed calls).',
    ];
  }
  if (t.verdict === 'no-difference') {
    return [
      `${s.label} and ${b.label} show no significant difference in time per call: medians `,
      ...medians,
      ', two-sided Mann–Whitney ',
      p,
      ` (a difference is claimed only when p < ${SIGNIFICANCE}). On this program and machine, choosing between them does not change the call time beyond the noise.`,
    ];
  }
  return [`${s.label} and ${b.label}: too few timed calls to test a difference (medians `, ...medians, '); profile with more calls.'];
}

/** GPU results: the verdict above is on host time; this is the same pair on device time (CUDA events). */
function deviceSentence(h: Headline, s: ModeResult | undefined, b: ModeResult | undefined, r: number): Paragraph {
  const lead = 'These times are host time per call, with the device synchronised before the clock stops, so they include the host side of every CUDA allocation call.';
  const d = h.device;
  if (!d || !s?.gpu || !b?.gpu) return [`${lead} Device times were not recorded for both modes.`];
  const pair = `${s.label}|${b.label}`;
  const medians = [N.ns(key('deviceMedian', r, s.label), s.gpu.deviceMedianNs), ' vs ', N.ns(key('deviceMedian', r, b.label), b.gpu.deviceMedianNs)];
  const p = N.p(`deviceP|${r}|${pair}`, d.p);
  if (d.verdict === 'faster' || d.verdict === 'slower') {
    const factor = d.verdict === 'faster' ? d.ratio : 1 / d.ratio;
    return [`${lead} On device time (CUDA events), ${s.label} is `, N.ratio(`${d.verdict === 'faster' ? 'deviceSpeedup' : 'deviceSlowdown'}|${r}|${pair}`, factor), ` ${d.verdict} per call (median `, ...medians, '; ', p, ').'];
  }
  if (d.verdict === 'no-difference') return [`${lead} On device time (CUDA events) they show no significant difference: medians `, ...medians, ', ', p, '.'];
  return [`${lead} On device time: too few calls to test a difference (medians `, ...medians, ').'];
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
      allocsS === 0 ? `Neither ${s.label} nor ${b.label} allocates during a call.` : `${s.label} and ${b.label} make the same number of allocations per call (`,
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
  const lower = view && view.workspace.length && view.workspace.every((w) => w.packed) ? view.workspace.reduce((s, w) => s + num(w.packed!.lowerBound), 0) : null;
  if (p === null || d === null) {
    const only = packed ?? dace;
    const bytes = only ? workspaceSum(only) : null;
    if (!only || bytes === null) return view && view.workspace.length === 0 ? ['No transient is eligible for the EXTERNAL workspace.'] : null;
    return [`The ${only.layout === 'packed' ? 'lifetime-packed' : "DaCe-layout"} workspace of ${only.label} is `, N.bytes(key('workspace', r, only.label), bytes), '.'];
  }
  const out: Paragraph = ['The EXTERNAL workspace is ', N.bytes(keys.p, p), " with Transient Lab's lifetime-packed layout vs ", N.bytes(keys.d, d), " in DaCe's back-to-back layout"];
  if (d > p) out.push(': packing saves ', N.bytes(`workspaceSaved|${r}`, d - p), ' (', N.percent(`workspaceSavedShare|${r}`, (d - p) / d), ')');
  else if (d === p) out.push(': the same size, packing finds no reuse on this program');
  else out.push(': packing costs ', N.bytes(`workspaceCost|${r}`, p - d), ' more, as alignment takes more than reuse gains');
  if (lower !== null) {
    out.push(p === lower ? '; the packed layout reaches the lower bound (the most bytes live at once, ' : '; no layout can be smaller than the most bytes live at once, ', N.bytes('analysis|workspace.lowerBound', lower), ')');
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
  const headlines = profileHeadlines(result);
  const time: Paragraph = [];
  for (const h of headlines) {
    const s = modeOf(result, h.subject);
    const b = modeOf(result, h.baseline);
    if (!h.time || !s || !b) time.push(`${h.text}.`);
    else time.push(...(time.length ? [' '] : []), ...timeSentence(h, s, b, r));
  }
  const first0 = headlines[0];
  if (first0?.basis === 'host') time.push(' ', ...deviceSentence(first0, modeOf(result, first0.subject), modeOf(result, first0.baseline), r));
  if (result.notes.some((n) => n.startsWith('POOL generated the same code as SCOPED'))) {
    time.push(' On CPU, POOL runs the same code as SCOPED (DaCe pools only GPU_Global arrays).');
  }
  out.push(time);
  const first = headlines[0]!;
  const s = modeOf(result, first.subject);
  const b = modeOf(result, first.baseline);
  if (s && b) out.push(allocationSentence(s, b, r));
  const ws = workspaceSentence(result, r, view);
  if (ws) out.push(ws);
  out.push(transientsSentence(view, analysisNote));
  const badge = verificationBadge(result);
  out.push(
    badge.ok
      ? [`${badge.text}, checked before any timing (poisoned memory, guarded workspace slots); no uninitialised read, no workspace overflow.`]
      : [`${badge.text}. `, badge.details.slice(0, 3).join(' '), ' Timings of modes that compute different outputs are not comparable.'],
  );
  const caveats: string[] = [...result.warnings.filter((w) => /busy/.test(w)).map((w) => `Caveat: ${w}.`)];
  if (result.modes.some((m) => m.eventsOverflowed)) caveats.push('Caveat: the allocation event buffer overflowed in some calls, so allocation counts and times are lower bounds.');
  if (caveats.length) out.push([caveats.join(' ')]);
  return out;
}

