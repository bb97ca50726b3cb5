/**
 * What a collapsed element holds (GraphSummary), memoised per model element: a parent's summary is the sum of
 * its children's, so each element of the file is counted at most once however the user expands.
 */
import type { ConditionalBlockModel, ControlFlowBlock, DataDescriptor, LoopBlock, RegionBlock, Sdfg, StateBlock } from '../model/sdfg.js';
import type { GraphSummary } from './types.js';
import { stateScopes } from './graph-scopes.js';

interface Acc {
  states: number;
  nodes: number;
  maps: number;
  tasklets: number;
  loops: number;
  sdfgs: number;
  transients: Set<string>;
  /** Holds a nested SDFG whose body a preview has not read (counts are then lower bounds). */
  partial: boolean;
}

const empty = (): Acc => ({ states: 0, nodes: 0, maps: 0, tasklets: 0, loops: 0, sdfgs: 0, transients: new Set(), partial: false });

function add(into: Acc, from: Acc): void {
  into.states += from.states;
  into.nodes += from.nodes;
  into.maps += from.maps;
  into.tasklets += from.tasklets;
  into.loops += from.loops;
  into.sdfgs += from.sdfgs;
  for (const t of from.transients) into.transients.add(t);
  into.partial ||= from.partial;
}

/** The descriptor an access node names: a top-level container or a dotted structure member. */
export function lookupDescriptor(sdfg: Sdfg, data: string): DataDescriptor | null {
  const direct = sdfg.arrays.get(data);
  if (direct) return direct;
  const parts = data.split('.');
  let desc = sdfg.arrays.get(parts[0]!) ?? null;
  for (let i = 1; desc && i < parts.length; i++) desc = desc.members?.find((m) => m.name === parts[i]) ?? null;
  return desc;
}

/** The analysis id (`<sdfgIndex>:<name>`) of a transient container, or null for anything else. */
export function transientId(sdfg: Sdfg, data: string): string | null {
  const desc = lookupDescriptor(sdfg, data);
  if (desc?.transient) return `${sdfg.sdfgIndex}:${data}`;
  // A member of a transient structure is part of that transient.
  const root = data.includes('.') ? sdfg.arrays.get(data.split('.')[0]!) : undefined;
  return root?.transient ? `${sdfg.sdfgIndex}:${data}` : null;
}

export class Summaries {
  private readonly accs = new WeakMap<object, Acc>();
  private readonly scopeAccs = new WeakMap<StateBlock, Map<number, Acc>>();
  private readonly out = new WeakMap<Acc, GraphSummary>();

  cfg(sdfg: Sdfg, block: RegionBlock | LoopBlock): GraphSummary {
    return this.summary(this.cfgAcc(sdfg, block));
  }

  state(sdfg: Sdfg, state: StateBlock): GraphSummary {
    return this.summary(this.stateAcc(sdfg, state));
  }

  conditional(sdfg: Sdfg, block: ConditionalBlockModel): GraphSummary {
    return this.summary(this.blockAcc(sdfg, block));
  }

  scope(sdfg: Sdfg, state: StateBlock, entry: number): GraphSummary {
    return this.summary(this.scopeAccsOf(sdfg, state).get(entry) ?? empty());
  }

  private summary(acc: Acc): GraphSummary {
    let s = this.out.get(acc);
    if (!s) {
      const { transients, partial, ...counts } = acc;
      s = { ...counts, transients: [...transients].sort(), ...(partial ? { partial: true as const } : {}) };
      this.out.set(acc, s);
    }
    return s;
  }

  private blockAcc(sdfg: Sdfg, b: ControlFlowBlock): Acc {
    switch (b.kind) {
      case 'state':
        return this.stateAcc(sdfg, b);
      case 'region':
      case 'loop':
        return this.cfgAcc(sdfg, b);
      case 'conditional':
        return this.memo(b, () => {
          const acc = empty();
          for (const br of b.branches) add(acc, this.cfgAcc(sdfg, br.body));
          return acc;
        });
      default:
        return empty();
    }
  }

  private cfgAcc(sdfg: Sdfg, block: RegionBlock | LoopBlock): Acc {
    return this.memo(block, () => {
      const acc = empty();
      if (block.kind === 'loop') acc.loops++;
      for (const b of block.blocks) add(acc, this.blockAcc(sdfg, b));
      return acc;
    });
  }

  private stateAcc(sdfg: Sdfg, state: StateBlock): Acc {
    return this.memo(state, () => {
      const acc = empty();
      acc.states = 1;
      for (const n of state.nodes) this.countNode(sdfg, n, acc);
      return acc;
    });
  }

  private countNode(sdfg: Sdfg, n: StateBlock['nodes'][number], acc: Acc): void {
    acc.nodes++;
    if (n.kind === 'map_entry' || n.kind === 'consume_entry') acc.maps++;
    else if (n.kind === 'tasklet') acc.tasklets++;
    else if (n.kind === 'access') {
      const t = transientId(sdfg, n.data);
      if (t !== null) acc.transients.add(t);
    } else if (n.kind === 'nested_sdfg' && n.sdfg) {
      acc.sdfgs++;
      add(acc, this.cfgAcc(n.sdfg, n.sdfg.body));
    } else if (n.kind === 'nested_sdfg' && n.deferred) {
      acc.sdfgs++;
      acc.partial = true;
    }
  }

  /** Every scope of a state at once: each node counts towards every scope around it. */
  private scopeAccsOf(sdfg: Sdfg, state: StateBlock): Map<number, Acc> {
    let m = this.scopeAccs.get(state);
    if (m) return m;
    m = new Map();
    const scopes = stateScopes(state);
    for (let i = 0; i < state.nodes.length; i++) {
      const n = state.nodes[i]!;
      const chain = scopes.chain(scopes.levelOf(i));
      // A scope's own exit is part of its frame, not of its content.
      const inner =
        (n.kind === 'map_exit' || n.kind === 'consume_exit') && chain.length > 0 && scopes.exitOf(chain[chain.length - 1]!) === i
          ? chain.slice(0, -1)
          : chain;
      if (inner.length === 0) continue;
      const one = empty();
      this.countNode(sdfg, n, one);
      for (const level of inner) {
        let acc = m.get(level);
        if (!acc) m.set(level, (acc = empty()));
        add(acc, one);
      }
    }
    this.scopeAccs.set(state, m);
    return m;
  }

  private memo(key: object, f: () => Acc): Acc {
    let acc = this.accs.get(key);
    if (!acc) {
      acc = f();
      this.accs.set(key, acc);
    }
    return acc;
  }
}
