import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { detectGrammar, parsePython, parsePythonStatements, parseSym } from '../../../electron/engine/symbolic/index.js';

const SYMBOLIC_KEYS = new Set(['shape', 'strides', 'total_size', 'offset', 'start', 'end', 'step', 'tile', 'volume', 'num_accesses']);
const EXPRESSION_CODE_KEYS = new Set(['condition', 'loop_condition', 'branches']);
const STATEMENT_CODE_KEYS = new Set(['init_statement', 'update_statement', 'code', 'code_init', 'code_exit', 'code_global']);

interface Found {
  text: string;
  path: string;
}

function readJson(file: string): unknown {
  let bytes = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8')) as unknown;
}

/** Every string under `value` (SymExpr {main, approx} objects and lists included). */
function collectStrings(value: unknown, path: string, out: Found[]): void {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    if (typeof v === 'string') out.push({ text: v, path: p });
    else if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${p}[${i}]`]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push([x, `${p}.${k}`]);
  }
}

/** Symbolic strings and Python code strings of one file, found by a plain walk over the JSON. */
function scan(root: unknown): { symbolic: Found[]; expressions: Found[]; statements: Found[] } {
  const symbolic: Found[] = [];
  const expressions: Found[] = [];
  const statements: Found[] = [];
  const stack: Array<[unknown, string, string]> = [[root, '$', '']];
  while (stack.length > 0) {
    const [v, path, key] = stack.pop()!;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (x && typeof x === 'object') stack.push([x, `${path}[${i}]`, key]);
      });
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    const obj = v as Record<string, unknown>;
    if (typeof obj.string_data === 'string' && obj.language === 'Python') {
      if (EXPRESSION_CODE_KEYS.has(key)) expressions.push({ text: obj.string_data, path });
      else if (STATEMENT_CODE_KEYS.has(key)) statements.push({ text: obj.string_data, path });
    }
    for (const [k, x] of Object.entries(obj)) {
      const p = `${path}.${k}`;
      if (SYMBOLIC_KEYS.has(k)) collectStrings(x, p, symbolic);
      else if (k === 'symbol_mapping' && x && typeof x === 'object') {
        for (const [name, value] of Object.entries(x)) collectStrings(value, `${p}.${name}`, symbolic);
      } else if (k === 'assignments' && x && typeof x === 'object' && !Array.isArray(x)) {
        for (const [name, value] of Object.entries(x))
          if (typeof value === 'string') expressions.push({ text: value, path: `${p}.${name}` });
      }
      if (x && typeof x === 'object') stack.push([x, p, k]);
    }
  }
  return { symbolic, expressions, statements };
}

const files = readdirSync(corpusDir()).sort();

describe('every symbolic and code string of the corpus parses', () => {
  it(`scans ${files.length} files`, () => {
    expect(files.length).toBeGreaterThan(0);
    const failures: string[] = [];
    const counts = { symbolic: 0, distinctSymbolic: new Set<string>(), typedFiles: 0, expressions: 0, statements: 0, unreadable: 0 };
    for (const name of files) {
      let json: unknown;
      try {
        json = readJson(join(corpusDir(), name));
      } catch {
        // Not JSON at all (the corpus keeps a few broken files for the parser's error tests).
        counts.unreadable++;
        continue;
      }
      const found = scan(json);
      const grammar = detectGrammar(found.symbolic.map((f) => f.text));
      if (grammar === 'typed') counts.typedFiles++;
      for (const f of found.symbolic) {
        counts.symbolic++;
        counts.distinctSymbolic.add(`${grammar}:${f.text}`);
        try {
          parseSym(f.text, grammar);
        } catch (err) {
          failures.push(`${name} ${f.path}: ${(err as Error).message}`);
        }
      }
      for (const f of found.expressions) {
        counts.expressions++;
        try {
          parsePython(f.text);
        } catch (err) {
          failures.push(`${name} ${f.path}: ${(err as Error).message}`);
        }
      }
      for (const f of found.statements) {
        counts.statements++;
        try {
          parsePythonStatements(f.text);
        } catch (err) {
          failures.push(`${name} ${f.path}: ${(err as Error).message}`);
        }
      }
    }
    console.log(
      `corpus: ${files.length} files (${counts.unreadable} not JSON, ${counts.typedFiles} typed grammar); ` +
        `${counts.symbolic} symbolic strings (${counts.distinctSymbolic.size} distinct), ` +
        `${counts.expressions} Python expressions, ${counts.statements} Python statement blocks checked`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(counts.symbolic).toBeGreaterThan(100_000);
    expect(counts.typedFiles).toBeGreaterThan(0);
  });
});
