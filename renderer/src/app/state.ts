/**
 * What the window holds, in one store (store.ts): the connection, the open document and its analysis, the
 * selection every view shares, the profile run and the results, and the chrome (theme, dock, dialogs).
 * Actions (actions/*.ts) are the only writers besides trivial UI toggles.
 */
import type {
  ContractError,
  EnvironmentInfo,
  MachineDevices,
  ProfileProgressEvent,
  ResultDoc,
  SymbolValues,
  TransientLabClient,
} from '../../../electron/ipc/contract.js';
import type {
  AdviceView,
  AnalysisView,
  DocInfo,
  GraphEdge,
  GraphNode,
  GraphRegion,
  RegionId,
  WorkloadView,
} from '../../../electron/engine/view/public.js';
import type { ModeName, ThemeName } from '../theme/index.js';
import { createStore } from './store.js';
import { openParams } from '../host/index.js';
import { initialDockHeight } from './dock/dock-size.js';

export const DOCK_TABS = ['transients', 'lifetimes', 'workspace', 'profile', 'compare', 'advisor'] as const;
export type DockTab = (typeof DOCK_TABS)[number];
export const DOCK_TAB_TITLES: Record<DockTab, string> = {
  transients: 'Transients',
  lifetimes: 'Lifetimes',
  workspace: 'Workspace',
  profile: 'Profile',
  compare: 'Compare',
  advisor: 'Advisor',
};

/** A graph element the user picked (the graph view tells us what it is). */
export interface ElementSelection {
  id: string;
  region: RegionId | null;
  node: GraphNode | null;
  edge: GraphEdge | null;
}

/**
 * The shared selection. `transient` is an analysis id (`<sdfg>:<name>`): every view highlights it. `element`
 * is a graph node or edge; picking an access node of a transient sets both.
 */
export interface Selection {
  transient: string | null;
  element: ElementSelection | null;
  /** Who selected (the view that did need not scroll itself). */
  source: 'graph' | 'table' | 'lifetimes' | 'workspace' | 'gantt' | 'outline' | 'search' | 'keyboard';
}

/** An error for the big readable panel (open failures, malformed files, lost connection). */
export interface ErrorReport {
  title: string;
  error: ContractError;
  /** What the user was doing ("Opening channel_flow.sdfg"). */
  context: string;
}

export interface ProfileSettings {
  modes: Array<'SCOPED' | 'PERSISTENT' | 'POOL' | 'EXTERNAL'>;
  layout: 'dace' | 'packed' | 'both';
  calls: number;
  warmup: number;
  processes: number;
  seed: string;
  timeoutS: number;
  /** Argument name → .npy path (inside the roots). */
  inputs: Record<string, string>;
  /** Run on this remote machine (one of `env.remoteHosts`), or null: on the host itself. */
  remote: string | null;
  /** How library nodes are expanded (`--library-impl`): DaCe's pure loops, or OpenBLAS/LAPACKE calls. */
  libraryImpl: 'pure' | 'blas';
  /** GPU programs: the pool's release threshold (`--pool-release-threshold`): decimal bytes or `max`. */
  poolReleaseThreshold: string;
  /** GPU programs: run on the device (`auto`) or emulated on the host CPU (`--gpu host`), as the user chose; null:
   * not chosen, the machine decides (the device where it has one, profile/gpu-choice.ts). */
  gpu: 'auto' | 'host' | null;
}

/** The host machine's CUDA devices (the contract's `devices`), asked once, when a GPU program's form first shows. */
export type DevicesState =
  | { status: 'unasked' }
  | { status: 'pending' }
  | { status: 'known'; info: MachineDevices }
  /** The host could not say (its probe failed, or an older host without `devices`). */
  | { status: 'unknown'; message: string };

interface ProfileRun {
  job: string;
  doc: string;
  startedAt: number;
  /** Latest event per stage, in arrival order. */
  events: ProfileProgressEvent[];
  status: 'running' | 'cancelling' | 'done' | 'failed' | 'cancelled';
  error: ContractError | null;
}

interface OpeningState {
  name: string;
  startedAt: number;
}

export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'warn' | 'error';
  text: string;
}

