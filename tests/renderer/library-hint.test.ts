// @vitest-environment jsdom
/**
 * The profile form's library-node hint names nodes that read the same once, with their count, as the CLI summary
 * and the report do: channel_flow's three sum-reduces once listed "Reduce 'Reduce (Sum), Axes: all'" three times.
 */
import { join } from 'node:path';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../../electron/engine/paths.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { ProfileForm } from '../../renderer/src/app/profile/ProfileForm.js';
import { initialState, store } from '../../renderer/src/app/state.js';
import { viewOfModel } from './fixtures.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the library-node hint of the profile form', () => {
  it("lists channel_flow's three identical sum-reduces once, with their count, and no expansion the user has yet to pick", async () => {
    const file = await readSdfgFile(join(corpusDir(), 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg'));
    const analysis = viewOfModel(file);
    const reduces = (analysis.analysis.libraryNodes ?? []).filter((n) => n.label === 'Reduce (Sum), Axes: all');
    expect(reduces).toHaveLength(3);
    store.set({ ...initialState(), analysis });
    const el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    act(() => root.render(createElement(ProfileForm, { running: false, onRun: () => {} })));
    const hint = el.querySelector('[data-testid="profile-library-impl"]')!.parentElement!.querySelector('.hint')!.textContent;
    expect(hint).toBe("3 × Reduce 'Reduce (Sum), Axes: all': every mode runs the same expansion.");
    act(() => root.unmount());
    el.remove();
  });
});
