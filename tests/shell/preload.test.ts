/**
 * The preload: its logic (electron/preload/bridge.ts) with a fake ipcRenderer, and the built bundle
 * (dist/preload/preload.cjs) run the way a sandboxed renderer runs it — one CommonJS script whose `require`
 * knows `electron` only — to check what it exposes to the page.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { EVENTS, IPC_CHANNELS, METHODS } from '../../electron/ipc/contract.js';
import { createBridge, forwardDrops, type IpcRendererLike } from '../../electron/preload/bridge.js';
import { shellPaths } from '../../electron/shell/paths.js';

function fakeIpc() {
  const invoked: unknown[][] = [];
  const sent: unknown[][] = [];
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      invoked.push([channel, ...args]);
      return { ok: true, value: null };
    },
    send: (channel, ...args) => void sent.push([channel, ...args]),
    on: (channel, listener) => listeners.set(channel, listener),
  };
  return { ipc, invoked, sent, deliver: (...args: unknown[]) => listeners.get(IPC_CHANNELS.event)!({}, ...args) };
}

describe('preload bridge', () => {
  it("exposes exactly the contract's methods and `on`, frozen, each sending its own name on the call channel", async () => {
    const { ipc, invoked } = fakeIpc();
    const bridge = createBridge(ipc) as unknown as Record<string, (req: unknown) => Promise<unknown>>;
    expect(Object.keys(bridge).sort()).toEqual([...METHODS, 'on'].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
    for (const m of METHODS) await bridge[m]!({ probe: m });
    expect(invoked).toEqual(METHODS.map((m) => [IPC_CHANNELS.call, m, { probe: m }]));
    expect(bridge).not.toHaveProperty('invoke');
    expect(bridge).not.toHaveProperty('send');
  });

  it('delivers host events to their listeners only; unknown events and bad listeners are refused', () => {
    const { ipc, deliver } = fakeIpc();
    const bridge = createBridge(ipc);
    const got: unknown[] = [];
    const off = bridge.on('openRequest', (p) => got.push(p));
    bridge.on('command', (p) => got.push(['command', p]));
    deliver('openRequest', { path: '/a.sdfg' });
    deliver('command', { name: 'toggleTheme' });
    deliver('disconnected', { reason: 'forged' });
    deliver('__proto__', {});
    deliver(42, {});
    off();
    deliver('openRequest', { path: '/b.sdfg' });
    expect(got).toEqual([{ path: '/a.sdfg' }, ['command', { name: 'toggleTheme' }]]);
    expect(() => bridge.on('nope' as never, () => {})).toThrow(/unknown host event/);
    expect(() => bridge.on('command', 'x' as never)).toThrow(/function/);
    expect(EVENTS).toContain('disconnected');
  });

  it('forwards trusted drops of files on disk, and leaves other drops to the page', () => {
    const { ipc, sent } = fakeIpc();
    const target = new EventTarget();
    forwardDrops(target, (f) => (f.name === 'virtual.sdfg' ? '' : `/data/${f.name}`), ipc);
    const drop = (trusted: boolean, names: string[]) => {
      const ev = Object.assign(new Event('drop', { cancelable: true }), {
        dataTransfer: { files: names.map((n) => ({ name: n }) as File) },
      });
      Object.defineProperty(ev, 'isTrusted', { value: trusted });
      target.dispatchEvent(ev);
      return ev.defaultPrevented;
    };
    expect(drop(true, ['a.sdfg', 'r.json'])).toBe(true);
    expect(sent).toEqual([[IPC_CHANNELS.drop, ['/data/a.sdfg', '/data/r.json']]]);
    expect(drop(false, ['a.sdfg'])).toBe(false);
    expect(drop(true, ['virtual.sdfg'])).toBe(false);
    expect(drop(true, [])).toBe(false);
    expect(sent).toHaveLength(1);
  });
});

describe('preload bundle', () => {
  it('is one CommonJS script that requires only electron and exposes window.transientLab', () => {
    const code = readFileSync(shellPaths().preload, 'utf8');
    const required = [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    const exposed: Array<[string, Record<string, unknown>]> = [];
    const listeners: string[] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.push([key, api]) },
      ipcRenderer: { invoke: async () => null, send: () => {}, on: () => {} },
      webUtils: { getPathForFile: () => '' },
    };
    const window = { addEventListener: (type: string) => listeners.push(type) };
    runInNewContext(code, {
      require: (id: string) => {
        if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
        return electron;
      },
      module: { exports: {} },
      exports: {},
      window,
      queueMicrotask,
    });
    expect(exposed.map(([k]) => k)).toEqual(['transientLab']);
    expect(Object.keys(exposed[0]![1]).sort()).toEqual([...METHODS, 'on'].sort());
    expect(listeners).toEqual(['drop']);
  });
});
