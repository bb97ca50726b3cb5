/**
 * `exportReport`: a report of results the renderer holds, written by the engine's report writer
 * (engine/report/) and answered as bytes. Nothing is written on the host: the renderer previews the HTML and
 * downloads the files (the desktop app turns the download into its Save dialog). The program's analysis is
 * taken from the open document only when its bytes still have the profiled file's sha256 (`analyseForReport`).
 */
import {
  analyseForReport,
  reportCsvFiles,
  reportHtml,
  reportJson,
  transientLabVersion,
  type LabelledResult,
  type ReportAnalysis,
} from '../engine/report/index.js';
import { TlabError } from '../engine/errors.js';
import type { ExportReportRequest, ReportExport, ReportFile } from '../ipc/contract.js';
import type { PdfPrinter } from './context.js';

const MIME = { html: 'text/html;charset=utf-8', pdf: 'application/pdf', csv: 'text/csv;charset=utf-8', json: 'application/json' } as const;

/** A file name stem from the program's name: letters, digits, `.`, `_`, `-` only. */
function reportStem(results: ExportReportRequest['results']): string {
  const name =
    results[0]!.result.program.name
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 80) || 'program';
  return results.length > 1 ? `${name}-comparison` : `${name}-report`;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export interface ExportSource {
  /** The profiled document's file on disk (the host's copy of an upload included), or null. */
  sdfgPath: string | null;
  /** How the user knows that file (an upload's name, not the host's private copy). */
  display: string;
  /** Why there is no document, when `sdfgPath` is null. */
  missing: string;
}

export async function exportReport(req: ExportReportRequest, source: ExportSource, printPdf: PdfPrinter | null): Promise<ReportExport> {
  if (req.format === 'pdf' && !printPdf) {
    throw new TlabError(
      'unsupported',
      'PDF needs Chromium on the host, and this host has none: export HTML and print it from a browser, or install Chromium where Transient Lab runs (Debian: apt-get install chromium)',
    );
  }
  const results: LabelledResult[] = req.results.map((r) => ({ label: r.label, result: r.result, source: null }));
  const stem = reportStem(req.results);
  if (req.format === 'json') {
    return {
      format: 'json',
      files: [{ name: `${stem}.json`, mime: MIME.json, bytes: utf8(reportJson(results)) }],
      analysisNote: 'A JSON report is the result itself: no analysis.',
    };
  }
  if (req.format === 'csv') {
    const files: ReportFile[] = reportCsvFiles(results, `${stem}.csv`).map((f) => ({ name: f.path, mime: MIME.csv, bytes: utf8(f.data) }));
    return { format: 'csv', files, analysisNote: 'CSV reports hold the timed calls and the per-mode summary: no analysis.' };
  }
  let analysis: ReportAnalysis = { view: null, note: source.missing };
  if (source.sdfgPath) {
    analysis = await analyseForReport(req.results[0]!.result, [source.sdfgPath], { explicit: true });
    analysis = { ...analysis, note: analysis.note.split(source.sdfgPath).join(source.display) };
  }
  const { html } = await reportHtml({ results, analysis, generatedAt: new Date().toISOString(), version: transientLabVersion() });
  if (req.format === 'html')
    return { format: 'html', files: [{ name: `${stem}.html`, mime: MIME.html, bytes: utf8(html) }], analysisNote: analysis.note };
  const pdf = await printPdf!(html);
  return { format: 'pdf', files: [{ name: `${stem}.pdf`, mime: MIME.pdf, bytes: pdf }], analysisNote: analysis.note };
}
