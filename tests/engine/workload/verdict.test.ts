import { describe, expect, it } from 'vitest';
import { quantile } from '../../../electron/engine/profile/stats.js';
import type { StepSummary } from '../../../electron/engine/workload/result.js';
import { workloadVerdict, type WorkloadVerdictInput } from '../../../electron/engine/workload/verdict.js';

/** A mode's steps: `n` per process, spread ±1 % around `ms`, deterministic. */
function steps(ms: number, n: number, processes = 2, spread = 0.01): Float64Array[] {
  return Array.from({ length: processes }, (_, p) =>
    Float64Array.from({ length: n }, (_, i) => ms * 1e6 * (1 + spread * Math.sin(i * 1.7 + p))),
  );
}

function input(modes: Record<string, { runs: Float64Array[]; allocs: number; bytes: number }>): WorkloadVerdictInput {
  const perStep: Record<string, StepSummary> = {};
  for (const [l, m] of Object.entries(modes)) {
    const sorted = Float64Array.from(m.runs.flatMap((r) => [...r])).sort();
    perStep[l] = {
      samples: sorted.length,
      medianNs: quantile(sorted, 0.5),
      p10Ns: quantile(sorted, 0.1),
      p90Ns: quantile(sorted, 0.9),
      allocs: m.allocs,
      frees: m.allocs,
      allocFreeNs: 0,
      allocBytes: 0,
    };
  }
  return {
    labels: Object.keys(modes),
    perStep,
    footprint: Object.fromEntries(Object.entries(modes).map(([l, m]) => [l, { CPU_Heap: m.bytes }])),
    samples: Object.fromEntries(Object.entries(modes).map(([l, m]) => [l, { runs: m.runs }])),
  };
}

const MiB = 1 << 20;

describe('the workload verdict', () => {
  it('names the winner on time and what it saves against the runner-up', () => {
    const v = workloadVerdict(
      input({
        SCOPED: { runs: steps(10, 20), allocs: 16, bytes: 40 * MiB },
        PERSISTENT: { runs: steps(8, 20), allocs: 0, bytes: 131 * MiB },
        'EXTERNAL (packed)': { runs: steps(5, 20), allocs: 0, bytes: 30.5 * MiB },
      }),
    );
    expect(v.statistic).toBe('median');
    expect(v.winner).toBe('EXTERNAL (packed)');
    expect(v.text).toBe(
      'EXTERNAL (packed) wins: 1.60× faster per step than the runner-up, PERSISTENT (p < 0.001); holds 30.5 MiB vs 131 MiB for transients (saves 101 MiB), the same allocations per step (0).',
    );
  });

  it('names no winner when the test cannot separate the two fastest, and the leanest of them with its savings', () => {
    const v = workloadVerdict(
      input({
        SCOPED: { runs: steps(10, 20), allocs: 16, bytes: 40 * MiB },
        PERSISTENT: { runs: steps(5, 20, 2, 0.05), allocs: 0, bytes: 131 * MiB },
        'EXTERNAL (packed)': { runs: steps(5, 20, 2, 0.05).map((r) => r.map((x) => x * 1.001)), allocs: 0, bytes: 30.5 * MiB },
      }),
    );
    expect(v.winner).toBeNull();
    expect(v.text).toMatch(
      /^No mode wins on time: PERSISTENT and EXTERNAL \(packed\) are within the noise of each other in time per step \(.*\)\. /,
    );
    expect(v.text).toContain(
      'EXTERNAL (packed) holds the least for transients among them; against PERSISTENT, it holds 30.5 MiB vs 131 MiB for transients (saves 101 MiB)',
    );
  });

  it('says the run is noisy and compares at p10 when the processes disagree', () => {
    const slow = steps(10, 40).map((r, p) => (p === 1 ? r.map((x) => x * 2) : r));
    const v = workloadVerdict(
      input({
        SCOPED: { runs: slow, allocs: 16, bytes: 40 * MiB },
        'EXTERNAL (packed)': { runs: steps(5, 40), allocs: 0, bytes: 30.5 * MiB },
      }),
    );
    expect(v.statistic).toBe('p10');
    expect(v.noise).toContain('SCOPED: its 2 processes disagree (medians 2.00× apart)');
    expect(v.text).toMatch(
      /^Noisy run: compared at p10 \(the fastest tenth of the steps\), not at the median\. EXTERNAL \(packed\) wins: .* at p10 than the runner-up, SCOPED/,
    );
    expect(v.text).toContain('16 fewer allocations per step (16 → 0)');
  });

  it('says too few steps to test, in steps', () => {
    const v = workloadVerdict(
      input({ SCOPED: { runs: steps(10, 2, 1), allocs: 1, bytes: MiB }, PERSISTENT: { runs: steps(5, 2, 1), allocs: 0, bytes: 2 * MiB } }),
    );
    expect(v.text).toMatch(/^No mode wins on time: too few steps to test \(2 timed steps per mode/);
  });
});
