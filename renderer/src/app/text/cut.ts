/**
 * Where a long name is cut (MidCut draws it): generated names share long prefixes and differ at the end or in the
 * middle, so the parts that tell them apart are kept whole and the rest shrinks. Pure.
 */
export interface CutPart {
  text: string;
  /** Always shown whole (the distinguishing end, a search match). */
  keep?: boolean;
  /** Highlighted as a search match (`<mark>`). */
  mark?: boolean;
}

/** Characters of a name's end kept whole: enough for `_d_0_s_4869`-like suffixes, never most of the name. */
function tailLength(name: string, max = 12): number {
  return Math.max(0, Math.min(max, Math.floor(name.length / 2)));
}

/** Start … end: the start shrinks, the last `tail` characters stay. */
export function headTail(name: string, tail = tailLength(name)): CutPart[] {
  // A short name is cut at its end if at all: splitting it buys nothing.
  if (name.length <= 16 || tail <= 0 || tail >= name.length) return [{ text: name }];
  return [{ text: name.slice(0, name.length - tail) }, { text: name.slice(name.length - tail), keep: true }];
}

/**
 * A file name: corpus and generated names put the program's own name last, after the last `__`
 * (`spcl__dace__tests__…__cloudsc_simplified@9f8f673.sdfgz`). That part stays whole; the path-like start shrinks.
 */
export function fileNameParts(name: string): CutPart[] {
  const at = name.lastIndexOf('__');
  const own = at > 0 ? name.length - at - 2 : 0;
  return headTail(name, own > 0 && own <= 40 ? own : Math.min(24, name.length));
}

/**
 * The parts of `name` around the first case-insensitive match of `query`: the start (shrinks), the match (kept,
 * marked), what follows it (shrinks) and the name's last characters (kept) — "ptr_patc…tangent_ori…s_3206".
 * No match: start … end.
 */
export function matchParts(name: string, query: string, tail = 8): CutPart[] {
  const q = query.trim().toLowerCase();
  const at = q ? name.toLowerCase().indexOf(q) : -1;
  if (at < 0) return headTail(name);
  const parts: CutPart[] = [];
  if (at > 0) parts.push({ text: name.slice(0, at) });
  parts.push({ text: name.slice(at, at + q.length), keep: true, mark: true });
  const rest = name.slice(at + q.length);
  // A short rest shrinks as one part; a long one keeps its last characters.
  if (rest.length > tail + 3) parts.push({ text: rest.slice(0, rest.length - tail) }, { text: rest.slice(rest.length - tail), keep: true });
  else if (rest) parts.push({ text: rest });
  return parts;
}
