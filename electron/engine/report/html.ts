/**
 * The HTML report: one self-contained file. Inline CSS and one inline script (the report runtime, built from
 * the renderer's chart modules by `npm run build:report`), both allowed by hash in a strict CSP meta tag; no
 * font, image or request of any kind. Every chart is drawn here as static SVG (the renderer's `renderSVG`,
 * injected by the host) — the no-JavaScript view and what prints — and the runtime mounts the interactive
 * chart (hover, zoom) over it from the embedded data. The results are embedded as JSON
 * (`<script type="application/json" id="tlab-result">`), so the app, browser mode and `transient-lab report`
 * can open the report again.
 */
import { createHash } from 'node:crypto';
import type { AnalysisView } from '../view/types.js';
import { formatBytes, formatCount, formatNs, formatPercent, formatRatio } from '../view/format.js';
import { formatReleaseThreshold } from '../view/gpu.js';
import { dateText } from './header.js';
import { REPORT_CSS } from './html-style.js';
import { countText } from './numbers.js';
import type { ChartKind, Fact, Paragraph, ReportModel, ResultHeader, SummaryRow } from './types.js';

/** Draws one chart as a standalone SVG document (renderer/src/charts `renderSVG`). */
export type SvgRenderer = (
  kind: ChartKind,
  data: unknown,
  options: { width: number; height?: number; theme: 'light' | 'dark'; idPrefix: string },
) => string;

export interface HtmlAssets {
  renderSVG: SvgRenderer;
  /** The report runtime (an IIFE), inlined as is. */
  runtime: string;
}

/**
 * Width the static charts are drawn at; CSS scales them to the page. The width of a chart on screen (the page's
 * 1040 px less padding and border), so the static chart and the live one mounted over it lay out alike: at
 * 960 px the lifetime chart's curve legend had no room for its last mode.
 */
const STATIC_WIDTH = 974;
/** An analysis view above this size is not embedded (its charts stay static). */
const MAX_EMBEDDED_VIEW = 48 * 2 ** 20;

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** JSON inside `<script type="application/json">`: `<` escaped, so no `</script>` or `<!--` can end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** An inline script's text: `</script` cannot appear in it (the bundle is checked, not rewritten). */
function inlineScript(js: string): string {
  if (/<\/script/i.test(js)) throw new Error('report runtime contains "</script": it cannot be inlined');
  return js;
}

const sha256Source = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The CSP sources that allow the report's inline style and runtime: the report's own policy, and the app's
 * for the export preview (an iframe's srcdoc inherits its parent's policy). */
export function reportCspSources(runtime: string): { style: string; script: string } {
  return { style: sha256Source(REPORT_CSS), script: sha256Source(inlineScript(runtime)) };
}

function reportCsp(runtime: string): string {
  const s = reportCspSources(runtime);
  return [
    `default-src 'none'`,
    `script-src ${s.script}`,
    `style-src ${s.style}`,
    `img-src data:`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `object-src 'none'`,
  ].join('; ');
}

function runs(p: Paragraph): string {
  return p
    .map((r) => (typeof r === 'string' ? esc(r) : `<data value="${esc(String(r.value))}" data-key="${esc(r.key)}">${esc(r.text)}</data>`))
    .join('');
}

const para = (p: Paragraph): string => `<p>${runs(p)}</p>`;

function facts(title: string, list: Fact[]): string {
  const rows = list
    .map(
      (f) => `<dt>${esc(f.label)}</dt><dd${f.mono ? ' class="mono"' : ''}${f.title ? ` title="${esc(f.title)}"` : ''}>${esc(f.value)}</dd>`,
    )
    .join('');
  return `<div class="facts"><h3>${esc(title)}</h3><dl>${rows}</dl></div>`;
}

