/**
 * The window's connection to its host (desktop preload or browser mode's WebSocket): the host's events
 * (disconnect, profile progress, the desktop's open requests and menu commands), its environment, and the
 * start-up files (`?open=`, `serve FILE…`), which open through the open module like any other.
 */
import type { TransientLabClient } from '../../../electron/ipc/contract.js';
import { connectHost, startupFiles } from '../host/index.js';
import { asContractError, toggleTheme } from './actions.js';
import { openPath } from './open/index.js';
import { openProfile } from './profile/open-profile.js';
import { downloadResult, openExport } from './results.js';
import { store } from './state.js';

export async function connect(): Promise<void> {
  let c: TransientLabClient;
  try {
    c = await connectHost();
  } catch (err) {
    const e = asContractError(err);
    store.set({ connection: { status: 'failed', message: e.message }, opening: null });
    return;
  }
  c.on('disconnected', ({ reason }) => {
    store.set({ connection: { status: 'lost', message: reason } });
  });
  c.on('profileProgress', (event) => {
    store.set((s) => {
      if (!s.run || s.run.job !== event.job) return {};
      return { run: { ...s.run, events: [...s.run.events, event] } };
    });
  });
  c.on('openRequest', ({ path }) => void openPath(path));
  c.on('command', ({ name }) => {
    if (name === 'open') store.set({ dialog: 'open' });
    else if (name === 'toggleTheme') toggleTheme();
    else if (name === 'profile') openProfile();
    else if (name === 'openResult') store.set({ dialog: 'open' });
    else if (name === 'saveResult') void downloadResult();
    else if (name === 'exportReport') openExport();
  });
  try {
    const env = await c.environment({});
    store.set({ client: c, env, connection: { status: 'ready', message: `Transient Lab ${env.version}` } });
    const files = startupFiles(env);
    // Several startup files: the last one stays open (one document per window).
    for (const path of files) await openPath(path);
  } catch (err) {
    store.set({ connection: { status: 'failed', message: asContractError(err).message }, opening: null });
  }
}
