// @vitest-environment jsdom
/** The transients table: filter language, sorting, virtualisation, keyboard and selection sync. */
import { join } from 'node:path';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../../electron/engine/paths.js';
import { FATES, type AnalysisView } from '../../electron/engine/view/types.js';
import { TransientsTable } from '../../renderer/src/views/TransientsTable.js';
import { DEFAULT_SORT, parseFilter, tableRows } from '../../renderer/src/views/transients-model.js';
import { viewOf } from '../../bench/lib/memviews/harness.js';
import { exampleView } from './fixtures.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let cloudsc: AnalysisView;
beforeAll(async () => {
  cloudsc = await viewOf(
    join(corpusDir(), 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz'),
    {},
    64n,
  );
});
afterEach(() => document.body.replaceChildren());

describe('filter and sort', () => {
  it('matches plain words, columns, sizes and fates, and negations', () => {
    const v = cloudsc;
    const count = (q: string) => tableRows(v, q, null).length;
    expect(count('')).toBe(v.table.count);
    expect(count('is:external')).toBe(v.totals.fates[FATES.indexOf('external')]);
    expect(count('is:memory')).toBe(v.totals.holdingMemory);
    expect(count('is:memory') + count('-is:memory')).toBe(v.table.count);
    expect(count('storage:register')).toBe(v.table.effectiveStorage.filter((s) => v.table.dict.storage[s] === 'Register').length);
    const big = tableRows(v, 'bytes>=1KiB', null);
    for (const i of big) expect(Number(v.table.bytes[i])).toBeGreaterThanOrEqual(1024);
    expect(count('zqxn2d')).toBeGreaterThanOrEqual(1);
    expect(count('zqxn2d is:external')).toBeLessThanOrEqual(count('zqxn2d'));
    expect(count('no-such-transient-name')).toBe(0);
    const test = parseFilter(v, 'bytes>1XB');
    expect(typeof test).toBe('function');
  });

  it('sorts by bytes with symbolic sizes last in both directions, stably', async () => {
    const sym = await exampleView('chain');
    const sized = cloudsc;
    const desc = tableRows(sized, '', { key: 'bytes', dir: 'desc' });
    for (let k = 1; k < desc.length; k++)
      expect(Number(sized.table.bytes[desc[k]!] ?? -1)).toBeLessThanOrEqual(Number(sized.table.bytes[desc[k - 1]!] ?? Infinity));
    const rows = tableRows(sym, '', { key: 'bytes', dir: 'asc' });
    expect([...rows]).toEqual([0, 1, 2, 3]);
    const byName = tableRows(sized, '', { key: 'id', dir: 'asc' });
    const ids = [...byName].map((i) => sized.table.id[i]!.toLowerCase());
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('TransientsTable', () => {
  function mount(view: AnalysisView, selected: string | null = null) {
    const el = document.createElement('div');
    el.style.height = '400px';
    document.body.appendChild(el);
    const root = createRoot(el);
    const events: Array<string | null> = [];
    const render = (sel: string | null) =>
      act(() =>
        root.render(
          createElement(TransientsTable, {
            view,
            theme: 'light',
            selectedTransient: sel,
            onSelect: (id: string | null) => events.push(id),
          }),
        ),
      );
    render(selected);
    return { el, root, events, render };
  }

  it('keeps only the rows in view in the DOM', () => {
    const { el, root } = mount(cloudsc);
    const rows = el.querySelectorAll('[role="row"]');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(80);
    expect(el.querySelector('[role="grid"]')!.getAttribute('aria-rowcount')).toBe(String(cloudsc.table.count + 1));
    act(() => root.unmount());
  });

  it('walks rows with the keyboard and reports each as the selection', () => {
    const { el, root, events } = mount(cloudsc);
    const grid = el.querySelector<HTMLElement>('[role="grid"]')!;
    act(() => {
      grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    });
    act(() => {
      grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    });
    // The table opens largest first: the keys walk that order, not the file's.
    const order = tableRows(cloudsc, '', DEFAULT_SORT);
    expect(events).toEqual([cloudsc.table.id[order[0]!], cloudsc.table.id[order[1]!]]);
    act(() => {
      grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(events[2]).toBeNull();
    act(() => root.unmount());
  });

  it('opens sorted by bytes, largest first, with what owns no known size last', () => {
    const { el, root } = mount(cloudsc);
    const header = [...el.querySelectorAll<HTMLElement>('[role="columnheader"]')].find((h) => h.textContent?.startsWith('bytes'))!;
    expect(header.getAttribute('aria-sort')).toBe('descending');
    const shown = [...el.querySelectorAll('[role="row"][id^="tlab-row-"]')].map((r) => Number(r.id.slice('tlab-row-'.length)));
    const bytes = (i: number) => Number(cloudsc.table.bytes[i]);
    const largest = Math.max(
      ...[...Array(cloudsc.table.count).keys()]
        .filter((i) => cloudsc.table.alias[i]! < 0)
        .map(bytes)
        .filter(Number.isFinite),
    );
    expect(bytes(shown[0]!)).toBe(largest);
    for (let k = 1; k < shown.length; k++) expect(bytes(shown[k]!)).toBeLessThanOrEqual(bytes(shown[k - 1]!));
    // File order began elsewhere.
    expect(bytes(0)).toBeLessThan(largest);
    act(() => root.unmount());
  });

  it('sorts on a header click and marks the selection from elsewhere', () => {
    const { el, root, render } = mount(cloudsc);
    const header = [...el.querySelectorAll<HTMLElement>('[role="columnheader"]')].find((h) => h.textContent?.startsWith('bytes'))!;
    act(() => header.click());
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    const id = [...el.querySelectorAll<HTMLElement>('[role="columnheader"]')].find((h) => h.textContent?.startsWith('id'))!;
    act(() => id.click());
    expect(id.getAttribute('aria-sort')).toBe('ascending');
    expect(header.getAttribute('aria-sort')).toBe('none');
    const last = cloudsc.table.id[cloudsc.table.count - 1]!;
    render(last);
    const row = el.querySelector('[role="row"][aria-selected="true"]');
    expect(row?.textContent).toContain(last);
    act(() => root.unmount());
  });
});
