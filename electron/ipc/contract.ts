/**
 * The one contract between the renderer and whatever hosts the engine. It is written once, here:
 * - browser mode (`transient-lab serve`, electron/host-kit/web-server/) carries it over HTTP + a WebSocket;
 * - the desktop app (electron/shell/ + electron/preload/) carries it over IPC, the preload exposing exactly
 *   these named methods through contextBridge;
 * - the renderer (renderer/) sees only `TransientLabApi` and never knows which transport it has.
 *
 * Rules:
 * - This file imports types only, and nothing from Node, the DOM or `electron`: the renderer, the preload,
 *   the server and the main process all compile it.
 * - Everything that crosses is structured-clone friendly: plain objects, arrays, strings, numbers, booleans,
 *   null and Uint8Array. No bigint (byte counts beyond 2^53 travel as decimal strings, `JsonInteger` of engine/json.ts), no Map.
 * - The renderer never receives raw SDFG JSON: it asks for compact view models (engine/view/), one region at a
 *   time. A 166 MB file never crosses whole.
 * - Every method may fail with a `ContractError` (the transport rejects the promise with it). Hosts validate
 *   every request payload (contract-schema.ts) before the service sees it.
 * - Adding a method or a field is additive; removing or changing one bumps CONTRACT_VERSION.
 */
import type { Mode } from '../engine/analysis/types.js';
import type { ErrorKind } from '../engine/errors.js';
import type { DeviceInfo } from '../engine/profile/device.js';
import type { ProfileProgress } from '../engine/profile/options.js';
import type { LayoutChoice, ProfileResult } from '../engine/profile/result.js';
import type { AnalysisView, DocInfo, GraphRegion, RegionId, SearchHit } from '../engine/view/types.js';
import type { AdviceView, WorkloadView } from '../engine/view/workload-types.js';

export const CONTRACT_VERSION = 1;

/**
 * What the renderer is told when a call fails. `kind` extends the engine's error kinds (exit codes):
 * - usage: the request is malformed (names the field as `jsonPath`, e.g. `$.calls`) or not allowed now;
 * - input / unsupported / build / run: the engine's own kinds (file + JSON path inside that file);
 * - cancelled: the job was cancelled (by `cancel`, the window closing or the host stopping);
 * - refused: the host will not do it (a path outside the allowed folders, another profile running, an
 *   unknown sender);
 * - transport: the host went away or did not answer in time (raised by the client, never by a host);
 * - internal: a bug; the message is short and carries no stack.
 */
export interface ContractError {
  kind: ErrorKind | 'cancelled' | 'refused' | 'transport' | 'internal';
  message: string;
  /** The file the error is about (a path or an upload's name), or null. */
  file: string | null;
  /** JSON path inside that file, or null. */
  jsonPath: string | null;
  /** Extra lines: compiler output, a hint of what to do. */
  details: string[];
}

/** Symbol values as the user typed them: decimal integers as strings (they may exceed 2^53). */
export type SymbolValues = Record<string, string>;

export interface AnalyzeRequest {
  doc: string;
  symbols: SymbolValues;
  /** Value for every symbol not in `symbols`; null leaves them symbolic. */
  defaultSymbol: string | null;
  /** Override of the detected target; null = detected. */
  target: 'cpu' | 'gpu' | null;
}

export interface ProfileRequest {
  doc: string;
  /** Chosen by the renderer (unique per run); progress events and `cancel` name it. */
  job: string;
  modes: Mode[];
  layout: LayoutChoice;
  calls: number;
  warmup: number;
  processes: number;
  symbols: SymbolValues;
  defaultSymbol: string | null;
  seed: string;
  /** Argument name → .npy path (inside the allowed folders). */
  inputs: Record<string, string>;
  /** Whole-run limit in seconds; 0 = none. */
  timeoutS: number;
  /** Build and run on this remote machine over ssh instead of here (docs/remote.md): one of
   * `EnvironmentInfo.remoteHosts`, exactly; any other is refused. Absent or null: here. (Additive.) */
  remote?: string | null;
  /** How library nodes are expanded, as `--library-impl` takes it (`pure`, `blas`, `blas,gemm=pure`); absent:
   * pure. (Additive.) */
  libraryImpl?: string;
  /** GPU programs: the default pool's release threshold POOL's init sets, as `--pool-release-threshold` takes
   * it (decimal bytes or `max`); absent: DaCe's max. Refused for CPU programs. (Additive.) */
  poolReleaseThreshold?: string;
  /** GPU programs: where the modes run (`--gpu`): `auto` (default), `device`, or `host` (emulated on the
   * host CPU, docs/gpu-host.md). Refused for CPU programs unless `auto`. (Additive.) */
  gpu?: 'auto' | 'device' | 'host';
}

