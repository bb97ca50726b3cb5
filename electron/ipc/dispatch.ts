/**
 * Transport-neutral host side of the contract: one call in (method name + untrusted payload), one `Reply` out.
 * The WebSocket server and the Electron IPC handlers both go through here, after their own check of who is
 * calling, so that validation and error mapping happen identically in both.
 */
import * as v from 'valibot';
import { METHODS, type MethodName, type Reply, type TransientLabApi } from './contract.js';
import { requestSchemas, type RequestSchemas } from './contract-schema.js';
import { isInternal, toContractError, validationError } from './errors.js';
import type { HostLimits } from './contract.js';

export interface DispatchOptions {
  limits?: HostLimits;
  /** Called with every error that is a bug (not bad input), with its stack, for the host's log. */
  onInternalError?: (method: string, err: unknown) => void;
}

function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && (METHODS as readonly string[]).includes(name);
}

export type Dispatch = (method: unknown, payload: unknown) => Promise<Reply<unknown>>;

type UntypedMethod = (this: TransientLabApi, req: unknown) => Promise<unknown>;

/** Validates, calls `api`, and turns every outcome into a `Reply`; never throws. */
export function createDispatcher(api: TransientLabApi, opts: DispatchOptions = {}): Dispatch {
  const schemas: RequestSchemas = requestSchemas(opts.limits);
  return async (method, payload) => {
    if (!isMethodName(method)) {
      const name = typeof method === 'string' ? method.slice(0, 64) : typeof method;
      return { ok: false, error: { kind: 'refused', message: `unknown method '${name}'`, file: null, jsonPath: null, details: [] } };
    }
    const parsed = v.safeParse(schemas[method], payload);
    if (!parsed.success) return { ok: false, error: validationError(parsed.issues, `${method}: invalid request`) };
    try {
      // The schema's output is RequestOf<method>: calling through an untyped view avoids a per-method switch.
      // The method is called on `api` in the same expression, so it is never separated from its object.
      const value = await (api[method] as unknown as UntypedMethod).call(api, parsed.output);
      return { ok: true, value: value === undefined ? null : value };
    } catch (err) {
      if (isInternal(err)) opts.onInternalError?.(method, err);
      return { ok: false, error: toContractError(err) };
    }
  };
}
