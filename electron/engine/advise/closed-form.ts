/**
 * A closed form for a size measured at several values of one symbol: the lowest-degree polynomial with exact
 * rational coefficients that passes through every point. Workspace sizes are sums of products of shape
 * extents, so they are polynomials in each symbol until alignment rounding makes them steps; a form is only
 * claimed when it reproduces every measured point and there is at least one point more than it needs.
 */

interface Rational {
  n: bigint;
  d: bigint;
}

const MAX_DEGREE = 4;

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

function rat(n: bigint, d = 1n): Rational {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

const add = (a: Rational, b: Rational): Rational => rat(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Rational, b: Rational): Rational => rat(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Rational, b: Rational): Rational => rat(a.n * b.n, a.d * b.d);
const div = (a: Rational, b: Rational): Rational => rat(a.n * b.d, a.d * b.n);

/** Coefficients (constant first) of the polynomial through the first `k` points, by Newton's divided differences. */
function interpolate(xs: bigint[], ys: bigint[], k: number): Rational[] {
  const table = ys.slice(0, k).map((y) => rat(y));
  const newton: Rational[] = [table[0]!];
  for (let level = 1; level < k; level++) {
    for (let i = k - 1; i >= level; i--) table[i] = div(sub(table[i]!, table[i - 1]!), rat(xs[i]! - xs[i - level]!));
    newton.push(table[level]!);
  }
  // Expand the Newton form into monomial coefficients.
  let poly: Rational[] = [rat(0n)];
  for (let i = k - 1; i >= 0; i--) {
    // poly = poly * (x - xs[i]) + newton[i]
    const next: Rational[] = Array.from({ length: poly.length + 1 }, () => rat(0n));
    poly.forEach((c, j) => {
      next[j + 1] = add(next[j + 1]!, c);
      next[j] = sub(next[j]!, mul(c, rat(xs[i]!)));
    });
    next[0] = add(next[0]!, newton[i]!);
    poly = next;
  }
  while (poly.length > 1 && poly[poly.length - 1]!.n === 0n) poly.pop();
  return poly;
}

function evaluate(poly: Rational[], x: bigint): Rational {
  let acc = rat(0n);
  for (let j = poly.length - 1; j >= 0; j--) acc = add(mul(acc, rat(x)), poly[j]!);
  return acc;
}

/**
 * The polynomial in `symbol` through every (x, y) point, written like `24*N + 64` or `(3*N^2 + N)/2`, or null
 * when none of degree ≤ 4 fits every point with a point to spare (steps from alignment, or too few points).
 */
export function closedForm(symbol: string, xs: bigint[], ys: bigint[]): string | null {
  if (xs.length !== ys.length || new Set(xs).size !== xs.length) return null;
  for (let k = 1; k <= Math.min(MAX_DEGREE + 1, xs.length - 1); k++) {
    const poly = interpolate(xs, ys, k);
    if (
      xs.every((x, i) => {
        const v = evaluate(poly, x);
        return v.d === 1n && v.n === ys[i];
      })
    )
      return formatPolynomial(symbol, poly);
  }
  return null;
}

function formatPolynomial(symbol: string, poly: Rational[]): string {
  const common = poly.reduce((l, c) => (l * c.d) / gcd(l, c.d), 1n);
  const terms: string[] = [];
  for (let j = poly.length - 1; j >= 0; j--) {
    const c = (poly[j]!.n * common) / poly[j]!.d;
    if (c === 0n) continue;
    const mag = c < 0n ? -c : c;
    const power = j === 0 ? '' : j === 1 ? symbol : `${symbol}^${j}`;
    const body = j === 0 ? `${mag}` : mag === 1n ? power : `${mag}*${power}`;
    terms.push(terms.length === 0 ? (c < 0n ? `-${body}` : body) : `${c < 0n ? '-' : '+'} ${body}`);
  }
  const sum = terms.length ? terms.join(' ') : '0';
  return common === 1n ? sum : `(${sum})/${common}`;
}
