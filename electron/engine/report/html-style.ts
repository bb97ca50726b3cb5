/**
 * The report's one stylesheet. A constant: its sha256 goes into the report's CSP (and into the app's, so that
 * the export preview, an iframe that inherits the app's policy, may show it). Colours are the renderer's
 * palette (renderer/src/theme): light by default and in print, dark when the runtime applies it.
 * Print rules: A4, no chart or table row cut across pages, page numbers in the margin.
 */
export const REPORT_CSS = `
:root{--bg:#ffffff;--surface:#f7f8fa;--surface2:#eef0f4;--text:#1c1f24;--muted:#5b6270;--border:#c9ced6;--grid:#e6e8ec;
--accent:#3b5bdb;--good:#2b8a3e;--bad:#c92a2a;--scoped:#6b7280;--persistent:#0072b2;--pool:#b85c00;--external:#008060;
--sans:system-ui,-apple-system,"Segoe UI","Noto Sans","DejaVu Sans",sans-serif;
--mono:ui-monospace,"SF Mono","DejaVu Sans Mono","Noto Sans Mono",monospace;color-scheme:light}
:root[data-theme=dark]{--bg:#16181d;--surface:#1e2128;--surface2:#262a33;--text:#e6e8ec;--muted:#a0a7b4;--border:#3a404c;
--grid:#2b3039;--accent:#8ca2ff;--good:#69db7c;--bad:#ff8787;--scoped:#9ca3af;--persistent:#56b4e9;--pool:#e69f00;
--external:#3fbf94;color-scheme:dark}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--text);font:15px/1.55 var(--sans);-webkit-text-size-adjust:100%}
body{margin:0 auto;max-width:1040px;padding:28px 32px 48px}
h1{font-size:26px;line-height:1.25;margin:4px 0 6px;font-weight:650;letter-spacing:-.01em;overflow-wrap:anywhere}
h2{font-size:19px;margin:36px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--border);font-weight:640;break-after:avoid}
h3{font-size:15px;margin:0 0 2px;font-weight:620;break-after:avoid}
p{margin:0 0 10px}
code,.mono{font-family:var(--mono);font-size:.88em}
a{color:var(--accent)}
.brand{display:flex;align-items:center;gap:10px;color:var(--muted);font-size:13px;letter-spacing:.04em;text-transform:uppercase}
.brand b{color:var(--external);font-weight:700}
.mast{position:relative;padding-bottom:14px;border-bottom:2px solid var(--text)}
.mast .sub{color:var(--muted);font-size:13.5px;margin:0}
.theme-toggle{position:absolute;right:0;top:0;font:inherit;font-size:12.5px;color:var(--text);background:var(--surface);
border:1px solid var(--border);border-radius:6px;padding:3px 10px;cursor:pointer}
.theme-toggle:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
nav.toc{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:10px 0 0}
nav.toc a{color:var(--muted);text-decoration:none}
nav.toc a:hover{color:var(--accent);text-decoration:underline}
.run{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:14px;margin:18px 0 0}
.run-label{grid-column:1/-1;font-weight:620;margin:8px 0 -6px}
.facts{background:var(--surface);border:1px solid var(--border);border-radius:8px;padding:10px 12px;break-inside:avoid}
.facts h3{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-bottom:6px}
.facts dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:2px 10px;margin:0;font-size:13px}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.verdict{margin:22px 0 0;padding:16px 20px;background:var(--surface);border:1px solid var(--border);
border-left:5px solid var(--external);border-radius:8px;break-inside:avoid}
.verdict h2{margin-top:0;border:0;padding:0}
.verdict p{font-size:15.5px}
.verdict p:first-of-type{font-size:17px;font-weight:520}
data{font-variant-numeric:tabular-nums;font-weight:620;white-space:nowrap}
.badge{display:inline-block;font-size:12px;font-weight:650;border-radius:999px;padding:1px 9px;margin-right:6px;vertical-align:1px}
.badge.ok{color:var(--good);border:1px solid var(--good)}
.badge.fail{color:var(--bad);border:1px solid var(--bad)}
figure.chart{margin:18px 0 26px;break-inside:avoid;page-break-inside:avoid}
figure.chart figcaption{margin:0 0 8px}
figure.chart figcaption p{color:var(--muted);font-size:13px;margin:0}
.chart-static,.chart-live{border:1px solid var(--border);border-radius:8px;overflow:hidden;background:#ffffff}
:root[data-theme=dark] .chart-live{background:var(--bg)}
.chart-static svg{display:block;width:100%;height:auto}
.chart-live{position:relative}
.live .chart-static{display:none}
.chart-missing{border:1px dashed var(--border);border-radius:8px;padding:14px 16px;color:var(--muted);font-size:13.5px;break-inside:avoid}
.hint{color:var(--muted);font-size:12px;margin:4px 0 0}
.table-wrap{overflow-x:auto;margin:8px 0 18px;border:1px solid var(--border);border-radius:8px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{padding:5px 9px;text-align:left;vertical-align:top;border-bottom:1px solid var(--grid)}
th{background:var(--surface2);font-weight:620;white-space:nowrap;position:sticky;top:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tbody tr:nth-child(even) td{background:var(--surface)}
tr{break-inside:avoid;page-break-inside:avoid}
thead{display:table-header-group}
td.reason{color:var(--muted);min-width:220px}
td.sdfg span{display:block;max-width:12em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.live{white-space:nowrap}
.yes{color:var(--good);font-weight:650}.no{color:var(--muted)}
.mode{display:inline-block;width:9px;height:9px;border-radius:2px;margin-right:6px;vertical-align:0}
.m-SCOPED{background:var(--scoped)}.m-PERSISTENT{background:var(--persistent)}.m-POOL{background:var(--pool)}.m-EXTERNAL{background:var(--external)}
.changed td{font-weight:600}
.faster{color:var(--good)}.slower{color:var(--bad)}
.method p{max-width:78ch}
.method h3{margin-top:16px}
ul.notes{margin:0;padding-left:20px;font-size:13.5px}
ul.notes li{margin:2px 0}
.warn{color:var(--bad)}
footer{margin-top:40px;padding-top:12px;border-top:1px solid var(--border);color:var(--muted);font-size:12.5px}
@media (max-width:760px){body{padding:16px}.run{grid-template-columns:1fr}}
@page{size:A4;margin:15mm 12mm 16mm;
@top-left{content:"Transient Lab report";font:9pt var(--sans);color:#5b6270}
@bottom-right{content:"page " counter(page) " of " counter(pages);font:9pt var(--sans);color:#5b6270}}
@media print{
:root,:root[data-theme=dark]{--bg:#ffffff;--surface:#f7f8fa;--surface2:#eef0f4;--text:#1c1f24;--muted:#5b6270;--border:#c9ced6;
--grid:#e6e8ec;--accent:#3b5bdb;--good:#2b8a3e;--bad:#c92a2a;--scoped:#6b7280;--persistent:#0072b2;--pool:#b85c00;--external:#008060;color-scheme:light}
html{font-size:10pt}
body{max-width:none;padding:0}
.theme-toggle,nav.toc,.hint{display:none}
.live .chart-static{display:block}
.chart-live{display:none}
.table-wrap{overflow:visible;border:0}
td.sdfg span{max-width:none;white-space:normal;overflow-wrap:anywhere}
th{position:static}
h2{margin-top:22px}
figure.chart{margin:10px 0 16px}
a{color:inherit;text-decoration:none}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`
  .trim()
  .replace(/\n/g, '');
