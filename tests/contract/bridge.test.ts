/**
 * The shared contract suite over an in-process stand-in for the desktop app's IPC: a "preload" generated from
 * METHODS whose calls cross a structured clone (as Electron's IPC does) into the shared dispatcher, and the
 * renderer's bridge client (renderer/src/host/bridge.ts) on top. The Electron shell's test replaces the
 * stand-in with its real preload and handlers over a fake ipcMain/ipcRenderer pair.
 */
import { describe, expect, it } from 'vitest';
import { EVENTS, METHODS, type BridgeApi, type EventName, type HostEvents } from '../../electron/ipc/contract.js';
import { createDispatcher } from '../../electron/ipc/dispatch.js';
import { isPagedReply, pageReplyForIpc } from '../../electron/ipc/wire.js';
import { clientFromBridge } from '../../renderer/src/host/bridge.js';
import { HostError } from '../../renderer/src/host/errors.js';
import { EventHub } from '../../renderer/src/host/events.js';
import { contractSuite } from './suite.js';

contractSuite({
  name: 'an IPC-like bridge (structured clone + Reply envelopes)',
  async connect(service) {
    const hub = new EventHub();
    const session = service.openSession({
      emit<E extends EventName>(event: E, payload: HostEvents[E]) {
        if ((EVENTS as readonly string[]).includes(event)) hub.emit(event, structuredClone(payload));
      },
    });
    const dispatch = createDispatcher(session, { limits: service.limits });
    const methods = Object.fromEntries(
      METHODS.map((m) => [m, async (req: unknown) => structuredClone(await dispatch(m, structuredClone(req)))]),
    );
    const bridge = { ...methods, on: hub.on } as unknown as BridgeApi;
    return { client: clientFromBridge(bridge), close: () => session.dispose() };
  },
});

describe('the bridge client and paged replies', () => {
  const bridgeAnswering = (answer: unknown): BridgeApi =>
    ({ ...Object.fromEntries(METHODS.map((m) => [m, async () => answer])), on: () => () => {} }) as unknown as BridgeApi;

  it('puts a paged reply back together', async () => {
    const value = { version: 'x', rows: Array.from({ length: 3000 }, (_, i) => ({ i })) };
    const paged = pageReplyForIpc({ ok: true, value }, 4096);
    expect(isPagedReply(paged)).toBe(true);
    expect(await clientFromBridge(bridgeAnswering(paged)).environment({})).toEqual(value);
  });

  it('a malformed paged reply is a transport error naming the method', async () => {
    const err = await clientFromBridge(bridgeAnswering({ paged: ['{"t":"part"', 'nope'] }))
      .analyze({ doc: 'd1', symbols: {}, defaultSymbol: null, target: null })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect(err).toMatchObject({
      kind: 'transport',
      message: expect.stringMatching(/^analyze: the desktop host sent a malformed paged reply/),
    });
  });
});