function runBlock(headers: ResultHeader[]): string {
  const many = headers.length > 1;
  return headers
    .map(
      (h) =>
        `${many ? `<div class="run-label">${esc(h.label)}</div>` : ''}${facts('Program', h.program)}${facts('Machine', h.machine)}${facts('Settings', h.settings)}`,
    )
    .join('');
}

const modeSwatch = (mode: string): string => `<span class="mode m-${esc(mode)}" aria-hidden="true"></span>`;

function statsTable(id: string, rows: SummaryRow[], many: boolean, columns: Array<[string, (s: SummaryRow) => string]>): string {
  const th = [
    ...(many ? ['<th scope="col">Result</th>'] : []),
    '<th scope="col">Mode</th>',
    ...columns.map(([h]) => `<th class="num" scope="col">${esc(h)}</th>`),
  ].join('');
  const body = rows
    .map((s) => {
      const mark = s.eventsOverflowed
        ? ' <span class="warn" title="the event buffer overflowed: allocation counts and times are lower bounds">*</span>'
        : '';
      return `<tr data-result="${s.result}" data-mode="${esc(s.label)}">${many ? `<td>${esc(s.resultLabel)}</td>` : ''}<th scope="row">${modeSwatch(s.mode)}${esc(s.label)}${mark}</th>${columns.map(([, cell]) => `<td class="num">${esc(cell(s))}</td>`).join('')}</tr>`;
    })
    .join('');
  return `<div class="table-wrap"><table id="${id}"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** A DaCe build whose allocations nothing recorded: n/m (not measured), as the console prints it. */
const measured = (s: SummaryRow, text: string): string => (s.allocationsMeasured ? text : 'n/m');

function summaryTables(rows: SummaryRow[], many: boolean): string {
  const time = statsTable('time-table', rows, many, [
    ['Calls', (s) => formatCount(s.calls)],
    ['Median', (s) => formatNs(s.medianNs)],
    ['p10', (s) => formatNs(s.p10Ns)],
    ['p90', (s) => formatNs(s.p90Ns)],
    ['Mean', (s) => formatNs(s.meanNs)],
    ['p90 / p10', (s) => (Number.isFinite(s.spread) ? formatRatio(s.spread) : '–')],
    ['First call', (s) => formatNs(s.firstCallNs)],
    ['Init', (s) => formatNs(s.initNs)],
  ]);
  const memory = statsTable('alloc-table', rows, many, [
    ['Allocs / call', (s) => measured(s, countText(s.allocsPerCall))],
    ['Frees / call', (s) => measured(s, countText(s.freesPerCall))],
    ['Allocator / call', (s) => measured(s, formatNs(s.allocatorNsPerCall))],
    ['Alloc + free share', (s) => measured(s, formatPercent(s.allocShare))],
    ['Minor faults / call', (s) => countText(s.minorFaultsPerCall)],
    ['Workspace', (s) => (s.workspaceBytes === null ? '–' : formatBytes(s.workspaceBytes))],
  ]);
  const cpu =
    `<h3>Time per call</h3>${time}` +
    `<h3>Allocation per call</h3>${memory}<p class="hint">Over every timed call. Allocator / call is the mean time inside instrumented allocations and frees, its share of the call next to it; minor faults are page faults served without disk, mostly first touches of freshly allocated memory. First call and init are single measurements per process, not part of the statistics.</p>`;
  // GPU results: the times above are host times (the device synchronised before the clock stops); the device's
  // own time and the stream-ordered pool get a table of their own. CPU reports have no such section.
  const gpuRows = rows.filter((s) => s.gpu);
  if (!gpuRows.length) return cpu;
  const device = statsTable('device-table', gpuRows, many, [
    ['Host median', (s) => formatNs(s.medianNs)],
    ['Device median', (s) => formatNs(s.gpu!.deviceMedianNs)],
    ['Pool reserved high', (s) => (s.gpu!.pool ? formatBytes(s.gpu!.pool.reservedHighBytes) : '–')],
    ['Pool used high', (s) => (s.gpu!.pool ? formatBytes(s.gpu!.pool.usedHighBytes) : '–')],
    ['Release threshold', (s) => (s.gpu!.pool ? formatReleaseThreshold(s.gpu!.pool.releaseThreshold) : '–')],
  ]);
  return `${cpu}<h3>On the device</h3>${device}<p class="hint">On a GPU, the time per call above is host time: the device is synchronised before the clock stops, and allocation and free are host time around the CUDA API calls. Device median is the median of CUDA-event times around each call. The pool columns are cudaMemPool attributes after the mode’s calls (– : the mode allocates nothing from the pool).</p>`;
}

function transientsSection(m: ReportModel): string {
  const t = m.transients;
  if (!t) return `<p class="chart-missing">The transients table needs the program’s analysis: ${esc(m.analysisNote)}</p>`;
  const yes = (b: boolean): string => (b ? '<span class="yes">yes</span>' : '<span class="no">no</span>');
  const body = t.rows
    .map(
      (r) =>
        `<tr><td class="mono">${esc(r.id)}${r.insideStructure === null ? '' : `<div class="hint">inside structure ${esc(r.insideStructure)}</div>`}</td><td class="sdfg"><span title="${esc(r.sdfg)}">${esc(r.sdfg)}</span></td><td>${esc(r.storage)}</td><td class="num">${esc(r.bytes)}</td><td>${esc(r.lifetime)}</td><td class="live">${esc(r.live)}</td><td>${yes(r.persistent)}</td><td>${yes(r.external)}</td><td>${esc(r.fate)}</td><td class="reason">${r.reason ? esc(r.reason) : '–'}</td></tr>`,
    )
    .join('');
  const more = t.omitted
    ? `<p class="hint">${formatCount(t.omitted)} more transients are not listed here (memory holders come first); the embedded analysis holds all ${formatCount(t.total)}.</p>`
    : '';
  const structures = t.insideStructures ? `<p id="inside-structures">${esc(t.insideStructures)}</p>` : '';
  return (
    structures +
    `<div class="table-wrap"><table id="transients-table"><thead><tr><th scope="col">Transient</th><th scope="col">SDFG</th><th scope="col">Storage</th><th scope="col" class="num">Bytes</th><th scope="col">Lifetime</th><th scope="col">Live</th><th scope="col">PERSISTENT</th><th scope="col">EXTERNAL</th><th scope="col">Where the modes put it</th><th scope="col">Why not eligible</th></tr></thead><tbody>${body}</tbody></table></div>` +
    more
  );
}

function verificationSection(m: ReportModel): string {
  return m.verification
    .map((v) => {
      const head = `<p><span class="badge ${v.ok ? 'ok' : 'fail'}">${v.ok ? 'verified' : 'failed'}</span>${m.verification.length > 1 ? `${esc(v.label)}: ` : ''}${esc(v.text)}</p>`;
      if (!v.details.length) return head;
      const rows = v.details.map((d) => `<tr><td>${esc(d.kind)}</td><td>${esc(d.mode)}</td><td>${esc(d.message)}</td></tr>`).join('');
      return `${head}<div class="table-wrap"><table class="verification-table"><thead><tr><th scope="col">Kind</th><th scope="col">Mode</th><th scope="col">What</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    })
    .join('');
}

