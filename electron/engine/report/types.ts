/**
 * The report model: everything a Transient Lab report says, built from one or more `transient-lab/profile@1`
 * results (and the program's analysis when the SDFG is at hand), before any format is chosen. The HTML
 * writer, the CSV and JSON writers and the tests all read this; nothing here knows HTML.
 *
 * Plain JSON: the HTML report embeds the results and the analysis view it was built from, and the runtime
 * mounts the renderer's chart modules on the same data.
 */
import type { ProfileResult } from '../profile/result.js';
import type { AnalysisView } from '../view/types.js';

export const REPORT_FORMATS = ['html', 'pdf', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A result as the report shows it: a label ("before", "machine A", the file name) and where it came from. */
export interface LabelledResult {
  label: string;
  result: ProfileResult;
  /** The file it was read from; null for a fresh run or an upload. */
  source: string | null;
}

/** The program's analysis, re-run on the SDFG the result names (lifetimes, workspace map, transient table). */
export interface ReportAnalysis {
  view: AnalysisView | null;
  /** Where the analysis comes from, or plainly why there is none. Always shown. */
  note: string;
}

export interface ReportInput {
  /** The first is the reference of every comparison (before, machine A). */
  results: LabelledResult[];
  /** Analysis of the first result's program. */
  analysis: ReportAnalysis;
  /** When the report is written (ISO 8601). */
  generatedAt: string;
  /** Transient Lab version writing the report. */
  version: string;
}

/**
 * A piece of generated text. Numbers carry the exact value they show, with a key that says where in the
 * result it comes from (`median|0|POOL`): the HTML writes them as `<data value>`, and the tests check every
 * shown number against the result.
 */
type Run = string | NumberRun;

export interface NumberRun {
  /** What is shown: "412 µs", "1.37×". */
  text: string;
  /** The exact value behind it (ns, bytes, a ratio, a count, a p-value). */
  value: number;
  /** `<quantity>|<result index>|<mode label>` or another stable name (docs/reports.md lists them). */
  key: string;
}

export type Paragraph = Run[];

export interface Fact {
  label: string;
  value: string;
  /** Full text when `value` is shortened (a hash), shown on hover. */
  title?: string;
  /** Monospace (hashes, flags, paths). */
  mono?: boolean;
}

/** Header block of one result: what ran, where, how. */
export interface ResultHeader {
  label: string;
  program: Fact[];
  machine: Fact[];
  settings: Fact[];
}

export type ChartKind = 'distribution' | 'calls' | 'breakdown' | 'gantt' | 'lifetime' | 'workspace' | 'workload' | 'sweep';

export interface ChartSlot {
  /** Unique on the page; also the SVG id prefix. */
  id: string;
  kind: ChartKind;
  title: string;
  caption: string;
  /** Lifetime and workspace charts: the storage drawn. */
  storage: string | null;
  /** Height of the static SVG (the width is the page's). */
  height: number | null;
}

/** A chart that cannot be drawn, and why (no analysis, no sampled call, …). */
export interface MissingChart {
  title: string;
  why: string;
}

export interface SummaryRow {
  result: number;
  resultLabel: string;
  mode: string;
  label: string;
  layout: string | null;
  calls: number;
  medianNs: number;
  p10Ns: number;
  p90Ns: number;
  meanNs: number;
  /** p90 / p10: how wide the middle 80 % of the calls is. */
  spread: number;
  allocsPerCall: number;
  freesPerCall: number;
  /** Mean ns per call inside instrumented allocations and frees. */
  allocatorNsPerCall: number;
  allocShare: number;
  /** false: nothing recorded this mode's allocations (a DaCe build the hooks could not see): its allocation
   * cells read n/m, never a 0 that looks measured. */
  allocationsMeasured: boolean;
  minorFaultsPerCall: number;
  /** Σ over storages; null when the mode has no workspace. */
  workspaceBytes: number | null;
  initNs: number;
  firstCallNs: number;
  eventsOverflowed: boolean;
  /** GPU results only (profile@1's GPU additions): median device time per call (CUDA events), the pool's
   * high-water marks and release threshold after the mode's calls; null otherwise or when not recorded. */
  gpu: { deviceMedianNs: number; pool: { reservedHighBytes: number; usedHighBytes: number; releaseThreshold: string } | null } | null;
}

export interface TransientRow {
  id: string;
  name: string;
  sdfg: string;
  storage: string;
  bytes: string;
  /** Exact bytes for sorting; null when symbolic, and for a view or reference (it owns none). */
  byteCount: number | null;
  lifetime: string;
  live: string;
  persistent: boolean;
  external: boolean;
  fate: string;
  reason: string | null;
  /** A member of a structure: the structure's path (allocated with it, never on its own). */
  insideStructure: string | null;
}

export interface TransientsTable {
  rows: TransientRow[];
  /** Transients in the program; `rows` may hold fewer (memory holders first). */
  total: number;
  /** Transients left out of `rows` (they are all in the embedded analysis). */
  omitted: number;
  /** Which transients are members of structures, in one sentence (view/structures.ts); null when none is. */
  insideStructures: string | null;
}

export interface VerificationBlock {
  label: string;
  ok: boolean;
  text: string;
  details: Array<{ kind: string; mode: string; message: string }>;
}

/** One mode of one later result against the same mode of the reference. */
export interface ComparisonRow {
  mode: string;
  reference: string;
  other: string;
  referenceMedianNs: number;
  otherMedianNs: number;
  /** Reference figure / other figure (medians, or p10 when `statistic` says so): > 1 when the other is faster. */
  ratio: number;
  p: number;
  verdict: 'faster' | 'slower' | 'no-difference' | 'too-few-calls';
  /** What `ratio` and `verdict` are on: the medians, or p10 where either side is noisy (view/verdict.ts). */
  statistic: 'median' | 'p10';
  /** The figures compared (medians or p10). */
  referenceValueNs: number;
  otherValueNs: number;
  /** The test's outcome in words: "p = 0.003", "p10 intervals apart", "too few calls". */
  test: string;
  /** Why either side is noisy, labelled by result; [] when both are clean. */
  noise: string[];
  allocsDelta: number;
  text: string;
}

export interface Comparison {
  paragraphs: Paragraph[];
  rows: ComparisonRow[];
  /** Modes present in only some of the results. */
  unmatched: string[];
}

export interface MethodSection {
  title: string;
  paragraphs: Paragraph[];
  /** A list after the paragraphs. */
  bullets?: Paragraph[];
}

export interface ReportModel {
  schema: 'transient-lab/report@1';
  title: string;
  /** Program names, for page headers. */
  program: string;
  generatedAt: string;
  version: string;
  results: LabelledResult[];
  headers: ResultHeader[];
  /** The verdict of the first result. */
  verdict: Paragraph[];
  comparison: Comparison | null;
  charts: ChartSlot[];
  missingCharts: MissingChart[];
  summary: SummaryRow[];
  transients: TransientsTable | null;
  verification: VerificationBlock[];
  methodology: MethodSection[];
  analysisNote: string;
  /** The result's own notes and warnings (labelled when several results). */
  notes: string[];
  warnings: string[];
}

/** Plain text of generated paragraphs (CLI output, pdftotext comparisons). */
export function runsText(p: Paragraph): string {
  return p.map((r) => (typeof r === 'string' ? r : r.text)).join('');
}
