/**
 * The report model: every number the generated text shows is looked up again in the result (by its key) and
 * must equal it; the verdict follows the profiler's significance test; comparisons flag what changed; the
 * JSON format is the validated result itself.
 */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import type { ModeResult, ProfileResult } from '../../electron/engine/profile/result.js';
import { mannWhitney, quantile, summarize } from '../../electron/engine/profile/stats.js';
import { compareQuantile, mannWhitneyMinCalls, mannWhitneyMinP, quantileMinCalls } from '../../electron/engine/profile/significance.js';
import { pText } from '../../electron/engine/report/numbers.js';
import {
  buildReport,
  callsCsv,
  CALL_COLUMNS,
  loadReportAssets,
  parseCsv,
  renderHtml,
  reportJson,
  runsText,
  summaryCsv,
  SUMMARY_COLUMNS,
  type NumberRun,
  type Paragraph,
  type ReportModel,
} from '../../electron/engine/report/index.js';
import { withSyntheticGpu } from '../fixtures/synthetic-gpu.js';
import { FATES, type AnalysisView } from '../../electron/engine/view/types.js';
import { profileResultSchema } from '../../electron/ipc/result-schema.js';
import { TlabError } from '../../electron/engine/errors.js';
import { clone, FIXTURE, labelled, loadResult, reportInput } from './fixtures.js';

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const ws = (m: ModeResult): number => Object.values(m.workspaceBytes).reduce((s, b) => s + b, 0);

