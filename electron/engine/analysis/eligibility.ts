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
}

const list = (names: string[]): string => names.map((n) => `'${n}'`).join(', ');

/** The first rule that keeps a transient out of both modes, or null. */
function blockingBoth(x: EligibilityInput): string | null {
  const { desc, sdfg } = x;
  if (x.memberOf !== null) return `member of structure '${x.memberOf}': allocated together with the structure`;
  if (sdfg.constants.has(desc.name)) return `in constants_prop of SDFG '${sdfg.name}' (gt4py rule 1: a compile-time constant)`;
  if (desc.lifetime === 'Persistent') return 'already Persistent in the file: allocated once in init, in every mode';
  if (desc.lifetime === 'External') return "already External in the file: provided by the caller's workspace, in every mode";
  if (desc.type !== 'Array' && desc.type !== 'Scalar') {
    return `type ${desc.type} is not exactly Array or Scalar (gt4py rule 2: views, references, streams and structures are left alone)`;
  }
  if (desc.storage === 'Register') return 'storage Register (gt4py rule 3: lives on the stack)';
  if (desc.storage === 'CPU_ThreadLocal')
    return 'storage CPU_ThreadLocal: one copy per OpenMP thread, each allocated by its thread (no single buffer to hoist)';
  if (isStackStorage(x.effectiveStorage)) {
    return `Default storage resolves to ${x.effectiveStorage} where it is used (stack or shared memory, nothing to hoist)`;
  }
  if (x.sites.length === 0) return 'never accessed (no AccessNode): DaCe allocates nothing for it';
  for (const { state, node } of x.sites) {
    if (node.scopeEntry === null) continue;
    const entry = state.nodes[node.scopeEntry];
    const where = entry ? `map '${scopeLabel(entry)}'` : `scope #${node.scopeEntry}`;
    return `accessed inside ${where} in state '${state.label}' (gt4py rule 5: one buffer would be shared by all iterations and threads)`;
  }
  if (x.embedding.scope) {
    const s = x.embedding.scope;
    return `its nested SDFG '${sdfg.name}' runs inside map '${s.map}' in state '${s.state}' of SDFG '${s.sdfg}' (safety rule: one buffer would be shared by all iterations and threads)`;
  }
  if (x.footprint.problem) return x.footprint.problem;
  if (desc.dtype.bytes === null) return `element size of dtype is unknown: the buffer cannot be sized`;
  const bound = x.footprint.sizeSymbols.filter((s) => x.definedInSdfg.has(s));
  if (bound.length) {
    return `total_size uses ${list(bound)}, assigned inside SDFG '${sdfg.name}' (gt4py rule 6: not a free symbol of its SDFG)`;
  }
  const untranslated = x.footprint.untranslated.filter((s) => !x.definedInSdfg.has(s));
  const mapping = sdfg.parent?.node.symbolMapping ?? {};
  const mapped = untranslated.filter((s) => s in mapping);
  if (sdfg.parent && mapped.length) {
    const from = mapped.map((s) => `'${s}' ↦ '${mapping[s]}'`).join(', ');
    return `total_size uses ${from} of nested SDFG '${sdfg.name}', which depends on a symbol an enclosing SDFG assigns itself (interstate assignment or loop variable): it has no value at init`;
  }
  if (sdfg.parent && untranslated.length) {
    return `total_size uses inner symbol ${list(untranslated)} of nested SDFG '${sdfg.name}' that is not mapped from the outer SDFG (it cannot be sized from the caller's symbols)`;
  }
  return null;
}

export function eligibility(x: EligibilityInput): Eligibility {
  const both = blockingBoth(x);
  if (both) return { PERSISTENT: false, EXTERNAL: false, reason: both };
  if (x.desc.type === 'Scalar' && !isGpuStorage(x.effectiveStorage)) {
    return {
      PERSISTENT: true,
      EXTERNAL: false,
      reason: 'EXTERNAL only: a Scalar on the CPU (DaCe cannot compile External CPU scalars)',
    };
  }
  return { PERSISTENT: true, EXTERNAL: true, reason: null };
}
