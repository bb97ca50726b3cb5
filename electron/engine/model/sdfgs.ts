/** The SDFGs of a file as a flat, named list: what `analysis@1`'s `sdfgs[]` and the renderer's DocInfo show. */
import type { SdfgFile } from './sdfg.js';

/** One SDFG of the file (root and nested), pre-order: index 0 is the root. */
export interface SdfgSummary {
  /** Index in pre-order, as transients' `sdfg` field uses it. */
  index: number;
  name: string;
  /** Index of the SDFG holding the NestedSDFG node that embeds this one; null for the root. */
  parent: number | null;
  /** Where this SDFG's JSON object is in the file. */
  jsonPath: string;
}

export function sdfgSummaries(file: SdfgFile): SdfgSummary[] {
  return file.sdfgs.map((s) => ({
    index: s.sdfgIndex,
    name: s.name,
    parent: s.parent ? s.parent.sdfg.sdfgIndex : null,
    jsonPath: s.jsonPath,
  }));
}
