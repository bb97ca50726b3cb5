/**
 * The chart modules of Transient Lab. Framework-free: the app mounts them from React, the HTML report
 * mounts the same ones (offline), and `renderSVG` draws them without a DOM (PDF, Node).
 *
 *   const chart = mountLifetimeChart(div, { data: { view }, theme: 'dark', selectedTransient, onSelect, onHover });
 *   chart.update({ selectedTransient: '0:lap' });   // selection from anywhere
 *   const svg = chart.toSVG();                        // vectors of what is on screen
 *   chart.destroy();
 */
import { mountChart, renderChartSVG, type ChartHandle, type ChartOptions, type ChartSpec, type StaticOptions } from './chart.js';
import { lifetimeChart } from './lifetime.js';
import type { LifetimeData } from './lifetime-model.js';
import { workspaceChart, type WorkspaceData } from './workspace.js';
import { breakdownChart } from './profile-breakdown.js';
import type { ProfileData } from './profile-data.js';
import { distributionChart } from './profile-distribution.js';
import { ganttChart } from './profile-gantt.js';
import { seriesChart } from './profile-series.js';
import { sweepChart, type SweepData } from './sweep.js';
import { workloadChart, type WorkloadData } from './workload.js';

export type { ChartHandle, ChartOptions, StaticOptions } from './chart.js';
export type { LifetimeData } from './lifetime-model.js';
export type { WorkspaceData } from './workspace.js';
export type { ProfileData } from './profile-data.js';
export type { SweepData } from './sweep.js';
export type { WorkloadData } from './workload.js';
function entry<D, S, L>(spec: ChartSpec<D, S, L>) {
  return {
    spec,
    mount: (el: HTMLElement, o: ChartOptions<D>): ChartHandle<D> => mountChart(el, spec, o),
    svg: (data: D, o: StaticOptions): string => renderChartSVG(spec, data, o),
  };
}

export const CHARTS = {
  lifetime: entry(lifetimeChart),
  workspace: entry(workspaceChart),
  /** Per-call time distribution per mode (box, whiskers, every call). */
  distribution: entry(distributionChart),
  /** Every timed call in order, with a running median per mode. */
  calls: entry(seriesChart),
  /** Mean time per call split into compute, allocation and free. */
  breakdown: entry(breakdownChart),
  /** The sampled call's allocations per mode. */
  gantt: entry(ganttChart),
  /** A workload's calls and what each mode holds over them; workspace need per program. */
  workload: entry(workloadChart),
  /** The workspace need as a function of a swept symbol, with its closed form. */
  sweep: entry(sweepChart),
};

export type ChartKind = keyof typeof CHARTS;

export const mountLifetimeChart = CHARTS.lifetime.mount;
export const mountWorkspaceChart = CHARTS.workspace.mount;
export const mountDistributionChart = CHARTS.distribution.mount;
export const mountCallsChart = CHARTS.calls.mount;
export const mountBreakdownChart = CHARTS.breakdown.mount;
export const mountGanttChart = CHARTS.gantt.mount;
export const mountWorkloadChart = CHARTS.workload.mount;
export const mountSweepChart = CHARTS.sweep.mount;

/** A chart as a standalone SVG document, without a DOM. */
export function renderSVG(kind: 'lifetime', data: LifetimeData, o: StaticOptions): string;
export function renderSVG(kind: 'workspace', data: WorkspaceData, o: StaticOptions): string;
export function renderSVG(kind: 'distribution' | 'calls' | 'breakdown' | 'gantt', data: ProfileData, o: StaticOptions): string;
export function renderSVG(kind: 'workload', data: WorkloadData, o: StaticOptions): string;
export function renderSVG(kind: 'sweep', data: SweepData, o: StaticOptions): string;
export function renderSVG(
  kind: ChartKind,
  data: LifetimeData | WorkspaceData | ProfileData | WorkloadData | SweepData,
  o: StaticOptions,
): string {
  return (CHARTS[kind].svg as (d: unknown, o: StaticOptions) => string)(data, o);
}
