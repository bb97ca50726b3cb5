/**
 * Which implementation expands each library node (`--library-impl`): `pure` (DaCe's backend-agnostic
 * expansions, loops the generator compiles) or `blas` (a call into OpenBLAS/LAPACKE, as DaCe's OpenBLAS
 * expansions). One default for every node, plus overrides by node label: `blas`, `gemm=blas`,
 * `blas,mm_0=pure`.
 */
import { TlabError } from '../../errors.js';
import type { SdfgFile } from '../../model/sdfg.js';
import { statesOf } from '../../model/queries.js';

export type LibraryImpl = 'pure' | 'blas';

const LIBRARY_IMPLS: readonly LibraryImpl[] = ['pure', 'blas'];

export interface LibraryImplChoice {
  /** For every node no override names. */
  default: LibraryImpl;
  /** Node label → implementation. */
  nodes: Record<string, LibraryImpl>;
}

export const PURE: LibraryImplChoice = { default: 'pure', nodes: {} };

function isImpl(s: string): s is LibraryImpl {
  return (LIBRARY_IMPLS as readonly string[]).includes(s);
}

/** `--library-impl` text → a choice; TlabError('usage') naming the bad part. */
export function parseLibraryImpl(text: string, what = '--library-impl'): LibraryImplChoice {
  const choice: LibraryImplChoice = { default: 'pure', nodes: {} };
  let defaults = 0;
  const parts = text.split(',').map((p) => p.trim());
  for (const part of parts) {
    if (part === '')
      throw new TlabError('usage', `${what}: empty entry in '${text}' (write pure, blas or NODE=pure|blas, comma-separated)`);
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (!isImpl(part)) throw new TlabError('usage', `${what}: '${part}' is not an implementation (pure or blas; NODE=IMPL for one node)`);
      if (++defaults > 1) throw new TlabError('usage', `${what}: '${text}' names more than one default implementation`);
      choice.default = part;
      continue;
    }
    const node = part.slice(0, eq).trim();
    const impl = part.slice(eq + 1).trim();
    if (node === '') throw new TlabError('usage', `${what}: '${part}' names no library node before '='`);
    if (!isImpl(impl)) throw new TlabError('usage', `${what}: '${impl}' (for node '${node}') is not an implementation (pure or blas)`);
    if (Object.hasOwn(choice.nodes, node)) throw new TlabError('usage', `${what}: node '${node}' is named twice`);
    choice.nodes[node] = impl;
  }
  return choice;
}

/** The implementation chosen for the node labelled `label`. */
export function implFor(choice: LibraryImplChoice, label: string): LibraryImpl {
  return Object.hasOwn(choice.nodes, label) ? choice.nodes[label]! : choice.default;
}

/** A stable text form (cache keys, results): `pure`, `blas,gemm=pure`. */
export function libraryImplText(choice: LibraryImplChoice): string {
  const nodes = Object.keys(choice.nodes).sort();
  return [choice.default, ...nodes.map((n) => `${n}=${choice.nodes[n]!}`)].join(',');
}

/** Every override must name a library node of the file (a typo would silently run the default). */
export function checkLibraryImpl(file: SdfgFile, choice: LibraryImplChoice, what = '--library-impl'): void {
  const names = Object.keys(choice.nodes);
  if (!names.length) return;
  const labels = new Set<string>();
  for (const s of file.sdfgs) for (const st of statesOf(s)) for (const n of st.nodes) if (n.kind === 'library') labels.add(n.label);
  for (const name of names) {
    if (labels.has(name)) continue;
    const known = [...labels].sort();
    throw new TlabError(
      'usage',
      `${what}: no library node is labelled '${name}' (${known.length ? `library nodes: ${known.join(', ')}` : 'the program has no library node'})`,
      { file: file.path },
    );
  }
}
