/**
 * The import edges of the repository's TypeScript, read by the TypeScript parser rather than a regular
 * expression: every `import` and `export … from` (type-only ones marked, `import { type A }` included), side-effect
 * imports, `import x = require()`, dynamic `import()` and `import('…')` in types, each with its line, so that an
 * architecture test can fail naming the exact import. Comments and strings never count.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../electron/engine/paths.js';

const root = packageRoot();

export interface ImportEdge {
  /** The importing file, relative to the repository root. */
  file: string;
  line: number;
  /** The specifier as written. */
  written: string;
  /** A relative specifier resolved to its source file (`electron/ipc/contract.ts`), else as written (`node:fs`). */
  target: string;
  /** Erased at compile time: `import type`, `export type`, `import { type A }` with only type names, `import('…')` in a type. */
  typeOnly: boolean;
}

/** `.ts`/`.tsx` files under `dir` (relative to the root), recursively, as root-relative paths. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const abs = join(root, dir);
  if (!existsSync(abs)) return out;
  for (const e of readdirSync(abs, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolveSpec(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const path = relative(root, resolve(dirname(join(root, file)), spec));
  const stem = path.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`]) if (existsSync(join(root, candidate))) return candidate;
  return path;
}

/** The import edges of `text`, as if it were the file `file` (root-relative). */
export function importsOfText(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const edges: ImportEdge[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    edges.push({ file, line, written: specifier.text, target: resolveSpec(file, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly || (!clause.name && named !== null && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      add(node, node.moduleSpecifier, node.isTypeOnly || (named !== null && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

export function importsOf(file: string): ImportEdge[] {
  return importsOfText(file, readFileSync(join(root, file), 'utf8'));
}

export function describeEdge(e: ImportEdge): string {
  return `${e.file}:${e.line} imports '${e.written}'${e.typeOnly ? ' (type only)' : ''}`;
}

/** Every cycle of the import graph over `files` (type imports included), each as `a → b → a`. */
export function importCycles(files: readonly string[]): string[] {
  const known = new Set(files);
  const graph = new Map(
    files.map((f) => [
      f,
      [
        ...new Set(
          importsOf(f)
            .map((e) => e.target)
            .filter((t) => known.has(t)),
        ),
      ],
    ]),
  );
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
