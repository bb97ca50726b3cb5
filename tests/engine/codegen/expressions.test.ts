/** The Python/symbolic expression layer of the generator: parsing, integer evaluation, C++ with Python semantics. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CPP_HELPERS, emitExpr, type NameResolver } from '../../../electron/engine/codegen/cppexpr.js';
import { evalInt, parseExpr, parseStatements, PySyntaxError } from '../../../electron/engine/codegen/pyexpr.js';
import { run, scratchDir, removeScratchDirs } from './compile.js';

afterAll(removeScratchDirs);

const names: NameResolver = {
  read: (n) => n,
  index: (n, idx, go) => `${n}[${idx.map(go).join('][')}]`,
};
const cpp = (src: string, symbolic = false) => emitExpr(parseExpr(src), names, { symbolic });

describe('expressions', () => {
  test('both symbolic grammars evaluate to the same integers', () => {
    const env = (n: string) => ({ N: 1000n, M: 513n, n: 7n })[n] ?? (() => { throw new Error(n); })();
    expect(evalInt(parseExpr('262144*ceiling(M/512)*ceiling(N/512)'), env)).toBe(262144n * 2n * 2n);
    expect(evalInt(parseExpr('-1 + $N'), env)).toBe(999n);
    expect(evalInt(parseExpr('symbol($n, dtype=dace.int64) + 1i64'), env)).toBe(8n);
    expect(evalInt(parseExpr('Mod(-7, 3) + int_floor(-7, 2) + __int_floor(7, 2) + Max(1, Min(999, n)) - 1'), env)).toBe(2n - 4n + 3n + 7n - 1n);
    expect(evalInt(parseExpr('SymExpr(Min($N, 31 + $n), 31 + $n)'), env)).toBe(38n);
    expect(evalInt(parseExpr('N**2 // 3'), env)).toBe(333333n);
  });

  test('Python operators keep Python semantics in C++', () => {
    expect(cpp('a / b')).toBe('__tlab_truediv(a, b)');
    expect(cpp('a // b')).toBe('__tlab_floordiv(a, b)');
    expect(cpp('a % b')).toBe('__tlab_mod(a, b)');
    expect(cpp('a ** 2')).toBe('(a * a)');
    expect(cpp('0 < x <= 5')).toBe('((0 < x) && (x <= 5))');
    expect(cpp('x if not c else -y')).toBe('((!c) ? x : (-y))');
    expect(cpp('math.exp(x) + np.sqrt(y) + abs(z) + min(a, b, c)')).toBe('(((std::exp(x) + std::sqrt(y)) + __tlab_abs(z)) + __tlab_min(a, b, c))');
    expect(cpp('dace.float32(i) + int(x)')).toBe('(static_cast<float>(i) + static_cast<int64_t>(x))');
    expect(cpp('ceiling(N / 512)', true)).toBe('__tlab_ceildiv(N, 512)');
    expect(() => cpp('foo(x)')).toThrow(PySyntaxError);
    expect(() => cpp('"text"')).toThrow(PySyntaxError);
  });

  test('statements: if/elif/else, augmented assignment, continuation lines', () => {
    const s = parseStatements('if (a > 0):\n    b = 1\nelif a < -1:\n    b = 2\nelse:\n    b = (3 +\n         4)\nb += 1');
    expect(s.map((x) => x.k)).toEqual(['if', 'aug']);
    const first = s[0]!;
    expect(first.k === 'if' && first.orelse[0]!.k).toBe('if');
    expect(() => parseStatements('for i in range(3):\n    pass')).toThrow(/'for' statements are not supported/);
  });

  test('the C++ helpers agree with Python on floor division, modulo and powers', async () => {
    const dir = scratchDir('helpers');
    const ints = [-7, -3, -1, 0, 1, 2, 5, 9];
    const divisors = [-4, -3, -1, 1, 2, 5];
    const lines: string[] = [];
    for (const a of ints) for (const b of divisors) {
      lines.push(`printf("%lld %lld\\n", (long long)__tlab_floordiv((int64_t)${a}, (int64_t)${b}), (long long)__tlab_mod((int64_t)${a}, (int64_t)${b}));`);
      lines.push(`printf("%.17g %.17g\\n", __tlab_floordiv(${a}.5, ${b}.0), __tlab_mod(${a}.5, ${b}.0));`);
    }
    lines.push('printf("%lld %.17g %.17g\\n", (long long)__tlab_pow(3, 5), __tlab_truediv(7, 2), __tlab_pow(2.0, 0.5));');
    const src = `#include <cmath>\n#include <cstdint>\n#include <cstdio>\n#include <type_traits>\n${CPP_HELPERS}\nint main() {\n${lines.join('\n')}\nreturn 0;\n}\n`;
    writeFileSync(join(dir, 'h.cpp'), src);
    const c = await run('g++', ['-std=c++17', '-O1', '-o', join(dir, 'h'), join(dir, 'h.cpp')]);
    expect(c.code, c.output).toBe(0);
    const out = (await run(join(dir, 'h'), [])).output.trim().split('\n');
    const pyFloorDiv = (a: number, b: number) => Math.floor(a / b);
    const pyMod = (a: number, b: number) => a - Math.floor(a / b) * b;
    let k = 0;
    for (const a of ints) for (const b of divisors) {
      expect(out[k++], `${a} // ${b}`).toBe(`${pyFloorDiv(a, b)} ${pyMod(a, b)}`);
      const [fd, fm] = out[k++]!.split(' ').map(Number);
      const x = a < 0 ? a - 0.5 : a + 0.5;
      expect(fd, `${x} // ${b}`).toBe(pyFloorDiv(x, b));
      expect(fm!).toBeCloseTo(pyMod(x, b), 12);
    }
    expect(out[k]).toBe(`243 3.5 ${Math.SQRT2.toPrecision(17).replace(/0+$/, '')}`);
  });
});
