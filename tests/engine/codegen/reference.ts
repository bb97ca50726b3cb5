/**
 * Independent references for the bundled examples, written from the math (not from the SDFG files), and the
 * deterministic input generator shared with the C++ test driver.
 */

/** Input value of element `i` of argument number `arg` (same formula in the driver). Always in [0.5, 1.5). */
function inputValue(arg: number, i: number): number {
  return ((i * 37 + arg * 101) % 97) / 97 + 0.5;
}

export function inputArray(arg: number, n: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = inputValue(arg, i);
  return a;
}

/** Horizontal diffusion with flux limiter; `inp` has a halo of 2 on each side in I and J. */
export function hdiffReference(I: number, J: number, K: number, inp: Float64Array, coeff: Float64Array): Float64Array {
  const at = (i: number, j: number, k: number) => inp[(i * (J + 4) + j) * K + k]!;
  const lap = new Float64Array((I + 2) * (J + 2) * K);
  const L = (i: number, j: number, k: number) => lap[(i * (J + 2) + j) * K + k]!;
  for (let i = 0; i < I + 2; i++)
    for (let j = 0; j < J + 2; j++)
      for (let k = 0; k < K; k++)
        lap[(i * (J + 2) + j) * K + k] =
          4 * at(i + 1, j + 1, k) - (at(i + 2, j + 1, k) + at(i, j + 1, k) + at(i + 1, j + 2, k) + at(i + 1, j, k));
  const flx = new Float64Array((I + 1) * J * K);
  for (let i = 0; i < I + 1; i++)
    for (let j = 0; j < J; j++)
      for (let k = 0; k < K; k++) {
        let f = L(i + 1, j + 1, k) - L(i, j + 1, k);
        if (f * (at(i + 2, j + 2, k) - at(i + 1, j + 2, k)) > 0) f = 0;
        flx[(i * J + j) * K + k] = f;
      }
  const fly = new Float64Array(I * (J + 1) * K);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J + 1; j++)
      for (let k = 0; k < K; k++) {
        let f = L(i + 1, j + 1, k) - L(i + 1, j, k);
        if (f * (at(i + 2, j + 2, k) - at(i + 2, j + 1, k)) > 0) f = 0;
        fly[(i * (J + 1) + j) * K + k] = f;
      }
  const out = new Float64Array(I * J * K);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++)
      for (let k = 0; k < K; k++) {
        const c = (i * J + j) * K + k;
        const dx = flx[((i + 1) * J + j) * K + k]! - flx[c]!;
        const dy = fly[(i * (J + 1) + j + 1) * K + k]! - fly[(i * (J + 1) + j) * K + k]!;
        out[c] = at(i + 2, j + 2, k) - coeff[c]! * (dx + dy);
      }
  return out;
}

/** Vertical advection of one velocity component: implicit in K, solved per column by the Thomas algorithm. */
export function vadvReference(
  I: number,
  J: number,
  K: number,
  dtr: number,
  wcon: Float64Array,
  uPos: Float64Array,
  utens: Float64Array,
  utensStage: Float64Array,
): Float64Array {
  const out = new Float64Array(I * J * K);
  const w = (i: number, j: number, k: number) => wcon[(i * J + j) * (K + 1) + k]!;
  const ccol = new Float64Array(K);
  const dcol = new Float64Array(K);
  const x = new Float64Array(K);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      const c3 = (k: number) => (i * J + j) * K + k;
      for (let k = 0; k < K; k++) {
        const gav = k > 0 ? -0.25 * (w(i + 1, j, k) + w(i, j, k)) : 0;
        const gcv = k < K - 1 ? 0.25 * (w(i + 1, j, k + 1) + w(i, j, k + 1)) : 0;
        const b = dtr - gav - gcv;
        const rhs = dtr * uPos[c3(k)]! + utens[c3(k)]! + utensStage[c3(k)]!;
        if (k === 0) {
          const m = 1 / b;
          ccol[k] = gcv * m;
          dcol[k] = rhs * m;
        } else {
          const m = 1 / (b - gav * ccol[k - 1]!);
          ccol[k] = gcv * m;
          dcol[k] = (rhs - gav * dcol[k - 1]!) * m;
        }
      }
      x[K - 1] = dcol[K - 1]!;
      for (let k = K - 2; k >= 0; k--) x[k] = dcol[k]! - ccol[k]! * x[k + 1]!;
      for (let k = 0; k < K; k++) out[c3(k)] = dtr * (x[k]! - uPos[c3(k)]!);
    }
  return out;
}

/** out = k(h(g(f(in)))) + in with f(a) = 2a+1, g(a) = a/2-3, h(a) = sqrt|a|+1, k(a) = 3·max(a, 2). */
export function chainReference(inp: Float64Array): Float64Array {
  return inp.map((a) => {
    const t1 = 2 * a + 1;
    const t2 = t1 * 0.5 - 3;
    const t3 = Math.sqrt(Math.abs(t2)) + 1;
    const t4 = Math.max(t3, 2) * 3;
    return t4 + a;
  });
}

/**
 * vsmooth: avg = (u[k] + u[k+1]) / 2 over K+1 levels, grad = avg[k+1] − avg[k], flux = 0.9·grad,
 * out = u[k+1] + 0.25·flux; u is [I, J, K+2], out [I, J, K], C order.
 */
export function vsmoothReference(I: number, J: number, K: number, u: Float64Array): Float64Array {
  const out = new Float64Array(I * J * K);
  const at = (i: number, j: number, k: number) => u[(i * J + j) * (K + 2) + k]!;
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++)
      for (let k = 0; k < K; k++) {
        const lower = 0.5 * (at(i, j, k) + at(i, j, k + 1));
        const upper = 0.5 * (at(i, j, k + 1) + at(i, j, k + 2));
        out[(i * J + j) * K + k] = at(i, j, k + 1) + 0.25 * (0.9 * (upper - lower));
      }
  return out;
}
