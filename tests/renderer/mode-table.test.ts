// @vitest-environment jsdom
/**
 * The Profile tab's mode table: a mode whose allocations nothing recorded reads n/m, as the console and the report;
 * the ratio column is taken on the statistic the verdict compares, as the console's.
 */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { formatProfile } from '../../electron/engine/profile/format.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { profileVerdict } from '../../electron/engine/view/verdict.js';
import { ModeTable } from '../../renderer/src/app/profile/ModeTable.js';
import { profileFixture } from './fixtures.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the mode table', () => {
  it('prints n/m in the allocation cells of a mode whose allocations were not measured, and numbers elsewhere', () => {
    const result = profileFixture('hdiff-cpu.json');
    const pers = result.modes.find((m) => m.mode === 'PERSISTENT')!;
    pers.allocationsMeasured = false;
    const el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    act(() => root.render(createElement(ModeTable, { doc: { result } as Parameters<typeof ModeTable>[0]['doc'] })));
    const rows = [...el.querySelectorAll('tbody tr')];
    const cells = (label: string) =>
      [...rows.find((r) => r.textContent.startsWith(label))!.querySelectorAll('td.num')].map((c) => c.textContent);
    expect(cells(pers.label).filter((t) => t === 'n/m')).toHaveLength(2);
    expect(cells('SCOPED')).not.toContain('n/m');
    act(() => root.unmount());
  });

  /** The table's ratio header and, per mode label, its ratio cell. */
  function ratios(result: ProfileResult): { head: string; cells: Map<string, string> } {
    const el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    act(() => root.render(createElement(ModeTable, { doc: { result } as Parameters<typeof ModeTable>[0]['doc'] })));
    const head = el.querySelector('[data-testid="profile-table-ratio"]')!.textContent;
    const cells = new Map(
      [...el.querySelectorAll('tbody tr')].map((r) => [
        r.querySelector('.mode-tag')!.textContent,
        r.querySelector('td.num:last-child')!.textContent,
      ]),
    );
    act(() => root.unmount());
    el.remove();
    return { head, cells };
  }

  it('divides p10s on a noisy run, which the verdict compares at p10, and prints the same numbers as the console', () => {
    const r = profileFixture('vadv-cpu-noisy.json');
    expect(profileVerdict(r).statistic).toBe('p10');
    const { head, cells } = ratios(r);
    expect(head).toBe('vs SCOPED (p10)');
    const p10 = (label: string) => r.modes.find((m) => m.label === label)!.summary.p10Ns;
    const console = formatProfile(r).split('\n');
    for (const m of r.modes) {
      // POOL ran SCOPED's library (the result's note): a ratio there would be the machine's, not the mode's.
      expect(cells.get(m.label)).toBe(m.mode === 'POOL' ? 'same code' : `${(p10('SCOPED') / p10(m.label)).toFixed(2)}×`);
      const line = console.find((l) => l.startsWith(`${m.label} `))!;
      expect(line.trimEnd().endsWith(` ${cells.get(m.label)!}`)).toBe(true);
    }
    // The medians' ratio differs on this run: the old column printed it.
    const persistent = r.modes.find((m) => m.mode === 'PERSISTENT')!;
    const scoped = r.modes.find((m) => m.label === 'SCOPED')!;
    expect(cells.get(persistent.label)).not.toBe(`${(scoped.summary.medianNs / persistent.summary.medianNs).toFixed(2)}×`);
  });

  it('divides medians on a quiet run, under a plain header', () => {
    const r = profileFixture('vadv-cpu-clean.json');
    const { head, cells } = ratios(r);
    expect(head).toBe('vs SCOPED');
    const median = (label: string) => r.modes.find((m) => m.label === label)!.summary.medianNs;
    for (const m of r.modes)
      expect(cells.get(m.label)).toBe(m.mode === 'POOL' ? 'same code' : `${(median('SCOPED') / median(m.label)).toFixed(2)}×`);
  });
});
