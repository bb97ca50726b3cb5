/**
 * JSON forms of engine values, defined once. The engine keeps exact integers as bigint, maps as Map and sets as
 * Set; what it writes (`analysis@1`, `profile@1`, view models, contract replies) is plain JSON. `Jsonified<T>` is
 * the type a value of T has once written that way, so the JSON types are derived from the engine's own instead
 * of being declared a second time by hand. Pure and a leaf (it imports nothing): the renderer may import it.
 */

/** An exact integer in JSON: a number up to Number.MAX_SAFE_INTEGER, a decimal string beyond, so that no
 * reader silently loses precision. */
export type JsonInteger = number | string;

export function jsonInteger(v: bigint): JsonInteger;
export function jsonInteger(v: bigint | null): JsonInteger | null;
export function jsonInteger(v: bigint | null): JsonInteger | null {
  if (v === null) return null;
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

type TypedNumbers =
  Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray;

/** Keys whose value may be undefined: JSON.stringify leaves them out, so they are optional in JSON. */
type MaybeUndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** Keys JSON.stringify never writes: methods. */
type FunctionKeys<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

type JsonifiedObject<T, Big> = Flat<
  { -readonly [K in Exclude<keyof T, MaybeUndefinedKeys<T> | FunctionKeys<T>> & string]: Jsonified<T[K], Big> } & {
    -readonly [K in Exclude<MaybeUndefinedKeys<T>, FunctionKeys<T>> & string]?: Jsonified<Exclude<T[K], undefined>, Big>;
  }
>;

/**
 * T as the engine writes it to JSON: bigint → `Big` (JsonInteger unless the field is written as a decimal
 * string: pass `string`), Map → Record, Set and typed arrays → arrays, readonly dropped, keys that may be
 * undefined optional, methods and symbols gone.
 */
export type Jsonified<T, Big = JsonInteger> = T extends bigint
  ? Big
  : T extends string | number | boolean | null
    ? T
    : T extends undefined | symbol | ((...args: never[]) => unknown)
      ? never
      : T extends TypedNumbers
        ? number[]
        : T extends ReadonlyMap<infer K, infer V>
          ? Record<K & string, Jsonified<V, Big>>
          : T extends ReadonlySet<infer V>
            ? Array<Jsonified<V, Big>>
            : T extends readonly unknown[]
              ? number extends T['length']
                ? Array<Jsonified<T[number], Big>>
                : { -readonly [I in keyof T]: Jsonified<T[I], Big> }
              : JsonifiedObject<T, Big>;
