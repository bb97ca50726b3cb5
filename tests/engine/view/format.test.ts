import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatBytesExpr,
  formatCount,
  formatNs,
  formatP,
  formatPercent,
  formatRatio,
  formatSize,
  sig3,
} from '../../../electron/engine/view/format.js';

describe('format', () => {
  it('writes three significant digits without exponents', () => {
    expect([sig3(1.2345), sig3(12.345), sig3(123.45), sig3(0.000123456), sig3(1.2), sig3(0)]).toEqual([
      '1.23',
      '12.3',
      '123',
      '0.000123',
      '1.20',
      '0',
    ]);
    expect(sig3(-4.5)).toBe('\u22124.50');
    expect(sig3(NaN)).toBe('–');
  });

  it('writes bytes in binary units, changing unit before four digits', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(800)).toBe('800 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('0.977 KiB');
    expect(formatBytes(1024)).toBe('1.00 KiB');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(96 * 2 ** 20)).toBe('96.0 MiB');
    expect(formatBytes(1023.9 * 1024)).toBe('1.00 MiB');
    expect(formatBytes(15975680)).toBe('15.2 MiB');
    expect(formatBytes(3 * 2 ** 40)).toBe('3.00 TiB');
    expect(formatBytes('18446744073709551616')).toBe('16.0 EiB');
    expect(formatBytes(-4800)).toBe('\u22124.69 KiB');
    expect(formatBytes(null)).toBe('–');
  });

  it('keeps unknown sizes symbolic', () => {
    expect(formatBytesExpr('8*N')).toBe('8·N B');
    expect(formatBytesExpr('8*(I + 2)*(J + 2)*K')).toBe('8·(I + 2)·(J + 2)·K B');
    expect(formatBytesExpr('4*N**2')).toBe('4·N^2 B');
    expect(formatBytesExpr('2048')).toBe('2.00 KiB');
    expect(formatSize(null, '8*N')).toBe('8·N B');
    expect(formatSize(2048, '8*N')).toBe('2.00 KiB');
  });

  it('writes times in ns, µs, ms and s', () => {
    expect([formatNs(412), formatNs(999.4), formatNs(1234), formatNs(412_000), formatNs(6_880_000), formatNs(2.5e9)]).toEqual([
      '412 ns',
      '999 ns',
      '1.23 µs',
      '412 µs',
      '6.88 ms',
      '2.50 s',
    ]);
    expect(formatNs(999_900)).toBe('1.00 ms');
    expect(formatNs(NaN)).toBe('–');
  });

  it('writes counts, ratios, percentages and p-values', () => {
    expect(formatCount(30313)).toBe('30\u2009313');
    expect(formatCount(18)).toBe('18');
    expect(formatCount(2.5)).toBe('2.50');
    expect(formatRatio(1.3712)).toBe('1.37×');
    expect(formatPercent(0.4)).toBe('40.0%');
    expect([formatP(0.0004), formatP(0.0071), formatP(0.32), formatP(NaN)]).toEqual(['p < 0.001', 'p = 0.007', 'p = 0.32', 'p n/a']);
  });
});