export interface AppState {
  connection: { status: 'connecting' | 'ready' | 'lost' | 'failed'; message: string };
  client: TransientLabClient | null;
  env: EnvironmentInfo | null;
  theme: ThemeName;

  opening: OpeningState | null;
  doc: DocInfo | null;
  /** The root region, fetched with the open so that the graph's first frame does not wait for the analysis. */
  rootRegion: Promise<GraphRegion> | null;
  symbols: SymbolValues;
  /** Value for every symbol not set; null leaves them symbolic. */
  defaultSymbol: string | null;
  target: 'cpu' | 'gpu' | null;
  /** What the graph and the table mark: one mode's treatment, or the best any mode gives (ALL). */
  mode: ModeName | 'ALL';
  analysis: AnalysisView | null;
  analysing: boolean;
  analysisError: ContractError | null;

  selection: Selection | null;
  /** Transient under the pointer in any view (highlighted in the others). */
  hoverTransient: string | null;

  dockTab: DockTab;
  /** Dock height in px; the window keeps at least the top bar and 160 px of graph (dock/dock-size.ts). */
  dockHeight: number;
  dialog: 'open' | 'symbols' | 'export' | null;
  /** Outline search text (also what Ctrl+F focuses). */
  outlineQuery: string;

  error: ErrorReport | null;
  toasts: Toast[];

  profileSettings: ProfileSettings;
  devices: DevicesState;
  run: ProfileRun | null;
  /** The result shown in the Profile tab (fresh run, or opened). */
  result: ResultDoc | null;
  /** Results on the Compare tab's shared axes (the first is the reference). */
  compare: ResultDoc[];

  /** The open workload's view model (docs/workload.md, "In the window"), when the document is a workload. */
  workload: WorkloadView | null;
  workloadError: ContractError | null;
  /** The advisor's answer for the open document (workload or SDFG), and the sweep it was asked with. */
  advice: AdviceView | null;
  adviceError: ContractError | null;
  advising: boolean;
  /** The sweep as typed (`I=64..512`, docs/advise.md); '' for none. */
  sweepText: string;
  /** The workload a program was opened from, to go back to it. */
  workloadOrigin: { name: string; path: string | null; example: string | null } | null;
}

const DEFAULT_PROFILE: ProfileSettings = {
  modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
  layout: 'both',
  calls: 30,
  warmup: 3,
  processes: 3,
  seed: '1',
  timeoutS: 0,
  inputs: {},
  remote: null,
  libraryImpl: 'pure',
  poolReleaseThreshold: 'max',
  gpu: null,
};

function initialTheme(): ThemeName {
  try {
    const saved = window.localStorage.getItem('tlab:theme');
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // Storage may be off (privacy mode); the system preference still applies.
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * A page opened with `?open=FILE` opens it as soon as it is connected, so it starts on the workspace ("Opening
 * FILE…") rather than flashing the empty state: the graph pane then has its real size when the canvas is
 * built, and its first frame is drawn while the page connects, not inside the open. Result files (.json) open
 * as results, without the graph.
 */
function initialOpening(): OpeningState | null {
  try {
    const last = openParams().at(-1);
    if (!last || /\.json$/i.test(last)) return null;
    return { name: last.split(/[\\/]/).pop() || last, startedAt: performance.now() };
  } catch {
    return null;
  }
}

export function initialState(): AppState {
  return {
    connection: { status: 'connecting', message: 'connecting…' },
    client: null,
    env: null,
    theme: initialTheme(),
    opening: initialOpening(),
    doc: null,
    rootRegion: null,
    symbols: {},
    defaultSymbol: null,
    target: null,
    mode: 'ALL',
    analysis: null,
    analysing: false,
    analysisError: null,
    selection: null,
    hoverTransient: null,
    dockTab: 'transients',
    dockHeight: initialDockHeight(),
    dialog: null,
    outlineQuery: '',
    error: null,
    toasts: [],
    profileSettings: { ...DEFAULT_PROFILE },
    devices: { status: 'unasked' },
    run: null,
    result: null,
    compare: [],
    workload: null,
    workloadError: null,
    advice: null,
    adviceError: null,
    advising: false,
    sweepText: '',
    workloadOrigin: null,
  };
}

export const store = createStore<AppState>(initialState());
