/**
 * The workload report (docs/reports.md, "Workload reports"): the Workload view's pictures as static SVG — the
 * calls and what each mode holds over them, each program's workspace need, and with a sweep the need as a function
 * of the symbol — and their tables: the recommendation per storage, footprints per mode, calls, programs, and what
 * a `workload-result@1` measured (per step, per program, verification, overruns, findings). One self-contained
 * file: the report's stylesheet by hash in a strict CSP, no script, the result embedded as JSON.
 *
 * `profile workload.json --report r.html` calls `renderWorkloadReport(result, {advice})`; `advice` (the advisor on
 * the same workload file) adds the per-call figures, the recommendation, the blockers and a sweep.
 */
import { basename } from 'node:path';
import type { Advice } from '../advise/index.js';
import { buildAdviceView } from '../view/advice.js';
import { formatBytes, formatBytesExpr, formatCount, formatNs } from '../view/format.js';
import { buildWorkloadView } from '../view/workload.js';
import type { AdviceView, WorkloadView } from '../view/workload-types.js';
import type { WorkloadResult } from '../workload/result.js';
import { MODES } from '../analysis/types.js';
import { loadReportAssets, transientLabVersion } from './assets.js';
import { dateText } from './header.js';
import { reportCspSources, type HtmlAssets } from './html.js';
import { REPORT_CSS } from './html-style.js';

export interface WorkloadReportOptions {
  /** The advisor's figures of the same workload (static): per-call needs, the recommendation, blockers, a sweep. */
  advice?: Advice | null;
  /** Program key → SDFG file, for the names shown. */
  files?: Record<string, string>;
  /** Steps the workload runs (default: the result's, else 1). */
  steps?: number;
  /** When the report is written (default: now). */
  generatedAt?: string;
}