function comparisonSection(m: ReportModel): string {
  const c = m.comparison;
  if (!c) return '';
  const rows = c.rows
    .map((r) => {
      const moved = r.verdict === 'faster' || r.verdict === 'slower';
      const factor = r.verdict === 'slower' ? 1 / r.ratio : r.ratio;
      const change = moved
        ? `<span class="${r.verdict}">${esc(formatRatio(factor))} ${r.verdict}</span>`
        : r.verdict === 'no-difference'
          ? 'within the noise'
          : 'too few calls';
      return `<tr${moved ? ' class="changed"' : ''}><th scope="row">${esc(r.mode)}</th><td>${esc(r.other)}</td><td class="num">${esc(formatNs(r.referenceMedianNs))}</td><td class="num">${esc(formatNs(r.otherMedianNs))}</td><td class="num">${esc(formatRatio(r.ratio))}${r.statistic === 'p10' ? ' at p10' : ''}</td><td class="num">${esc(r.test)}</td><td>${change}</td><td class="num">${esc(r.allocsDelta === 0 ? '0' : (r.allocsDelta > 0 ? '+' : '') + countText(r.allocsDelta))}</td></tr>`;
    })
    .join('');
  const ref = esc(m.results[0]!.label);
  return (
    `<section id="comparison"><h2>What changed between the runs</h2>${c.paragraphs.map(para).join('')}` +
    `<div class="table-wrap"><table id="comparison-table"><thead><tr><th scope="col">Mode</th><th scope="col">Result</th><th scope="col" class="num">Median (${ref})</th><th scope="col" class="num">Median (this result)</th><th scope="col" class="num">${ref} / this result</th><th scope="col" class="num">Test</th><th scope="col">Change</th><th scope="col" class="num">Δ allocs/call</th></tr></thead><tbody>${rows}</tbody></table></div></section>`
  );
}

