/**
 * Which transients gt4py's `gt_configure_transient_lifetime` would turn Persistent / External
 * (dace-memory-abi.md §3.2), plus the safety exclusions of §5.10 and one of our own: transients of a nested
 * SDFG that runs inside a map (one buffer would be shared by every iteration and thread).
 *
 * Rules are checked in a fixed order and the first failing one is reported, naming the rule and where it
 * applies. EXTERNAL has every PERSISTENT rule plus "no CPU scalars".
 */
import type { DataDescriptor, Sdfg } from '../model/sdfg.js';
import type { AccessSite, Embedding } from './accesses.js';
import type { Footprint } from './sizes.js';
import { isStackStorage } from './storage.js';
import { isGpuStorage } from './target.js';
import { scopeLabel } from './walk.js';

export interface EligibilityInput {
  desc: DataDescriptor;
  sdfg: Sdfg;
  /** Set for Structure members: the structure's name. */
  memberOf: string | null;
  sites: AccessSite[];
  embedding: Embedding;
  footprint: Footprint;
  effectiveStorage: string;
  /** Symbols the SDFG binds itself (interstate assignments, loop variables, map parameters). */
  definedInSdfg: ReadonlySet<string>;
}

export interface Eligibility {
  PERSISTENT: boolean;
  EXTERNAL: boolean;
  reason: string | null;
  /** The rule behind `reason`, as data: the advisor (engine/advise) turns it into the change that lifts it. */
  block: BlockRule | null;
}

/** Why a transient is kept out of PERSISTENT/EXTERNAL, one variant per rule of `blockingBoth` (same order). */
export type BlockRule =
  | { rule: 'structure-member'; structure: string }
  | { rule: 'constant' }
  | { rule: 'lifetime'; lifetime: 'Persistent' | 'External' }
  | { rule: 'type'; type: string }
  | { rule: 'stack'; storage: string }
  | { rule: 'thread-local' }
  | { rule: 'never-accessed' }
  | { rule: 'inside-map'; map: string; state: string }
  | { rule: 'nested-in-map'; sdfg: string; map: string; state: string }
  | { rule: 'size'; problem: string }
  | { rule: 'dtype-size' }
  | { rule: 'assigned-symbols'; symbols: string[]; sdfg: string }
  | { rule: 'mapped-from-assigned'; symbols: string[]; sdfg: string }
  | { rule: 'unmapped-symbols'; symbols: string[]; sdfg: string }
  | { rule: 'cpu-scalar' };

type Blocked = { reason: string; block: BlockRule };

const list = (names: string[]): string => names.map((n) => `'${n}'`).join(', ');

