/**
 * `transient-lab/advice@1` and `transient-lab/check@1` documents (docs/advise.md): the engine's figures with
 * every byte count as a JSON integer (a number below 2^53, a decimal string above, as analysis@1 writes them).
 */
import { jsonInteger } from '../json.js';
import type { Advice, CheckOutcome } from './index.js';

const ADVICE_SCHEMA = 'transient-lab/advice@1';
const CHECK_SCHEMA = 'transient-lab/check@1';

const replacer = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? jsonInteger(value) : value);

export function adviceJson(a: Advice): string {
  return JSON.stringify({ schema: ADVICE_SCHEMA, ...a }, replacer, 2);
}

export function checkJson(a: Advice, outcome: CheckOutcome): string {
  return JSON.stringify(
    { schema: CHECK_SCHEMA, ok: outcome.ok, failures: outcome.failures, checked: outcome.checked, footprint: a.footprint, calls: a.calls },
    replacer,
    2,
  );
}
