/**
 * The transient analysis: target, symbol values, program order, live ranges, eligibility for each memory
 * mode, SCOPED allocation sites, per-mode cost plans and workspace layouts. Pure and synchronous: the same
 * file and options always give the same `Analysis`.
 */
import type { DataDescriptor, Sdfg, SdfgFile } from '../model/sdfg.js';
import { AccessIndex } from './accesses.js';
import { expandLibraryNodes, libraryExpansions } from '../sdfg/expand/index.js';
import { PURE } from '../sdfg/expand/impl.js';
import { AliasIndex, isAliasType } from './aliases.js';
import { allocatesPerCall, allocationOf } from './allocation.js';
import { eligibility } from './eligibility.js';
import { ExecutionCounter } from './executions.js';
import { checkExtents, describeSymbolTypeProblem, symbolTypeProblems } from './extents.js';
import { daceLayouts, type DaceEntry } from './layout-dace.js';
import { alignmentFor, packLayout, peakOverlap, type PackItem } from './layout-packed.js';
import { buildFlowGraph } from './flow.js';
import { linearize } from './linearize.js';
import { Liveness, LoopCover, controlFlowReads } from './liveness.js';
import { planModes } from './plan.js';
import { sameElementSymbolsWarning } from './same-element-symbols.js';
import { WriteFirstLoops } from './write-first.js';
import { dtypeName, footprint, type Footprint } from './sizes.js';
import { DefaultResolution } from './defaults.js';
import { effectiveStorage } from './storage.js';
import { isFortranLowerBound } from './fortran-bounds.js';
import { SymbolContext } from './symbols.js';
import { detectTarget } from './target.js';
import type { AliasInfo, Analysis, AnalysisOptions, PackedStorageLayout, TransientInfo } from './types.js';

export type * from './types.js';
export { MODES } from './types.js';
export { isFortranLowerBound } from './fortran-bounds.js';

/** Repeated warnings of one kind are summarised after this many. */
const WARNINGS_PER_KIND = 10;

interface Candidate {
  desc: DataDescriptor;
  sdfg: Sdfg;
  /** Name as used by AccessNodes (`outer.member` for Structure members). */
  name: string;
  memberOf: string | null;
}

function transientCandidates(file: SdfgFile): Candidate[] {
  const out: Candidate[] = [];
  const members = (sdfg: Sdfg, owner: DataDescriptor, path: string): void => {
    for (const m of owner.members ?? []) {
      const name = `${path}.${m.name}`;
      if (m.transient) out.push({ desc: m, sdfg, name, memberOf: path });
      members(sdfg, m, name);
    }
  };
  for (const sdfg of file.sdfgs) {
    for (const desc of sdfg.arrays.values()) {
      if (desc.transient) out.push({ desc, sdfg, name: desc.name, memberOf: null });
      members(sdfg, desc, desc.name);
    }
  }
  return out;
}

