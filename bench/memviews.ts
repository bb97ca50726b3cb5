/**
 * Bench section `memviews`: the analysis view model and the memory views.
 * - view-model build (`buildAnalysisView`) on the largest corpus files: best of a few runs, its JSON size
 *   next to analysis@1's, and the time to JSON it;
 * - frame costs in headless Chromium (Debian's, through playwright-core) of the lifetime timeline at 30k
 *   transients — velocity_tendencies with every transient as a row, and a hand-built program whose 30k
 *   transients all hold memory (every row a bar) — and of the transients table scrolling 30k rows.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../electron/engine/analysis/json.js';
import { corpusDir } from '../electron/engine/paths.js';
import { readSdfgFile } from '../electron/engine/sdfg/index.js';
import { buildAnalysisView } from '../electron/engine/view/analysis.js';
import type { AnalysisView } from '../electron/engine/view/types.js';
import { access, desc, file, sdfg, state } from './lib/model-builder.js';
import { buildHarness, CHROMIUM, openHarness } from './lib/memviews/harness.js';
import type { BenchSection } from './section.js';

const FILES = [
  'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz',
  'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz',
  'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz',
  'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg',
  'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg',
];

interface BuildRow {
  file: string;
  transients: number;
  steps: number;
  buildMs: number;
  viewJsonMB: number;
  viewStringifyMs: number;
  analysisJsonMB: number;
  error: string | null;
}

function best(runs: number, work: () => void): number {
  let b = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    work();
    b = Math.min(b, performance.now() - t0);
  }
  return b;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function buildRows(): Promise<{ rows: BuildRow[]; velocity: AnalysisView | null }> {
  const rows: BuildRow[] = [];
  let velocity: AnalysisView | null = null;
  for (const name of FILES) {
    gc();
    try {
      const a = analyze(await readSdfgFile(join(corpusDir(), name)), { symbols: new Map(), defaultSymbol: 64n, target: null });
      let view!: AnalysisView;
      const buildMs = best(3, () => (view = buildAnalysisView(a)));
      let json = '';
      const viewStringifyMs = best(2, () => (json = JSON.stringify(view)));
      const analysisJsonMB = JSON.stringify(toAnalysisJson(a)).length / 1e6;
      rows.push({
        file: name,
        transients: a.transients.length,
        steps: a.steps.length,
        buildMs,
        viewJsonMB: json.length / 1e6,
        viewStringifyMs,
        analysisJsonMB,
        error: null,
      });
      if (name.startsWith('spcl__icon-dace__icon-model__sdfgs__velocity')) velocity = JSON.parse(json) as AnalysisView;
    } catch (err) {
      rows.push({
        file: name,
        transients: 0,
        steps: 0,
        buildMs: NaN,
        viewJsonMB: NaN,
        viewStringifyMs: NaN,
        analysisJsonMB: NaN,
        error: (err as Error).message,
      });
    }
  }
  return { rows, velocity };
}

/** 30 000 transients over 300 states, each live over a few consecutive states: every row draws a bar. */
function syntheticView(): AnalysisView {
  const n = 30_000;
  const steps = 300;
  const names = Array.from({ length: n }, (_, i) => `t${i}`);
  const touched: string[][] = Array.from({ length: steps }, () => []);
  names.forEach((name, i) => {
    const first = (i * 7919) % steps;
    const span = 1 + ((i * 104729) % 12);
    touched[first]!.push(name);
    touched[Math.min(steps - 1, first + span)]!.push(name);
  });
  const root = sdfg(
    'synthetic_30k',
    names.map((name, i) => desc(name, [String(64 + ((i * 31) % 4096))])),
    touched.map((list, s) =>
      state(
        `s${s}`,
        list.map((x) => access(x)),
      ),
    ),
  );
  const a = analyze(file(root), { symbols: new Map(), defaultSymbol: null, target: null });
  return JSON.parse(JSON.stringify(buildAnalysisView(a))) as AnalysisView;
}

function stats(xs: number[]): { n: number; p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => (s.length ? s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]! : NaN);
  return { n: s.length, p50: q(0.5), p95: q(0.95), max: s.length ? s[s.length - 1]! : NaN };
}

