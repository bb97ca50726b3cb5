/** The JSON forms of engine values (electron/engine/json.ts): exact integers, and the Jsonified<T> type. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ModePlan, PackedStorageLayout } from '../../electron/engine/analysis/types.js';
import { jsonInteger, type JsonInteger, type Jsonified } from '../../electron/engine/json.js';

describe('jsonInteger', () => {
  it('writes a number up to 2^53 and a decimal string beyond, either sign; null stays null', () => {
    expect(jsonInteger(0n)).toBe(0);
    expect(jsonInteger(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(jsonInteger(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toBe('9007199254740992');
    expect(jsonInteger(BigInt(Number.MIN_SAFE_INTEGER))).toBe(Number.MIN_SAFE_INTEGER);
    expect(jsonInteger(BigInt(Number.MIN_SAFE_INTEGER) - 1n)).toBe('-9007199254740992');
    expect(jsonInteger(null)).toBeNull();
  });
});

describe('Jsonified<T>', () => {
  it('is the type JSON.stringify leaves of an engine value written the engine’s way', () => {
    interface Engine {
      readonly size: bigint;
      maybe: bigint | null;
      offsets: Map<string, bigint>;
      ids: Set<string>;
      names: readonly string[];
      pair: [string, string];
      times: Float64Array;
      optional?: number;
      unset: string | undefined;
      nested: { readonly sizes: readonly bigint[] };
      describe(): string;
    }
    expectTypeOf<Jsonified<Engine>>().toEqualTypeOf<{
      size: JsonInteger;
      maybe: JsonInteger | null;
      offsets: Record<string, JsonInteger>;
      ids: string[];
      names: string[];
      pair: [string, string];
      times: number[];
      optional?: number;
      unset?: string;
      nested: { sizes: JsonInteger[] };
    }>();
    // A bigint written as a decimal string (a pool's release threshold, a seed in a request).
    expectTypeOf<Jsonified<{ threshold: bigint }, string>>().toEqualTypeOf<{ threshold: string }>();
    // The analysis@1 forms derived from the engine's types (engine/view/types.ts).
    expectTypeOf<Jsonified<PackedStorageLayout>>().toEqualTypeOf<{
      bytes: JsonInteger;
      alignment: number;
      offsets: Record<string, JsonInteger>;
      lowerBound: JsonInteger;
      alignedSum: JsonInteger;
    }>();
    expectTypeOf<Jsonified<ModePlan>['perCall']>().toEqualTypeOf<{
      allocs: JsonInteger | null;
      frees: JsonInteger | null;
      bytes: JsonInteger | null;
    }>();
    // What JSON really does with such a value.
    const written = JSON.parse(JSON.stringify({ optional: undefined, describe: () => 'x', names: ['a'] })) as object;
    expect(written).toEqual({ names: ['a'] });
  });
});
