/**
 * Why a program that writes none of its array arguments has nothing to compare (docs/profile.md,
 * "Verification"): where its results go instead.
 *
 * DaCe's ABI gives a caller two ways to see a result: an array argument (a pointer) or a structure argument.
 * A scalar argument is passed by value, so what the program writes into it stays inside the call; a root
 * transient that the program writes and never reads is a result nobody receives (ICON's cut-out `radiation`
 * computes the albedo arrays into such transients; only the scalar `nulout = 6` goes to an argument).
 * Saying so turns "nothing was compared" into a statement about the program, not about the tool.
 */
import type { SdfgFile } from '../model/sdfg.js';
import { statesOf } from '../model/queries.js';
import type { ProfileResult } from './result.js';

const NOTHING_WRITTEN = /^nothing was compared across modes: the program writes none of its array arguments/;

/** Root transients written and never read (views excepted), and scalar arguments the program writes. */
export function unobservedWrites(file: SdfgFile): { deadTransients: string[]; scalarArgs: string[] } {
  const root = file.root;
  const read = new Set<string>();
  const written = new Set<string>();
  for (const st of statesOf(root)) {
    for (const e of st.edges) {
      if (e.memlet.data === null) continue;
      const src = st.nodes[e.src];
      const dst = st.nodes[e.dst];
      if (src?.kind === 'access') read.add(src.data);
      if (dst?.kind === 'access') written.add(dst.data);
    }
  }
  const deadTransients: string[] = [];
  const scalarArgs: string[] = [];
  for (const name of [...written].sort()) {
    const d = root.arrays.get(name);
    if (!d) continue;
    if (d.transient && d.arrayLike && !d.type.includes('View') && !read.has(name)) deadTransients.push(name);
    if (!d.transient && d.type === 'Scalar') scalarArgs.push(name);
  }
  return { deadTransients, scalarArgs };
}

/** The verification with its "writes none of its array arguments" note saying where the results went. */
export function explainUnobserved(verification: ProfileResult['verification'], file: SdfgFile): ProfileResult['verification'] {
  const at = verification.details.findIndex((d) => d.kind === 'note' && NOTHING_WRITTEN.test(d.message));
  if (at < 0) return verification;
  const { deadTransients, scalarArgs } = unobservedWrites(file);
  const parts: string[] = [];
  if (deadTransients.length)
    parts.push(`its results stay in transients that nothing reads after writing them (${deadTransients.join(', ')})`);
  if (scalarArgs.length)
    parts.push(
      `the scalar argument${scalarArgs.length === 1 ? '' : 's'} it writes (${scalarArgs.join(', ')}) ${scalarArgs.length === 1 ? 'is' : 'are'} passed by value, as DaCe passes every scalar, so no caller sees ${scalarArgs.length === 1 ? 'it' : 'them'}`,
    );
  if (!parts.length) return verification;
  const details = verification.details.slice();
  const note = details[at]!;
  details[at] = { ...note, message: `${note.message}; ${parts.join('; ')}` };
  return { ...verification, details };
}
