/**
 * The advisor (`transient-lab advise`, docs/advise.md): per storage, the memory mode to use and the workspace
 * to allocate, and why; what keeps transients out of the workspace and the change that would let them in; how
 * the workspace grows with a symbol; and, for workloads, the calls that would overrun a workspace configured
 * once at each program's first call (as gt4py does). `check` holds the same figures against budgets.
 */
import type { Analysis, Mode, Target } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import type { ProfileResult } from '../profile/result.js';
import { formatBytes } from '../view/format.js';
import { profileVerdict } from '../view/verdict.js';
import { closedForm } from './closed-form.js';
import { callFigures, entry, footprints, maxPerStorage, type CallFigures, type PerStorage } from './figures.js';
import { remedyFor } from './remedy.js';
import { analyseCalls, type Subject, type SubjectOptions } from './subject.js';

interface Recommendation {
  storage: string;
  mode: Mode;
  /** EXTERNAL: bytes to allocate for the shared workspace (null: symbolic); null for other modes. */
  workspaceBytes: bigint | null;
  layout: Layout | null;
  /** Slot alignment of the recommended layout, bytes (packed: the storage's alignment; dace: DaCe's own). */
  alignment: number | null;
  reasons: string[];
}

interface Hazard {
  storage: string;
  program: string;
  position: number;
  jsonPath: string | null;
  /** The workspace each program configured at its first call, the largest of them. */
  configuredBytes: bigint;
  neededBytes: bigint;
}

interface Blocker {
  program: string;
  id: string;
  storage: string;
  /** Bytes that would move into the workspace (the largest over the calls); null when symbolic. */
  bytes: bigint | null;
  bytesExpr: string;
  reason: string;
  change: string;
  jsonPath: string;
}

export interface SweepSpec {
  symbol: string;
  values: bigint[];
}

interface SweepResult {
  symbol: string;
  values: bigint[];
  storages: Record<string, Record<Layout, { bytes: Array<bigint | null>; closedForm: string | null }>>;
}

export interface Advice {
  subject: { kind: Subject['kind']; path: string; name: string; programs: number; calls: number };
  target: Target;
  /** 'measured' when a profile result decided the mode; 'static' when only footprints and counts did. */
  basis: 'measured' | 'static';
  layout: Layout;
  calls: CallFigures[];
  /** Per program (its largest call): EXTERNAL's workspace need and PERSISTENT's bytes, per storage. */
  perProgram: Record<string, { calls: number; workspace: PerStorage; persistent: PerStorage }>;
  footprint: Record<Mode, PerStorage>;
  /** Allocations per call (single SDFG) or per step (workload: every call of the sequence once), per mode. */
  allocations: Record<Mode, bigint | null>;
  recommendations: Recommendation[];
  hazards: Hazard[];
  blockers: Blocker[];
  sweep: SweepResult | null;
}

export interface AdviseOptions extends SubjectOptions {
  layout: Layout;
  result?: ProfileResult | null;
  sweep?: SweepSpec | null;
}

const MODES_ORDER: Mode[] = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'];

function sumCounts(calls: CallFigures[], mode: Mode): bigint | null {
  let acc: bigint | null = 0n;
  for (const c of calls) {
    const v = c.allocsPerCall[mode];
    acc = acc === null || v === null ? null : acc + v;
  }
  return acc;
}

export function advise(subject: Subject, opts: AdviseOptions): Advice {
  const analyses = analyseCalls(subject, opts);
  const calls = analyses.map((a, i) => callFigures(i, subject.calls[i]!.program, a));
  const target = analyses[0]!.target;
  const footprint = footprints(calls, opts.layout);
  const allocations = Object.fromEntries(MODES_ORDER.map((m) => [m, sumCounts(calls, m)])) as Record<Mode, bigint | null>;
  const programs = new Set(subject.calls.map((c) => c.program)).size;
  const advice: Advice = {
    subject: { kind: subject.kind, path: subject.path, name: subject.name, programs, calls: calls.length },
    target,
    basis: opts.result ? 'measured' : 'static',
    layout: opts.layout,
    calls,
    perProgram: perProgram(calls, opts.layout),
    footprint,
    allocations,
    recommendations: [],
    hazards: subject.kind === 'workload' ? hazards(subject, calls, opts.layout) : [],
    blockers: blockers(subject, analyses),
    sweep: opts.sweep ? sweep(subject, opts, opts.sweep) : null,
  };
  advice.recommendations = recommend(advice, opts.result ?? null);
  return advice;
}

