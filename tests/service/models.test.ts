import { describe, expect, it } from 'vitest';
import type { SdfgFile } from '../../electron/engine/model/sdfg.js';
import { ModelCache, estimateModelBytes } from '../../electron/service/models.js';

const fake = (jsonBytes: number): SdfgFile => ({ jsonBytes }) as SdfgFile;

describe('ModelCache', () => {
  it('loads once for concurrent callers', async () => {
    const cache = new ModelCache(1e9, 10);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return fake(100);
    };
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
  });

  it('drops the least recently used models past the budget, never the newest', async () => {
    const each = estimateModelBytes(fake(1_000_000));
    const cache = new ModelCache(each * 2, 10);
    await cache.get('a', async () => fake(1_000_000));
    await cache.get('b', async () => fake(1_000_000));
    await cache.get('a', async () => fake(1_000_000)); // a is now the most recent
    await cache.get('c', async () => fake(1_000_000));
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    await cache.get('huge', async () => fake(50_000_000));
    expect(cache.stats().models).toBe(1);
    expect(cache.has('huge')).toBe(true);
  });

  it('bounds the number of models and forgets failed loads', async () => {
    const cache = new ModelCache(1e12, 2);
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => fake(10));
    expect(cache.stats().models).toBe(2);
    await expect(cache.get('x', async () => Promise.reject(new Error('bad')))).rejects.toThrow('bad');
    expect(await cache.get('x', async () => fake(1))).toEqual(fake(1));
  });
});
