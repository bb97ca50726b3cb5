/**
 * `transient-lab report RESULT [MORE …] -o OUT`: a report of one profile result, or a comparison of several
 * (the first is the reference), as HTML, PDF, CSV or JSON (docs/reports.md). Results are profile@1 JSON files
 * or HTML reports written by Transient Lab (their embedded results are read back). Nothing half-written is
 * ever left at OUT: files are written to a temporary name in the same folder and renamed when complete.
 *
 * Exit codes: 0 ok, 2 usage or unwritable output, 3 bad input, 5 report bundles not built, 7 PDF without Chromium.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { TlabError } from '../engine/errors.js';
import {
  analyseForReport,
  formatFromPath,
  NO_ANALYSIS,
  REPORT_FORMATS,
  reportCsvFiles,
  reportHtml,
  reportJson,
  sdfgCandidates,
  transientLabVersion,
  writeFilesAtomic,
  type LabelledResult,
  type OutputFile,
  type ReportAnalysis,
  type ReportFormat,
} from '../engine/report/index.js';
import { NoChromium, findChromium, printPdf } from '../host-kit/pdf.js';
import { parseResultDocuments } from '../host-kit/result-files.js';
import { optionValue, parseArgs, type OptionSpec } from './args.js';
import type { Command } from './command.js';
import { EXIT_NO_CHROMIUM } from './failure.js';

const NAME = 'report';

/** Largest result file read (a profile of many calls × modes is a few MB; HTML reports embed analyses). */
const MAX_INPUT_BYTES = 512 * 2 ** 20;

const SPEC: Record<string, OptionSpec> = {
  format: { value: true },
  out: { value: true },
  label: { value: true, repeat: true },
  sdfg: { value: true },
  'no-analysis': { value: false },
  chromium: { value: true },
  help: { value: false },
};

const HELP = `Usage: transient-lab report RESULT [MORE …] -o OUT [options]

Writes a report of a profile result (transient-lab profile --out RESULT.json), or a comparison of several on
the same axes (the first is the reference: before, machine A). A RESULT may also be an HTML report written by
Transient Lab: the results it embeds are read back.

Options:
  -o, --out FILE     where to write (required)
  --format F         html, pdf, csv or json (default: from the extension of FILE)
                       html  one self-contained file: charts (interactive, static SVG without JavaScript),
                             verdict, tables, methodology; the results embedded; no network access
                       pdf   the HTML printed by headless Chromium (vectors, paginated)
                       csv   FILE: one row per timed call; FILE with .summary.csv instead of .csv: one row
                             per mode (out.csv and out.summary.csv)
                       json  the result itself, validated (one result only)
  --label L          label of each result, in order (repeat; default: the file name)
  --sdfg FILE        the profiled SDFG, for lifetimes, the workspace map and the transients table
                     (default: the path the result names, then next to the result file; used only when its
                     sha256 matches the result's)
  --no-analysis      leave the program's analysis out
  --chromium PATH    Chromium for PDF (default: chromium, chromium-browser, google-chrome on the PATH)

Exit codes: 0 ok; 2 usage, or OUT cannot be written; 3 a RESULT is unreadable, not a result, malformed, or of
a newer schema; 5 the report's chart bundles are not built (npm run build:report); 7 PDF needs Chromium and
none was found.`;

interface ReportArgs {
  results: string[];
  out: string;
  format: ReportFormat;
  labels: string[];
  sdfg: string | null;
  analysis: boolean;
  chromium: string | null;
}

function parseReportArgs(argv: string[]): ReportArgs | 'help' {
  // `-o FILE` is the one short option: the usual spelling for an output file.
  const args = parseArgs(
    NAME,
    argv.map((a) => (a === '-o' ? '--out' : a.startsWith('-o=') ? `--out=${a.slice(3)}` : a)),
    SPEC,
  );
  if (args.flags.has('help')) return 'help';
  if (!args.positionals.length)
    throw new TlabError('usage', `${NAME}: expected at least one RESULT file (a profile@1 JSON or an HTML report)`);
  const out = optionValue(args, 'out');
  if (!out) throw new TlabError('usage', `${NAME}: -o OUT is required (e.g. -o report.html)`);
  const given = optionValue(args, 'format');
  let format: ReportFormat;
  if (given !== undefined) {
    if (!(REPORT_FORMATS as readonly string[]).includes(given))
      throw new TlabError('usage', `${NAME}: --format expects ${REPORT_FORMATS.join(', ')}, got '${given}'`);
    format = given as ReportFormat;
  } else {
    const inferred = formatFromPath(out);
    if (!inferred)
      throw new TlabError(
        'usage',
        `${NAME}: cannot tell the format from '${basename(out)}': give --format ${REPORT_FORMATS.join('|')} or an OUT ending in .html, .pdf, .csv or .json`,
      );
    format = inferred;
  }
  const labels = args.options.get('label') ?? [];
  if (labels.length > args.positionals.length)
    throw new TlabError(
      'usage',
      `${NAME}: ${labels.length} --label for ${args.positionals.length} result${args.positionals.length === 1 ? '' : 's'}`,
    );
  return {
    results: args.positionals,
    out,
    format,
    labels,
    sdfg: optionValue(args, 'sdfg') ?? null,
    analysis: !args.flags.has('no-analysis'),
    chromium: optionValue(args, 'chromium') ?? null,
  };
}

