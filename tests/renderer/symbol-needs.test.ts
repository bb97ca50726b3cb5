// @vitest-environment jsdom
/**
 * Run waits while symbols the build needs have no value (the verdict's `needsValues`, computed by the engine from
 * DaCe's symbol arguments): the form names them and offers one field for every unset symbol, which re-analyses
 * with that default; once the new verdict says plain yes, Run is enabled. Before this, Run was enabled and the run
 * failed with the CLI's "pass --symbols N=…". The client here is a host stand-in answering `analyze`.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisView, DocInfo, ProfileCheck } from '../../electron/engine/view/public.js';
import type { AnalyzeRequest, TransientLabClient } from '../../electron/ipc/contract.js';
import { ProfileForm } from '../../renderer/src/app/profile/ProfileForm.js';
import { initialState, store } from '../../renderer/src/app/state.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function view(profile: ProfileCheck): AnalysisView {
  return {
    analysis: {
      profile,
      target: 'cpu',
      unresolvedSymbols: profile.ok && profile.needsValues ? profile.needsValues.names : [],
      libraryNodes: [],
    },
    table: { id: [] },
  } as unknown as AnalysisView;
}

let el: HTMLDivElement;
let root: Root;
const q = <T extends Element>(testid: string): T | null => el.querySelector<T>(`[data-testid="${testid}"]`);

beforeEach(() => {
  el = document.createElement('div');
  document.body.appendChild(el);
  root = createRoot(el);
});
afterEach(() => {
  act(() => root.unmount());
  el.remove();
});

describe('the profile form while symbols need values', () => {
  it('disables Run, names the symbols, and one value for every unset symbol re-analyses and enables Run', async () => {
    const asked: AnalyzeRequest[] = [];
    const client = {
      async analyze(req: AnalyzeRequest) {
        asked.push(req);
        return view({ ok: true });
      },
    } as unknown as TransientLabClient;
    store.set({
      ...initialState(),
      client,
      doc: { doc: 'd1', name: 'dynamic_map_range.sdfg', target: 'cpu' } as unknown as DocInfo,
      analysis: view({ ok: true, needsValues: { count: 2, names: ['H', 'W'] } }),
    });
    act(() => root.render(createElement(ProfileForm, { running: false, onRun: () => undefined })));
    const run = q<HTMLButtonElement>('profile-run')!;
    expect(run.disabled).toBe(true);
    expect(run.title).toContain('needs values');
    expect(q('profile-run-needs')!.textContent).toContain('Waits until 2 symbols have values (H, W)');

    const input = q<HTMLInputElement>('profile-needs-default')!;
    // Not a number: kept out of the request, the field marked.
    act(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, 'sixteen');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => q<HTMLButtonElement>('profile-needs-set')!.click());
    expect(store.get().defaultSymbol).toBeNull();
    expect(input.closest('label')!.className).toBe('bad');

    act(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, '16');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => q<HTMLButtonElement>('profile-needs-set')!.click());
    expect(store.get().defaultSymbol).toBe('16');
    // The re-analysis runs after the top bar's 250 ms of quiet.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 400));
    });
    expect(asked.map((r) => r.defaultSymbol)).toEqual(['16']);
    expect(q('profile-run-needs')).toBeNull();
    expect(q<HTMLButtonElement>('profile-run')!.disabled).toBe(false);
  });

  it('a program with every value set shows the call count, not the wait', () => {
    store.set({
      ...initialState(),
      doc: { doc: 'd1', name: 'x.sdfg', target: 'cpu' } as unknown as DocInfo,
      analysis: view({ ok: true }),
    });
    act(() => root.render(createElement(ProfileForm, { running: false, onRun: () => undefined })));
    expect(q('profile-run-needs')).toBeNull();
    expect(q<HTMLButtonElement>('profile-run')!.disabled).toBe(false);
  });
});
