import { describe, expect, it } from 'vitest';
import {
  detectGrammar,
  parsePython,
  parsePythonLambda,
  parsePythonStatements,
  parseSym,
  show,
  SymbolicSyntaxError,
  MAX_EXPRESSION_DEPTH,
  type Expr,
} from '../../../electron/engine/symbolic/index.js';
import { int, plain, sym } from './helpers.js';

function syntaxError(fn: () => unknown): SymbolicSyntaxError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SymbolicSyntaxError);
    return err as SymbolicSyntaxError;
  }
  throw new Error('expected a SymbolicSyntaxError');
}

describe('legacy grammar (sdfg-format.md §10.3 examples)', () => {
  it('parses SymPy products, ceiling and exact division', () => {
    const e = parseSym('262144*ceiling(M/512)*ceiling(N/512)', 'legacy');
    const ceilM: Expr = { k: 'call', fn: 'ceiling', args: [{ k: 'bin', op: '/', a: sym('M'), b: int(512) }], kwargs: [] };
    const ceilN: Expr = { k: 'call', fn: 'ceiling', args: [{ k: 'bin', op: '/', a: sym('N'), b: int(512) }], kwargs: [] };
    expect(plain(e)).toEqual(plain({ k: 'bin', op: '*', a: { k: 'bin', op: '*', a: int(262144), b: ceilM }, b: ceilN }));
  });

  it('parses the other corpus examples', () => {
    expect(show(parseSym('2*int_floor(N - 1, 2)', 'legacy'))).toBe('2*int_floor(N - 1, 2)');
    expect(show(parseSym('Mod(_c, 2)', 'legacy'))).toBe('Mod(_c, 2)');
    expect(show(parseSym('Max(1, Min(999, t)) - 1', 'legacy'))).toBe('Max(1, Min(999, t)) - 1');
    expect(show(parseSym('C_in*C_out*K**2', 'legacy'))).toBe('C_in*C_out*K**2');
    expect(show(parseSym('-1 + N', 'legacy'))).toBe('-1 + N');
    expect(show(parseSym('N*(M + 1)', 'legacy'))).toBe('N*(M + 1)');
  });

  it('respects precedence and associativity', () => {
    expect(plain(parseSym('a - b - c', 'legacy'))).toEqual(
      plain({ k: 'bin', op: '-', a: { k: 'bin', op: '-', a: sym('a'), b: sym('b') }, b: sym('c') }),
    );
    expect(plain(parseSym('a**b**c', 'legacy'))).toEqual(
      plain({ k: 'bin', op: '**', a: sym('a'), b: { k: 'bin', op: '**', a: sym('b'), b: sym('c') } }),
    );
    expect(plain(parseSym('-x**2', 'legacy'))).toEqual(plain({ k: 'un', op: '-', a: { k: 'bin', op: '**', a: sym('x'), b: int(2) } }));
    expect(plain(parseSym('2**-1', 'legacy'))).toEqual(plain({ k: 'bin', op: '**', a: int(2), b: { k: 'un', op: '-', a: int(1) } }));
    expect(plain(parseSym('a + b*c', 'legacy'))).toEqual(
      plain({ k: 'bin', op: '+', a: sym('a'), b: { k: 'bin', op: '*', a: sym('b'), b: sym('c') } }),
    );
  });

  it('parses relations and a bare ? symbol', () => {
    expect(show(parseSym('Eq(a, b)', 'legacy'))).toBe('Eq(a, b)');
    expect(plain(parseSym('a < b', 'legacy'))).toEqual(plain({ k: 'bin', op: '<', a: sym('a'), b: sym('b') }));
    expect(plain(parseSym('?', 'legacy'))).toEqual(plain(sym('?')));
  });

  it('rejects the $ of the typed grammar', () => {
    const err = syntaxError(() => parseSym('$N + 1', 'legacy'));
    expect(err.position).toBe(0);
  });
});

