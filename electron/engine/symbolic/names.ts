/** Names that Python statements read and assign (the generator's and the model queries' shared need). */
import type { Expr, Stmt } from './ast.js';
import { freeSymbols } from './transform.js';

/** Names read and names assigned by statements (a subscripted target writes its container, reads its indices). */
export function statementNames(
  stmts: readonly Stmt[],
  reads: Set<string> = new Set(),
  writes: Set<string> = new Set(),
): { reads: Set<string>; writes: Set<string> } {
  const read = (e: Expr) => {
    for (const n of freeSymbols(e)) reads.add(n);
  };
  const write = (t: Expr) => {
    if (t.k === 'sym') writes.add(t.name);
    else if (t.k === 'subscript' && t.base.k === 'sym') {
      writes.add(t.base.name);
      t.index.forEach(read);
    } else if (t.k === 'tuple') t.items.forEach(write);
    else read(t);
  };
  for (const s of stmts) {
    switch (s.k) {
      case 'assign':
        read(s.value);
        s.targets.forEach(write);
        break;
      case 'augassign':
        read(s.value);
        read(s.target);
        write(s.target);
        break;
      case 'if':
        read(s.cond);
        statementNames(s.then, reads, writes);
        statementNames(s.else, reads, writes);
        break;
      case 'expr':
        read(s.e);
        break;
      case 'pass':
        break;
    }
  }
  return { reads, writes };
}