export function analyze(parsed: SdfgFile, opts: AnalysisOptions): Analysis {
  // Library nodes are expanded first, as DaCe expands them before generating code: what they create is
  // analysed like every other element.
  const libraryImpl = opts.libraryImpl ?? PURE;
  const file = expandLibraryNodes(parsed, libraryImpl);
  const warnings: string[] = [];
  const { target, reason: targetReason } = detectTarget(file, opts.target);
  const symbols = new SymbolContext(file, opts);
  checkExtents(file, symbols, opts);
  const counter = new ExecutionCounter(symbols);
  const order = linearize(file, counter);
  const access = new AccessIndex(file);
  const reads = controlFlowReads(order, symbols.exprs);
  const cover = new LoopCover(order);
  const rules = opts.liveness ?? 'refined';
  const refined = rules !== 'baseline';
  const writeFirst = new WriteFirstLoops(order, symbols, opts.symbols, counter, { cycles: refined, innerLoops: refined, callees: refined });
  const aliases = new AliasIndex();
  const flow = rules === 'refined' ? buildFlowGraph(file, order, counter) : null;
  const liveness = new Liveness(order, access, reads, cover, writeFirst, rules, flow, aliases);
  const defaults = new DefaultResolution();
  const aliasOf = (c: Candidate): AliasInfo | null => {
    const target = aliases.targetOf(c.sdfg, c.name);
    if (target) return { viewOf: target.viewOf, reason: target.reason };
    return isAliasType(c.desc.type) ? { viewOf: null, reason: `${c.desc.type} inside structure '${c.memberOf}': not resolved` } : null;
  };

  const sizeProblems: string[] = [];
  const allocationProblems: string[] = [];
  const transients: TransientInfo[] = [];
  const footprints = new Map<string, Footprint>();
  const candidates = transientCandidates(file);
  const liveSets = liveness.liveSets(candidates);
  for (const [k, c] of candidates.entries()) {
    const { desc, sdfg } = c;
    const segments = liveSets[k]!;
    const id = `${sdfg.sdfgIndex}:${c.name}`;
    const sites = access.of(sdfg, c.name);
    const embedding = access.embeddingOf(sdfg);
    const fp = footprint(desc, sdfg, symbols);
    footprints.set(id, fp);
    if (fp.problem) sizeProblems.push(`${desc.jsonPath}: ${fp.problem}`);
    const constantBytes = fp.sizeSymbols.length === 0 ? fp.bytes : null;
    const storage = effectiveStorage(desc, sdfg, c.name, sites, constantBytes, defaults);
    const el = eligibility({
      desc,
      sdfg,
      memberOf: c.memberOf,
      sites,
      embedding,
      footprint: fp,
      effectiveStorage: storage,
      definedInSdfg: symbols.definedIn(sdfg),
    });
    const cfReads = c.memberOf === null ? reads.get(sdfg)?.get(c.name) : undefined;
    // A reference that may point at the transient uses its bytes wherever the reference is used: the
    // allocation must cover those states too (a reference set in one state and read in the next).
    const referenceSites = c.memberOf === null ? aliases.referencesTo(sdfg, c.name).flatMap((r) => access.of(sdfg, r)) : [];
    const alloc = allocationOf(
      {
        desc,
        name: c.name,
        sdfg,
        memberOf: c.memberOf,
        sites: referenceSites.length ? [...sites, ...referenceSites] : sites,
        reads: cfReads,
        effectiveStorage: storage,
        sizeSymbols: fp.sizeSymbols,
        defaults,
      },
      order,
      counter,
    );
    if (alloc.problem) allocationProblems.push(`${desc.jsonPath}: ${alloc.problem}`);
    transients.push({
      id,
      sdfg: sdfg.sdfgIndex,
      sdfgName: sdfg.name,
      name: c.name,
      type: desc.type,
      dtype: dtypeName(desc.dtype),
      shape: desc.shape.map((d) => symbols.exprs.display(d)),
      storage: desc.storage,
      effectiveStorage: storage,
      lifetime: desc.lifetime,
      bytes: fp.bytes,
      bytesExpr: fp.bytesExpr,
      eligible: { PERSISTENT: el.PERSISTENT, EXTERNAL: el.EXTERNAL },
      reason: el.reason,
      block: el.block,
      live: segments && { first: segments[0]!.first, last: segments[segments.length - 1]!.last },
      liveSegments: segments,
      allocation: alloc.site,
      executionsPerCall: alloc.executionsPerCall,
      jsonPath: desc.jsonPath,
      alias: aliasOf(c),
      ...(desc.expandedFrom === undefined ? {} : { expandedFrom: desc.expandedFrom }),
      ...(c.memberOf === null ? {} : { insideStructure: c.memberOf }),
    });
  }

  const fullSpan = { first: 0, last: Math.max(0, order.steps.length - 1) };
  const spanOf = (t: TransientInfo): { first: number; last: number; segments: Array<{ first: number; last: number }> } =>
    t.live ? { ...t.live, segments: t.liveSegments ?? [t.live] } : { ...fullSpan, segments: [fullSpan] };

  // The workspace set, in arrays_recursive order (file.sdfgs is pre-order; descriptors in insertion order).
  const externalSet = transients.filter((t) => t.eligible.EXTERNAL || t.allocation.kind === 'external');
  const daceEntries: DaceEntry[] = externalSet.map((t) => {
    const fp = footprints.get(t.id)!;
    return { id: t.id, storage: t.effectiveStorage, bytes: t.bytes, bytesExpr: fp.rootExpr ?? fp.localExpr, bytesText: t.bytesExpr };
  });
  const packed: Record<string, PackedStorageLayout | null> = {};
  for (const [storage, members] of groupBy(externalSet, (t) => t.effectiveStorage)) {
    if (members.some((t) => t.bytes === null)) {
      packed[storage] = null;
      continue;
    }
    const items: PackItem[] = members.map((t) => ({ id: t.id, bytes: t.bytes!, ...spanOf(t) }));
    packed[storage] = packLayout(items, alignmentFor(storage));
  }

  // Peak over every transient that holds memory in SCOPED mode (heap sites, init, workspace).
  const peakLiveBytes: Record<string, bigint | null> = {};
  const holding = transients.filter(
    (t) => allocatesPerCall(t.allocation) || t.allocation.kind === 'init' || t.allocation.kind === 'external',
  );
  for (const [storage, members] of groupBy(holding, (t) => t.effectiveStorage)) {
    peakLiveBytes[storage] = members.some((t) => t.bytes === null)
      ? null
      : peakOverlap(members.map((t) => ({ bytes: t.bytes!, ...spanOf(t) })));
  }

  const modes = planModes(transients, target, packed);

  // The analysis itself computes exactly with any value; the program would not (profile refuses these).
  for (const p of symbolTypeProblems(file, symbols.symbolValues())) warnings.push(describeSymbolTypeProblem(p));
  const defaulted = symbols.defaultedSymbols();
  const lowerBounds = defaulted.filter(isFortranLowerBound);
  const sized = defaulted.filter((n) => !isFortranLowerBound(n));
  if (sized.length && opts.defaultSymbol !== null)
    warnings.push(`--default-symbol ${opts.defaultSymbol} used for ${sized.length} symbol(s): ${listNames(sized)}`);
  if (lowerBounds.length)
    warnings.push(
      `${lowerBounds.length} Fortran lower-bound symbol(s) without a value take 1, Fortran's default lower bound (give --symbols to change): ${listNames(lowerBounds)}`,
    );
  const sameElement = opts.defaultSymbol !== null ? sameElementSymbolsWarning(file, sized, symbols.values, opts.defaultSymbol) : null;
  if (sameElement) warnings.push(sameElement);
  const unresolved = symbols.unresolvedSymbols();
  if (unresolved.length) {
    warnings.push(
      `no value for ${unresolved.length} symbol(s) ${listNames(unresolved)}: sizes that use them stay symbolic (give --symbols or --default-symbol)`,
    );
  }
  const unknownExec = transients.filter((t) => allocatesPerCall(t.allocation) && t.executionsPerCall === null);
  if (unknownExec.length) {
    warnings.push(
      `executions per call unknown for ${unknownExec.length} transient(s) (state-machine or data-dependent loops, or unknown symbols): per-call totals are null`,
    );
  }
  pushCapped(warnings, sizeProblems, 'unreadable sizes');
  pushCapped(warnings, allocationProblems, 'transients without an allocation point');
  pushCapped(
    warnings,
    file.warnings.map((w) => `${w.jsonPath}: ${w.message}`),
    'parser warnings',
  );

  return {
    file,
    target,
    targetReason,
    symbols: symbols.symbolValues(),
    unresolvedSymbols: unresolved,
    steps: order.steps,
    transients,
    modes,
    layouts: { dace: daceLayouts(daceEntries), packed },
    peakLiveBytes,
    warnings,
    libraryImpl,
    libraryExpansions: libraryExpansions(file),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const g = out.get(k);
    if (g) g.push(it);
    else out.set(k, [it]);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function pushCapped(warnings: string[], items: string[], what: string): void {
  warnings.push(...items.slice(0, WARNINGS_PER_KIND));
  if (items.length > WARNINGS_PER_KIND) warnings.push(`… and ${items.length - WARNINGS_PER_KIND} more ${what}`);
}

/** Real programs (Fortran front ends) have thousands of symbols: name the first few, count the rest. */
export function listNames(names: readonly string[], max = 12): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more (all listed in --json)`;
}
