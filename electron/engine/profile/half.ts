/** IEEE binary16 (DaCe's float16) as JavaScript numbers: Node 20 has no DataView.getFloat16. */

/** The value of half-precision bits (subnormals, infinities and NaN included). */
export function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}
