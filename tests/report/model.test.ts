/**
 * The report model: every number the generated text shows is looked up again in the result (by its key) and
 * must equal it; the verdict follows the profiler's significance test; comparisons flag what changed; the
 * JSON format is the validated result itself.
 */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import type { ModeResult, ProfileResult } from '../../electron/engine/profile/result.js';
import { mannWhitney } from '../../electron/engine/profile/stats.js';
import { pText } from '../../electron/engine/report/numbers.js';
import { buildReport, callsCsv, CALL_COLUMNS, loadReportAssets, parseCsv, renderHtml, reportJson, runsText, summaryCsv, SUMMARY_COLUMNS, type NumberRun, type Paragraph, type ReportModel } from '../../electron/engine/report/index.js';
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
    if (r === 'fate.fixed') return fate('init') + fate('workspace');
    if (r!.startsWith('fate.')) return fate(r!.slice(5));
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
  switch (q) {
    case 'median': return mode(a).summary.medianNs;
    case 'p10': return mode(a).summary.p10Ns;
    case 'p90': return mode(a).summary.p90Ns;
    case 'calls': return mode(a).calls.totalNs.length;
    case 'allocsPerCall': return mean(mode(a).calls.allocs);
    case 'freesPerCall': return mean(mode(a).calls.frees);
    case 'allocatorNs': return mean(mode(a).calls.allocNs.map((x, i) => x + mode(a).calls.freeNs[i]!));
    case 'allocShare': return mode(a).summary.allocShare;
    case 'faultsPerCall': return mean(mode(a).calls.minorFaults);
    case 'workspace': return ws(mode(a));
    case 'speedup': return mode(b).summary.medianNs / mode(a).summary.medianNs;
    case 'slowdown': return mode(a).summary.medianNs / mode(b).summary.medianNs;
    case 'p': return mannWhitney(mode(a).calls.totalNs, mode(b).calls.totalNs).p;
    case 'allocsSaved': return Math.abs(mean(mode(b).calls.allocs) - mean(mode(a).calls.allocs));
    case 'freesSaved': return Math.abs(mean(mode(b).calls.frees) - mean(mode(a).calls.frees));
    case 'workspaceSaved': return ws(dace) - ws(packed);
    case 'workspaceSavedShare': return (ws(dace) - ws(packed)) / ws(dace);
    case 'workspaceCost': return ws(packed) - ws(dace);
    case 'settings.warmup': return result.settings.warmup;
    case 'settings.calls': return result.settings.calls;
    case 'settings.processes': return result.settings.processes;
    case 'settings.timedCalls': return result.settings.calls * result.settings.processes;
    case 'runnerOverhead': return Math.max(...result.modes.map((m) => m.runnerOverheadNsPerCall));
    case 'deviceMedian': return mode(a).gpu!.deviceMedianNs;
    case 'deviceSpeedup': return mode(b).gpu!.deviceMedianNs / mode(a).gpu!.deviceMedianNs;
    case 'deviceSlowdown': return mode(a).gpu!.deviceMedianNs / mode(b).gpu!.deviceMedianNs;
    case 'deviceP': return mannWhitney(mode(a).gpu!.deviceNs, mode(b).gpu!.deviceNs).p;
    case 'cmp.faster': return modeIn(0, a).summary.medianNs / mode(a).summary.medianNs;
    case 'cmp.slower': return mode(a).summary.medianNs / modeIn(0, a).summary.medianNs;
    case 'cmp.p': return mannWhitney(mode(a).calls.totalNs, modeIn(0, a).calls.totalNs).p;
    default: throw new Error(`unknown number key ${key}`);
  }
}

