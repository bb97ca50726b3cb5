/**
 * The runner hands a library 64-byte-aligned host buffers (runner-helpers.ts `alignedBytes`, through the addon's
 * `alignmentPad`), as a C caller's aligned_alloc(64) and SCOPED's tlab_alloc blocks are. A plain Uint8Array of a
 * few MB starts 16 bytes past a 64-byte boundary (Node takes it from calloc), and hdiff's EXTERNAL workspace there
 * timed 1.24× POOL's (2.11 against 1.71 ms at p10), where the bench's bare driver timed it at SCOPED's speed.
 */
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../electron/runner/native.js';
import { alignedBytes, freshArgs } from '../../electron/runner/runner-helpers.js';
import type { VariantJob } from '../../electron/runner/messages.js';

const addon = loadNativeAddon();

describe('aligned host buffers', () => {
  it('alignmentPad says how far into a view the first aligned byte lies', () => {
    const raw = new Uint8Array(4096 + 63);
    const pad = addon.alignmentPad(raw, 64);
    expect(pad).toBeGreaterThanOrEqual(0);
    expect(pad).toBeLessThan(64);
    expect(addon.alignmentPad(raw.subarray(pad), 64)).toBe(0);
    // One byte further in, the next boundary is 63 bytes on.
    expect(addon.alignmentPad(raw.subarray(pad + 1), 64)).toBe(63);
    expect(addon.alignmentPad(raw, 1)).toBe(0);
  });

  it('refuses what is not a view or not a power of two, with the usage', () => {
    expect(() => addon.alignmentPad({} as unknown as Uint8Array, 64)).toThrow(
      /alignmentPad\(view: ArrayBufferView, align: number\): number/,
    );
    expect(() => addon.alignmentPad(new Uint8Array(8), 48)).toThrow(/align must be a power of two, got 48/);
    expect(() => addon.alignmentPad(new Uint8Array(8), 8192)).toThrow(/align/);
  });

  it('alignedBytes gives 64-byte-aligned, zero-filled buffers of the size asked, where a plain large Uint8Array is not aligned', () => {
    // The size of hdiff's workspace at I=128, J=128, K=80.
    const plain = new Uint8Array(31_951_360);
    expect(addon.alignmentPad(plain, 64)).not.toBe(0);
    for (const bytes of [1, 63, 64, 4096, 31_951_360]) {
      const b = alignedBytes(bytes);
      expect(b.length).toBe(bytes);
      expect(addon.alignmentPad(b, 64)).toBe(0);
      expect(b.every((x) => x === 0)).toBe(true);
    }
  });

  it("a variant's argument arena starts on a 64-byte boundary", () => {
    const variant = {
      args: [
        { name: 'A', kind: 'array', dtype: 'float64' },
        { name: 'B', kind: 'array', dtype: 'float64' },
      ],
    } as unknown as VariantJob;
    const inputs = { A: new Uint8Array(8 * 1000), B: new Uint8Array(8 * 3_000_000) };
    const { arena, views } = freshArgs(variant, inputs, 0xa5);
    expect(addon.alignmentPad(arena.buffer, 64)).toBe(0);
    for (const v of views) expect(addon.alignmentPad(v, 64)).toBe(0);
  });
});
