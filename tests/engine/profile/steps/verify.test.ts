/** Profile step 4, verify: the verdicts from synthetic runner results (no runner needed). */
import { describe, expect, it } from 'vitest';
import { verify } from '../../../../electron/engine/profile/verify.js';
import { bytes, fakeResult, y } from './fakes.js';

const det = { nondeterministicFloat: false };

describe('verify step', () => {
  it('passes identical, stable outputs', () => {
    const r = [fakeResult('SCOPED', { outputs: { y: bytes(1, 2) } }), fakeResult('PERSISTENT', { outputs: { y: bytes(1, 2) } })];
    expect(
      verify(
        [
          { label: 'SCOPED', program: det },
          { label: 'PERSISTENT', program: det },
        ],
        r,
        [y],
      ),
    ).toEqual({ identical: true, ok: true, vacuous: false, compared: ['y'], details: [] });
  });

  it('names a divergence against the first variant', () => {
    const r = [fakeResult('SCOPED', { outputs: { y: bytes(1, 2) } }), fakeResult('EXTERNAL (packed)', { outputs: { y: bytes(1, 3) } })];
    const v = verify(
      [
        { label: 'SCOPED', program: det },
        { label: 'EXTERNAL (packed)', program: det },
      ],
      r,
      [y],
    );
    expect(v.ok).toBe(false);
    expect(v.identical).toBe(false);
    expect(v.details).toEqual([
      expect.objectContaining({
        kind: 'divergence',
        mode: 'EXTERNAL (packed)',
        reference: 'SCOPED',
        array: 'y',
        index: [1],
        values: ['2', '3'],
      }),
    ]);
  });

  it('reports an uninitialised read, never-written transients first', () => {
    const r = [fakeResult('SCOPED', { outputs: { y: bytes(1, 2) }, second: { y: bytes(1, 9) }, poisoned: ['0:a', '0:b'] })];
    const v = verify([{ label: 'SCOPED', program: { ...det, stackTransients: ['0:s'] } }], r, [y], new Set(['0:b']));
    expect(v.ok).toBe(false);
    expect(v.identical).toBe(true);
    expect(v.details[0]).toMatchObject({ kind: 'uninitialised-read', array: 'y', index: [1], transients: ['0:b', '0:a', '0:s'] });
    expect(v.details[0]!.message).toContain('nothing in the program ever writes 0:b');
  });

  it('reports a guard overflow with the slot', () => {
    const r = fakeResult('EXTERNAL (packed)', { outputs: { y: bytes(1, 2) } });
    r.guardViolations = [{ storage: 'CPU_Heap', slot: '0:tmp', where: 'after', byteOffset: 3 }];
    const v = verify([{ label: 'EXTERNAL (packed)', program: det }], [r], [y]);
    expect(v.ok).toBe(false);
    expect(v.details[0]).toMatchObject({ kind: 'guard-overflow', transients: ['0:tmp'] });
  });

  it('compares within a tolerance, and says so, when the float order is nondeterministic', () => {
    const r = [fakeResult('SCOPED', { outputs: { y: bytes(1, 2) } }), fakeResult('POOL', { outputs: { y: bytes(1, 2 * (1 + 1e-9)) } })];
    const v = verify(
      [
        { label: 'SCOPED', program: { nondeterministicFloat: true } },
        { label: 'POOL', program: det },
      ],
      r,
      [y],
    );
    expect(v).toMatchObject({ identical: true, ok: true, tolerance: 1e-5 });
    expect(v.details.map((d) => d.kind)).toEqual(['note']);
  });
});