function numbersOf(m: ReportModel): NumberRun[] {
  const paragraphs: Paragraph[] = [...m.verdict, ...(m.comparison?.paragraphs ?? []), ...m.methodology.flatMap((s) => [...s.paragraphs, ...(s.bullets ?? [])])];
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
    // The headline pair of this run: no significant difference between EXTERNAL (packed) and POOL (p = 0.13).
    expect(text).toMatch(/EXTERNAL \(packed\) and POOL show no significant difference in time per call/);
    expect(text).not.toMatch(/EXTERNAL \(packed\) is [\d.]+× faster/);
    expect(text).toMatch(/removes 3 allocations and 3 frees per call/);
    expect(text).toMatch(/3 of the program’s 3 transients hold memory/);
    expect(m.headers[0]!.settings.find((f) => f.label === 'Symbols')!.value).toBe('I=128, J=128, K=40');
    expect(m.charts.map((c) => c.kind)).toEqual(['distribution', 'breakdown', 'calls', 'lifetime', 'workspace']);
    expect(m.missingCharts.map((c) => c.title)).toEqual(['Allocations of one call']);
    expect(m.transients!.rows.map((r) => r.name).sort()).toEqual(['flx', 'fly', 'lap']);
    expect(m.summary.map((s) => [s.label, s.medianNs])).toEqual(input.results[0]!.result.modes.map((x) => [x.label, x.summary.medianNs]));
  });

  test('a significant difference names the faster mode with its factor; a sampled call adds the allocation chart', async () => {
    const input = await reportInput([labelled('hdiff', FIXTURE.sampled)]);
    const m = buildReport(input);
    checkNumbers(m, input.analysis.view);
    expect(runsText(m.verdict[0]!)).toMatch(/^EXTERNAL \(packed\) is 1\.42× faster per call than POOL \(median 231 ms vs 327 ms; two-sided Mann–Whitney p < 0\.001/);
    expect(m.charts.map((c) => c.kind)).toContain('gantt');
    expect(m.missingCharts).toEqual([]);
  });

  test('the allocation chart: missing from an older result, and said plainly when no mode allocates', async () => {
    const old = buildReport(await reportInput([labelled('old', FIXTURE.run)], false));
    expect(old.missingCharts[0]!.why).toMatch(/no sampled call \(written before profile@1 recorded allocation events\)/);
    const r = loadResult(FIXTURE.sampled);
    for (const m of r.modes) (m as unknown as { sampledCall: { events: unknown[] } }).sampledCall.events = [];
    const none = buildReport(await reportInput([{ label: 'none', result: r, source: null }], false));
    expect(none.charts.map((c) => c.kind)).not.toContain('gantt');
    expect(none.missingCharts[0]).toEqual({ title: 'Allocations of one call', why: 'no mode allocates during a call: the sampled calls hold no allocation.' });
  });

  test('p-values next to the threshold are not rounded onto it', () => {
    expect([pText(0.0103), pText(0.0096), pText(0.13), pText(0.004), pText(0.0001)]).toEqual(['p = 0.0103', 'p = 0.0096', 'p = 0.13', 'p = 0.004', 'p < 0.001']);
  });

  test('identical call times: no winner is claimed', async () => {
    const r = loadResult(FIXTURE.sampled);
    const pool = r.modes.find((m) => m.label === 'POOL')!;
    const packed = r.modes.find((m) => m.label === 'EXTERNAL (packed)')!;
    packed.calls.totalNs = [...pool.calls.totalNs];
    packed.summary = { ...packed.summary, medianNs: pool.summary.medianNs, p10Ns: pool.summary.p10Ns, p90Ns: pool.summary.p90Ns, meanNs: pool.summary.meanNs };
    const m = buildReport(await reportInput([{ label: 'same', result: r, source: null }], false));
    checkNumbers(m, null);
    const first = runsText(m.verdict[0]!);
    expect(first).toMatch(/^EXTERNAL \(packed\) and POOL show no significant difference in time per call: medians 327 ms vs 327 ms, two-sided Mann–Whitney p = 1/);
    // Without the analysis the report says why the lifetimes, the workspace map and the transients are missing.
    expect(m.transients).toBeNull();
    expect(m.missingCharts.map((c) => c.why).join(' ')).toMatch(/no analysis in this test/);
  });

  test('a comparison flags per mode what changed beyond the noise, with every number from the results', async () => {
    const input = await reportInput([labelled('before', FIXTURE.run), labelled('after', FIXTURE.rerun)]);
    const m = buildReport(input);
    checkNumbers(m, input.analysis.view);
    const c = m.comparison!;
    expect(c.rows.map((x) => x.mode)).toEqual(input.results[0]!.result.modes.map((x) => x.label));
    for (const row of c.rows) {
      const ref = input.results[0]!.result.modes.find((x) => x.label === row.mode)!;
      const other = input.results[1]!.result.modes.find((x) => x.label === row.mode)!;
      expect([row.referenceMedianNs, row.otherMedianNs]).toEqual([ref.summary.medianNs, other.summary.medianNs]);
      const p = mannWhitney(other.calls.totalNs, ref.calls.totalNs).p;
      expect(row.verdict).toBe(p >= 0.01 ? 'no-difference' : other.summary.medianNs < ref.summary.medianNs ? 'faster' : 'slower');
    }
    expect(runsText(c.paragraphs[2]!)).toMatch(/^after against before: SCOPED is 2\.47× slower/);
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
    const verdict = runsText(m.verdict[0]!);
    expect(verdict).toContain('These times are host time per call, with the device synchronised');
    expect(verdict).toMatch(/On device time \(CUDA events\), EXTERNAL \(packed\) is [\d.]+× faster per call/);
    const machine = Object.fromEntries(m.headers[0]!.machine.map((f) => [f.label, f.value]));
    expect(machine.GPU).toBe('GPU 0: Synthetic test device (not a real GPU) · 80.0 GiB · compute capability 9.0 · 132 SMs');
    expect(machine.Driver).toBe('CUDA driver 13.0 · runtime 13.0');
    expect(m.headers[0]!.settings.find((f) => f.label === 'Pool threshold')!.value).toMatch(/^UINT64_MAX/);
    const pool = m.summary.find((x) => x.label === 'POOL')!;
    expect(pool.gpu).toEqual({ deviceMedianNs: r.modes.find((x) => x.label === 'POOL')!.gpu!.deviceMedianNs, pool: r.modes.find((x) => x.label === 'POOL')!.gpu!.pool });
    const assets = await loadReportAssets();
    const html = renderHtml(m, null, assets);
    expect(html).toContain('<h3>On the device</h3>');
    // A CPU report has none of it.
    const cpu = buildReport(await reportInput([labelled('cpu', FIXTURE.sampled)], false));
    expect(renderHtml(cpu, null, assets)).not.toContain('On the device');
    expect(runsText(cpu.verdict[0]!)).not.toMatch(/host time|device/i);
  });

  test('CSV of a GPU result adds the device and pool columns; a CPU one keeps its columns', () => {
    const r = withSyntheticGpu(loadResult(FIXTURE.sampled));
    const calls = parseCsv(callsCsv([{ label: 'g', result: r, source: null }]));
    expect(calls[0]).toEqual([...CALL_COLUMNS, 'device_ns']);
    expect(Number(calls[1]![CALL_COLUMNS.length])).toBe(r.modes[0]!.gpu!.deviceNs[0]);
    const summary = parseCsv(summaryCsv([{ label: 'g', result: r, source: null }]));
    expect(summary[0]).toEqual([...SUMMARY_COLUMNS, 'device_median_ns', 'pool_reserved_high_bytes', 'pool_used_high_bytes', 'pool_release_threshold']);
    const poolRow = summary.find((row) => row[4] === 'POOL')!;
    expect(poolRow.slice(SUMMARY_COLUMNS.length)).toEqual([String(r.modes[2]!.gpu!.deviceMedianNs), '20971520', '15975680', '18446744073709551615']);
    expect(parseCsv(callsCsv([labelled('c', FIXTURE.sampled)]))[0]).toEqual([...CALL_COLUMNS]);
    expect(parseCsv(summaryCsv([labelled('c', FIXTURE.sampled)]))[0]).toEqual([...SUMMARY_COLUMNS]);
  });

  test('a comparison of a CPU and a GPU result says it compares platforms', async () => {
    const m = buildReport(await reportInput([labelled('cpu', FIXTURE.sampled), { label: 'gpu', result: withSyntheticGpu(loadResult(FIXTURE.rerun)), source: null }], false));
    const text = m.comparison!.paragraphs.map(runsText).join('\n');
    expect(text).toContain('target (cpu: CPU; gpu: GPU (Synthetic test device (not a real GPU)))');
    expect(text).toContain('CPU and GPU results are compared here on host time per call');
  });
});