/** The first rule that keeps a transient out of both modes, or null. */
function blockingBoth(x: EligibilityInput): Blocked | null {
  const { desc, sdfg } = x;
  const at = (reason: string, block: BlockRule): Blocked => ({ reason, block });
  if (x.memberOf !== null) {
    return at(`member of structure '${x.memberOf}': allocated together with the structure`, {
      rule: 'structure-member',
      structure: x.memberOf,
    });
  }
  if (sdfg.constants.has(desc.name)) {
    return at(`in constants_prop of SDFG '${sdfg.name}' (gt4py rule 1: a compile-time constant)`, { rule: 'constant' });
  }
  if (desc.lifetime === 'Persistent') {
    return at('already Persistent in the file: allocated once in init, in every mode', { rule: 'lifetime', lifetime: 'Persistent' });
  }
  if (desc.lifetime === 'External') {
    return at("already External in the file: provided by the caller's workspace, in every mode", {
      rule: 'lifetime',
      lifetime: 'External',
    });
  }
  if (desc.type === 'Stream') {
    return at(
      'Stream: a queue whose memory grows with what it holds at once, allocated by the queue at its site in every mode (no fixed-size buffer to hoist or to place in a workspace)',
      { rule: 'type', type: desc.type },
    );
  }
  if (desc.type !== 'Array' && desc.type !== 'Scalar') {
    return at(`type ${desc.type} is not exactly Array or Scalar (gt4py rule 2: views, references, streams and structures are left alone)`, {
      rule: 'type',
      type: desc.type,
    });
  }
  if (desc.storage === 'Register') return at('storage Register (gt4py rule 3: lives on the stack)', { rule: 'stack', storage: 'Register' });
  if (desc.storage === 'CPU_ThreadLocal') {
    return at('storage CPU_ThreadLocal: one copy per OpenMP thread, each allocated by its thread (no single buffer to hoist)', {
      rule: 'thread-local',
    });
  }
  if (isStackStorage(x.effectiveStorage)) {
    return at(`Default storage resolves to ${x.effectiveStorage} where it is used (stack or shared memory, nothing to hoist)`, {
      rule: 'stack',
      storage: x.effectiveStorage,
    });
  }
  if (x.sites.length === 0) return at('never accessed (no AccessNode): DaCe allocates nothing for it', { rule: 'never-accessed' });
  for (const { state, node } of x.sites) {
    if (node.scopeEntry === null) continue;
    const entry = state.nodes[node.scopeEntry];
    const map = entry ? scopeLabel(entry) : `#${node.scopeEntry}`;
    const where = entry ? `map '${map}'` : `scope #${node.scopeEntry}`;
    return at(
      `accessed inside ${where} in state '${state.label}' (gt4py rule 5: one buffer would be shared by all iterations and threads)`,
      {
        rule: 'inside-map',
        map,
        state: state.label,
      },
    );
  }
  if (x.embedding.scope) {
    const s = x.embedding.scope;
    return at(
      `its nested SDFG '${sdfg.name}' runs inside map '${s.map}' in state '${s.state}' of SDFG '${s.sdfg}' (safety rule: one buffer would be shared by all iterations and threads)`,
      { rule: 'nested-in-map', sdfg: sdfg.name, map: s.map, state: s.state },
    );
  }
  if (x.footprint.problem) return at(x.footprint.problem, { rule: 'size', problem: x.footprint.problem });
  if (desc.dtype.bytes === null) return at(`element size of dtype is unknown: the buffer cannot be sized`, { rule: 'dtype-size' });
  const bound = x.footprint.sizeSymbols.filter((s) => x.definedInSdfg.has(s));
  if (bound.length) {
    return at(`total_size uses ${list(bound)}, assigned inside SDFG '${sdfg.name}' (gt4py rule 6: not a free symbol of its SDFG)`, {
      rule: 'assigned-symbols',
      symbols: bound,
      sdfg: sdfg.name,
    });
  }
  const untranslated = x.footprint.untranslated.filter((s) => !x.definedInSdfg.has(s));
  const mapping = sdfg.parent?.node.symbolMapping ?? {};
  const mapped = untranslated.filter((s) => s in mapping);
  if (sdfg.parent && mapped.length) {
    const from = mapped.map((s) => `'${s}' ↦ '${mapping[s]}'`).join(', ');
    return at(
      `total_size uses ${from} of nested SDFG '${sdfg.name}', which depends on a symbol an enclosing SDFG assigns itself (interstate assignment or loop variable): it has no value at init`,
      { rule: 'mapped-from-assigned', symbols: mapped, sdfg: sdfg.name },
    );
  }
  if (sdfg.parent && untranslated.length) {
    return at(
      `total_size uses inner symbol ${list(untranslated)} of nested SDFG '${sdfg.name}' that is not mapped from the outer SDFG (it cannot be sized from the caller's symbols)`,
      { rule: 'unmapped-symbols', symbols: untranslated, sdfg: sdfg.name },
    );
  }
  return null;
}

export function eligibility(x: EligibilityInput): Eligibility {
  const both = blockingBoth(x);
  if (both) return { PERSISTENT: false, EXTERNAL: false, ...both };
  if (x.desc.type === 'Scalar' && !isGpuStorage(x.effectiveStorage)) {
    return {
      PERSISTENT: true,
      EXTERNAL: false,
      reason: 'EXTERNAL only: a Scalar on the CPU (DaCe cannot compile External CPU scalars)',
      block: { rule: 'cpu-scalar' },
    };
  }
  return { PERSISTENT: true, EXTERNAL: true, reason: null, block: null };
}
