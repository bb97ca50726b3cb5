/** Real view models and profile results for the renderer tests (built by the engine, as the service does). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../electron/engine/analysis/index.js';
import { packageRoot } from '../../electron/engine/paths.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { buildAnalysisView } from '../../electron/engine/view/analysis.js';
import type { AnalysisView } from '../../electron/engine/view/types.js';
import type { SdfgFile } from '../../electron/engine/model/sdfg.js';

export async function exampleView(name: string, symbols: Record<string, number> = {}): Promise<AnalysisView> {
  const file = await readSdfgFile(join(packageRoot(), 'assets', 'examples', `${name}.sdfg`));
  return viewOfModel(file, symbols);
}

export function viewOfModel(file: SdfgFile, symbols: Record<string, number> = {}, defaultSymbol: bigint | null = null): AnalysisView {
  const a = analyze(file, { symbols: new Map(Object.entries(symbols).map(([k, v]) => [k, BigInt(v)])), defaultSymbol, target: null });
  // Through JSON, as it crosses the contract.
  return JSON.parse(JSON.stringify(buildAnalysisView(a))) as AnalysisView;
}

export function profileFixture(name = 'hdiff-cpu.json'): ProfileResult {
  return JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', name), 'utf8')) as ProfileResult;
}

/** Parses an SVG document string (the SVG painter's output). */
export function parseSvg(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const err = doc.querySelector('parsererror');
  if (err) throw new Error(`invalid SVG: ${err.textContent}`);
  return doc;
}
