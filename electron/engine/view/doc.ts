/**
 * DocInfo: the first thing the renderer learns about an opened file — names, sizes, SDFGs, the symbols to
 * edit, the target — without any of its graph. Cheap: one pass over the SDFG list and the root's symbols.
 */
import { definedSymbols } from '../analysis/symbols.js';
import { dtypeName } from '../analysis/sizes.js';
import { detectTarget } from '../analysis/target.js';
import { sdfgSummaries } from '../model/sdfgs.js';
import type { SdfgFile } from '../model/sdfg.js';
import type { DocInfo } from './types.js';

/** Parser warnings beyond this many are summarised in one line: DocInfo stays small for any file. */
const MAX_WARNINGS = 100;

export interface DocSource {
  /** The session-scoped handle the host gave the document. */
  doc: string;
  /** File name for display (an upload's own name). */
  name: string;
  /** Path it was read from, or null for an upload. */
  path: string | null;
  /** Bytes as stored (compressed for .sdfgz). */
  fileBytes: number;
  /** Time the host spent reading and parsing. */
  parseMs: number;
}

export function buildDocInfo(file: SdfgFile, source: DocSource): DocInfo {
  const defined = definedSymbols(file.root);
  const symbols = [...file.root.symbols].filter(([name]) => !defined.has(name)).map(([name, dtype]) => ({ name, dtype: dtypeName(dtype) }));
  const { target, reason } = detectTarget(file, null);
  const warnings = file.warnings.slice(0, MAX_WARNINGS).map((w) => ({ jsonPath: w.jsonPath, message: w.message }));
  if (file.warnings.length > MAX_WARNINGS)
    warnings.push({ jsonPath: '$', message: `… and ${file.warnings.length - MAX_WARNINGS} more parser warnings` });
  return {
    doc: source.doc,
    name: source.name,
    path: source.path,
    fileBytes: source.fileBytes,
    jsonBytes: file.jsonBytes,
    compressed: file.compressed,
    generation: file.generation,
    daceVersion: file.daceVersion,
    stats: { ...file.stats },
    sdfgs: sdfgSummaries(file),
    symbols,
    target,
    targetReason: reason,
    warnings,
    parseMs: source.parseMs,
    ...(file.preview ? { preview: true as const } : {}),
  };
}