/** Data each chart kind draws: the profile charts take every result, the analysis charts the view. */
function chartData(kind: ChartKind, m: ReportModel, view: AnalysisView | null, storage: string | null): unknown {
  if (kind === 'lifetime' || kind === 'workspace') return { view, storage };
  return { results: m.results.map(({ label, result }) => ({ label, result })) };
}

function chartsSection(m: ReportModel, view: AnalysisView | null, assets: HtmlAssets): string {
  const figures = m.charts.map((c) => {
    const svg = assets.renderSVG(c.kind, chartData(c.kind, m, view, c.storage), {
      width: STATIC_WIDTH,
      ...(c.height ? { height: c.height } : {}),
      theme: 'light',
      idPrefix: c.id,
    });
    return (
      `<figure class="chart" id="${esc(c.id)}" data-chart="${esc(c.kind)}"${c.storage ? ` data-storage="${esc(c.storage)}"` : ''}>` +
      `<figcaption><h3>${esc(c.title)}</h3><p>${esc(c.caption)}</p></figcaption>` +
      `<div class="chart-static" role="img" aria-label="${esc(c.title)}">${svg}</div><div class="chart-live" hidden></div></figure>`
    );
  });
  const missing = m.missingCharts.map((x) => `<div class="chart-missing"><h3>${esc(x.title)}</h3>Not drawn: ${esc(x.why)}</div>`);
  return `<section id="charts"><h2>Charts</h2><p class="hint">Hover a chart for the numbers; drag to zoom where the chart says so, double-click to reset.</p>${figures.join('')}${missing.join('')}</section>`;
}

function listSection(id: string, title: string, items: string[], cls = ''): string {
  if (!items.length) return '';
  return `<section id="${id}"><h2>${title}</h2><ul class="notes">${items.map((s) => `<li${cls ? ` class="${cls}"` : ''}>${esc(s)}</li>`).join('')}</ul></section>`;
}

/** The embedded results: `tlab-result` is the first (what `openResult` reads), `tlab-result-2`… the others. */
function embedded(m: ReportModel, view: AnalysisView | null): string {
  const results = m.results
    .map(
      (x, i) =>
        `<script type="application/json" id="tlab-result${i ? `-${i + 1}` : ''}" class="tlab-result" data-label="${esc(x.label)}">${scriptJson(x.result)}</script>`,
    )
    .join('\n');
  const viewJson = view ? scriptJson(view) : null;
  const analysis =
    viewJson && viewJson.length <= MAX_EMBEDDED_VIEW ? `\n<script type="application/json" id="tlab-analysis">${viewJson}</script>` : '';
  const meta = {
    schema: m.schema,
    program: m.program,
    pageHeader: `${m.program} · sha256 ${m.results[0]!.result.program.hash.slice(0, 12)}… · Transient Lab report`,
    charts: m.charts.map(({ id, kind, storage }) => ({ id, kind, storage })),
    results: m.results.map((x) => x.label),
  };
  return `<script type="application/json" id="tlab-report">${scriptJson(meta)}</script>\n${results}${analysis}`;
}