function recommend(a: Advice, result: ProfileResult | null): Recommendation[] {
  const unit = a.subject.kind === 'workload' ? 'step' : 'call';
  const storages = [...new Set(MODES_ORDER.flatMap((m) => Object.keys(a.footprint[m])))].sort();
  const measured = result ? profileVerdict(result) : null;
  const winner = measured?.primary.time ? measured.primary.subject : null;
  const out: Recommendation[] = [];
  for (const storage of storages) {
    const ws = entry(a.footprint.EXTERNAL, storage);
    const reasons: string[] = [];
    const alignment = a.layout === 'packed' ? Math.max(0, ...a.calls.map((c) => c.alignment[storage] ?? 0)) || null : null;
    const scoped = a.allocations.SCOPED;
    const external = a.allocations.EXTERNAL;
    if (ws === 0n) {
      const mode: Mode = a.target === 'gpu' ? 'POOL' : 'SCOPED';
      reasons.push(`no transient in ${storage} can move to a workspace (see what blocks EXTERNAL)`);
      if (a.target === 'gpu') reasons.push('the stream-ordered pool reuses freed blocks instead of calling cudaMalloc every call');
      out.push({ storage, mode, workspaceBytes: null, layout: null, alignment: null, reasons });
      continue;
    }
    let mode: Mode = 'EXTERNAL';
    let layout: Layout = a.layout;
    if (measured && winner) {
      const m = /^(SCOPED|PERSISTENT|POOL|EXTERNAL)(?: \((packed|dace)\))?$/.exec(winner);
      if (m) {
        mode = m[1] as Mode;
        if (m[2]) layout = m[2] as Layout;
      }
      reasons.push(`measured: ${measured.text}`);
    } else if (measured) {
      reasons.push(`measured: ${measured.text}; the figures below decide instead`);
    }
    if (scoped !== null && external !== null && scoped > external) {
      reasons.push(`EXTERNAL removes ${scoped - external} of the ${scoped} allocation(s) per ${unit} that SCOPED makes`);
    }
    if (scoped === null)
      reasons.push(
        `SCOPED allocates on every ${unit}, a number that depends on data (a loop without a static trip count); EXTERNAL moves ${formatBytes(ws)} of it into the workspace`,
      );
    if (external !== null && external > 0n)
      reasons.push(`${external} allocation(s) per ${unit} remain in EXTERNAL: see what blocks EXTERNAL`);
    const left = a.blockers.filter((b) => b.storage === storage).length;
    if (external === null && left > 0)
      reasons.push(`${left} transient(s) still allocate in EXTERNAL, a data-dependent number of times per call: see what blocks EXTERNAL`);
    const persistent = a.footprint.PERSISTENT[storage] ?? null;
    if (persistent !== null && ws !== null) {
      const programs = a.subject.programs;
      const what =
        programs > 1
          ? `PERSISTENT's ${formatBytes(persistent)} (each of the ${programs} programs holds its own)`
          : `PERSISTENT's ${formatBytes(persistent)}`;
      reasons.push(
        persistent > ws
          ? `the ${programs > 1 ? 'shared ' : ''}workspace holds ${formatBytes(ws)}, ${formatBytes(persistent - ws)} less than ${what}`
          : `the workspace holds ${formatBytes(ws)}, as much as ${what}: packing finds no transients that are never live together`,
      );
    }
    if (!measured) reasons.push('no timing backs this: run `transient-lab profile` and pass its result with --result');
    const bytes =
      mode === 'EXTERNAL' ? (layout === a.layout ? ws : (maxPerStorage(a.calls.map((c) => c.workspace[layout]))[storage] ?? null)) : null;
    out.push({
      storage,
      mode,
      workspaceBytes: bytes,
      layout: mode === 'EXTERNAL' ? layout : null,
      alignment: mode === 'EXTERNAL' ? alignment : null,
      reasons,
    });
  }
  return out;
}

function perProgram(calls: CallFigures[], layout: Layout): Advice['perProgram'] {
  const out: Advice['perProgram'] = {};
  for (const key of new Set(calls.map((c) => c.program))) {
    const mine = calls.filter((c) => c.program === key);
    out[key] = {
      calls: mine.length,
      workspace: maxPerStorage(mine.map((c) => c.workspace[layout])),
      persistent: maxPerStorage(mine.map((c) => c.persistent)),
    };
  }
  return out;
}

/** Calls that need more workspace than every program configured at its own first call (gt4py's behaviour). */
function hazards(subject: Subject, calls: CallFigures[], layout: Layout): Hazard[] {
  const first = new Map<string, CallFigures>();
  for (const c of calls) if (!first.has(c.program)) first.set(c.program, c);
  const configured = maxPerStorage([...first.values()].map((c) => c.workspace[layout]));
  const out: Hazard[] = [];
  for (const c of calls) {
    for (const [storage, need] of Object.entries(c.workspace[layout])) {
      const have = configured[storage];
      if (need === null || have === null || have === undefined || need <= have) continue;
      out.push({
        storage,
        program: c.program,
        position: c.position,
        jsonPath: subject.calls[c.position]!.jsonPath,
        configuredBytes: have,
        neededBytes: need,
      });
    }
  }
  return out;
}

