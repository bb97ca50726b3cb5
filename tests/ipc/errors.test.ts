import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../electron/engine/errors.js';
import { RunCancelled } from '../../electron/runner/host-node.js';
import { createDispatcher } from '../../electron/ipc/dispatch.js';
import { ContractFailure, toContractError } from '../../electron/ipc/errors.js';
import type { TransientLabApi } from '../../electron/ipc/contract.js';

describe('toContractError', () => {
  it('keeps a TlabError: kind, file, JSON path, details', () => {
    const e = toContractError(new TlabError('input', 'bad', { file: 'f.sdfg', jsonPath: '$.nodes[1]', details: ['hint'] }));
    expect(e).toEqual({ kind: 'input', message: 'bad', file: 'f.sdfg', jsonPath: '$.nodes[1]', details: ['hint'] });
  });

  it('reports a cancelled run as cancelled, not as a failed run', () => {
    expect(toContractError(new RunCancelled('by request')).kind).toBe('cancelled');
  });

  it('keeps a ContractFailure and names the field of a validation error', () => {
    expect(toContractError(new ContractFailure('refused', 'no', { file: 'x' }))).toMatchObject({ kind: 'refused', file: 'x' });
    let err: unknown;
    try {
      v.parse(v.object({ calls: v.number() }), { calls: 'x' });
    } catch (e) {
      err = e;
    }
    expect(toContractError(err)).toMatchObject({ kind: 'usage', jsonPath: '$.calls' });
  });

  it('turns anything else into a short internal error without a stack', () => {
    const bug = new TypeError('Cannot read properties of undefined (reading "x")\n    at secret (/home/me/file.ts:1:1)');
    const e = toContractError(bug);
    expect(e.kind).toBe('internal');
    expect(e.message).toBe('internal error: Cannot read properties of undefined (reading "x")');
    expect(JSON.stringify(e)).not.toMatch(/at secret|file\.ts/);
    expect(toContractError('weird').kind).toBe('internal');
  });

  it('bounds what crosses: long messages and detail lists are cut', () => {
    const e = toContractError(new TlabError('build', 'x'.repeat(10_000), { details: Array.from({ length: 500 }, () => 'y'.repeat(5000)) }));
    expect(e.message.length).toBeLessThanOrEqual(4000);
    expect(e.details).toHaveLength(201);
    expect(e.details[0]!.length).toBeLessThanOrEqual(2000);
  });
});

describe('createDispatcher', () => {
  const calls: string[] = [];
  const api = {
    environment: async () => {
      calls.push('environment');
      throw new Error('boom');
    },
    closeDoc: async (req: { doc: string }) => {
      calls.push(`closeDoc ${req.doc}`);
    },
  } as unknown as TransientLabApi;
  const logged: string[] = [];
  const dispatch = createDispatcher(api, { onInternalError: (m) => logged.push(m) });

  it('refuses unknown methods, including inherited names, before anything runs', async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 42]) {
      expect(await dispatch(name, {})).toMatchObject({ ok: false, error: { kind: 'refused' } });
    }
    expect(calls).toEqual([]);
  });

  it('validates before calling, answers void as null, and logs bugs', async () => {
    expect(await dispatch('closeDoc', { doc: 'd 1' })).toMatchObject({ ok: false, error: { kind: 'usage', jsonPath: '$.doc' } });
    expect(calls).toEqual([]);
    expect(await dispatch('closeDoc', { doc: 'd1' })).toEqual({ ok: true, value: null });
    expect(await dispatch('environment', {})).toMatchObject({ ok: false, error: { kind: 'internal', message: 'internal error: boom' } });
    expect(logged).toEqual(['environment']);
    expect(calls).toEqual(['closeDoc d1', 'environment']);
  });
});