/** What the advisor and the Workload view are computed with (docs/advise.md). For a workload, `symbols`
 * override its shared symbols, as `advise --symbols` does. */
export interface AdviseRequest {
  doc: string;
  symbols: SymbolValues;
  defaultSymbol: string | null;
  target: 'cpu' | 'gpu' | null;
  /** The EXTERNAL layout to size: `packed` (lifetime-packed slots) or `dace`. */
  layout: 'packed' | 'dace';
  /** The workspace need per storage at each value of one symbol (3 to 64 distinct values), with a closed form
   * where one fits; null: no sweep. */
  sweep: { symbol: string; values: string[] } | null;
}

/** The engine's progress of job `job`. */
export interface ProfileProgressEvent extends ProfileProgress {
  job: string;
}

export interface ExampleInfo {
  /** Stable id to pass to `openExample`. */
  id: string;
  title: string;
  description: string;
  /** Symbol values the example is meant to be analysed and profiled with (may be empty). */
  symbols: SymbolValues;
  /** `workload`: a workload file (docs/workload.md), opened into the Workload view; absent: an SDFG. (Additive.) */
  kind?: 'workload';
}

/** Bounds the host enforces, so that the renderer can refuse early with a clear message. */
export interface HostLimits {
  /** Largest `openUpload` / `openResult` upload, in bytes. */
  uploadBytes: number;
  /** Longest string accepted for a path. */
  pathChars: number;
  /** Timed calls × processes of one profile. */
  profileCalls: number;
}

export interface EnvironmentInfo {
  contract: number;
  /** Transient Lab version (package.json). */
  version: string;
  host: 'browser' | 'electron';
  /** Folders files may be opened from (browser mode: the `--root` folders, the first one resolves relative
   * paths such as `?open=`; electron: empty, files come from dialogs and drops). */
  roots: string[];
  examples: ExampleInfo[];
  /** Files the host was asked to open at start (`serve FILE…`, the desktop app's command line), in order;
   * the renderer opens them with `openFile`. Later requests arrive as `openRequest` events. */
  openAtStart: string[];
  limits: HostLimits;
  /** Remote machines a profile may name as `ProfileRequest.remote` (`[user@]host`), as the host process was told
   * (`serve --remote HOST`, the desktop app's `--remote=HOST`); empty: profiles run here only. A page can
   * choose among these and nothing else. (Additive.) */
  remoteHosts: string[];
}

/** The CUDA devices of the machine the host profiles on, as `transient-lab devices` lists them (the runner's addon,
 * asked in a child). The host probes once and keeps the answer: a GPU driver does not come and go under a running
 * app. (Additive.) */
export interface MachineDevices {
  /** Device 0 first (the one a GPU run uses); empty: this machine has none. */
  devices: DeviceInfo[];
  /** Why none is listed (no driver, no runtime library…), as the probe says it; null when one is. */
  reason: string | null;
  /** The CUDA runtime and driver, one line (`CUDA runtime 13.0 (libcudart.so), driver none`). */
  runtime: string;
}

export interface FolderEntry {
  name: string;
  /** Path to pass back to `listFolder` / `openFile`. */
  path: string;
  /** `dace`: a DaCe build folder (docs/dace-folders.md), opened with `openFile` as the SDFG it holds. (Additive.) */
  kind: 'folder' | 'sdfg' | 'result' | 'dace' | 'other';
  bytes: number | null;
}

export interface FolderListing {
  /** The folder listed (absolute); `listFolder({path: null})` lists the first root. */
  path: string;
  /** Where "up" goes, or null at a root (nothing above the allowed folders is listed). */
  parent: string | null;
  /** Folders (and DaCe build folders) first, then files, each by name; hidden entries (but `.dacecache`, where
   * DaCe keeps its builds) and links leading outside the roots are left out. */
  entries: FolderEntry[];
  /** More entries exist than the host lists. */
  truncated: boolean;
}

/** One result of a report and how the report names it ("before", "machine A", the file name). */
interface ReportResultInput {
  label: string;
  result: ProfileResult;
}

export interface ExportReportRequest {
  /** One result, or several for a comparison (the first is the reference). The JSON format takes exactly one. */
  results: ReportResultInput[];
  format: 'html' | 'pdf' | 'csv' | 'json';
  /** The open document the result was profiled from, for the lifetimes, workspace map and transients table: it is
   * used only when its bytes still have the result's sha256. null: no analysis (the report says why). */
  doc: string | null;
}