function blockers(subject: Subject, analyses: Analysis[]): Blocker[] {
  const byKey = new Map<string, Blocker>();
  analyses.forEach((a, i) => {
    const program = subject.calls[i]!.program;
    for (const t of a.transients) {
      if (t.eligible.EXTERNAL || t.block === null || t.alias !== null || t.allocation.kind === 'none') continue;
      const change = remedyFor(t.block);
      if (change === null) continue;
      const key = `${program}\u0000${t.id}`;
      const prev = byKey.get(key);
      if (prev && (prev.bytes === null || (t.bytes !== null && t.bytes <= prev.bytes))) continue;
      byKey.set(key, {
        program,
        id: t.id,
        storage: t.effectiveStorage,
        bytes: t.bytes,
        bytesExpr: t.bytesExpr,
        reason: t.reason ?? '',
        change,
        jsonPath: t.jsonPath,
      });
    }
  });
  return [...byKey.values()].sort((x, y) =>
    x.bytes === null ? 1 : y.bytes === null ? -1 : y.bytes > x.bytes ? 1 : y.bytes < x.bytes ? -1 : 0,
  );
}

function sweep(subject: Subject, opts: AdviseOptions, spec: SweepSpec): SweepResult {
  const rows = spec.values.map((v) => {
    const calls = analyseCalls(subject, opts, new Map([[spec.symbol, v]])).map((a, i) => callFigures(i, subject.calls[i]!.program, a));
    return { packed: footprints(calls, 'packed').EXTERNAL, dace: footprints(calls, 'dace').EXTERNAL };
  });
  const storages = [...new Set(rows.flatMap((r) => [...Object.keys(r.packed), ...Object.keys(r.dace)]))].sort();
  const out: SweepResult['storages'] = {};
  for (const s of storages) {
    const series = (layout: Layout) => {
      const bytes = rows.map((r) => entry(r[layout], s));
      const known = (xs: Array<bigint | null>): xs is bigint[] => xs.every((b) => b !== null);
      return { bytes, closedForm: known(bytes) ? closedForm(spec.symbol, spec.values, bytes) : null };
    };
    out[s] = { packed: series('packed'), dace: series('dace') };
  }
  return { symbol: spec.symbol, values: spec.values, storages: out };
}

export interface Budgets {
  maxWorkspace: Map<string, bigint>;
  maxAllocsPerCall: bigint | null;
  mode: Mode;
}

export interface CheckOutcome {
  ok: boolean;
  /** One line per budget exceeded (or that could not be evaluated). */
  failures: string[];
  /** One line per budget checked, met or not. */
  checked: string[];
}

/** Holds the advice's figures against the budgets: the shared workspace per storage and allocations per call. */
export function checkBudgets(a: Advice, budgets: Budgets): CheckOutcome {
  const failures: string[] = [];
  const checked: string[] = [];
  for (const [storage, limit] of budgets.maxWorkspace) {
    const need = entry(a.footprint.EXTERNAL, storage);
    const what = `workspace ${storage} (EXTERNAL, ${a.layout} layout${a.subject.calls > 1 ? `, largest of ${a.subject.calls} calls` : ''})`;
    if (need === null) failures.push(`${what} is symbolic: give --symbols or --default-symbol to size it`);
    else if (need > limit) failures.push(`${what} needs ${need} B, over the budget of ${limit} B by ${need - limit} B`);
    checked.push(`${what}: ${need ?? '?'} B, budget ${limit} B`);
  }
  if (budgets.maxAllocsPerCall !== null) {
    const limit = budgets.maxAllocsPerCall;
    let worst: CallFigures | null = null;
    let unknown: CallFigures | null = null;
    for (const c of a.calls) {
      const v = c.allocsPerCall[budgets.mode];
      if (v === null) unknown ??= c;
      else if (worst === null || v > worst.allocsPerCall[budgets.mode]!) worst = c;
    }
    const where = (c: CallFigures) => (a.subject.kind === 'workload' ? ` (program '${c.program}' at position ${c.position})` : '');
    if (unknown) {
      failures.push(`allocations per call in ${budgets.mode} are not known statically${where(unknown)}: a data-dependent loop allocates`);
    } else if (worst && worst.allocsPerCall[budgets.mode]! > limit) {
      failures.push(
        `${budgets.mode} makes ${worst.allocsPerCall[budgets.mode]} allocation(s) per call${where(worst)}, over the budget of ${limit}`,
      );
    }
    checked.push(`allocations per call in ${budgets.mode}: ${unknown ? '?' : (worst?.allocsPerCall[budgets.mode] ?? 0n)}, budget ${limit}`);
  }
  return { ok: failures.length === 0, failures, checked };
}