/** Width the static charts are drawn at (the page's content width, as the profile report's). */
const WIDTH = 974;

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
const bytes = (v: number | string | null | undefined): string => (v === null || v === undefined ? 'symbolic' : formatBytes(v));
const group = (v: number | string): string => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function table(id: string, head: string[], rows: string[][], numeric: Set<number>): string {
  const th = head.map((h, i) => `<th scope="col"${numeric.has(i) ? ' class="num"' : ''}>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => `<td${numeric.has(i) ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`).join('');
  return `<div class="table-wrap"><table id="${id}"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function figure(svg: string, caption: string): string {
  return `<figure class="chart"><div class="chart-static">${svg}</div><figcaption><p>${esc(caption)}</p></figcaption></figure>`;
}

function recommendationSection(a: AdviceView | null, v: WorkloadView): string {
  if (!a) {
    const m = v.measured;
    // With a measured run beside it, its verdict backs the mode; the static basis note would contradict it.
    return `<section class="verdict" id="recommendation"><h2>Verdict</h2><p>${esc(m?.verdict ?? '')}</p><p>The workload file was not at hand: the report has no recommendation from its analysis, no blockers and no sweep.</p></section>`;
  }
  const recs = a.recommendations
    .map((r) => {
      const head =
        r.mode === 'EXTERNAL'
          ? `${r.storage}: <b>EXTERNAL</b>, a workspace of <data value="${esc(String(r.workspaceBytes ?? ''))}" data-key="advice.workspace|${esc(r.storage)}">${esc(bytes(r.workspaceBytes))}</data>${r.workspaceBytes === null ? '' : ` (${esc(group(r.workspaceBytes))} B)`}, ${esc(r.layout ?? '')} layout${r.alignment ? `, ${r.alignment} B alignment` : ''}`
          : `${r.storage}: <b>${esc(r.mode)}</b>, no workspace`;
      return `<p>${head}</p><ul class="notes">${r.reasons.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>`;
    })
    .join('');
  const hazards = a.hazards.length
    ? `<ul class="notes">${a.hazards.map((h) => `<li class="warn">${esc(`${h.program} at position ${h.position} needs ${bytes(h.neededBytes)} of ${h.storage}; the programs' first calls configured ${bytes(h.configuredBytes)}: set the workspace again whenever symbol values change.`)}</li>`).join('')}</ul>`
    : '';
  return `<section class="verdict" id="recommendation"><h2>Recommendation</h2>${recs}${v.measured ? `<p>Measured: ${esc(v.measured.verdict)}</p>` : `<p class="hint">${esc(a.basisNote)}</p>`}${hazards}</section>`;
}

function footprintTable(v: WorkloadView): string {
  const labels = v.measured?.variants ?? [];
  const head = ['storage', ...MODES.map((m) => `${m} (analysis)`), ...labels.map((l) => `${l} (measured)`)];
  const rows = v.storages.map((s) => [
    esc(s),
    ...MODES.map((m) => esc(bytes(v.footprint[m][s] ?? 0))),
    ...labels.map((l) => esc(bytes(v.measured!.footprint[l]?.[s] ?? null))),
  ]);
  return table('footprint', head, rows, new Set(head.map((_, i) => i).filter((i) => i > 0)));
}

function callsTable(v: WorkloadView): string {
  const s = v.storages[0] ?? '';
  const rows = v.calls.map((c) => [
    String(c.position),
    esc(c.program),
    `<span class="mono">${esc(
      Object.entries(c.symbols)
        .map(([k, x]) => `${k}=${x}`)
        .join(' '),
    )}</span>`,
    esc(bytes(c.workspace[s] ?? 0)),
    esc(Object.keys(c.peak).length ? bytes(c.peak[s] ?? 0) : 'not known'),
  ]);
  return table('calls', ['position', 'program', 'symbols', `workspace use (${s})`, 'peak live, SCOPED'], rows, new Set([0, 3, 4]));
}

function programsTable(v: WorkloadView): string {
  const s = v.storages[0] ?? '';
  const sizedBy = v.timelines[0]?.external.sizedBy ?? null;
  const labels = v.measured?.variants ?? [];
  const rows = v.programs.map((p) => [
    `${esc(p.key)}${p.key === sizedBy ? ' <b>(sizes the workspace)</b>' : ''}`,
    esc(p.file),
    esc(p.positions.join(', ')),
    esc(bytes(p.workspace[s] ?? 0)),
    esc(bytes(p.persistent[s] ?? 0)),
    ...labels.map((l) => esc(p.measured?.[l] ? formatNs(p.measured[l].medianNs) : '—')),
  ]);
  const head = ['program', 'file', 'positions', `workspace need (${s})`, 'PERSISTENT holds', ...labels.map((l) => `${l} median per call`)];
  return table('programs', head, rows, new Set(head.map((_, i) => i).filter((i) => i >= 3)));
}

function measuredSection(v: WorkloadView): string {
  const m = v.measured;
  if (!m) return '';
  const steps = table(
    'per-step',
    ['variant', 'steps timed', 'median', 'p10', 'p90', 'allocs per step', 'alloc+free per step'],
    m.variants.map((l) => {
      const s = m.perStep[l];
      return s
        ? [
            esc(l),
            formatCount(s.samples),
            formatNs(s.medianNs),
            formatNs(s.p10Ns),
            formatNs(s.p90Ns),
            formatCount(s.allocs),
            formatNs(s.allocFreeNs),
          ]
        : [esc(l), '—', '—', '—', '—', '—', '—'];
    }),
    new Set([1, 2, 3, 4, 5, 6]),
  );
  const checks = Object.entries(m.verification)
    .map(
      ([l, c]) =>
        `<li>${esc(l)}: ${c.failed === 0 ? `<span class="badge ok">ok</span> ${c.checked} calls checked` : `<span class="badge fail">${c.failed} of ${c.checked} calls differ</span>`} against SCOPED</li>`,
    )
    .join('');
  const overruns = m.overruns.length
    ? table(
        'overruns',
        ['variant', 'program', 'position', 'storage', 'needed', 'configured'],
        m.overruns.map((o) => [
          esc(o.variant),
          esc(o.program),
          String(o.position),
          esc(o.storage),
          esc(bytes(o.neededBytes)),
          esc(bytes(o.configuredBytes)),
        ]),
        new Set([2, 4, 5]),
      )
    : '';
  const findings = m.findings.length ? `<ul class="notes">${m.findings.map((f) => `<li class="warn">${esc(f)}</li>`).join('')}</ul>` : '';
  return `<section id="measured"><h2>Measured</h2><p>${formatCount(m.timedSteps)} timed steps × ${formatCount(m.processes)} process${m.processes === 1 ? '' : 'es'}.</p>${steps}<h3>Verification</h3><ul class="notes">${checks}</ul>${overruns}${findings}</section>`;
}

function blockersSection(a: AdviceView | null): string {
  if (!a) return '';
  if (a.blockers.length === 0)
    return `<section id="blockers"><h2>What blocks EXTERNAL</h2><p>Nothing: every transient that holds memory can move to the workspace.</p></section>`;
  const many = a.subject.programs > 1;
  const rows = a.blockers.map((b) => [
    `<span class="mono">${esc(b.name)}</span>`,
    ...(many ? [esc(b.program)] : []),
    esc(b.bytes === null ? formatBytesExpr(b.bytesExpr) : formatBytes(b.bytes)),
    esc(b.reason),
    esc(b.change),
  ]);
  const head = ['transient', ...(many ? ['program'] : []), 'bytes', 'why not', 'change that would make it eligible'];
  const more = a.blockersLeft ? `<p class="hint">… and ${formatCount(a.blockersLeft)} more, smaller.</p>` : '';
  return `<section id="blockers"><h2>What blocks EXTERNAL</h2>${table('blockers', head, rows, new Set([many ? 2 : 1]))}${more}</section>`;
}

function sweepSection(a: AdviceView | null, assets: HtmlAssets): string {
  const sw = a?.sweep;
  if (!sw) return '';
  const figures = sw.storages
    .map((s, k) =>
      figure(
        assets.renderSVG('sweep', { sweep: sw, storage: s.storage }, { width: WIDTH, height: 300, theme: 'light', idPrefix: `sweep${k}` }),
        s.packed.closedForm
          ? `${s.storage}: packed workspace = ${s.packed.closedForm} bytes${s.dace.closedForm ? `; DaCe's layout = ${s.dace.closedForm}` : ''}.`
          : `${s.storage}: no one polynomial fits every point; the table is the answer.`,
      ),
    )
    .join('');
  const rows = sw.values.map((x, i) => [
    esc(String(x)),
    ...sw.storages.flatMap((s) => [esc(bytes(s.packed.bytes[i])), esc(bytes(s.dace.bytes[i]))]),
  ]);
  const head = [sw.symbol, ...sw.storages.flatMap((s) => [`${s.storage} packed`, `${s.storage} DaCe`])];
  return `<section id="sweep"><h2>Sizing across ${esc(sw.symbol)}</h2>${figures}${table('sweep-table', head, rows, new Set(head.map((_, i) => i)))}</section>`;
}

/** The workload report as one HTML document. `result` may be null (a static report from the advisor alone). */
export function renderWorkloadReport(result: WorkloadResult | null, opts: WorkloadReportOptions, assets: HtmlAssets): string {
  const advice = opts.advice ?? null;
  const view = buildWorkloadView({
    advice,
    result,
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.steps !== undefined ? { steps: opts.steps } : {}),
  });
  const adviceView = advice ? buildAdviceView(advice) : null;
  const version = transientLabVersion();
  const generatedAt = opts.generatedAt ?? new Date().toISOString();
  const title = `${view.name} · workload`;
  const sub = [
    result ? `profiled ${dateText(result.createdAt)}` : 'from the analysis only: no timing',
    `${formatCount(view.calls.length)} calls per step`,
    `report written ${dateText(generatedAt)} by Transient Lab ${version}`,
  ];
  const pictures = view.timelines
    .map((t, k) =>
      figure(
        assets.renderSVG('workload', { view, storage: t.storage }, { width: WIDTH, theme: 'light', idPrefix: `workload${k}` }),
        `${t.storage}: the calls of one step; PERSISTENT holds every program's transients at once (${bytes(t.persistent.total)}), EXTERNAL one shared workspace (${bytes(t.external.band)}${t.external.sizedBy ? `, sized by ${t.external.sizedBy}` : ''}), POOL's reserve rises to the largest peak of a call (${bytes(t.pool.measured ?? t.pool.peak)}${t.pool.measured !== null ? ', measured' : ''}).`,
      ),
    )
    .join('');
  const notes = view.notes.length ? `<ul class="notes">${view.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '';
  const body = [
    `<header class="mast"><div class="brand"><b>◆</b> Transient Lab · workload report</div><h1>${esc(title)}</h1><p class="sub">${esc(sub.join(' · '))}</p>`,
    `<nav class="toc" aria-label="Sections"><a href="#recommendation">Recommendation</a><a href="#pictures">Memory over the step</a><a href="#tables">Tables</a>${view.measured ? '<a href="#measured">Measured</a>' : ''}${adviceView?.sweep ? '<a href="#sweep">Sweep</a>' : ''}${adviceView ? '<a href="#blockers">Blockers</a>' : ''}</nav></header>`,
    recommendationSection(adviceView, view),
    `<section id="pictures"><h2>Memory over the step</h2>${pictures}${notes}</section>`,
    `<section id="tables"><h2>Footprint per mode</h2>${footprintTable(view)}<h3>Calls</h3>${callsTable(view)}<h3>Programs</h3>${programsTable(view)}</section>`,
    measuredSection(view),
    sweepSection(adviceView, assets),
    blockersSection(adviceView),
    `<footer>Written by Transient Lab ${esc(version)} on ${esc(dateText(generatedAt))} from ${esc(basename(view.path))}. This file is self-contained and makes no network request.${result ? ' The workload result is embedded (<code>tlab-workload-result</code>).' : ''}</footer>`,
  ];
  const csp = [
    `default-src 'none'`,
    `style-src ${reportCspSources(assets.runtime).style}`,
    `img-src data:`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `object-src 'none'`,
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en" data-theme="light">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="Transient Lab ${esc(version)}">`,
    `<title>${esc(title)} · Transient Lab report</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    body.filter(Boolean).join('\n'),
    result ? `<script type="application/json" id="tlab-workload-result">${scriptJson(result)}</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** `renderWorkloadReport` with the built chart bundles (`npm run build:report`). */
export async function workloadReportHtml(result: WorkloadResult | null, opts: WorkloadReportOptions = {}): Promise<string> {
  return renderWorkloadReport(result, opts, await loadReportAssets());
}
