/** Messages between the graph view (main thread) and its layout worker. Structured-clone friendly. */
import type { GraphRegion, RegionId } from '../../../electron/engine/view/public.js';
import type { LayoutEngineName } from './flat-layout.js';
import type { RegionLayout } from './hier-layout.js';

export type ToWorker =
  /** A new document: forget every region and layout. */
  | { type: 'reset' }
  /** Region content the worker keeps (sent once per region). */
  | { type: 'regions'; regions: GraphRegion[] }
  /** Lay out what is visible from `root`; a newer job supersedes an older one still running. */
  | { type: 'layout'; job: number; root: RegionId; expanded: RegionId[]; engine: LayoutEngineName }
  | { type: 'cancel'; job: number };

export type FromWorker =
  | { type: 'progress'; job: number; done: number; total: number }
  /** The visible layouts the view does not hold yet (it keeps the others from earlier answers). `epoch` counts
   * resets: an answer about a previous document is dropped. */
  | { type: 'done'; job: number; epoch: number; layouts: RegionLayout[]; ms: number }
  | { type: 'cancelled'; job: number }
  | { type: 'error'; job: number; message: string };
