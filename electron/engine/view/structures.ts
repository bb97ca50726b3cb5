/**
 * Which transients live inside structures, in one sentence for the window's overview and the report. A member of a
 * structure is allocated with its structure, never on its own; in ICON's velocity_tendencies they are nearly all of
 * its 30k transients, so the table alone (one row each) cannot say where they are.
 */
import { formatCount } from './format.js';
import { FATES, type AnalysisView } from './types.js';

/** Members of structures: how many, how many of them hold memory of their own, and per structure, most first. */
interface StructureMembers {
  members: number;
  holdingMemory: number;
  structures: Array<{ path: string; members: number }>;
}

function structureMembers(view: AnalysisView): StructureMembers | null {
  const t = view.table;
  const per = new Map<number, number>();
  let holding = 0;
  for (let i = 0; i < t.count; i++) {
    const k = t.insideStructure[i] ?? -1;
    if (k < 0) continue;
    per.set(k, (per.get(k) ?? 0) + 1);
    const fate = FATES[t.fate[i]!];
    if (fate !== 'none' && fate !== 'alias') holding++;
  }
  if (per.size === 0) return null;
  const structures = [...per]
    .map(([k, members]) => ({ path: t.dict.insideStructure[k]!, members }))
    .sort((a, b) => b.members - a.members || (a.path < b.path ? -1 : 1));
  return { members: structures.reduce((n, s) => n + s.members, 0), holdingMemory: holding, structures };
}

/**
 * "30 136 of 30 313 transients are members of 150 structures (p_diag_0 6 069, ptr_patch_0.edges 2 358, …); none
 * holds memory of its own." — null when no transient is a member of a structure.
 */
export function structureMembersText(view: AnalysisView, top = 3): string | null {
  const s = structureMembers(view);
  if (!s) return null;
  const n = s.structures.length;
  const named = s.structures.slice(0, top).map((x) => `${x.path} ${formatCount(x.members)}`);
  const list = `${named.join(', ')}${n > top ? ', …' : ''}`;
  const memory =
    s.holdingMemory === 0 ? 'none holds memory of its own' : `${formatCount(s.holdingMemory)} hold memory, allocated with their structure`;
  const where = n === 1 ? `structure ${s.structures[0]!.path}` : `${formatCount(n)} structures (${list})`;
  const are = s.members === 1 ? 'is a member' : 'are members';
  return `${formatCount(s.members)} of ${formatCount(view.table.count)} transients ${are} of ${where}; ${memory}.`;
}
