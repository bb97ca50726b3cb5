/**
 * The sampled call's allocation events of a profile result (profile@1 gains `modes[].sampledCall`, issue 7):
 * read defensively, so that results written before the field existed still open (they simply have none).
 * The shape is engine/profile/result.ts `SampledCall`.
 */
import type { ModeResult, ProfileResult, SampledCall } from '../../../../electron/engine/view/public.js';

export function sampledCall(m: ModeResult): SampledCall | null {
  const s = (m as ModeResult & { sampledCall?: unknown }).sampledCall;
  if (!s || typeof s !== 'object') return null;
  const c = s as Partial<SampledCall>;
  if (!Array.isArray(c.events) || typeof c.totalNs !== 'number') return null;
  return { call: c.call ?? 0, totalNs: c.totalNs, overflowed: c.overflowed === true, events: c.events };
}

export interface TransientCost {
  mode: string;
  allocs: number;
  frees: number;
  allocNs: number;
  freeNs: number;
  bytes: number;
}

/** What one transient cost in each mode's sampled call (modes where it was never allocated are left out). */
export function transientCosts(result: ProfileResult, id: string): TransientCost[] {
  const out: TransientCost[] = [];
  for (const m of result.modes) {
    const s = sampledCall(m);
    if (!s) continue;
    const c: TransientCost = { mode: m.label, allocs: 0, frees: 0, allocNs: 0, freeNs: 0, bytes: 0 };
    for (const e of s.events) {
      if (e.transient !== id) continue;
      if (e.kind === 'alloc') {
        c.allocs++;
        c.allocNs += e.durationNs;
        c.bytes += e.bytes;
      } else {
        c.frees++;
        c.freeNs += e.durationNs;
      }
    }
    out.push(c);
  }
  return out;
}

export function hasSampledCalls(result: ProfileResult): boolean {
  return result.modes.some((m) => sampledCall(m) !== null);
}