describe('typed grammar', () => {
  it('parses $ symbols and symbol(...) with a dtype', () => {
    const e = parseSym('-1 + symbol($mill_at2, dtype=dace.int64) + __int_floor(1 + symbol($eigts1_d0, dtype=dace.int64), 2)', 'typed');
    expect(show(e)).toBe('-1 + mill_at2 + __int_floor(1 + eigts1_d0, 2)');
    expect(e.k === 'bin' && e.a.k === 'bin' ? plain(e.a.b) : null).toEqual(plain(sym('mill_at2', 'int64')));
    expect(plain(parseSym('$klon*(1 + $klev)', 'typed'))).toEqual(
      plain({ k: 'bin', op: '*', a: sym('klon'), b: { k: 'bin', op: '+', a: int(1), b: sym('klev') } }),
    );
    expect(plain(parseSym('symbol($n, dtype=dace.int64, nonnegative=True)', 'typed'))).toEqual(plain(sym('n', 'int64')));
  });

  it('keeps SymExpr as a call', () => {
    const e = parseSym('SymExpr(Min($ngm, 31 + symbol($b, dtype=dace.int64)), 31 + symbol($b, dtype=dace.int64))', 'typed');
    expect(e.k === 'call' && e.fn).toBe('SymExpr');
    expect(show(e)).toBe('SymExpr(Min(ngm, 31 + b), 31 + b)');
  });

  it('parses typed literals with every suffix', () => {
    expect(plain(parseSym('1i64', 'typed'))).toEqual(plain({ k: 'int', v: 1n, suffix: 'i64' }));
    expect(plain(parseSym('7u8', 'typed'))).toEqual(plain({ k: 'int', v: 7n, suffix: 'u8' }));
    expect(plain(parseSym('2.5f32', 'typed'))).toEqual(plain({ k: 'float', v: 2.5, text: '2.5', suffix: 'f32' }));
    expect(plain(parseSym('8.0f64', 'typed'))).toEqual(plain({ k: 'float', v: 8, text: '8.0', suffix: 'f64' }));
    expect(plain(parseSym('7.2bf16', 'typed'))).toEqual(plain({ k: 'float', v: 7.2, text: '7.2', suffix: 'bf16' }));
    for (const suffix of ['i8', 'i16', 'i32', 'u16', 'u32', 'u64'])
      expect(parseSym(`3${suffix}`, 'typed')).toMatchObject({ k: 'int', v: 3n, suffix });
    for (const suffix of ['f16', 'e4m3fn', 'e5m2']) expect(parseSym(`1.5${suffix}`, 'typed')).toMatchObject({ k: 'float', v: 1.5, suffix });
    // An integer with a float suffix is a float whose text still reads as one.
    expect(parseSym('8f32', 'typed')).toMatchObject({ k: 'float', v: 8, text: '8.0' });
  });

  it('parses complex literals, $?, None and dace casts', () => {
    const c = parseSym('(1.0 + 2.0j)c128', 'typed');
    expect(c).toMatchObject({ k: 'call', fn: 'dace.complex128' });
    expect(show(c)).toBe('dace.complex128(1.0 + complex(0, 2.0))');
    expect(parseSym('1.5c64', 'typed')).toMatchObject({ k: 'call', fn: 'dace.complex64' });
    expect(plain(parseSym('$?', 'typed'))).toEqual(plain(sym('?')));
    expect(parseSym('None', 'typed')).toEqual({ k: 'none' });
    expect(parseSym('dace.float32(1.5)', 'typed')).toMatchObject({ k: 'call', fn: 'dace.float32' });
  });

  it('rejects unknown suffixes and a lone $', () => {
    expect(syntaxError(() => parseSym('1i63', 'typed')).position).toBe(0);
    expect(syntaxError(() => parseSym('1 + $', 'typed')).position).toBe(4);
    expect(syntaxError(() => parseSym('1i64', 'legacy')).position).toBe(0);
  });
});

describe('syntax errors carry the position', () => {
  it.each([
    ['N + * 2', 4],
    ['(N + 2', 6],
    ['Max(1, 2', 8],
    ['N 2', 2],
    ['', 0],
    ['a # b', 2],
    ['f(a=1, 2)', 7],
  ])('%j at %d', (src, position) => {
    const err = syntaxError(() => parseSym(src, 'legacy'));
    expect(err.position).toBe(position);
    expect(err.source).toBe(src);
    expect(err.message).toContain(`column ${position + 1}`);
  });

  it('reports over-deep nesting instead of overflowing the stack', () => {
    const src = `${'('.repeat(5000)}N${')'.repeat(5000)}`;
    expect(syntaxError(() => parseSym(src, 'legacy')).message).toMatch(/nested deeper/);
    expect(syntaxError(() => parsePython('-'.repeat(5000) + 'x')).message).toMatch(/nested deeper/);
  });

  it('cuts long sources in the message', () => {
    const src = `${'a + '.repeat(200)}*`;
    const err = syntaxError(() => parseSym(src, 'legacy'));
    expect(err.position).toBe(src.length - 1);
    expect(err.message.length).toBeLessThan(250);
  });
});