export interface ReportFile {
  /** Suggested file name (no folder): `hdiff-report.html`, `hdiff-report.summary.csv`. */
  name: string;
  /** MIME type for the download. */
  mime: string;
  bytes: Uint8Array;
}

export interface ReportExport {
  format: ExportReportRequest['format'];
  /** The files of the report: one, or two for CSV (per-call rows, then the per-mode summary). */
  files: ReportFile[];
  /** Where the report's analysis came from, or why there is none (the report says the same). */
  analysisNote: string;
}

export interface ResultDoc {
  /** Display name (file name). */
  name: string;
  /** Where it came from, or null for an upload / a fresh run. */
  path: string | null;
  result: ProfileResult;
}

/** Everything the renderer can ask. One method = one request object → one promise. */
export interface TransientLabApi {
  environment(req: Record<string, never>): Promise<EnvironmentInfo>;
  /** Browse the allowed folders (browser mode's own open dialog). */
  listFolder(req: { path: string | null }): Promise<FolderListing>;
  /** Open an SDFG by path (inside the allowed folders, or a path the desktop host approved). A relative path
   * is relative to the first root. */
  openFile(req: { path: string }): Promise<DocInfo>;
  /** Open an SDFG from bytes the user dropped or uploaded. */
  openUpload(req: { name: string; bytes: Uint8Array }): Promise<DocInfo>;
  openExample(req: { id: string }): Promise<DocInfo>;
  closeDoc(req: { doc: string }): Promise<void>;
  /** The complete DocInfo of an open document. For a `preview` DocInfo (a big file's first look) it waits
   * until the whole file is read; otherwise it answers the DocInfo the open gave. */
  docInfo(req: { doc: string }): Promise<DocInfo>;
  analyze(req: AnalyzeRequest): Promise<AnalysisView>;
  /** Drawable content of one SDFG, control-flow region or state (`null` region = the root SDFG). */
  graph(req: { doc: string; region: RegionId | null }): Promise<GraphRegion>;
  search(req: { doc: string; query: string; limit: number }): Promise<SearchHit[]>;
  /** Build, verify and time; progress arrives as `profileProgress` events naming `req.job`. One profile runs
   * at a time per host (timings of two would disturb each other): a second one is `refused`. */
  profile(req: ProfileRequest): Promise<ProfileResult>;
  /** Cancel this renderer's job `job`; a job that already ended (or is unknown) is not an error. */
  cancel(req: { job: string }): Promise<void>;
  /** Read a `transient-lab/profile@1` file; a newer schema or a foreign JSON is refused as `input`. */
  openResult(req: { path: string } | { name: string; bytes: Uint8Array }): Promise<ResultDoc>;
  /** Write a result file (inside the allowed folders, or where the desktop host's save dialog says). The name
   * must end in `.json`; an existing file is only replaced when it is itself a Transient Lab result. In browser
   * mode this writes on the server: to keep a copy on the user's own machine the renderer downloads the JSON
   * it already holds. */
  saveResult(req: { path: string; result: ProfileResult }): Promise<{ path: string }>;
  /** Write a report of `results` (docs/reports.md) and answer its bytes: the renderer previews the HTML in a
   * sandboxed iframe and downloads the files (browser mode: to the user's machine; desktop: the download becomes
   * the native Save dialog). PDF is printed by Chromium on the host: without one it fails as `unsupported`. */
  exportReport(req: ExportReportRequest): Promise<ReportExport>;
  /** What a file is, from its first bytes (inside the allowed folders): the window opens a `.json` workload as a
   * document and a `.json` result as a result. (Additive.) */
  fileKind(req: { path: string }): Promise<{ kind: 'sdfg' | 'workload' | 'result' | 'other' }>;
  /** The Workload view's model of an open workload (or of an SDFG: one call), from the analysis of every call. */
  workloadView(req: Omit<AdviseRequest, 'sweep'>): Promise<WorkloadView>;
  /** The advisor (docs/advise.md) on an open workload or SDFG: the mode and workspace per storage and why, what
   * blocks EXTERNAL with the change that would lift it, and with `sweep` the workspace as a function of a symbol. */
  advise(req: AdviseRequest): Promise<AdviceView>;
  /** Opens one program of an open workload as an SDFG document (its file passed the host's policy when the workload
   * was opened). */
  openProgram(req: { doc: string; program: string }): Promise<DocInfo>;
  /** The CUDA devices of the machine profiles run on (here, not a remote host), probed once per host process in a
   * child. Fails as `unsupported` on a host that cannot look, or as `run` when the probe itself failed (it is then
   * tried again on the next call). (Additive.) */
  devices(req: Record<string, never>): Promise<MachineDevices>;
}