async function readResults(paths: string[], labels: string[]): Promise<LabelledResult[]> {
  const out: LabelledResult[] = [];
  for (const path of paths) {
    let bytes: Uint8Array;
    try {
      const st = await stat(path);
      if (st.isDirectory()) throw new TlabError('input', 'this is a folder, not a result file', { file: path });
      if (st.size > MAX_INPUT_BYTES)
        throw new TlabError('input', `the file is ${st.size} bytes, more than a result can be (${MAX_INPUT_BYTES})`, { file: path });
      bytes = await readFile(path);
    } catch (err) {
      if (err instanceof TlabError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw new TlabError(
        'input',
        `cannot read: ${code === 'ENOENT' ? 'the file does not exist' : code === 'EACCES' ? 'permission denied' : (err as Error).message}`,
        { file: path },
      );
    }
    const docs = parseResultDocuments(bytes, path);
    for (const [i, d] of docs.entries()) {
      const fallback =
        docs.length > 1 ? `${basename(path)} (${d.label ?? i + 1})` : (d.label ?? basename(path).replace(/\.(json|html?)$/i, ''));
      out.push({ label: fallback, result: d.result, source: path });
    }
  }
  // Labels given on the command line apply to the results in order.
  labels.forEach((l, i) => {
    if (out[i]) out[i] = { ...out[i], label: l };
  });
  // Same labels would merge series in the charts: number them.
  const seen = new Map<string, number>();
  for (const r of out) seen.set(r.label, (seen.get(r.label) ?? 0) + 1);
  const counter = new Map<string, number>();
  return out.map((r) => {
    if (seen.get(r.label)! < 2) return r;
    const n = (counter.get(r.label) ?? 0) + 1;
    counter.set(r.label, n);
    return { ...r, label: `${r.label} #${n}` };
  });
}

export interface WriteReportOptions {
  format: ReportFormat;
  out: string;
  analysis: ReportAnalysis;
  chromium: string | null;
}

/** Renders `results` in `format` and writes OUT (two files for CSV), all or nothing. Returns the paths written. */
export async function writeReport(results: LabelledResult[], o: WriteReportOptions): Promise<string[]> {
  let files: OutputFile[];
  if (o.format === 'json') files = [{ path: o.out, data: reportJson(results) }];
  else if (o.format === 'csv') files = reportCsvFiles(results, o.out);
  else {
    const chromium = o.format === 'pdf' ? findChromium(o.chromium) : null;
    const { html } = await reportHtml({
      results,
      analysis: o.analysis,
      generatedAt: new Date().toISOString(),
      version: transientLabVersion(),
    });
    files = [{ path: o.out, data: chromium ? await printPdf(html, chromium) : html }];
  }
  await writeFilesAtomic(files);
  return files.map((f) => f.path);
}

async function reportAnalysis(results: LabelledResult[], sdfg: string | null, enabled: boolean): Promise<ReportAnalysis> {
  if (!enabled) return NO_ANALYSIS;
  const first = results[0]!;
  return sdfg
    ? analyseForReport(first.result, [sdfg], { explicit: true })
    : analyseForReport(first.result, sdfgCandidates(first.result, first.source));
}

function sizeText(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

export const reportCommand: Command = {
  name: NAME,
  usage: 'report RESULT [MORE …] -o OUT [--format html|pdf|csv|json] [--label L …] [--sdfg FILE] [--no-analysis] [--chromium PATH]',
  async run(argv: string[]): Promise<number> {
    const parsed = parseReportArgs(argv);
    if (parsed === 'help') {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    try {
      // Fail before any work when the PDF cannot be printed.
      if (parsed.format === 'pdf') findChromium(parsed.chromium);
      const results = await readResults(parsed.results, parsed.labels);
      const analysis =
        parsed.format === 'html' || parsed.format === 'pdf' ? await reportAnalysis(results, parsed.sdfg, parsed.analysis) : NO_ANALYSIS;
      const written = await writeReport(results, { format: parsed.format, out: parsed.out, analysis, chromium: parsed.chromium });
      for (const path of written) process.stdout.write(`${path} (${sizeText((await stat(path)).size)})\n`);
      if ((parsed.format === 'html' || parsed.format === 'pdf') && !analysis.view)
        process.stderr.write(`transient-lab ${NAME}: note: ${analysis.note}\n`);
      return 0;
    } catch (err) {
      if (err instanceof NoChromium) {
        process.stderr.write(`transient-lab ${NAME}: ${err.message}\n`);
        return EXIT_NO_CHROMIUM;
      }
      throw err;
    }
  },
};
