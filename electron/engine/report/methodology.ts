/**
 * How the numbers were obtained, with the run's own figures: timing, warm-up, what counts as allocation time,
 * the noise and how differences are tested, and what the tool cannot see. The text follows docs/profile.md
 * (the profiler's own description); docs/reports.md names this file as the source of the methodology.
 */
import { PROCESS_SPREAD, resultNoise } from '../profile/noise.js';
import { intervalConfidence, mannWhitneyMinCalls, SIGNIFICANCE } from '../profile/significance.js';
import type { ProfileResult } from '../profile/result.js';
import { formatNs } from '../view/format.js';
import { key, N } from './numbers.js';
import type { LabelledResult, MethodSection, Paragraph } from './types.js';

function timing(r: ProfileResult, i: number): Paragraph {
  const s = r.settings;
  const overhead = r.modes.map((m) => m.runnerOverheadNsPerCall).filter((x) => Number.isFinite(x));
  const worst = overhead.length ? Math.max(...overhead) : NaN;
  return [
    'Each mode is generated as its own C++ program with DaCe’s ABI, compiled into a shared library, and run in fresh runner processes, never inside the tool itself. A timing process does what a plain C program calling the library does: it loads the library, runs __dace_init once (timed on its own: PERSISTENT allocates there), makes one first call (reported on its own: cold caches, first touches), then ',
    N.count(`settings.warmup|${i}`, s.warmup),
    ' untimed warm-up calls and ',
    N.count(`settings.calls|${i}`, s.calls),
    ' timed calls, all in one native loop with no JavaScript between calls. Every mode ran in ',
    N.count(`settings.processes|${i}`, s.processes),
    ` fresh process${s.processes === 1 ? '' : 'es'}, so each has `,
    N.count(`settings.timedCalls|${i}`, s.calls * s.processes),
    ' timed calls; separate processes keep one mode’s heap state (glibc’s adaptive mmap and trim thresholds) from leaking into the next, and show whether one process ran slower than another for its whole life. A call is timed on the C++ side with a steady clock (CLOCK_MONOTONIC) read immediately before and after the program call. ',
    ...(Number.isFinite(worst)
      ? [
          'The runner’s own work around each call (timestamps, fault counters, event sums) is measured separately, at most ',
          N.ns(`runnerOverhead|${i}`, worst),
          ' per call here, and is not part of any call time. ',
        ]
      : []),
    'Before any timing, each mode is verified in a process of its own: two calls from identical inputs with every transient poisoned (0xFF, then 0xA5 bytes) and the EXTERNAL workspace guarded, and every mode’s outputs compared with the first mode’s; verification calls are never timed.',
  ];
}

const ALLOCATION: Paragraph = [
  'Allocation time is the time spent inside the instrumented allocation and free of every transient the generated code allocates (tlab_alloc and tlab_free, which wrap operator new[] and delete[]): each records its duration, and the call’s count and bytes. The alloc and free columns and the alloc+free share are exactly that time; compute is the rest of the call. Minor page faults are counted with getrusage around each call. Memory allocated afresh is faulted in page by page at its first touches, inside the computation rather than inside the allocator, and glibc hands large freed blocks back to the kernel: a large SCOPED transient faults in again on every call. Allocation time alone therefore under-reports what allocating costs; the faults per call show the rest of the cost.',
];