export type MethodName = keyof TransientLabApi;
export type RequestOf<M extends MethodName> = Parameters<TransientLabApi[M]>[0];
export type ResponseOf<M extends MethodName> = Awaited<ReturnType<TransientLabApi[M]>>;

/** Runtime list of the methods: the preload and the WebSocket client are generated from it. */
export const METHODS = [
  'environment',
  'listFolder',
  'openFile',
  'openUpload',
  'openExample',
  'closeDoc',
  'docInfo',
  'analyze',
  'graph',
  'search',
  'profile',
  'cancel',
  'openResult',
  'saveResult',
  'exportReport',
  'fileKind',
  'workloadView',
  'advise',
  'openProgram',
  'devices',
] as const satisfies readonly MethodName[];

/** Host → renderer notifications. */
export interface HostEvents {
  profileProgress: ProfileProgressEvent;
  /** The host wants a file opened after start (menu, drag-and-drop on the window, a second launch). Files
   * named at start are in `EnvironmentInfo.openAtStart` instead, so that none is lost before the renderer
   * subscribes. (`?open=` is read by the renderer from its own URL.) */
  openRequest: { path: string };
  /** A menu or shortcut handled by the host (desktop menu items). */
  command: { name: 'open' | 'openResult' | 'saveResult' | 'exportReport' | 'toggleTheme' | 'profile' };
  /** Raised by the client itself, never sent by a host: the connection to the host is gone (browser mode: the
   * server stopped or the network dropped). Every pending and later call fails with kind `transport`; the
   * client does not reconnect (a restarted server has a new token: reload the page with the new URL). */
  disconnected: { reason: string };
}

export type EventName = keyof HostEvents;
export const EVENTS = ['profileProgress', 'openRequest', 'command', 'disconnected'] as const satisfies readonly EventName[];

/** How a host's session sends events to its renderer (a WebSocket, a window, the engine host's port): the
 * events' side of `TransientLabApi`, implemented by each host, handed to the service's `openSession`. */
export interface EventSink {
  emit<E extends EventName>(event: E, payload: HostEvents[E]): void;
}

/** What the renderer holds: the methods plus a subscription to host events. */
export interface TransientLabClient extends TransientLabApi {
  on<E extends EventName>(event: E, listener: (payload: HostEvents[E]) => void): () => void;
}

// ---------------------------------------------------------------------------------------------------------
// Transports. Both carry the same envelopes, so that an error keeps its fields across any boundary (Electron's
// ipcRenderer.invoke and contextBridge turn a rejected Error into a bare message).
// ---------------------------------------------------------------------------------------------------------

/** How a host answers one call. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ContractError };

/** The desktop app's IPC channels, shared by the preload (electron/preload/) and the main process's handlers
 * (electron/shell/ipc.ts): contract calls, host events, and the paths of files dropped on a window (sent by the
 * preload itself, never exposed to the page). */
export const IPC_CHANNELS = { call: 'tlab:call', event: 'tlab:event', drop: 'tlab:drop' } as const;

/**
 * A reply too big for one IPC message: the frames `encodeWirePaged` cuts it into (JSON text: parts, then the
 * reply), which the page decodes one per task as browser mode does its WebSocket messages. One structured clone
 * of the 7 MB analysis of a 30k-transient file, copied again by contextBridge into the page, would be one long
 * task.
 */
export interface PagedReply {
  paged: string[];
}

/** What the desktop preload exposes as `window.transientLab`: every method answers with a `Reply` envelope (or,
 * when big, a `PagedReply` of one), which the renderer's host module (renderer/src/host/) unwraps into the plain
 * `TransientLabClient`. */
export type BridgeApi = { [M in MethodName]: (req: RequestOf<M>) => Promise<Reply<ResponseOf<M>> | PagedReply> } & {
  on<E extends EventName>(event: E, listener: (payload: HostEvents[E]) => void): () => void;
};

/** Browser mode's WebSocket messages (electron/ipc/wire.ts encodes them; docs/contract.md). */
export type WireMessage =
  /** renderer → host */
  | { t: 'call'; id: number; method: string; req: unknown }
  /** host → renderer: the answer to call `id` */
  | { t: 'reply'; id: number; reply: Reply<unknown> }
  /** host → renderer */
  | { t: 'event'; event: EventName; payload: unknown }
  /** host → renderer, before the reply to call `id`: slice `k` of one big array of that reply. A reply larger
   * than a page comes as parts, each decoded in its own task, then a reply whose arrays are placeholders
   * `{ "\u0000parts": [k, …] }` (electron/ipc/wire.ts). */
  | { t: 'part'; id: number; k: number; v: unknown[] };
