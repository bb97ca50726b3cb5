/**
 * The renderer's one way into the engine: the view-model types it draws and the pure helpers it runs — number
 * formats (format.ts), the one verdict of a result (verdict.ts), GPU device lines (gpu.ts), the analysis table's
 * accessors (analysis-doc.ts) and call statistics (profile/stats.ts). Everything re-exported here keeps its whole
 * runtime import graph inside electron/engine and never reaches Node, so the browser bundle can run it; the
 * renderer imports nothing else from electron/ but the contract and the wire codec (tests/architecture.test.ts).
 *
 * Names are listed, not `export *`: this file is the renderer's surface of the engine, and a helper joins it on
 * purpose.
 */

// View models (types.ts) and the schema types they carry.
export type * from './types.js';
export type * from './workload-types.js';
export { FATES } from './types.js';
export type { JsonInteger as JsonInt } from '../json.js';
export type { AllocationEvent, ModeResult, ProfileResult, SampledCall } from '../profile/result.js';

// Pure helpers shared with the CLI and the reports.
export {
  aliasText,
  bytesUnit,
  canProfileText,
  needsValuesText,
  formatBytes,
  formatBytesExpr,
  formatCount,
  formatNs,
  formatPercent,
  formatRatio,
  formatSize,
  formatStepRange,
  timeUnit,
  type Unit,
} from './format.js';
export { aliasOf, num, ownedBytes } from './analysis-doc.js';
export {
  compareResults,
  isGpuResult,
  profileVerdict,
  ratioText,
  significanceSentence,
  verificationBadge,
  type Headline,
  type Verdict,
} from './verdict.js';
export { deviceSummary, deviceVersions, EMULATED_DEVICE, formatReleaseThreshold, isEmulatedResult } from './gpu.js';
export { quantile } from '../profile/stats.js';
export { libraryNodesLine, libraryNodesParts } from './library-nodes.js';
export { structureMembersText } from './structures.js';
