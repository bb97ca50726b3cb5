/** Number and table formatting for human-readable CLI output. */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** `1536` → `1.5 KiB`; exact below 1 KiB; `?` when unknown. */
export function humanBytes(bytes: bigint | null): string {
  if (bytes === null) return '?';
  const negative = bytes < 0n;
  let v = negative ? -bytes : bytes;
  if (v < 1024n) return `${negative ? '-' : ''}${v} B`;
  let unit = 0;
  // Scale in bigint first so that sizes past 2^53 keep their leading digits.
  while (v >= 1024n * 1024n && unit < UNITS.length - 2) {
    v /= 1024n;
    unit++;
  }
  const value = Number(v) / 1024;
  const text = value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  return `${negative ? '-' : ''}${text} ${UNITS[unit + 1]}`;
}

/** `1234567` → `1,234,567`; `?` when unknown. */
export function groupDigits(v: bigint | number | null): string {
  if (v === null) return '?';
  const s = v.toString();
  const sign = s.startsWith('-') ? '-' : '';
  const digits = sign ? s.slice(1) : s;
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `part / whole` as a percentage with one decimal, or `?`. */
export function percent(part: bigint | null, whole: bigint | null): string {
  if (part === null || whole === null || whole === 0n) return '?';
  const tenths = (part * 1000n) / whole;
  // BigInt division truncates toward zero, so -0.3% has no sign in its integer part: print the sign apart.
  const abs = tenths < 0n ? -tenths : tenths;
  return `${tenths < 0n ? '-' : ''}${abs / 10n}.${abs % 10n}%`;
}

function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
}

export interface TableOptions {
  /** Per column: right-align (numbers) or left-align. */
  align?: Array<'left' | 'right'>;
  /** Total line width to fit in (a TTY's columns); null = never truncate (piped output). */
  maxWidth?: number | null;
  /** The column that gives up width first when the table is too wide. */
  flexColumn?: number;
}

/** Aligned columns separated by two spaces; a rule under the header. */
export function table(headers: string[], rows: string[][], opts: TableOptions = {}): string[] {
  const cols = headers.length;
  // A reduction, not a spread: `analyze --all` may list more rows than a call can take arguments.
  const widths = headers.map((h, c) => rows.reduce((w, r) => Math.max(w, (r[c] ?? '').length), h.length));
  const gap = 2;
  if (opts.maxWidth != null && opts.flexColumn !== undefined) {
    const total = widths.reduce((a, b) => a + b, 0) + gap * (cols - 1);
    const over = total - opts.maxWidth;
    if (over > 0) widths[opts.flexColumn] = Math.max(headers[opts.flexColumn]!.length, widths[opts.flexColumn]! - over);
  }
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => {
        const text = truncate(cell, widths[c]!);
        if (c === cols - 1 && opts.align?.[c] !== 'right') return text;
        return opts.align?.[c] === 'right' ? text.padStart(widths[c]!) : text.padEnd(widths[c]!);
      })
      .join(' '.repeat(gap))
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join(' '.repeat(gap)), ...rows.map(line)];
}

/** Width to fit tables into: the terminal's when stdout is a TTY, else unlimited. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number | null {
  return stream.isTTY && stream.columns ? stream.columns : null;
}
