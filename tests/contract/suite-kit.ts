/**
 * What the contract suite's families share (suite.ts composes them): the context its set-up fills, and the helpers
 * that build requests and read refusals.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { ContractError, ProfileRequest, TransientLabClient } from '../../electron/ipc/contract.js';
import { HostError } from '../../renderer/src/host/errors.js';
import type { TestSshd } from '../fixtures/sshd.js';
import type { Scratch } from './fixtures.js';

export interface SuiteContext {
  client: TransientLabClient;
  scratch: Scratch;
  sshd: TestSshd;
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The ContractError a rejected call carries (the client rejects with a HostError). */
export async function failure(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(HostError);
    return (err as HostError).toJSON();
  }
  throw new Error('expected the call to fail');
}

/** Bypasses the contract's types to send what a buggy or hostile page could. */
export function loose(client: TransientLabClient): Record<string, (req: unknown) => Promise<unknown>> {
  return client as unknown as Record<string, (req: unknown) => Promise<unknown>>;
}

export function profileRequest(doc: string, job: string, over: Partial<ProfileRequest> = {}): ProfileRequest {
  return {
    doc,
    job,
    modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
    layout: 'packed',
    calls: 3,
    warmup: 0,
    processes: 1,
    symbols: { N: '4096' },
    defaultSymbol: null,
    seed: '0',
    inputs: {},
    timeoutS: 0,
    ...over,
  };
}

/** A run long enough to be caught in its timed calls (hdiff, 100k calls). */
// Long on any machine: about 1 ms a call here (100k calls ≈ 2 min). At 32×32×8 (10 µs a call) a quicker machine
// finished the "slow" run inside its 2 s limit.
export const LONG_RUN: Partial<ProfileRequest> = { modes: ['SCOPED'], calls: 100_000, symbols: { I: '128', J: '128', K: '40' } };