/** The value a key names, computed here from the result (and the analysis view) without the report's code. */
function expectedValue(key: string, results: ProfileResult[], view: AnalysisView | null): number {
  const [q, r, a, b] = key.split('|') as [string, string, string | undefined, string | undefined];
  if (q === 'analysis') {
    if (!view) throw new Error(`analysis key ${key} without an analysis`);
    const fate = (f: string): number => Array.from(view.table.fate.slice(0, view.table.count)).filter((x) => FATES[x] === f).length;
    if (r === 'holdingMemory') return view.totals.holdingMemory;
    if (r === 'transients') return view.totals.transients;
    if (r === 'workspace.lowerBound') return view.workspace.reduce((s, w) => s + Number(w.packed!.lowerBound), 0);
    if (r === 'workspace.packed') return view.workspace.reduce((s, w) => s + Number(w.packed!.bytes), 0);
    if (r === 'workspace.dace') return view.workspace.reduce((s, w) => s + Number(w.dace.bytes), 0);
    if (r === 'fate.fixed') return fate('init') + fate('workspace');
    if (r.startsWith('fate.')) return fate(r.slice(5));
    throw new Error(`unknown analysis key ${key}`);
  }
  const result = results[Number(r)]!;
  const mode = (label: string | undefined): ModeResult => {
    const m = result.modes.find((x) => x.label === label);
    if (!m) throw new Error(`${key}: no mode ${label}`);
    return m;
  };
  const modeIn = (i: number, label: string | undefined): ModeResult => results[i]!.modes.find((x) => x.label === label)!;
  const packed = result.modes.find((m) => m.mode === 'EXTERNAL' && m.layout === 'packed')!;
  const dace = result.modes.find((m) => m.mode === 'EXTERNAL' && m.layout === 'dace')!;
  const p10 = (xs: readonly number[]): number =>
    quantile(
      [...xs].sort((x, y) => x - y),
      0.1,
    );
  /** Median call time of each timing process (calls in process order). */
  const processMedians = (m: ModeResult): number[] => {
    const { calls, processes } = result.settings;
    return Array.from({ length: processes }, (_, i) =>
      quantile(
        m.calls.totalNs.slice(i * calls, (i + 1) * calls).sort((x, y) => x - y),
        0.5,
      ),
    );
  };
  /** Workspace + init bytes + the most bytes live at once in the sampled call. */
  const held = (m: ModeResult): number => {
    let live = 0;
    let peak = 0;
    for (const e of m.sampledCall?.events ?? []) peak = Math.max(peak, (live += e.kind === 'alloc' ? e.bytes : -e.bytes));
    return ws(m) + (m.initBytes ?? 0) + peak;
  };
  switch (q) {
    case 'median':
      return mode(a).summary.medianNs;
    case 'p10speedup':
      return mode(b).summary.p10Ns / mode(a).summary.p10Ns;
    case 'p10slowdown':
      return mode(a).summary.p10Ns / mode(b).summary.p10Ns;
    case 'processMedianMin':
      return Math.min(...processMedians(mode(a)));
    case 'processMedianMax':
      return Math.max(...processMedians(mode(a)));
    case 'minP':
      return mannWhitneyMinP(mode(a).calls.totalNs.length, mode(b).calls.totalNs.length);
    case 'needCalls.median':
      return mannWhitneyMinCalls(0.01);
    case 'needCalls.p10':
      return quantileMinCalls(0.1, 0.995);
    case 'held':
      return held(mode(a));
    case 'deviceP10':
      return p10(mode(a).gpu!.deviceNs);
    case 'deviceP10Speedup':
      return p10(mode(b).gpu!.deviceNs) / p10(mode(a).gpu!.deviceNs);
    case 'deviceP10Slowdown':
      return p10(mode(a).gpu!.deviceNs) / p10(mode(b).gpu!.deviceNs);
    case 'cmp.p10faster':
      return modeIn(0, a).summary.p10Ns / mode(a).summary.p10Ns;
    case 'cmp.p10slower':
      return mode(a).summary.p10Ns / modeIn(0, a).summary.p10Ns;
    case 'p10':
      return mode(a).summary.p10Ns;
    case 'p90':
      return mode(a).summary.p90Ns;
    case 'calls':
      return mode(a).calls.totalNs.length;
    case 'allocsPerCall':
      return mean(mode(a).calls.allocs);
    case 'freesPerCall':
      return mean(mode(a).calls.frees);
    case 'allocatorNs':
      return mean(mode(a).calls.allocNs.map((x, i) => x + mode(a).calls.freeNs[i]!));
    case 'allocShare':
      return mode(a).summary.allocShare;
    case 'faultsPerCall':
      return mean(mode(a).calls.minorFaults);
    case 'workspace':
      return ws(mode(a));
    case 'speedup':
      return mode(b).summary.medianNs / mode(a).summary.medianNs;
    case 'slowdown':
      return mode(a).summary.medianNs / mode(b).summary.medianNs;
    case 'p':
      return mannWhitney(mode(a).calls.totalNs, mode(b).calls.totalNs).p;
    case 'allocsSaved':
      return Math.abs(mean(mode(b).calls.allocs) - mean(mode(a).calls.allocs));
    case 'freesSaved':
      return Math.abs(mean(mode(b).calls.frees) - mean(mode(a).calls.frees));
    case 'workspaceSaved':
      return ws(dace) - ws(packed);
    case 'workspaceSavedShare':
      return (ws(dace) - ws(packed)) / ws(dace);
    case 'workspaceCost':
      return ws(packed) - ws(dace);
    case 'settings.warmup':
      return result.settings.warmup;
    case 'settings.calls':
      return result.settings.calls;
    case 'settings.processes':
      return result.settings.processes;
    case 'settings.timedCalls':
      return result.settings.calls * result.settings.processes;
    case 'runnerOverhead':
      return Math.max(...result.modes.map((m) => m.runnerOverheadNsPerCall));
    case 'deviceMedian':
      return mode(a).gpu!.deviceMedianNs;
    case 'deviceSpeedup':
      return mode(b).gpu!.deviceMedianNs / mode(a).gpu!.deviceMedianNs;
    case 'deviceSlowdown':
      return mode(a).gpu!.deviceMedianNs / mode(b).gpu!.deviceMedianNs;
    case 'deviceP':
      return mannWhitney(mode(a).gpu!.deviceNs, mode(b).gpu!.deviceNs).p;
    case 'cmp.faster':
      return modeIn(0, a).summary.medianNs / mode(a).summary.medianNs;
    case 'cmp.slower':
      return mode(a).summary.medianNs / modeIn(0, a).summary.medianNs;
    case 'cmp.p':
      return mannWhitney(mode(a).calls.totalNs, modeIn(0, a).calls.totalNs).p;
    default:
      throw new Error(`unknown number key ${key}`);
  }
}

