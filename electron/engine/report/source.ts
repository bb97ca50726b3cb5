/**
 * The program's analysis for a report. A result names the SDFG it profiled (`program.file`) and its sha256;
 * when that file is reachable and still has the same bytes, it is analysed again with the run's symbol values
 * (lifetimes, memory curves, workspace layouts, the transients table). Otherwise the report says plainly why
 * those parts are missing: never an analysis of a different file shown as if it were the profiled one.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { analyze } from '../analysis/index.js';
import type { ProfileResult } from '../profile/result.js';
import { parseSdfgBytes } from '../sdfg/index.js';
import { buildAnalysisView } from '../view/analysis.js';
import type { ReportAnalysis } from './types.js';

/** Where to look for the profiled SDFG: as named (from the current folder), then next to the result file. */
export function sdfgCandidates(result: ProfileResult, resultSource: string | null, cwd = process.cwd()): string[] {
  const file = result.program.file;
  if (isAbsolute(file)) return [file, ...(resultSource ? [resolve(dirname(resultSource), basename(file))] : [])];
  const out = [resolve(cwd, file)];
  if (resultSource) out.push(resolve(dirname(resultSource), file), resolve(dirname(resultSource), basename(file)));
  return [...new Set(out)];
}

/**
 * Analyses the first candidate that exists and whose sha256 matches the result's. `explicit`: the user named the
 * file (`--sdfg`), so a different hash is reported against that file rather than searched past.
 */
export async function analyseForReport(
  result: ProfileResult,
  candidates: string[],
  opts: { explicit?: boolean } = {},
): Promise<ReportAnalysis> {
  const mismatched: string[] = [];
  for (const path of candidates) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(path);
    } catch {
      if (opts.explicit)
        return {
          view: null,
          note: `The SDFG given for the analysis, ${path}, cannot be read: the lifetimes, the workspace map and the transients table are left out.`,
        };
      continue;
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (hash !== result.program.hash) {
      mismatched.push(path);
      if (opts.explicit) break;
      continue;
    }
    try {
      const file = parseSdfgBytes(bytes, path);
      const symbols = new Map(Object.entries(result.settings.symbols).map(([k, v]) => [k, BigInt(v)]));
      const view = buildAnalysisView(analyze(file, { symbols, defaultSymbol: null, target: null }));
      return { view, note: `Analysis of ${path} (the profiled file: same sha256) with the run’s symbol values.` };
    } catch (err) {
      const message = (err as { describe?: () => string }).describe?.() ?? (err as Error).message;
      return {
        view: null,
        note: `Analysing ${path} failed (${message}): the lifetimes, the workspace map and the transients table are left out.`,
      };
    }
  }
  if (mismatched.length) {
    return {
      view: null,
      note: `${mismatched.join(' and ')} ${mismatched.length === 1 ? 'is' : 'are'} not the file that was profiled (the sha256 differs: it changed since the run), so the lifetimes, the workspace map and the transients table are left out rather than shown for another program.`,
    };
  }
  return {
    view: null,
    note: `The profiled SDFG, ${result.program.file}, was not found (looked at ${candidates.join(', ') || 'nothing'}): the lifetimes, the workspace map and the transients table need it (give it with --sdfg FILE).`,
  };
}

/** No analysis, by choice. */
export const NO_ANALYSIS: ReportAnalysis = {
  view: null,
  note: 'The report was written without the program’s analysis (--no-analysis): no lifetimes, workspace map or transients table.',
};
