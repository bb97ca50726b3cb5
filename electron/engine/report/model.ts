/**
 * `buildReport`: the whole report model from labelled results and the analysis, before any format. Pure: no
 * file system, no clock (the caller gives the date), so the same input always gives the same report.
 */
import type { ProfileResult } from '../profile/result.js';
import { aliasOf, num } from '../view/analysis-doc.js';
import { aliasText, formatSize, formatStepRange } from '../view/format.js';
import { structureMembersText } from '../view/structures.js';
import { verificationBadge } from '../view/verdict.js';
import { FATES, type AnalysisView } from '../view/types.js';
import { buildComparison } from './comparison.js';
import { resultHeader } from './header.js';
import { methodology } from './methodology.js';
import { perCall, workspaceSum } from './numbers.js';
import type {
  ChartSlot,
  LabelledResult,
  MissingChart,
  ReportInput,
  ReportModel,
  SummaryRow,
  TransientRow,
  TransientsTable,
  VerificationBlock,
} from './types.js';
import { verdictParagraphs } from './verdict-paragraphs.js';

/** Rows of the transients table in a report; the embedded analysis holds them all. */
const MAX_TRANSIENT_ROWS = 400;

export function summaryRows(results: readonly LabelledResult[]): SummaryRow[] {
  return results.flatMap(({ label, result }, r) =>
    result.modes.map((m) => ({
      result: r,
      resultLabel: label,
      mode: m.mode,
      label: m.label,
      layout: m.layout,
      calls: m.sampling?.calls ?? m.calls.totalNs.length,
      medianNs: m.summary.medianNs,
      p10Ns: m.summary.p10Ns,
      p90Ns: m.summary.p90Ns,
      meanNs: m.summary.meanNs,
      spread: m.summary.p10Ns > 0 ? m.summary.p90Ns / m.summary.p10Ns : NaN,
      allocsPerCall: m.summary.allocsPerCall,
      freesPerCall: perCall.frees(m),
      allocatorNsPerCall: perCall.allocatorNs(m),
      allocShare: m.summary.allocShare,
      allocationsMeasured: m.allocationsMeasured !== false,
      minorFaultsPerCall: m.summary.minorFaultsPerCall,
      workspaceBytes: workspaceSum(m),
      initNs: m.initNs,
      firstCallNs: m.firstCallNs,
      eventsOverflowed: m.eventsOverflowed,
      gpu: m.gpu ? { deviceMedianNs: m.gpu.deviceMedianNs, pool: m.gpu.pool ? { ...m.gpu.pool } : null } : null,
    })),
  );
}

const FATE_TEXT: Record<(typeof FATES)[number], string> = {
  external: 'workspace (EXTERNAL), init (PERSISTENT)',
  persistent: 'init (PERSISTENT); per call in EXTERNAL',
  scoped: 'per call in every mode',
  init: 'Persistent in the file',
  workspace: 'External in the file',
  none: 'holds no memory',
  alias: 'holds no memory: an alias of another container',
};

export function transientsTable(view: AnalysisView, maxRows = MAX_TRANSIENT_ROWS): TransientsTable {
  const t = view.table;
  const rows: TransientRow[] = [];
  for (const i of view.order.slice(0, maxRows)) {
    const fate = FATES[t.fate[i]!]!;
    const bytes = t.bytes[i]!;
    // A view or reference owns no bytes: its row says what it aliases, and it has no byte count to add up.
    const alias = aliasOf(t, i);
    rows.push({
      id: t.id[i]!,
      name: t.name[i]!,
      sdfg: view.sdfgs[t.sdfg[i]!]?.name ?? String(t.sdfg[i]),
      storage: t.dict.storage[t.effectiveStorage[i]!]!,
      bytes: alias ? aliasText(t.dict.type[t.type[i]!]!, alias.viewOf, alias.reason) : formatSize(bytes, t.bytesExpr[i]!),
      byteCount: alias || bytes === null ? null : num(bytes),
      lifetime: t.dict.lifetime[t.lifetime[i]!]!,
      live: formatStepRange(t.first[i]!, t.last[i]!),
      persistent: (t.eligible[i]! & 1) !== 0,
      external: (t.eligible[i]! & 2) !== 0,
      fate: FATE_TEXT[fate],
      reason: t.reason[i]! < 0 ? null : t.dict.reason[t.reason[i]!]!,
      insideStructure: t.insideStructure[i]! < 0 ? null : t.dict.insideStructure[t.insideStructure[i]!]!,
    });
  }
  return { rows, total: t.count, omitted: Math.max(0, t.count - rows.length), insideStructures: structureMembersText(view, 5) };
}

function verificationBlock(label: string, result: ProfileResult): VerificationBlock {
  const b = verificationBadge(result);
  return {
    label,
    ok: b.ok,
    text: b.text,
    details: result.verification.details.map((d) => ({ kind: d.kind, mode: d.mode, message: d.message })),
  };
}

function hasSample(result: ProfileResult): boolean {
  return result.modes.some((m) => (m as { sampledCall?: { events?: unknown[] } | null }).sampledCall?.events?.length);
}

