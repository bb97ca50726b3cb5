/** The open's "after the next frame" wait: after a committed frame where frames come, bounded where none do. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame } from '../../renderer/src/yield.js';

type Raf = (cb: () => void) => number;
const g = globalThis as { requestAnimationFrame?: Raf };

afterEach(() => {
  vi.useRealTimers();
  delete g.requestAnimationFrame;
});

describe('afterNextFrame', () => {
  it('resolves in a task after the frame callback, not inside it', async () => {
    vi.useFakeTimers();
    let frame: (() => void) | null = null;
    g.requestAnimationFrame = (cb) => ((frame = cb), 1);
    let done = false;
    void afterNextFrame(100).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(done).toBe(false);
    frame!();
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('gives up after maxMs when no frame comes (a hidden page)', async () => {
    vi.useFakeTimers();
    g.requestAnimationFrame = () => 1;
    let done = false;
    void afterNextFrame(100).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('waits only maxMs where there is no requestAnimationFrame at all', async () => {
    vi.useFakeTimers();
    let done = false;
    void afterNextFrame(30).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(30);
    expect(done).toBe(true);
  });
});
