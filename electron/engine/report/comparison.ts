/**
 * Several results in one report (two machines, before/after a change): whether they profile the same program
 * (file hash), what else differs between the runs, and per mode whether a later result differs from the first
 * beyond the noise — the Mann–Whitney test over the per-call samples of that mode in both results, plus the
 * ratio of medians; at p10 with distribution-free intervals where either side is noisy (view/verdict.ts
 * `compareResults`).
 */
import type { ProfileResult } from '../profile/result.js';
import { intervalConfidence } from '../profile/significance.js';
import { formatP } from '../view/format.js';
import { compareResults, isGpuResult, type TimeComparison } from '../view/verdict.js';
import { N } from './numbers.js';
import type { Comparison, ComparisonRow, LabelledResult, Paragraph } from './types.js';

const short = (hash: string): string => hash.slice(0, 12);

function symbolsText(r: ProfileResult): string {
  return (
    Object.entries(r.settings.symbols)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ') || 'none'
  );
}

/** The run facts that, when they differ, make a comparison mean something else. */
const FACTS: Array<[string, (r: ProfileResult) => string]> = [
  ['target', (r) => (r.device ? `GPU (${r.device.name})` : isGpuResult(r) ? 'GPU' : 'CPU')],
  ['CPU', (r) => `${r.machine.cpu} (${r.machine.cores} cores)`],
  ['compiler', (r) => r.machine.compiler],
  ['compiler flags', (r) => (r.settings.cxxflags ?? []).join(' ') || 'not recorded'],
  ['OS', (r) => r.machine.os],
  ['symbols', symbolsText],
  ['calls', (r) => `${r.settings.processes} × ${r.settings.calls}`],
  ['warm-up', (r) => String(r.settings.warmup)],
  ['seed', (r) => String(r.settings.seed)],
];

function identity(results: LabelledResult[]): Paragraph {
  const hashes = new Set(results.map((x) => x.result.program.hash));
  if (hashes.size === 1) {
    const p = results[0]!.result.program;
    return [`All ${results.length} results profile the same program, ${p.name} (sha256 ${short(p.hash)}…, the same file bytes).`];
  }
  const parts = results.map((x) => `${x.label} profiles ${x.result.program.name} (sha256 ${short(x.result.program.hash)}…)`);
  return [
    `The programs differ: ${parts.join(', ')}. Differences below include the effect of changing the program, not only of the machine or the settings.`,
  ];
}

function differences(results: LabelledResult[]): Paragraph {
  const ref = results[0]!;
  const changed: string[] = [];
  for (const [name, get] of FACTS) {
    const a = get(ref.result);
    const others = results
      .slice(1)
      .map((x) => [x.label, get(x.result)] as const)
      .filter(([, b]) => b !== a);
    if (others.length) changed.push(`${name} (${ref.label}: ${a}; ${others.map(([l, b]) => `${l}: ${b}`).join('; ')})`);
  }
  if (!changed.length)
    return ['The runs share the machine description (CPU, compiler, flags, OS) and the settings (symbols, calls, warm-up, seed).'];
  return [`What differs between the runs besides the timings: ${changed.join('; ')}.`];
}

const pct = (x: number): string => `${Number((x * 100).toPrecision(3))} %`;

/** The test column: Mann–Whitney's p, or whether the p10 intervals overlap. */
function testText(t: TimeComparison): string {
  if (t.verdict === 'too-few-calls') return 'too few calls';
  if (t.statistic === 'p10') return t.verdict === 'no-difference' ? 'p10 intervals overlap' : 'p10 intervals apart';
  return formatP(t.p);
}

export function buildComparison(results: LabelledResult[]): Comparison | null {
  if (results.length < 2) return null;
  const changes = compareResults(results.map(({ label, result }) => ({ label, result })));
  const rows: ComparisonRow[] = changes.map((c) => ({
    mode: c.mode,
    reference: c.reference,
    other: c.other,
    referenceMedianNs: c.time.medians.baseline,
    otherMedianNs: c.time.medians.subject,
    ratio: c.time.ratio,
    p: c.time.p,
    verdict: c.time.verdict,
    statistic: c.time.statistic,
    referenceValueNs: c.time.values.baseline,
    otherValueNs: c.time.values.subject,
    test: testText(c.time),
    noise: c.noise,
    allocsDelta: c.allocsDelta,
    text: c.text,
  }));
  const labels = new Set(results.flatMap((x) => x.result.modes.map((m) => m.label)));
  const unmatched = [...labels].filter((l) => !results.every((x) => x.result.modes.some((m) => m.label === l)));

  const findings: Paragraph = [];
  results.slice(1).forEach((o, i) => {
    const r = i + 1;
    const mine = rows.filter((x) => x.other === o.label);
    const moved = mine.filter((x) => x.verdict === 'faster' || x.verdict === 'slower');
    const still = mine.filter((x) => x.verdict === 'no-difference');
    const untested = mine.filter((x) => x.verdict === 'too-few-calls');
    if (findings.length) findings.push(' ');
    findings.push(`${o.label} against ${results[0]!.label}: `);
    if (!moved.length) findings.push(`no mode changed beyond the noise${still.length ? ` (${still.map((x) => x.mode).join(', ')})` : ''}`);
    moved.forEach((x, k) => {
      const factor = x.verdict === 'faster' ? x.ratio : 1 / x.ratio;
      const p10 = x.statistic === 'p10';
      const q = p10 ? 'p10' : 'median';
      findings.push(
        k ? '; ' : '',
        `${x.mode} is `,
        N.ratio(`cmp.${p10 ? `p10${x.verdict}` : x.verdict}|${r}|${x.mode}`, factor),
        ` ${x.verdict}${p10 ? ' at p10' : ''} (${q} `,
        N.ns(`${q}|${r}|${x.mode}`, x.otherValueNs),
        ' vs ',
        N.ns(`${q}|0|${x.mode}`, x.referenceValueNs),
        ', ',
        p10 ? x.test : N.p(`cmp.p|${r}|${x.mode}`, x.p),
        ')',
      );
    });
    if (still.length && moved.length) findings.push(`; within the noise: ${still.map((x) => x.mode).join(', ')}`);
    if (untested.length) findings.push(`; too few calls to test: ${untested.map((x) => x.mode).join(', ')}`);
    findings.push('.');
  });
  const paragraphs: Paragraph[] = [identity(results), differences(results), findings];
  const noisy = rows.filter((x) => x.noise.length);
  if (noisy.length) {
    paragraphs.push([
      `Noisy samples are compared at p10 (the fastest tenth of the calls), not at the median, and said to differ only when their ${pct(intervalConfidence())} intervals do not overlap: ${noisy.map((x) => `${x.mode}, ${x.other} against ${x.reference} (${x.noise.join('; ')})`).join('; ')}.`,
    ]);
  }
  if (changes.some((c) => c.crossTarget)) {
    paragraphs.push([
      'CPU and GPU results are compared here on host time per call (on the GPU, with the device synchronised before the clock stops): the two measure different machines running different code, so read these ratios as a comparison of platforms, not of memory modes.',
    ]);
  }
  if (unmatched.length) paragraphs.push([`Modes not run in every result (not compared): ${unmatched.join(', ')}.`]);
  return { paragraphs, rows, unmatched };
}