/** The whole report as one HTML document. */
export function renderHtml(m: ReportModel, view: AnalysisView | null, assets: HtmlAssets): string {
  const runtime = inlineScript(assets.runtime);
  const first = m.results[0]!;
  const many = m.results.length > 1;
  const created = (first.result as { createdAt?: unknown }).createdAt;
  const sub = [
    typeof created === 'string' ? `profiled ${dateText(created)}` : null,
    `on ${first.result.machine.cpu}`,
    `report written ${dateText(m.generatedAt)} by Transient Lab ${m.version}`,
  ].filter(Boolean);
  // The answer first: the verdict and the per-mode numbers, then what was run (a screenful of facts that used to
  // push the verdict below the fold), then the charts.
  const toc = [
    ['verdict', 'Verdict'],
    ...(many ? [['comparison', 'What changed']] : []),
    ['summary', 'Per-mode statistics'],
    ['run', 'Run'],
    ['charts', 'Charts'],
    ['transients', 'Transients'],
    ['verification', 'Verification'],
    ['methodology', 'Methodology'],
  ];
  const body = [
    `<header class="mast"><div class="brand"><b>◆</b> Transient Lab · performance report</div><h1>${esc(m.title).replaceAll('_', '_<wbr>')}</h1><p class="sub">${esc(sub.join(' · '))}</p>`,
    `<button type="button" class="theme-toggle" id="theme-toggle" hidden>Dark theme</button>`,
    `<nav class="toc" aria-label="Sections">${toc.map(([id, t]) => `<a href="#${id}">${t}</a>`).join('')}</nav></header>`,
    `<section class="verdict" id="verdict"><h2>Verdict${many ? ` (${esc(first.label)})` : ''}</h2>${m.verdict.map(para).join('')}</section>`,
    comparisonSection(m),
    `<section id="summary"><h2>Per-mode statistics</h2>${summaryTables(m.summary, many)}</section>`,
    `<section class="run" id="run" aria-label="Run">${runBlock(m.headers)}</section>`,
    chartsSection(m, view, assets),
    `<section id="transients"><h2>Transients</h2><p>${esc(m.analysisNote)}</p>${transientsSection(m)}</section>`,
    `<section id="verification"><h2>Verification</h2>${verificationSection(m)}</section>`,
    `<section id="methodology" class="method"><h2>Methodology</h2>${m.methodology.map((s) => `<h3>${esc(s.title)}</h3>${s.paragraphs.map(para).join('')}${s.bullets?.length ? `<ul class="notes">${s.bullets.map((b) => `<li>${runs(b)}</li>`).join('')}</ul>` : ''}`).join('')}</section>`,
    listSection('notes', 'Notes', m.notes),
    listSection('warnings', 'Warnings', m.warnings, 'warn'),
    `<footer>Written by Transient Lab ${esc(m.version)} on ${esc(dateText(m.generatedAt))}. This file is self-contained and makes no network request. The profile result${many ? 's are' : ' is'} embedded: open this file in Transient Lab (Open result…) or run <code>transient-lab report THIS.html --format json -o result.json</code> to get ${many ? 'the first' : 'it'} back.</footer>`,
  ];
  return [
    '<!doctype html>',
    '<html lang="en" data-theme="light">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(reportCsp(runtime))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="Transient Lab ${esc(m.version)}">`,
    `<title>${esc(m.title)} · Transient Lab report</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    body.filter(Boolean).join('\n'),
    embedded(m, view),
    `<script>${runtime}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