function numbersOf(m: ReportModel): NumberRun[] {
  const paragraphs: Paragraph[] = [
    ...m.verdict,
    ...(m.comparison?.paragraphs ?? []),
    ...m.methodology.flatMap((s) => [...s.paragraphs, ...(s.bullets ?? [])]),
  ];
  return paragraphs.flat().filter((x): x is NumberRun => typeof x !== 'string');
}

function checkNumbers(m: ReportModel, view: AnalysisView | null): number {
  const results = m.results.map((x) => x.result);
  const runs = numbersOf(m);
  for (const run of runs) {
    const want = expectedValue(run.key, results, view);
    expect(Number.isFinite(want), run.key).toBe(true);
    expect(run.value, run.key).toBeCloseTo(want, 9);
    expect(run.text, run.key).toMatch(/\d/);
  }
  return runs.length;
}

describe('report model', () => {
  test('every number of the verdict and the methodology is the result’s own', async () => {
    const input = await reportInput([labelled('hdiff', FIXTURE.run)]);
    expect(input.analysis.view, input.analysis.note).not.toBeNull();
    const m = buildReport(input);
    expect(checkNumbers(m, input.analysis.view)).toBeGreaterThan(25);
    const text = m.verdict.map(runsText).join('\n');
    // This run's processes disagree in every mode: the verdict says so first and compares p10, where
    // EXTERNAL (packed) and POOL are within the noise.
    expect(runsText(m.verdict[0]!)).toMatch(
      /^This run is noisy, so its medians are no fair summary: the 3 processes of SCOPED have medians from 36\.6 ms to 83\.7 ms; /,
    );
    expect(text).toMatch(/EXTERNAL \(packed\) and POOL show no clear difference at p10: p10 /);
    expect(text).not.toMatch(/EXTERNAL \(packed\) is [\d.]+× faster/);
    expect(text).toMatch(/removes 3 allocations and 3 frees per call/);
    expect(text).toMatch(/3 of the program’s 3 transients hold memory/);
    expect(m.headers[0]!.settings.find((f) => f.label === 'Symbols')!.value).toBe('I=128, J=128, K=40');
    expect(m.charts.map((c) => c.kind)).toEqual(['distribution', 'breakdown', 'calls', 'lifetime', 'workspace']);
    expect(m.missingCharts.map((c) => c.title)).toEqual(['Allocations of one call']);
    expect(m.transients!.rows.map((r) => r.name).sort()).toEqual(['flx', 'fly', 'lap']);
    expect(m.summary.map((s) => [s.label, s.medianNs])).toEqual(input.results[0]!.result.modes.map((x) => [x.label, x.summary.medianNs]));
  });

  test('a quiet run names the fastest mode with its factor, then EXTERNAL against POOL; a sampled call adds the allocation chart', async () => {
    const input = await reportInput([labelled('vadv', FIXTURE.clean)]);
    const m = buildReport(input);
    checkNumbers(m, input.analysis.view);
    const first = runsText(m.verdict[0]!);
    expect(first).toMatch(
      /^PERSISTENT is the fastest mode: 1\.\d\d× faster per call than the runner-up, EXTERNAL \(packed\) \(median \d+ µs vs \d+ µs; two-sided Mann–Whitney p < 0\.001 over 600 and 600 timed calls\)\. /,
    );
    expect(first).toMatch(/ EXTERNAL \(packed\) is 1\.\d\d× faster per call than POOL \(median /);
    expect(m.verdict.map(runsText).join('\n')).toMatch(
      /Memory held for transients .*: SCOPED [\d.]+ KiB \(per-call peak\), PERSISTENT [\d.]+ KiB \(init\), POOL [\d.]+ KiB \(per-call peak\) and EXTERNAL \(packed\) 960 KiB \(workspace\)\./,
    );
    expect(m.charts.map((c) => c.kind)).toContain('gantt');
    expect(m.missingCharts).toEqual([]);
  });

  test('a noisy run says so first and compares p10: no winner where the intervals overlap, a factor where they do not', async () => {
    // hdiff, 3 × 40 calls, every mode's processes disagree: the run that used to say "EXTERNAL (packed) is 1.42×
    // faster per call than POOL (p < 0.001)".
    const m = buildReport(await reportInput([labelled('hdiff', FIXTURE.sampled)], false));
    checkNumbers(m, null);
    expect(runsText(m.verdict[0]!)).toMatch(
      /^This run is noisy, so its medians are no fair summary: the 3 processes of SCOPED have medians from 154 ms to 337 ms; /,
    );
    expect(runsText(m.verdict[0]!)).toMatch(/Every comparison below is therefore made at p10/);
    const time = runsText(m.verdict[1]!);
    expect(time).toMatch(
      /^No mode is clearly fastest: PERSISTENT, EXTERNAL \(packed\), EXTERNAL \(dace\) and SCOPED are within the noise of each other/,
    );
    expect(time).toContain(
      'EXTERNAL (packed) and POOL show no clear difference at p10: p10 105 ms vs 203 ms; their 99.5 % intervals overlap',
    );
    expect(time).not.toMatch(/1\.42×/);
    // The quiet vadv run with one POOL process twice as slow: the processes disagree, EXTERNAL still wins at p10.
    const r = loadResult(FIXTURE.clean);
    const pool = r.modes.find((x) => x.label === 'POOL')!;
    pool.calls.totalNs = pool.calls.totalNs.map((t, i) => (i < r.settings.calls ? 2 * t : t));
    pool.summary = summarize(pool.calls);
    const slow = buildReport(await reportInput([{ label: 'slow', result: r, source: null }], false));
    checkNumbers(slow, null);
    expect(runsText(slow.verdict[0]!)).toMatch(
      /^This run is noisy, so its medians are no fair summary: .*the 3 processes of POOL have medians from \d+ µs to [\d.]+ ms\. /,
    );
    expect(runsText(slow.verdict[1]!)).toMatch(
      /EXTERNAL \(packed\) is 1\.\d\d× faster per call at p10 than POOL \(p10 \d+ µs vs \d+ µs; their 99\.5 % intervals do not overlap\)/,
    );
  });

  test('too few calls: says what the test can reach and how many calls would do', async () => {
    const r = loadResult(FIXTURE.clean);
    r.settings = { ...r.settings, calls: 2, processes: 1 };
    for (const m of r.modes) for (const c of Object.keys(m.calls) as Array<keyof ModeResult['calls']>) m.calls[c] = m.calls[c].slice(0, 2);
    const m = buildReport(await reportInput([{ label: 'short', result: r, source: null }], false));
    checkNumbers(m, null);
    expect(runsText(m.verdict[0]!)).toMatch(
      /^Which mode is fastest: too few timed calls to test \(with 2 and 2 timed calls the smallest p-value the Mann–Whitney test can reach is p = 0\.25, not below 0\.01\); 6 timed calls per mode \(calls × processes\) would\./,
    );
  });

  test('the allocation chart: missing from an older result, and said plainly when no mode allocates', async () => {
    const old = buildReport(await reportInput([labelled('old', FIXTURE.run)], false));
    expect(old.missingCharts[0]!.why).toMatch(/no sampled call \(written before profile@1 recorded allocation events\)/);
    const r = loadResult(FIXTURE.sampled);
    for (const m of r.modes) (m as unknown as { sampledCall: { events: unknown[] } }).sampledCall.events = [];
    const none = buildReport(await reportInput([{ label: 'none', result: r, source: null }], false));
    expect(none.charts.map((c) => c.kind)).not.toContain('gantt');
    expect(none.missingCharts[0]).toEqual({
      title: 'Allocations of one call',
      why: 'no mode allocates during a call: the sampled calls hold no allocation.',
    });
  });

  test('p-values next to the threshold are not rounded onto it', () => {
    expect([pText(0.0103), pText(0.0096), pText(0.13), pText(0.004), pText(0.0001)]).toEqual([
      'p = 0.0103',
      'p = 0.0096',
      'p = 0.13',
      'p = 0.004',
      'p < 0.001',
    ]);
  });

  test('identical call times: no winner is claimed', async () => {
    const r = loadResult(FIXTURE.clean);
    const pool = r.modes.find((m) => m.label === 'POOL')!;
    const packed = r.modes.find((m) => m.label === 'EXTERNAL (packed)')!;
    packed.calls.totalNs = [...pool.calls.totalNs];
    packed.summary = {
      ...packed.summary,
      medianNs: pool.summary.medianNs,
      p10Ns: pool.summary.p10Ns,
      p90Ns: pool.summary.p90Ns,
      meanNs: pool.summary.meanNs,
    };
    const m = buildReport(await reportInput([{ label: 'same', result: r, source: null }], false));
    checkNumbers(m, null);
    const first = runsText(m.verdict[0]!);
    expect(first).toMatch(
      / EXTERNAL \(packed\) and POOL show no significant difference in time per call: median (\d+ µs) vs \1; two-sided Mann–Whitney p = 1\.00 over 600 and 600 timed calls/,
    );
    // Without the analysis the report says why the lifetimes, the workspace map and the transients are missing.
    expect(m.transients).toBeNull();
    expect(m.missingCharts.map((c) => c.why).join(' ')).toMatch(/no analysis in this test/);
  });

  test('a comparison flags per mode what changed beyond the noise, with every number from the results', async () => {
    const slower = loadResult(FIXTURE.clean);
    const pool = slower.modes.find((x) => x.label === 'POOL')!;
    pool.calls.totalNs = pool.calls.totalNs.map((t) => t * 1.3);
    pool.summary = {
      ...pool.summary,
      medianNs: pool.summary.medianNs * 1.3,
      p10Ns: pool.summary.p10Ns * 1.3,
      p90Ns: pool.summary.p90Ns * 1.3,
      meanNs: pool.summary.meanNs * 1.3,
    };
    const input = await reportInput([labelled('before', FIXTURE.clean), { label: 'after', result: slower, source: null }]);
    const m = buildReport(input);
    checkNumbers(m, input.analysis.view);
    const c = m.comparison!;
    expect(c.rows.map((x) => x.mode)).toEqual(input.results[0]!.result.modes.map((x) => x.label));
    for (const row of c.rows) {
      const ref = input.results[0]!.result.modes.find((x) => x.label === row.mode)!;
      const other = input.results[1]!.result.modes.find((x) => x.label === row.mode)!;
      expect([row.referenceMedianNs, row.otherMedianNs, row.statistic]).toEqual([ref.summary.medianNs, other.summary.medianNs, 'median']);
      const p = mannWhitney(other.calls.totalNs, ref.calls.totalNs).p;
      expect(row.verdict).toBe(p >= 0.01 ? 'no-difference' : other.summary.medianNs < ref.summary.medianNs ? 'faster' : 'slower');
    }
    expect(runsText(c.paragraphs[2]!)).toBe(
      'after against before: POOL is 1.30× slower (median 955 µs vs 735 µs, p < 0.001); within the noise: SCOPED, PERSISTENT, EXTERNAL (packed).',
    );
    // Noisy results are compared at p10, each row saying which side is noisy and why.
    const noisy = buildReport(await reportInput([labelled('before', FIXTURE.run), labelled('after', FIXTURE.rerun)], false));
    checkNumbers(noisy, null);
    for (const row of noisy.comparison!.rows) {
      const ref = noisy.results[0]!.result.modes.find((x) => x.label === row.mode)!;
      const other = noisy.results[1]!.result.modes.find((x) => x.label === row.mode)!;
      expect(row.statistic).toBe('p10');
      expect(row.noise.length).toBeGreaterThan(0);
      const sorted = (xs: number[]) => Float64Array.from(xs).sort();
      const outcome = compareQuantile(sorted(other.calls.totalNs), sorted(ref.calls.totalNs), 0.1).outcome;
      expect(row.verdict).toBe({ lower: 'faster', higher: 'slower', overlap: 'no-difference', 'too-few-calls': 'too-few-calls' }[outcome]);
    }
    expect(runsText(noisy.comparison!.paragraphs[3]!)).toMatch(
      /^Noisy samples are compared at p10 \(the fastest tenth of the calls\), not at the median/,
    );
    // Same run against itself: nothing changed.
    const same = buildReport(await reportInput([labelled('a', FIXTURE.run), labelled('b', FIXTURE.run)], false));
    expect(same.comparison!.rows.every((x) => x.verdict === 'no-difference')).toBe(true);
    expect(runsText(same.comparison!.paragraphs[2]!)).toMatch(/^b against a: no mode changed beyond the noise/);
  });

  test('the JSON format is the result itself and validates against the documented schema', () => {
    const r = labelled('x', FIXTURE.run);
    const json = JSON.parse(reportJson([r]));
    expect(json).toEqual(JSON.parse(JSON.stringify(r.result)));
    expect(v.safeParse(profileResultSchema, json).success).toBe(true);
    const dated = { ...clone(json), createdAt: '2026-11-30T12:00:00.000Z' };
    expect(v.safeParse(profileResultSchema, dated).success).toBe(true);
    expect(v.safeParse(profileResultSchema, { ...dated, createdAt: 'yesterday' }).success).toBe(false);
    expect(() => reportJson([r, r])).toThrow(TlabError);
  });

  test('a GPU result (synthetic test fixture): device line, device verdict and pool table, every number keyed', async () => {
    const r = withSyntheticGpu(loadResult(FIXTURE.sampled));
    const m = buildReport(await reportInput([{ label: 'gpu', result: r, source: null }], false));
    checkNumbers(m, null);
    const verdict = m.verdict.map(runsText).join('\n');
    expect(verdict).toContain('These times are host time per call, with the device synchronised');
    // A noisy run (every mode's processes disagree): device time is compared at p10 too.
    expect(verdict).toContain(
      'On device time (CUDA events) they show no clear difference at p10: p10 62.7 ms vs 121 ms; their 99.5 % intervals overlap.',
    );
    const machine = Object.fromEntries(m.headers[0]!.machine.map((f) => [f.label, f.value]));
    expect(machine.GPU).toBe('GPU 0: Synthetic test device (not a real GPU) · 80.0 GiB · compute capability 9.0 · 132 SMs');
    expect(machine.Driver).toBe('CUDA driver 13.0 · runtime 13.0');
    expect(m.headers[0]!.settings.find((f) => f.label === 'Pool threshold')!.value).toMatch(/^UINT64_MAX/);
    const pool = m.summary.find((x) => x.label === 'POOL')!;
    expect(pool.gpu).toEqual({
      deviceMedianNs: r.modes.find((x) => x.label === 'POOL')!.gpu!.deviceMedianNs,
      pool: r.modes.find((x) => x.label === 'POOL')!.gpu!.pool,
    });
    const assets = await loadReportAssets();
    const html = renderHtml(m, null, assets);
    expect(html).toContain('<h3>On the device</h3>');
    // A CPU report has none of it.
    const cpu = buildReport(await reportInput([labelled('cpu', FIXTURE.sampled)], false));
    expect(renderHtml(cpu, null, assets)).not.toContain('On the device');
    expect(runsText(cpu.verdict[0]!)).not.toMatch(/host time|device/i);
  });

  test('a mode whose allocations nothing recorded (a DaCe build the hooks missed) reads n/m, never a measured-looking 0', async () => {
    const input = await reportInput([labelled('dace', FIXTURE.sampled)], false);
    const pers = input.results[0]!.result.modes.find((x) => x.mode === 'PERSISTENT')!;
    pers.allocationsMeasured = false;
    const html = renderHtml(buildReport(input), null, await loadReportAssets());
    const table = html.slice(html.indexOf('id="alloc-table"'), html.indexOf('</table>', html.indexOf('id="alloc-table"')));
    const row = (label: string) =>
      table.slice(table.indexOf(`data-mode="${label}"`), table.indexOf('</tr>', table.indexOf(`data-mode="${label}"`)));
    expect((row(pers.label).match(/>n\/m</g) ?? []).length).toBe(4);
    expect(row('SCOPED')).not.toContain('n/m');
  });

  test('CSV of a GPU result adds the device and pool columns; a CPU one keeps its columns', () => {
    const r = withSyntheticGpu(loadResult(FIXTURE.sampled));
    const calls = parseCsv(callsCsv([{ label: 'g', result: r, source: null }]));
    expect(calls[0]).toEqual([...CALL_COLUMNS, 'device_ns']);
    expect(Number(calls[1]![CALL_COLUMNS.length])).toBe(r.modes[0]!.gpu!.deviceNs[0]);
    const summary = parseCsv(summaryCsv([{ label: 'g', result: r, source: null }]));
    expect(summary[0]).toEqual([
      ...SUMMARY_COLUMNS,
      'device_median_ns',
      'pool_reserved_high_bytes',
      'pool_used_high_bytes',
      'pool_release_threshold',
    ]);
    const poolRow = summary.find((row) => row[4] === 'POOL')!;
    expect(poolRow.slice(SUMMARY_COLUMNS.length)).toEqual([
      String(r.modes[2]!.gpu!.deviceMedianNs),
      '20971520',
      '15975680',
      '18446744073709551615',
    ]);
    expect(parseCsv(callsCsv([labelled('c', FIXTURE.sampled)]))[0]).toEqual([...CALL_COLUMNS]);
    expect(parseCsv(summaryCsv([labelled('c', FIXTURE.sampled)]))[0]).toEqual([...SUMMARY_COLUMNS]);
  });

  test('a comparison of a CPU and a GPU result says it compares platforms', async () => {
    const m = buildReport(
      await reportInput(
        [labelled('cpu', FIXTURE.sampled), { label: 'gpu', result: withSyntheticGpu(loadResult(FIXTURE.rerun)), source: null }],
        false,
      ),
    );
    const text = m.comparison!.paragraphs.map(runsText).join('\n');
    expect(text).toContain('target (cpu: CPU; gpu: GPU (Synthetic test device (not a real GPU)))');
    expect(text).toContain('CPU and GPU results are compared here on host time per call');
  });
});

describe('library nodes in the header', () => {
  test('the settings say which expansion ran for each library node, and nothing when there are none', async () => {
    const plain = buildReport(await reportInput([{ label: 'a', result: loadResult(FIXTURE.sampled), source: null }], false));
    expect(plain.headers[0]!.settings.find((f) => f.label === 'Library nodes')).toBeUndefined();
    const r = clone(loadResult(FIXTURE.sampled));
    r.libraryNodes = [
      { label: 'gemm', className: 'MatMul', jsonPath: '$.nodes[0]', implementation: 'blas', library: 'OpenBLAS' },
      { label: 'sum', className: 'Reduce', jsonPath: '$.nodes[1]', implementation: 'pure', library: null },
    ];
    const m = buildReport(await reportInput([{ label: 'b', result: r, source: null }], false));
    expect(m.headers[0]!.settings.find((f) => f.label === 'Library nodes')!.value).toBe(
      "MatMul 'gemm' → blas (OpenBLAS); Reduce 'sum' → pure (in every mode's time)",
    );
  });
});