async function chromiumFrames(velocity: AnalysisView | null): Promise<object> {
  const dir = await buildHarness();
  const h = await openHarness(dir, { width: 1500, height: 1000 });
  const call = (method: string, ...args: unknown[]): Promise<unknown> =>
    h.page.evaluate(
      ([m, json]) =>
        (globalThis as unknown as { tlab: Record<string, (...x: unknown[]) => unknown> }).tlab[m]!(...(JSON.parse(json) as unknown[])),
      [method, JSON.stringify(args)] as const,
    );
  try {
    const out: Record<string, object> = {};
    const synthetic = syntheticView();
    const cases: Array<[string, AnalysisView, 'all' | 'memory']> = [['synthetic30k', synthetic, 'memory']];
    if (velocity) cases.push(['velocityAllRows', velocity, 'all']);
    for (const [name, view, rows] of cases) {
      const t0 = performance.now();
      await call('mountChart', 'lifetime', { view, rows }, { theme: 'light', width: 1400, height: 800 });
      const mountMs = performance.now() - t0;
      const firstDrawMs = ((await call('stats')) as { lastDrawMs: number }).lastDrawMs;
      const f = (await call('frames', 120)) as { drawMs: number[]; frameMs: number[] };
      out[name] = {
        rows: rows === 'all' ? view.table.count : view.totals.holdingMemory,
        mountMs,
        firstDrawMs,
        draw: stats(f.drawMs),
        frame: stats(f.frameMs),
      };
    }
    await call('mountTable', velocity ?? synthetic, { theme: 'light', width: 1400, height: 800 });
    const scroll = (await call('tableFrames', 120, 260)) as number[];
    out['tableScroll'] = { rows: (velocity ?? synthetic).table.count, frameInterval: stats(scroll) };
    out['consoleErrors'] = h.errors;
    return out;
  } finally {
    await h.close();
  }
}

const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '-');

export const memviewsSection: BenchSection = {
  name: 'memviews',
  description: 'analysis view model build on the largest files; lifetime timeline and table frames at 30k transients in headless Chromium',
  async run() {
    const { rows, velocity } = await buildRows();
    let frames: object | null = null;
    let framesError: string | null = null;
    try {
      frames = await chromiumFrames(velocity);
    } catch (err) {
      framesError = `headless Chromium (${CHROMIUM}) not usable: ${(err as Error).message.split('\n')[0]}`;
    }
    const lines = [
      `${'file'.padEnd(52)} ${'transients'.padStart(10)} ${'build ms'.padStart(9)} ${'view MB'.padStart(8)} ${'JSON ms'.padStart(8)} ${'analysis@1 MB'.padStart(13)}`,
      ...rows.map((r) =>
        r.error
          ? `${r.file.slice(0, 52).padEnd(52)} FAILED: ${r.error}`
          : `${r.file.slice(0, 52).padEnd(52)} ${String(r.transients).padStart(10)} ${ms(r.buildMs).padStart(9)} ${r.viewJsonMB.toFixed(2).padStart(8)} ${ms(r.viewStringifyMs).padStart(8)} ${r.analysisJsonMB.toFixed(2).padStart(13)}`,
      ),
    ];
    if (frames) {
      const f = frames as Record<
        string,
        {
          rows: number;
          firstDrawMs: number;
          draw: ReturnType<typeof stats>;
          frame: ReturnType<typeof stats>;
          frameInterval?: ReturnType<typeof stats>;
        }
      >;
      for (const k of ['synthetic30k', 'velocityAllRows']) {
        const c = f[k];
        if (c)
          lines.push(
            `lifetime timeline, ${k} (${c.rows} rows): first draw ${ms(c.firstDrawMs)} ms; draw p50 ${ms(c.draw.p50)} / p95 ${ms(c.draw.p95)} ms; event→pixels p50 ${ms(c.frame.p50)} / p95 ${ms(c.frame.p95)} ms (target p95 < 16 ms)`,
          );
      }
      const t = f['tableScroll'];
      if (t?.frameInterval)
        lines.push(
          `transients table scrolling ${t.rows} rows: frame interval p50 ${ms(t.frameInterval.p50)} / p95 ${ms(t.frameInterval.p95)} ms (60 Hz = 16.7 ms)`,
        );
    } else lines.push(`frames: ${framesError}`);
    // Frame times on a shared VM mean little without the load they were taken under.
    const load = loadavg();
    lines.push(`load average during the section: ${load.map((x) => x.toFixed(1)).join(' ')} (${cpus().length} cores)`);
    return { result: { description: this.description, build: rows, frames, framesError, loadAverage: load }, summary: lines };
  },
};
