/** Gives the event loop a turn (input, paint) before more work: `scheduler.yield()` where Chromium has it. */
export function yieldToEventLoop(): Promise<void> {
  const sched = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (sched?.yield) return sched.yield();
  return new Promise((r) => setTimeout(r, 0));
}

/**
 * Resolves in a task after the next frame has been committed (requestAnimationFrame, then a task), or after
 * `maxMs` where no frame comes (a hidden page gets none).
 */
export function afterNextFrame(maxMs = 100): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxMs);
    // Typed through globalThis: this module is also built for hosts without DOM types (the desktop bridge).
    const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => number }).requestAnimationFrame;
    raf?.(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}
