/**
 * Real profile results for the report tests (tests/fixtures/profile: hdiff profiled on this machine in every
 * mode, both layouts; a second run of the same program; one with a sampled call), read and checked the way
 * the CLI reads them, and the program's analysis from the example SDFG they name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../electron/engine/paths.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { analyseForReport, type LabelledResult, type ReportAnalysis, type ReportInput } from '../../electron/engine/report/index.js';
import { parseProfileBytes } from '../../electron/host-kit/result-files.js';

const PROFILE_FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'profile');
export const FIXTURE = {
  run: join(PROFILE_FIXTURES, 'hdiff-cpu.json'),
  rerun: join(PROFILE_FIXTURES, 'hdiff-cpu-rerun.json'),
  sampled: join(PROFILE_FIXTURES, 'hdiff-cpu-sampled.json'),
  /** vadv on a quiet core, and beside CPU hogs (tests/fixtures/profile/README.md). */
  clean: join(PROFILE_FIXTURES, 'vadv-cpu-clean.json'),
  noisy: join(PROFILE_FIXTURES, 'vadv-cpu-noisy.json'),
} as const;

export function loadResult(path: string): ProfileResult {
  return parseProfileBytes(readFileSync(path), path);
}

export function labelled(label: string, path: string): LabelledResult {
  return { label, result: loadResult(path), source: path };
}

/** The analysis of the SDFG the result names (resolved from the package root, where the fixtures were made). */
async function analysisOf(r: LabelledResult): Promise<ReportAnalysis> {
  return analyseForReport(r.result, [join(packageRoot(), r.result.program.file)]);
}

export async function reportInput(results: LabelledResult[], withAnalysis = true): Promise<ReportInput> {
  return {
    results,
    analysis: withAnalysis ? await analysisOf(results[0]!) : { view: null, note: 'no analysis in this test' },
    generatedAt: '2026-11-30T12:00:00.000Z',
    version: '0.0.0-test',
  };
}

/** A deep copy, to derive variants (no difference, newer schema, …) from a real result. */
export function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}
