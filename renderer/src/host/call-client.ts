/**
 * A TransientLabClient generated from the contract's METHODS list and one `call(method, request)` function, so
 * that no transport writes a method by hand: adding a method to the contract adds it to every client.
 */
import {
  METHODS,
  type MethodName,
  type Reply,
  type RequestOf,
  type ResponseOf,
  type TransientLabApi,
  type TransientLabClient,
} from '../../../electron/ipc/contract.js';
import { HostError, isContractError, transportError } from './errors.js';
import type { EventHub } from './events.js';

export type Caller = <M extends MethodName>(method: M, req: RequestOf<M>) => Promise<ResponseOf<M>>;

/**
 * Compile-time check: METHODS lists every method of TransientLabApi. Exported only so that no compiler or linter
 * calls it unused.
 * @public
 */
export const ALL_METHODS_LISTED: [Exclude<MethodName, (typeof METHODS)[number]>] extends [never] ? true : never = true;

export function clientFromCall(call: Caller, events: Pick<EventHub, 'on'>): TransientLabClient {
  const methods = Object.fromEntries(METHODS.map((m) => [m, (req: RequestOf<typeof m>) => call(m, req)]));
  // One method per name of METHODS, each forwarding its own request type: the API's shape by construction.
  return { ...(methods as unknown as TransientLabApi), on: events.on };
}

/** A host's `Reply` envelope → the value, or a HostError rejection. */
export function unwrapReply<T>(reply: unknown, method: string): T {
  if (typeof reply === 'object' && reply !== null && 'ok' in reply) {
    const r = reply as Reply<T>;
    if (r.ok === true) return r.value;
    if (r.ok === false && isContractError(r.error)) throw new HostError(r.error);
  }
  throw transportError(`the host answered ${method} with something that is not a reply`);
}
