/** Typed host-event subscriptions for one client. A listener that throws does not stop the others. */
import type { EventName, HostEvents } from '../../../electron/ipc/contract.js';

type Listener<E extends EventName> = (payload: HostEvents[E]) => void;

export class EventHub {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  on = <E extends EventName>(event: E, listener: Listener<E>): (() => void) => {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

  emit<E extends EventName>(event: E, payload: HostEvents[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as Listener<E>)(payload);
      } catch (err) {
        // Surface the listener's bug as an uncaught error without starving the other listeners.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
