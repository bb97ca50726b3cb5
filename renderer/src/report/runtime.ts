/**
 * The HTML report's runtime (inlined into every report by the engine's HTML writer; built by
 * `npm run build:report` into dist/report/report-runtime.js). It mounts the renderer's own chart modules over
 * the static SVG the report was written with, from the JSON the report embeds: hover, zoom and a shared
 * transient selection, in the light or dark theme. Without it the report shows the static charts; print
 * always uses them (light, vectors).
 */
import { CHARTS, type ChartHandle, type ChartKind } from '../charts/index.js';
import type { ThemeName } from '../theme/index.js';

interface ReportMeta {
  schema: string;
  program: string;
  pageHeader: string;
  charts: Array<{ id: string; kind: ChartKind; storage: string | null }>;
  results: string[];
}

function readJson<T>(el: Element | null): T | null {
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as T;
  } catch {
    return null;
  }
}

/** CSS string literal. */
const cssString = (s: string): string => `"${s.replace(/[\\"]/g, '\\$&').replace(/[\n\r\f]/g, ' ')}"`;

function pageHeader(text: string): void {
  // CSSOM, not a <style> element: the report's CSP allows only its own stylesheet, by hash.
  const sheet = document.styleSheets[0];
  try {
    sheet?.insertRule(`@page { @top-left { content: ${cssString(text)}; } }`, sheet.cssRules.length);
  } catch {
    // A browser without page margin boxes keeps the generic header.
  }
}

export function startReport(): void {
  const meta = readJson<ReportMeta>(document.getElementById('tlab-report'));
  if (!meta) return;
  pageHeader(meta.pageHeader);
  const results = [...document.querySelectorAll('script.tlab-result')].flatMap((el) => {
    const result = readJson<unknown>(el);
    return result ? [{ label: (el as HTMLElement).dataset.label ?? '', result }] : [];
  });
  const view = readJson<unknown>(document.getElementById('tlab-analysis'));
  const profile = { results };
  const media = window.matchMedia?.('(prefers-color-scheme: dark)');
  let theme: ThemeName = media?.matches ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;

  const handles: Array<ChartHandle<unknown>> = [];
  const select = (id: string | null): void => {
    for (const h of handles) h.update({ selectedTransient: id });
  };
  for (const c of meta.charts) {
    const figure = document.getElementById(c.id);
    const live = figure?.querySelector<HTMLElement>('.chart-live');
    if (!figure || !live) continue;
    const analysisChart = c.kind === 'lifetime' || c.kind === 'workspace';
    if (analysisChart && !view) continue;
    const data = analysisChart ? { view, storage: c.storage } : profile;
    live.hidden = false;
    try {
      const mount = CHARTS[c.kind].mount as (el: HTMLElement, o: object) => ChartHandle<unknown>;
      handles.push(mount(live, { data, theme, backend: 'svg', onSelect: select }));
      figure.classList.add('live');
    } catch {
      // The static chart stays.
      live.replaceChildren();
      live.hidden = true;
    }
  }

  const toggle = document.getElementById('theme-toggle') as HTMLButtonElement | null;
  const apply = (next: ThemeName): void => {
    theme = next;
    document.documentElement.dataset.theme = theme;
    if (toggle) toggle.textContent = theme === 'dark' ? 'Light theme' : 'Dark theme';
    for (const h of handles) h.update({ theme });
  };
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener('click', () => apply(theme === 'dark' ? 'light' : 'dark'));
  }
  apply(theme);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startReport, { once: true });
else startReport();
