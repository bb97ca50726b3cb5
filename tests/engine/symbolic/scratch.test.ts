import * as S from '../../../electron/engine/symbolic/index.js';
import { test } from "vitest"; test("scratch", () => {
const ex = ['262144*ceiling(M/512)*ceiling(N/512)', '2*int_floor(N - 1, 2)', 'Mod(_c, 2)', 'Max(1, Min(999, t)) - 1', 'C_in*C_out*K**2', '-1 + N', 'N*(M + 1)'];
for (const s of ex) { const e = S.parseSym(s, 'legacy'); console.log(s, '=>', S.show(e), '|', S.show(S.simplify(e)), '|', S.toCpp(e)); }
const t = ['-1 + symbol($mill_at2, dtype=dace.int64) + __int_floor(1 + symbol($eigts1_d0, dtype=dace.int64), 2)', 'SymExpr(Min($ngm, 31 + symbol($b, dtype=dace.int64)), 31 + symbol($b, dtype=dace.int64))', '1i64 + 7u8', '2.5f32 * 8.0f64', '(1.0 + 2.0j)c128', '$?', 'None', '7.2bf16', '3e4m3fn'];
for (const s of t) { const e = S.parseSym(s, 'typed'); console.log(s, '=>', JSON.stringify(e, (k, v) => typeof v === 'bigint' ? v.toString() + 'n' : v), S.show(e)); }
console.log(S.parsePythonStatements("if (s == 1):\n    val = 1\nelif (s > 1):\n    sout = (s - 1)\n    sout = (s - 2)\nelse:\n  pass\nx += 1; y = z = 2 # c"));
try { S.parseSym('N + * 2', 'legacy'); } catch (e) { console.log(String(e)); }
try { S.parseSym('(N + 2', 'legacy'); } catch (e) { console.log(String(e)); }
console.log(S.evaluate(S.parseSym('N**5', 'legacy'), () => 10000n));
});
