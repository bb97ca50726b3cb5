// @vitest-environment jsdom
/**
 * GPU results in the profile charts and the headline. No GPU here: the result is a real CPU result of the
 * engine with GPU fields added by the test fixture tests/fixtures/synthetic-gpu.ts (labelled synthetic).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatNs } from '../../electron/engine/view/format.js';
import { formatCudaVersion, formatReleaseThreshold } from '../../electron/engine/view/gpu.js';
import { compareResults, isGpuResult, profileVerdict } from '../../electron/engine/view/verdict.js';
import { renderChartSVG } from '../../renderer/src/charts/chart.js';
import { breakdownChart } from '../../renderer/src/charts/profile-breakdown.js';
import { hostSeries, profileSeries, sampledCalls, timeDomain } from '../../renderer/src/charts/profile-data.js';
import { distributionChart } from '../../renderer/src/charts/profile-distribution.js';
import { seriesChart } from '../../renderer/src/charts/profile-series.js';
import {
  SYNTHETIC_GPU_FILE,
  SYNTHETIC_NOTE,
  syntheticGpuFixture,
  withSyntheticGpu,
  writeSyntheticGpuFixture,
} from '../fixtures/synthetic-gpu.js';
import { parseSvg, profileFixture } from './fixtures.js';

describe('the synthetic GPU fixture', () => {
  it('is the committed file, labelled as a test fixture', () => {
    if (process.env.TLAB_UPDATE_SYNTHETIC === '1' || !existsSync(SYNTHETIC_GPU_FILE)) writeSyntheticGpuFixture();
    expect(JSON.parse(readFileSync(SYNTHETIC_GPU_FILE, 'utf8'))).toEqual(syntheticGpuFixture());
    const r = syntheticGpuFixture();
    expect(r.notes[0]).toBe(SYNTHETIC_NOTE);
    expect(r.device!.name).toMatch(/synthetic/i);
    expect(isGpuResult(r)).toBe(true);
    expect(isGpuResult(profileFixture('hdiff-cpu-sampled.json'))).toBe(false);
  });
});

describe('GPU headline', () => {
  it('says its verdict is on host time and gives the device-time verdict beside it', () => {
    const r = syntheticGpuFixture();
    const h = profileVerdict(r).secondary[0]!;
    expect(profileVerdict(r).primary.basis).toBe('host');
    expect(h.basis).toBe('host');
    expect(h.parts.basis).toMatch(/^host time per call/);
    const ext = r.modes.find((m) => m.label === h.subject)!;
    const pool = r.modes.find((m) => m.label === h.baseline)!;
    expect(h.device).not.toBeNull();
    expect(h.device!.medians).toEqual({ subject: ext.gpu!.deviceMedianNs, baseline: pool.gpu!.deviceMedianNs });
    expect(h.time!.medians).toEqual({ subject: ext.summary.medianNs, baseline: pool.summary.medianNs });
    expect(h.text).toContain('in host time');
    expect(h.text).toContain(`device time (CUDA events): ${h.device!.text}`);
  });

  it('leaves a CPU result exactly as before', () => {
    const r = profileFixture('hdiff-cpu-sampled.json');
    const v = profileVerdict(r);
    for (const h of [v.primary, ...v.secondary]) {
      expect(h.basis).toBeNull();
      expect(h.device).toBeNull();
      expect(h.parts.device).toBeNull();
      expect(h.text).not.toMatch(/host time|device/);
    }
  });

  it('compares GPU with GPU on both times, and marks CPU against GPU', () => {
    const cpu = profileFixture('hdiff-cpu-sampled.json');
    const gpu = syntheticGpuFixture();
    const slower = withSyntheticGpu(profileFixture('hdiff-cpu-rerun.json'));
    const both = compareResults([
      { label: 'a', result: gpu },
      { label: 'b', result: slower },
    ]);
    expect(both.every((c) => c.device !== null && !c.crossTarget)).toBe(true);
    const mixed = compareResults([
      { label: 'cpu', result: cpu },
      { label: 'gpu', result: gpu },
    ]);
    expect(mixed.length).toBeGreaterThan(0);
    for (const c of mixed) {
      expect(c.crossTarget).toBe(true);
      expect(c.device).toBeNull();
      expect(c.text).toContain('host times of a GPU run against a CPU run');
    }
  });

  it('formats versions and the release threshold', () => {
    expect(formatCudaVersion(12040)).toBe('12.4');
    expect(formatCudaVersion(13000)).toBe('13.0');
    expect(formatReleaseThreshold('18446744073709551615')).toMatch(/^UINT64_MAX/);
    expect(formatReleaseThreshold('0')).toMatch(/^0 /);
  });
});

describe('GPU series', () => {
  it('gives every mode a host and a device series; the breakdown and the Gantt keep the host ones', () => {
    const r = syntheticGpuFixture();
    const data = { results: [{ label: 'g', result: r }] };
    const series = profileSeries(data);
    expect(series.map((s) => s.display).slice(0, 4)).toEqual([
      'SCOPED · host',
      'SCOPED · device',
      'PERSISTENT · host',
      'PERSISTENT · device',
    ]);
    for (const s of series) {
      if (s.time === 'device') {
        expect(s.values).toBe(s.m.gpu!.deviceNs);
        expect(s.q.p50).toBe(s.m.gpu!.deviceMedianNs);
      } else {
        expect(s.values).toBe(s.m.calls.totalNs);
        expect(s.q.p50).toBe(s.m.summary.medianNs);
      }
    }
    expect(hostSeries(series)).toHaveLength(r.modes.length);
    expect(sampledCalls(data).every((c) => c.series.time === 'host')).toBe(true);
    // The time axis reaches the device times too.
    const { lo } = timeDomain(series);
    expect(lo).toBeLessThanOrEqual(Math.min(...r.modes.flatMap((m) => m.gpu!.deviceNs)));
  });

  it('draws both medians of every mode in the distribution, host parts only in the breakdown', () => {
    const r = syntheticGpuFixture();
    const data = { results: [{ label: 'g', result: r }] };
    const text = [...parseSvg(renderChartSVG(distributionChart, data, { width: 1000 })).querySelectorAll('text')].map((t) => t.textContent);
    for (const m of r.modes) {
      expect(text).toContain(formatNs(m.summary.medianNs));
      expect(text).toContain(formatNs(m.gpu!.deviceMedianNs));
    }
    expect(text).toContain('POOL · device');
    const bd = [...parseSvg(renderChartSVG(breakdownChart, data, { width: 1100 })).querySelectorAll('text')].map((t) => t.textContent);
    expect(bd).toContain('POOL · host');
    expect(bd).not.toContain('POOL · device');
    const calls = parseSvg(renderChartSVG(seriesChart, data, { width: 1000 })).documentElement.textContent;
    expect(calls).toContain('device');
  });

  it('marks CPU series when CPU and GPU results are compared', () => {
    const data = {
      results: [
        { label: 'cpu', result: profileFixture('hdiff-cpu-sampled.json') },
        { label: 'gpu', result: syntheticGpuFixture() },
      ],
    };
    const names = profileSeries(data).map((s) => s.display);
    expect(names).toContain('POOL · CPU · cpu');
    expect(names).toContain('POOL · host · gpu');
    expect(names).toContain('POOL · device · gpu');
  });
});