function charts(input: ReportInput): { charts: ChartSlot[]; missing: MissingChart[] } {
  const many = input.results.length > 1;
  const out: ChartSlot[] = [
    {
      id: 'c-dist',
      kind: 'distribution',
      title: 'Time per call, per mode',
      caption: `Every timed call is a dot; the box spans the middle half of the calls, the whiskers p10–p90, the line is the median.${many ? ' Results are told apart by marker: filled, hollow, square.' : ''}`,
      storage: null,
      height: null,
    },
    {
      id: 'c-break',
      kind: 'breakdown',
      title: 'Where a call’s time goes: compute, allocation, free',
      caption:
        'Mean call split into compute and the time inside instrumented allocations and frees; on the right, allocation and free alone on their own scale.',
      storage: null,
      height: null,
    },
    {
      id: 'c-calls',
      kind: 'calls',
      title: 'Every timed call, in order',
      caption:
        'Processes are separated; the line is each process’s running median. A process that ran slower for its whole life shows here.',
      storage: null,
      height: null,
    },
  ];
  const missing: MissingChart[] = [];
  if (input.results.some((x) => hasSample(x.result))) {
    out.push({
      id: 'c-gantt',
      kind: 'gantt',
      title: 'Allocations of one call, per mode',
      caption: 'The timed call nearest each mode’s median: one row per allocation from its alloc to its free; allocator time solid.',
      storage: null,
      height: null,
    });
  } else {
    // A sampled call without events: the modes allocate nothing during a call (not an old result).
    const sampled = input.results.some((x) => x.result.modes.some((m) => (m as { sampledCall?: unknown }).sampledCall));
    missing.push({
      title: 'Allocations of one call',
      why: sampled
        ? 'no mode allocates during a call: the sampled calls hold no allocation.'
        : 'the result has no sampled call (written before profile@1 recorded allocation events).',
    });
  }
  const view = input.analysis.view;
  if (!view) {
    missing.push(
      { title: 'Lifetimes and memory over steps', why: input.analysis.note },
      { title: 'Workspace map', why: input.analysis.note },
    );
    return { charts: out, missing };
  }
  const storages = view.memory.map((m) => m.storage);
  for (const [i, storage] of storages.entries()) {
    out.push({
      id: `c-life${i}`,
      kind: 'lifetime',
      title: `Lifetimes and memory over steps${storages.length > 1 ? ` (${storage})` : ''}`,
      caption:
        'Top: one bar per transient over the program’s steps, coloured by what the modes do with it. Bottom: the bytes each mode holds at every step, each peak marked.',
      storage,
      height: null,
    });
  }
  if (!storages.length) missing.push({ title: 'Lifetimes and memory over steps', why: 'no transient of this program holds memory.' });
  for (const [i, w] of view.workspace.entries()) {
    out.push({
      id: `c-ws${i}`,
      kind: 'workspace',
      title: `Workspace map: DaCe’s layout vs packed${view.workspace.length > 1 ? ` (${w.storage})` : ''}`,
      caption:
        'Each transient of the EXTERNAL workspace as a rectangle: offset up, steps across. DaCe’s back-to-back layout hatched, the lifetime-packed one solid.',
      storage: w.storage,
      height: null,
    });
  }
  if (!view.workspace.length)
    missing.push({ title: 'Workspace map', why: 'no transient of this program is eligible for the EXTERNAL workspace.' });
  return { charts: out, missing };
}

function labelled(results: readonly LabelledResult[], pick: (r: ProfileResult) => string[]): string[] {
  return results.flatMap((x) => pick(x.result).map((s) => (results.length > 1 ? `${x.label}: ${s}` : s)));
}

export function buildReport(input: ReportInput): ReportModel {
  if (!input.results.length) throw new Error('buildReport: no results');
  const first = input.results[0]!;
  const names = [...new Set(input.results.map((x) => x.result.program.name))];
  const many = input.results.length > 1;
  const { charts: slots, missing } = charts(input);
  return {
    schema: 'transient-lab/report@1',
    title: `${names.join(' / ')}: ${many ? `${input.results.map((x) => x.label).join(' vs ')}, ` : ''}transient memory modes`,
    program: names.join(' / '),
    generatedAt: input.generatedAt,
    version: input.version,
    results: input.results,
    headers: input.results.map((x) => resultHeader(x.label, x.result)),
    verdict: verdictParagraphs(first.result, 0, input.analysis.view, input.analysis.note),
    comparison: buildComparison(input.results),
    charts: slots,
    missingCharts: missing,
    summary: summaryRows(input.results),
    transients: input.analysis.view ? transientsTable(input.analysis.view) : null,
    verification: input.results.map((x) => verificationBlock(x.label, x.result)),
    methodology: methodology(input.results, input.analysis.note),
    analysisNote: input.analysis.note,
    notes: labelled(input.results, (r) => r.notes),
    warnings: labelled(input.results, (r) => r.warnings),
  };
}
