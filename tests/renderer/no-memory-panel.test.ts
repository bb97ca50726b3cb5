// @vitest-environment jsdom
/**
 * The selection panel's headline for a transient that holds no memory: why (never accessed), with the declared
 * size in small type. It once showed "4 B" in big type beside "holds no memory of its own" (velocity_tendencies'
 * never-accessed scalars).
 */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { access, desc, file, memlet, sdfg, state, tasklet } from '../../bench/lib/model-builder.js';
import { TransientPanel } from '../../renderer/src/app/selection/TransientPanel.js';
import { initialState, store } from '../../renderer/src/app/state.js';
import { viewOfModel } from './fixtures.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the selection panel of a transient that holds no memory', () => {
  it('says "never accessed" in big type and the declared bytes small; a held transient keeps its size big', () => {
    const root = sdfg(
      'm',
      [desc('ghost', ['1'], { dtype: 'float32' }), desc('held', ['1024'])],
      [state('s', [access('held'), tasklet('t', 'x = 1')], [memlet(1, 0, 'held', ['0:1024'])])],
    );
    const view = viewOfModel(file(root));
    store.set({ ...initialState(), analysis: view });
    const headline = (name: string) => {
      const el = document.createElement('div');
      document.body.appendChild(el);
      const r = createRoot(el);
      act(() => r.render(createElement(TransientPanel, { view, row: view.table.name.indexOf(name) })));
      const big = el.querySelector('[data-testid="selection-size"]')!;
      const out = { big: big.firstChild!.textContent, sub: big.querySelector('.sel-big-sub')!.textContent, all: el.textContent };
      act(() => r.unmount());
      el.remove();
      return out;
    };
    const ghost = headline('ghost');
    expect(ghost.big).toBe('never accessed');
    expect(ghost.sub).toBe('declared 4 B, holds none · CPU_Heap');
    expect(ghost.all).toContain('holds no memory of its own: never accessed');
    const held = headline('held');
    expect(held.big).toBe('8.00 KiB');
  });
});
