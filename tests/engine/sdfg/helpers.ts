/** Helpers shared by the SDFG parser tests: raw JSON loading, JSON-path resolution, MANIFEST parsing. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { corpusDir } from '../../../electron/engine/paths.js';
import type { ControlFlowBlock, RegionBlock, Sdfg, StateBlock } from '../../../electron/engine/model/sdfg.js';

export function corpusFile(name: string): string {
  return join(corpusDir(), name);
}

/** Independent of the parser under test: gunzip by magic bytes, then JSON.parse. */
export function loadRawJson(path: string): unknown {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8'));
}

/**
 * Follows a JSON path such as `$.nodes[2].attributes._arrays["a.b"]` through raw JSON. Nested SDFGs stored as
 * JSON text are entered by parsing the text, as the parser does.
 */
export function resolveJsonPath(root: unknown, path: string): unknown {
  if (!path.startsWith('$')) throw new Error(`not a JSON path: ${path}`);
  const step = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/y;
  let value: unknown = root;
  let at = 1;
  while (at < path.length) {
    step.lastIndex = at;
    const match = step.exec(path);
    if (!match) throw new Error(`cannot read JSON path ${path} at ${at}`);
    at = step.lastIndex;
    if (typeof value === 'string') value = JSON.parse(value);
    if (value === null || typeof value !== 'object') return undefined;
    const container = value as Record<string, unknown>;
    if (match[1] !== undefined) value = container[match[1]];
    else if (match[2] !== undefined) value = (value as unknown[])[Number(match[2])];
    else value = container[match[3]!.replace(/\\(.)/g, '$1')];
  }
  return value;
}

export interface ManifestRow {
  file: string;
  sdfgs: number;
  states: number;
  nodes: number;
  /** From "transients N" in the notable-features column, when stated. */
  transients: number | null;
}

/** Reads the Files table of shared/corpus/MANIFEST.md by its column names. */
export function readManifest(): Map<string, ManifestRow> {
  const text = readFileSync(join(corpusDir(), '..', 'MANIFEST.md'), 'utf8');
  const lines = text.split('\n');
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  const headerIndex = lines.findIndex(
    (line) => line.startsWith('|') && cells(line).includes('file') && cells(line).includes('SDFGs / states / nodes'),
  );
  if (headerIndex < 0) throw new Error('MANIFEST.md has no table with columns "file" and "SDFGs / states / nodes"');
  const header = cells(lines[headerIndex]!);
  const fileColumn = header.indexOf('file');
  const countColumn = header.indexOf('SDFGs / states / nodes');
  const featureColumn = header.indexOf('notable features');
  const rows = new Map<string, ManifestRow>();
  for (let i = headerIndex + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const row = cells(lines[i]!);
    const file = row[fileColumn]!.replace(/`/g, '');
    const counts = /^(\d+) \/ (\d+) \/ (\d+)$/.exec(row[countColumn]!);
    if (!counts) throw new Error(`MANIFEST.md row for ${file}: cannot read "${row[countColumn]}"`);
    const transients = featureColumn >= 0 ? /transients (\d+)/.exec(row[featureColumn]!) : null;
    rows.set(file, {
      file,
      sdfgs: Number(counts[1]),
      states: Number(counts[2]),
      nodes: Number(counts[3]),
      transients: transients ? Number(transients[1]) : null,
    });
  }
  return rows;
}

/** Every block of a region tree (branch bodies included), pre-order, without entering nested SDFGs. */
export function* blocksOf(region: RegionBlock | { blocks: ControlFlowBlock[] }): Generator<ControlFlowBlock | RegionBlock> {
  for (const block of region.blocks) {
    yield block;
    if (block.kind === 'region' || block.kind === 'loop') yield* blocksOf(block);
    else if (block.kind === 'conditional') {
      for (const branch of block.branches) {
        yield branch.body;
        yield* blocksOf(branch.body);
      }
    }
  }
}

export function statesOf(sdfg: Sdfg): StateBlock[] {
  const states: StateBlock[] = [];
  for (const block of blocksOf(sdfg.body)) if (block.kind === 'state') states.push(block);
  return states;
}

/**
 * Counts SDFG objects embedded in raw JSON, the way the manifest does: nested SDFGs under NestedSDFG nodes,
 * ignoring the duplicate `nodes` of dev-1.x ConditionalBlocks and transformation history.
 */
export function countEmbeddedSdfgs(raw: unknown): number {
  let count = 0;
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') stack.push(item);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const object = value as Record<string, unknown>;
    if (object['type'] === 'SDFG') count++;
    const isConditional = object['type'] === 'ConditionalBlock' && Array.isArray(object['branches']);
    for (const key of Object.keys(object)) {
      if ((isConditional && key === 'nodes') || key === 'transformation_hist' || key === 'orig_sdfg') continue;
      const child = object[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return count;
}