describe('memoisation and size', () => {
  it('returns the same frozen tree for the same (grammar, text)', () => {
    const a = parseSym('N*M + 1', 'legacy');
    expect(parseSym('N*M + 1', 'legacy')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(parseSym('N*M + 1', 'typed')).not.toBe(a);
  });

  it('parses a sum as long as the depth limit allows', () => {
    // n terms of height 2 make a tree n + 1 levels high.
    const terms = Array.from({ length: MAX_EXPRESSION_DEPTH - 1 }, (_, i) => `s${i}*${i + 1}`);
    const e = parseSym(terms.join(' + '), 'legacy');
    expect(show(e)).toBe(terms.join(' + '));
    expect(syntaxError(() => parseSym([...terms, 'x*2'].join(' + '), 'legacy')).message).toMatch(
      `nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`,
    );
  });

  // Parse speed is the bench's business (analysis section); here only the result of a large string counts.
  it('parses a large corpus-like string', () => {
    const src = Array.from(
      { length: 200 },
      (_, i) => `symbol($a${i}_d0, dtype=dace.int64)*(-1 + symbol($a${i}_d1, dtype=dace.int64))`,
    ).join(' + ');
    const e = parseSym(`${src} + 7`, 'typed');
    const text = show(e);
    for (const i of [0, 99, 199]) expect(text).toContain(`a${i}_d1`);
    expect(text).not.toContain('$');
  });
});

describe('detectGrammar', () => {
  it('is typed iff a $ precedes a letter, _ or ?', () => {
    expect(detectGrammar(['N', '-1 + N', '64*M'])).toBe('legacy');
    expect(detectGrammar(['0', '$N'])).toBe('typed');
    expect(detectGrammar(['$_x'])).toBe('typed');
    expect(detectGrammar(['$?'])).toBe('typed');
    expect(detectGrammar(['$1', 'cost $ 5'])).toBe('legacy');
    expect(detectGrammar([])).toBe('legacy');
  });
});

describe('Python expressions', () => {
  it('parses boolean logic, comparisons and chains', () => {
    expect(plain(parsePython('(not (tmp_for_1 < dace_w_0))'))).toEqual(
      plain({ k: 'un', op: 'not', a: { k: 'bin', op: '<', a: sym('tmp_for_1'), b: sym('dace_w_0') } }),
    );
    expect(plain(parsePython('0 <= i < N'))).toEqual(plain({ k: 'cmpchain', ops: ['<=', '<'], operands: [int(0), sym('i'), sym('N')] }));
    expect(plain(parsePython('a and b or not c'))).toEqual(
      plain({ k: 'bin', op: 'or', a: { k: 'bin', op: 'and', a: sym('a'), b: sym('b') }, b: { k: 'un', op: 'not', a: sym('c') } }),
    );
    expect(show(parsePython('a % 2 == 0 and b // 3 != 1'))).toBe('a % 2 == 0 and b // 3 != 1');
  });

  it('parses calls, attributes, subscripts, ternaries and numbers', () => {
    expect(parsePython('math.exp(x)')).toMatchObject({ k: 'call', fn: 'math.exp', args: [{ k: 'sym', name: 'x' }] });
    expect(parsePython('dace.float64(x)')).toMatchObject({ k: 'call', fn: 'dace.float64' });
    expect(parsePython('math.pi')).toMatchObject({ k: 'attr', name: 'pi', base: { k: 'sym', name: 'math' } });
    expect(parsePython('A[i, j + 1] > 0')).toMatchObject({ k: 'bin', op: '>', a: { k: 'subscript', base: { k: 'sym', name: 'A' } } });
    expect(parsePython('a if c else b')).toMatchObject({ k: 'ternary', cond: { name: 'c' }, then: { name: 'a' }, else: { name: 'b' } });
    expect(parsePython('1e-3')).toMatchObject({ k: 'float', v: 0.001 });
    expect(parsePython('1.')).toMatchObject({ k: 'float', v: 1 });
    expect(parsePython('.5')).toMatchObject({ k: 'float', v: 0.5 });
    expect(parsePython('0x1F + 0b11 + 1_000')).toBeTruthy();
    expect(parsePython('True')).toEqual({ k: 'bool', v: true });
    expect(parsePython('min(a, b, key=c)')).toMatchObject({ k: 'call', fn: 'min', kwargs: [['key', { name: 'c' }]] });
    expect(parsePython('_in_z.real()')).toMatchObject({ k: 'call', fn: '_in_z.real', args: [] });
    expect(parsePython('(a, b)')).toMatchObject({ k: 'tuple' });
    expect(parsePython('1j * x')).toMatchObject({ k: 'bin', a: { k: 'call', fn: 'complex' } });
  });

  it('rejects what the subset does not cover, with positions', () => {
    expect(syntaxError(() => parsePython('a in b')).position).toBe(2);
    expect(syntaxError(() => parsePython("x == 'a'")).position).toBe(5);
    expect(syntaxError(() => parsePython('A[1:2]')).position).toBe(3);
    expect(syntaxError(() => parsePython('lambda x: x')).position).toBe(0);
    expect(syntaxError(() => parsePython('(a + b)(c)')).position).toBe(7);
  });
});

describe('Python lambdas (write-conflict resolution)', () => {
  it('parses parameters and body, with or without parentheses', () => {
    const l = parsePythonLambda('(lambda a, b: max(a, b) * 2)');
    expect(l.params).toEqual(['a', 'b']);
    expect(l.body).toMatchObject({ k: 'bin', op: '*', a: { k: 'call', fn: 'max', args: [sym('a'), sym('b')] } });
    expect(parsePythonLambda('lambda x, y: x + y').params).toEqual(['x', 'y']);
    expect(parsePythonLambda('lambda: 1').params).toEqual([]);
  });

  it('rejects what is not a single lambda', () => {
    expect(syntaxError(() => parsePythonLambda('a + b')).message).toMatch(/expected 'lambda'/);
    expect(syntaxError(() => parsePythonLambda('lambda a, a: a')).message).toMatch(/duplicate parameter/);
    expect(syntaxError(() => parsePythonLambda('(lambda a, b: a + b')).message).toMatch(/expected '\)'/);
    expect(syntaxError(() => parsePythonLambda('lambda a, b: a + b, 1')).position).toBe(18);
    expect(syntaxError(() => parsePythonLambda('lambda a, 1: a')).position).toBe(10);
    expect(syntaxError(() => parsePythonLambda('')).message).toMatch(/empty/);
  });
});

describe('Python statements', () => {
  it('parses a multi-line tasklet with if/elif/else', () => {
    const body = parsePythonStatements(
      'if (s == 1):\n    val = 1\nelif (s > 1):\n    sout = (s - 1)\n    sout = (s - 2)\nelse:\n    pass\n',
    );
    expect(body).toHaveLength(1);
    const top = body[0]!;
    expect(top.k).toBe('if');
    if (top.k !== 'if') return;
    expect(plain(top.then)).toEqual(plain([{ k: 'assign', targets: [sym('val')], value: int(1) }]));
    expect(top.else).toHaveLength(1);
    const elif = top.else[0]!;
    expect(elif.k).toBe('if');
    if (elif.k !== 'if') return;
    expect(elif.then).toHaveLength(2);
    expect(elif.else).toEqual([{ k: 'pass' }]);
  });

  it('parses augmented and chained assignments, ; and comments', () => {
    const body = parsePythonStatements('x += 1; y = z = 2  # comment\n# whole-line comment\n\nA[i, j] *= 2\nout = a if c else b');
    expect(body.map((s) => s.k)).toEqual(['augassign', 'assign', 'augassign', 'assign']);
    expect(body[0]).toMatchObject({ k: 'augassign', op: '+', target: { name: 'x' } });
    expect(body[1]).toMatchObject({ k: 'assign', targets: [{ name: 'y' }, { name: 'z' }], value: { v: 2n } });
    expect(body[2]).toMatchObject({ k: 'augassign', op: '*', target: { k: 'subscript' } });
    expect(body[3]).toMatchObject({ k: 'assign', value: { k: 'ternary' } });
  });

  it('parses loop statements, nested blocks, one-line suites and continuation lines', () => {
    expect(parsePythonStatements('_for_it_105 = (_for_it_105 + (- 1))')).toMatchObject([{ k: 'assign' }]);
    const nested = parsePythonStatements('if a:\n  if b:\n    x = 1\n  y = 2\nz = (1 +\n     2)\nw = 1 + \\\n  2\nif c: q = 1; r = 2\n');
    expect(nested.map((s) => s.k)).toEqual(['if', 'assign', 'assign', 'if']);
    expect(nested[0]).toMatchObject({ k: 'if', then: [{ k: 'if', then: [{ k: 'assign' }] }, { k: 'assign' }] });
    expect(nested[3]).toMatchObject({ k: 'if', then: [{ k: 'assign' }, { k: 'assign' }] });
    expect(parsePythonStatements('f(x)\r\npass_through = 1')).toMatchObject([{ k: 'expr' }, { k: 'assign' }]);
    expect(parsePythonStatements('')).toEqual([]);
  });

  it('reports bad statements with their position', () => {
    expect(syntaxError(() => parsePythonStatements('x = 1\n  y = 2')).position).toBe(8);
    expect(syntaxError(() => parsePythonStatements('if a:\nx = 1')).message).toMatch(/indented block/);
    expect(syntaxError(() => parsePythonStatements('if a:\n    x = 1\n  y = 2')).message).toMatch(/inconsistent indentation/);
    expect(syntaxError(() => parsePythonStatements('for i in x:\n  pass')).position).toBe(0);
    expect(syntaxError(() => parsePythonStatements('1 = x')).position).toBe(0);
    expect(syntaxError(() => parsePythonStatements('else:\n  x = 1')).position).toBe(0);
  });
});
