/** Gives the event loop a turn (input, paint) before more work: `scheduler.yield()` where Chromium has it. */
export function yieldToEventLoop(): Promise<void> {
  const sched = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (sched?.yield) return sched.yield();
  return new Promise((r) => setTimeout(r, 0));
}
