// @vitest-environment jsdom
/** The Profile tab's mode table: a mode whose allocations nothing recorded reads n/m, as the console and the report. */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
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
});
