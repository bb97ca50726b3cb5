/**
 * Reports of profile results (docs/reports.md): the model (model.ts), the formats (html.ts, csv.ts, the JSON
 * result itself), the analysis they draw from (source.ts), and writing without half-written files (engine/io/atomic-write.ts).
 * PDF is the HTML printed by Chromium: the host drives it (the CLI through playwright-core, the desktop app
 * through Electron's printToPDF) with `pdfPrintOptions`.
 */
import type { AnalysisView } from '../view/types.js';
import { loadReportAssets } from './assets.js';
import { callsCsv, summaryCsv, summaryPath } from './csv.js';
import { renderHtml, type HtmlAssets } from './html.js';
import { buildReport } from './model.js';
import type { LabelledResult, ReportFormat, ReportInput, ReportModel } from './types.js';
import { TlabError } from '../errors.js';

export { buildReport } from './model.js';
export { callsCsv, summaryCsv, parseCsv, CALL_COLUMNS, SUMMARY_COLUMNS } from './csv.js';
export { renderHtml, type HtmlAssets } from './html.js';
export { loadReportAssets, transientLabVersion } from './assets.js';
export { analyseForReport, sdfgCandidates, NO_ANALYSIS } from './source.js';
export { embeddedResults, looksLikeHtml } from './embedded.js';
export { writeFilesAtomic, type OutputFile } from '../io/atomic-write.js';
export * from './types.js';

/** The format an output file's extension asks for, or null. */
export function formatFromPath(path: string): ReportFormat | null {
  const m = /\.([a-z]+)$/i.exec(path);
  const ext = m?.[1]?.toLowerCase();
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'pdf' || ext === 'csv' || ext === 'json') return ext;
  return null;
}

/** The HTML report (also the source of the PDF). */
export async function reportHtml(input: ReportInput, assets?: HtmlAssets): Promise<{ html: string; model: ReportModel }> {
  const model = buildReport(input);
  const view: AnalysisView | null = input.analysis.view;
  return { html: renderHtml(model, view, assets ?? (await loadReportAssets())), model };
}

/** The JSON format: the one result itself. */
export function reportJson(results: readonly LabelledResult[]): string {
  if (results.length !== 1) {
    throw new TlabError(
      'usage',
      `the JSON format holds exactly one result, got ${results.length}: give one result, or use html, pdf or csv for a comparison`,
    );
  }
  return `${JSON.stringify(results[0]!.result, null, 2)}\n`;
}

/** Both CSV files: the per-call rows at `path`, the per-mode summary next to it (`summaryPath`). */
export function reportCsvFiles(results: readonly LabelledResult[], path: string): Array<{ path: string; data: string }> {
  return [
    { path, data: callsCsv(results) },
    { path: summaryPath(path), data: summaryCsv(results) },
  ];
}

/**
 * Print settings for the PDF, the same for playwright's `page.pdf` and Electron's `webContents.printToPDF`:
 * A4 from the report's own @page rule (margins, page header with the program, "page N of M" footer), with
 * backgrounds, and a tagged PDF with an outline where the printer supports them.
 */
export const PDF_PRINT_OPTIONS = {
  printBackground: true,
  preferCSSPageSize: true,
  displayHeaderFooter: false,
  tagged: true,
  outline: true,
} as const;