function noise(results: LabelledResult[]): Paragraph {
  const out: Paragraph = [
    'Per-call times are skewed and noisy, so the report gives the median and the p10–p90 range (the middle 80 % of the calls, quantiles interpolated linearly) rather than a mean and standard deviation. ',
  ];
  const spreads = results
    .flatMap((x, r) => x.result.modes.map((m) => ({ r, m, x })))
    .filter(({ m }) => Number.isFinite(m.summary.p10Ns) && m.summary.p10Ns > 0);
  if (spreads.length) {
    out.push('Here the middle 80 % of the calls span ');
    spreads.forEach(({ r, m, x }, k) => {
      out.push(
        k ? (k === spreads.length - 1 ? ' and ' : ', ') : '',
        N.ns(key('p10', r, m.label), m.summary.p10Ns),
        '–',
        N.ns(key('p90', r, m.label), m.summary.p90Ns),
        ` for ${m.label}${results.length > 1 ? ` (${x.label})` : ''}`,
      );
    });
    out.push('. ');
  }
  out.push(
    `Two modes, or the same mode in two results, are said to differ only when a two-sided Mann–Whitney U test over all their timed calls gives p < ${SIGNIFICANCE} (normal approximation with tie and continuity correction, as scipy’s asymptotic method); otherwise the report says there is no significant difference. The ratio of medians gives the size of a difference; the test says whether it stands out from the noise. With fewer than ${mannWhitneyMinCalls()} timed calls per mode the test cannot reach p < ${SIGNIFICANCE} whatever the times, and the report says there are too few calls to test rather than finding no difference. `,
    `First, though, each mode’s calls are checked for what would make a median misleading: call times that fall into separate groups (Hartigan’s dip test on the log times, p < ${SIGNIFICANCE}), fresh processes whose medians differ by more than ${PROCESS_SPREAD}×, and a warm-up that used its whole extension without the page faults settling. When any of these fires the run is called noisy, and comparisons are made at p10 — the time the fastest tenth of the calls stay under, what a call costs when nothing else gets in its way — with distribution-free ${Number((intervalConfidence() * 100).toPrecision(3))} % intervals for each p10 (from the binomial distribution of the calls below it), a difference being claimed only when the two intervals do not overlap (at most ${SIGNIFICANCE} false claims, whatever the distributions). `,
  );
  const KIND = { multimodal: 'separate groups', processes: 'processes disagree', warmup: 'warm-up at its cap' } as const;
  const noisy = results.flatMap((x) =>
    resultNoise(x.result)
      .modes.filter((m) => m.findings.length)
      .map((m) => `${results.length > 1 ? `${x.label}: ` : ''}${m.mode} (${m.findings.map((f) => KIND[f.kind]).join(', ')})`),
  );
  out.push(noisy.length ? `Here they fired for ${noisy.join('; ')}. ` : 'Here none of them fired, and the medians are compared. ');
  const busy = results.flatMap((x) =>
    x.result.warnings.filter((w) => /busy/.test(w)).map((w) => (results.length > 1 ? `${x.label}: ${w}` : w)),
  );
  out.push(
    busy.length
      ? `Just before timing, the profiler sampled the machine’s load: ${busy.join('; ')}.`
      : 'Just before timing, the profiler sampled the machine’s load for 250 ms and found other processes keeping at most 20 % of the cores busy.',
  );
  return out;
}

function blindSpots(r: ProfileResult): MethodSection {
  const symbols = Object.entries(r.settings.symbols)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return {
    title: 'What the tool cannot see',
    paragraphs: [
      [
        `These numbers hold for one machine and one problem size (${symbols || 'no symbols'}): other sizes change how much of a call allocating takes. The tool does not see:`,
      ],
    ],
    bullets: [
      ['allocations outside the program’s transients: library nodes’ own buffers, the OpenMP and C++ runtimes;'],
      ['transients on the stack (Register storage, small local arrays): they cost no allocation and are not instrumented;'],
      [
        'major page faults, TLB and cache misses, NUMA placement: only minor faults are counted, so what sharing memory in the EXTERNAL workspace does to the caches shows in the call time, not on its own;',
      ],
      ['memory use outside the call (fragmentation, resident set size), beyond the init and exit times;'],
      ['other processes competing for the cores while a call runs (only sampled once, before timing);'],
      [
        'on CPU, what POOL saves on a GPU: DaCe’s pool only serves GPU_Global arrays from CUDA’s stream-ordered allocator (cudaMallocAsync), so POOL runs the same code as SCOPED here.',
      ],
    ],
  };
}

export function methodology(results: LabelledResult[], analysisNote: string): MethodSection[] {
  const first = results[0]!.result;
  const initNote = first.modes.map((m) => `${m.label} ${formatNs(m.initNs)}`).join(', ');
  return [
    {
      title: 'How calls were timed',
      paragraphs: results.map((x, i) => (results.length > 1 ? [`${x.label}: `, ...timing(x.result, i)] : timing(x.result, i))),
    },
    {
      title: 'What counts as allocation time',
      paragraphs: [
        ALLOCATION,
        [`Init time per mode (once per process, not part of any call): ${initNote}.`],
        [
          'The allocation timeline shows one real timed call per mode, the one nearest the median, not an average; a call with more than 65,536 allocation events records only its first ones and is flagged.',
        ],
      ],
    },
    { title: 'Noise, and when a difference counts', paragraphs: [noise(results)] },
    {
      title: 'Where the lifetimes and layouts come from',
      paragraphs: [
        [
          'Lifetimes, the memory-over-steps curves, the workspace layouts and the transients table come from Transient Lab’s static analysis of the SDFG with the symbol values of the run: each transient’s live range over the program’s steps, its eligibility for PERSISTENT and EXTERNAL under gt4py’s rules, DaCe’s back-to-back layout and the lifetime-packed one. ',
          analysisNote,
        ],
      ],
    },
    blindSpots(first),
  ];
}
