/**
 * The app's one store: a plain observable value (speedscope's atom, without the library) read from React with
 * useSyncExternalStore. Views outside React (graph, charts) subscribe directly. Updates are shallow patches; a
 * listener runs once per `set`, and selectors that return the same reference do not re-render.
 */
import { useSyncExternalStore } from 'react';

type Patch<S> = Partial<S> | ((s: S) => Partial<S>);

export interface Store<S> {
  // `this: void`: the methods are closures, handed around unbound (useSyncExternalStore takes `subscribe` alone).
  get(this: void): S;
  set(this: void, patch: Patch<S>): void;
  subscribe(this: void, listener: () => void): () => void;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch) {
      const p = typeof patch === 'function' ? patch(state) : patch;
      let changed = false;
      for (const k of Object.keys(p) as Array<keyof S>) {
        if (!Object.is(state[k], p[k])) {
          changed = true;
          break;
        }
      }
      if (!changed) return;
      state = { ...state, ...p };
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A shared empty list for selectors' fallbacks: `s.x ?? []` would be a new array on every read, which
 * useSyncExternalStore takes for a change on every render (React error #185, an endless update loop). */
export const EMPTY: readonly never[] = Object.freeze([]);

/** One slice of the store; re-renders only when `select` returns a different value (Object.is). */
export function useSelect<S extends object, T>(store: Store<S>, select: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}

/** Calls `fn(slice)` whenever `select(state)` changes (outside React: graph, charts). */
export function watch<S extends object, T>(store: Store<S>, select: (s: S) => T, fn: (value: T, prev: T) => void): () => void {
  let prev = select(store.get());
  return store.subscribe(() => {
    const next = select(store.get());
    if (Object.is(next, prev)) return;
    const old = prev;
    prev = next;
    fn(next, old);
  });
}
