/** The advisor panel's sweep text, read as `transient-lab advise --sweep` reads it (pure: no window). */

const MAX_POINTS = 64;

/**
 * The sweep as `advise --sweep` takes it (docs/advise.md): `N=64..4096` (×2 steps), `N=64..4096:x3`, `N=64..1024:+64`;
 * 3 to 64 points. An error names what is wrong.
 */
export function parseSweepText(text: string): { symbol: string; values: string[] } | { error: string } | null {
  const t = text.trim();
  if (t === '') return null;
  const m = /^([A-Za-z_]\w*)\s*=\s*(\d+)\s*\.\.\s*(\d+)\s*(?::\s*([x+])\s*(\d+))?$/.exec(t);
  if (!m) return { error: 'write it as N=64..4096, N=64..4096:x3 or N=64..1024:+64' };
  const [, symbol, a, b, kind = 'x', by = '2'] = m;
  const from = BigInt(a!);
  const to = BigInt(b!);
  const step = BigInt(by);
  if (to <= from) return { error: 'the end must be larger than the start' };
  if (kind === 'x' ? step < 2n || from < 1n : step < 1n)
    return { error: kind === 'x' ? 'a factor of at least 2, from at least 1' : 'a step of at least 1' };
  const values: string[] = [];
  for (let v = from; v <= to && values.length <= MAX_POINTS; v = kind === 'x' ? v * step : v + step) values.push(String(v));
  if (values.length > MAX_POINTS) return { error: `more than ${MAX_POINTS} points: take a larger step` };
  if (values.length < 3) return { error: 'a sweep needs at least 3 points' };
  return { symbol: symbol!, values };
}

/** The sweep field's example, in a symbol the open program has (cloudsc has klev and klon, no I); N without one. */
export function sweepPlaceholder(symbols: ReadonlyArray<{ name: string }>): string {
  return `${symbols[0]?.name ?? 'N'}=32..512`;
}
