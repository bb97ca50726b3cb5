// @vitest-environment jsdom
/** Transients a library node's expansion created are marked with that node, in the table and the inspector. */
import { join } from 'node:path';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import type { AnalysisView } from '../../electron/engine/view/types.js';
import { TransientsTable } from '../../renderer/src/views/TransientsTable.js';
import { tableRows } from '../../renderer/src/views/transients-model.js';
import { transientFacts } from '../../renderer/src/app/selection/facts.js';
import { viewOf } from '../../bench/lib/memviews/harness.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let view: AnalysisView;
beforeAll(async () => {
  // Gemm 'gemm' (beta 0.5) multiplies into a transient _tmp in DaCe's pure expansion.
  view = await viewOf(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'library_blas.sdfg'), { N: 7, M: 6, K: 5 });
});
afterEach(() => document.body.replaceChildren());

describe('transients from a library expansion', () => {
  it('the table says which node the row comes from, and the filter finds it', () => {
    const el = document.createElement('div');
    el.style.height = '400px';
    document.body.appendChild(el);
    const root = createRoot(el);
    act(() => root.render(createElement(TransientsTable, { view, theme: 'light', selectedTransient: null, onSelect: () => {} })));
    const rows = [...el.querySelectorAll('[role="row"]')].filter((r) => r.textContent?.includes('_tmp'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain("from expansion of 'gemm'");
    expect(tableRows(view, 'expansion', null)).toHaveLength(1);
    act(() => root.unmount());
  });

  it('the inspector names the library node', () => {
    const row = view.table.id.findIndex((id) => id.endsWith(':_tmp'));
    expect(row).toBeGreaterThanOrEqual(0);
    expect(transientFacts(view, row).expandedFrom).toBe("'gemm'");
    const own = view.table.id.findIndex((id) => !id.endsWith(':_tmp'));
    if (own >= 0) expect(transientFacts(view, own).expandedFrom).toBeNull();
  });
});
