/**
 * One renderer's side of the service: its open documents, its analyses and its profile jobs. Requests arrive
 * already validated (contract-schema.ts); paths go through the host's FileAccess before anything is read.
 */
import { daceFolderSdfg, folderBuiltBy } from '../engine/dace/folder.js';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { analyze as analyzeModel, type Analysis } from '../engine/analysis/index.js';
import type { Target } from '../engine/analysis/types.js';
import { TlabError } from '../engine/errors.js';
import type { SdfgFile } from '../engine/model/sdfg.js';
import type { ProfileResult } from '../engine/profile/result.js';
import { parseDecodedSdfg, parseSdfgBytes } from '../engine/sdfg/index.js';
import { decodeWithPreview } from '../engine/sdfg/preview.js';
import { buildDocInfo } from '../engine/view/doc.js';
import { buildSymbolNames, profileCheck, withSymbolNeeds } from '../engine/codegen/index.js';
import type { AnalysisView, DocInfo, GraphRegion, ProfileCheck, SearchHit } from '../engine/view/types.js';
import { parseProfileBytes, readProfileFile, writeProfileFile } from '../host-kit/result-files.js';
import type {
  AnalyzeRequest,
  EnvironmentInfo,
  EventSink,
  ExportReportRequest,
  FolderListing,
  MachineDevices,
  ProfileRequest,
  ReportExport,
  RequestOf,
  ResultDoc,
  TransientLabApi,
} from '../ipc/contract.js';
import { ContractFailure } from '../ipc/errors.js';
import type { RemoteProfiler, ServiceContext } from './context.js';
import { runProfileJob } from './profile-job.js';
import { exportReport } from './reports.js';
import { fileSource, loadSource, readSourceBytes, sourceSha256, type DocSource } from './sources.js';
import { UploadStore } from './uploads.js';
import { adviceOf, isWorkloadSource, readWorkloadDoc, workloadDocInfo, type AdviseInput, type WorkloadDoc } from './workloads.js';
import { buildAdviceView } from '../engine/view/advice.js';
import { buildWorkloadView } from '../engine/view/workload.js';
import type { AdviceView, WorkloadView } from '../engine/view/workload-types.js';
import { sniffWorkload } from '../engine/workload/schema.js';

interface OpenDoc {
  info: DocInfo;
  source: DocSource;
  /** The latest analysis, with the options and the model it was computed from. */
  memo: { key: string; file: SdfgFile; analysis: Analysis } | null;
  /** The code generator's verdict on the model, per target (it does not depend on the symbols). */
  profile: { file: SdfgFile; byTarget: Map<string, ProfileCheck>; needs: string[] | null } | null;
  /** A big file's first look (engine/sdfg/preview.ts) until its full model is read; `readAll` starts that. */
  preview: { file: SdfgFile; readAll: () => void } | null;
  /** A workload file (docs/workload.md): its programs; null for an SDFG. */
  workload: WorkloadDoc | null;
}

/**
 * With a preview open, the full parse (and the second inflation of a gzip file it needs) waits for the first
 * request that needs it (the window asks for the complete DocInfo once its first frame is up), but never
 * longer than this. Starting either as soon as the root region was served made it compete for the CPU with the
 * window's first layout: on velocity_tendencies, with only the gunzip started early on the thread pool, the
 * worker's layout of the 99 root states took 250–300 ms instead of 100–190 ms.
 */
const PREVIEW_GRACE_MS = 1500;

export class Session implements TransientLabApi {
  private readonly docs = new Map<string, OpenDoc>();
  private nextDoc = 1;
  private closed = false;

  constructor(
    readonly id: string,
    private readonly ctx: ServiceContext,
    private readonly sink: EventSink,
    private readonly onDispose: () => void,
  ) {}

  private live(): void {
    if (this.closed) throw new ContractFailure('refused', 'this session is closed');
  }

  private doc(id: string): OpenDoc {
    this.live();
    const d = this.docs.get(id);
    if (!d) throw new ContractFailure('usage', `no open document '${id}' (it was closed, or opened by another window)`);
    return d;
  }

  private async model(d: OpenDoc): Promise<SdfgFile> {
    if (d.workload) {
      throw new ContractFailure('usage', `${d.info.name} is a workload, not an SDFG: open one of its programs to see its graph`, {
        file: d.source.display,
      });
    }
    d.preview?.readAll();
    const file = await this.ctx.models.get(d.source.key, () => loadSource(d.source));
    d.preview = null;
    return file;
  }

  /** `started`: when reading began (an upload is parsed before it is registered). */
  private async register(
    source: DocSource,
    name: string,
    load: () => Promise<SdfgFile>,
    started = performance.now(),
    bytes?: Uint8Array,
  ): Promise<DocInfo> {
    this.live();
    if (this.docs.size >= this.ctx.options.maxDocsPerSession) {
      throw new ContractFailure('refused', `${this.docs.size} documents are open in this window: close one first`);
    }
    const file = await this.ctx.models.get(source.key, load);
    const doc = `d${this.nextDoc++}`;
    const info: DocInfo = {
      ...buildDocInfo(file, { doc, name, path: source.shownPath, fileBytes: source.size, parseMs: performance.now() - started }),
      sha256: await sourceSha256(source, bytes),
    };
    this.docs.set(doc, { info, source, memo: null, profile: null, preview: null, workload: null });
    return info;
  }

  /**
   * Opens a file from disk. A big one whose model is not cached answers with a preview (its root SDFG only) as
   * soon as that is read, so the window can draw the top level; the full parse of the same decoded bytes starts with
   * the first request that needs more (or after a grace period), and every such request waits for it.
   */
  private async registerFile(source: DocSource, name: string, trusted = false): Promise<DocInfo> {
    this.live();
    if (await isWorkloadSource(source)) return this.registerWorkload(source, name, trusted);
    if (this.ctx.models.has(source.key)) return this.register(source, name, () => loadSource(source));
    const started = performance.now();
    const bytes = await readSourceBytes(source);
    const { preview, decoded } = await decodeWithPreview(bytes, source.display, this.ctx.options.previewMinJsonBytes);
    if (preview === null) return this.register(source, name, async () => parseDecodedSdfg(await decoded()), started, bytes);
    this.live();
    if (this.docs.size >= this.ctx.options.maxDocsPerSession) {
      throw new ContractFailure('refused', `${this.docs.size} documents are open in this window: close one first`);
    }
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(release, PREVIEW_GRACE_MS);
    const readAll = (): void => {
      clearTimeout(timer);
      release();
    };
    // Errors of the full parse reach the requests that wait for it (docInfo, analyze, …), not this one.
    this.ctx.models
      .get(source.key, async () => {
        await gate;
        return parseDecodedSdfg(await decoded());
      })
      .catch(() => {});
    const doc = `d${this.nextDoc++}`;
    const info = buildDocInfo(preview, { doc, name, path: source.shownPath, fileBytes: source.size, parseMs: performance.now() - started });
    this.docs.set(doc, { info, source, memo: null, profile: null, preview: { file: preview, readAll }, workload: null });
    return info;
  }

  /** A workload file; `trusted`: the host's own example, whose programs need no policy check. */
  private async registerWorkload(source: DocSource, name: string, trusted: boolean): Promise<DocInfo> {
    const started = performance.now();
    const workload = await readWorkloadDoc(source, trusted ? null : this.ctx.files);
    this.live();
    if (this.docs.size >= this.ctx.options.maxDocsPerSession) {
      throw new ContractFailure('refused', `${this.docs.size} documents are open in this window: close one first`);
    }
    const doc = `d${this.nextDoc++}`;
    const info = workloadDocInfo(workload, doc, name, source, performance.now() - started);
    this.docs.set(doc, { info, source, memo: null, profile: null, preview: null, workload });
    return info;
  }

  async fileKind(req: RequestOf<'fileKind'>): Promise<{ kind: 'sdfg' | 'workload' | 'result' | 'other' }> {
    this.live();
    const real = await this.ctx.files.resolveRead(req.path, 'sdfg');
    const source = await fileSource(real);
    if (/\.sdfgz?$/i.test(real)) return { kind: 'sdfg' };
    if (await isWorkloadSource(source)) return { kind: 'workload' };
    return { kind: /\.json$/i.test(real) ? 'result' : 'other' };
  }

  private adviceInput(req: RequestOf<'workloadView'>): AdviseInput & { doc: OpenDoc } {
    const d = this.doc(req.doc);
    return { doc: d, symbols: req.symbols, defaultSymbol: req.defaultSymbol, target: req.target, layout: req.layout, sweep: null };
  }

  private async adviceFor(d: OpenDoc, input: AdviseInput) {
    return adviceOf(this.ctx.models, { workload: d.workload, source: d.source, model: () => this.model(d) }, input);
  }

  async workloadView(req: RequestOf<'workloadView'>): Promise<WorkloadView> {
    const { doc: d, ...input } = this.adviceInput(req);
    const advice = await this.adviceFor(d, input);
    const files = d.workload
      ? Object.fromEntries([...d.workload.programs].map(([k, s]) => [k, s.readPath]))
      : { [advice.subject.name]: d.source.display };
    return buildWorkloadView({ advice, result: null, files, steps: d.workload?.workload.steps ?? 1 });
  }

  async advise(req: RequestOf<'advise'>): Promise<AdviceView> {
    const { doc: d, ...input } = this.adviceInput(req);
    return buildAdviceView(await this.adviceFor(d, { ...input, sweep: req.sweep }));
  }

  async openProgram(req: RequestOf<'openProgram'>): Promise<DocInfo> {
    const d = this.doc(req.doc);
    const source = d.workload?.programs.get(req.program);
    if (!d.workload || !source) {
      const known = d.workload ? [...d.workload.programs.keys()].join(', ') : 'none: not a workload';
      throw new ContractFailure('usage', `no program '${req.program}' in ${d.info.name} (programs: ${known})`, { jsonPath: '$.program' });
    }
    // Checked against the policy when the workload was opened; the file may have changed since: read it afresh.
    const fresh = await fileSource(source.readPath);
    return this.registerFile(fresh, basename(fresh.readPath));
  }

  async docInfo(req: RequestOf<'docInfo'>): Promise<DocInfo> {
    const d = this.doc(req.doc);
    if (!d.info.preview) return d.info;
    const started = performance.now();
    const file = await this.model(d);
    if (d.info.preview) {
      const sha256 = await sourceSha256(d.source);
      d.info = {
        ...buildDocInfo(file, {
          doc: d.info.doc,
          name: d.info.name,
          path: d.info.path,
          fileBytes: d.info.fileBytes,
          parseMs: d.info.parseMs + performance.now() - started,
        }),
        sha256,
        ...(d.info.daceBuild ? { daceBuild: d.info.daceBuild } : {}),
      };
    }
    return d.info;
  }

  async environment(): Promise<EnvironmentInfo> {
    this.live();
    return this.ctx.environment();
  }

  async devices(): Promise<MachineDevices> {
    this.live();
    return this.ctx.devices.get();
  }

  async listFolder(req: RequestOf<'listFolder'>): Promise<FolderListing> {
    this.live();
    return this.ctx.files.listFolder(req.path);
  }

  async openFile(req: RequestOf<'openFile'>): Promise<DocInfo> {
    this.live();
    // A DaCe build folder opens as the SDFG DaCe saved in it (docs/dace-folders.md); the folder passes the file
    // policy first, so nothing is learnt about folders outside it.
    const folder = await this.ctx.files.resolveRead(req.path, 'folder').catch(() => null);
    const inFolder = folder ? await daceFolderSdfg(folder) : null;
    const real = await this.ctx.files.resolveRead(inFolder ?? req.path, 'sdfg');
    const source = await fileSource(real);
    if (!folder || !inFolder) return this.registerFile(source, basename(real));
    const info = await this.registerFile(source, basename(folder));
    const d = this.docs.get(info.doc)!;
    d.info = { ...d.info, daceBuild: { folder, builtBy: await folderBuiltBy(folder, info.sdfgs[0]?.name ?? '', info.daceVersion) } };
    return d.info;
  }

  async openUpload(req: RequestOf<'openUpload'>): Promise<DocInfo> {
    this.live();
    const started = performance.now();
    const hash = UploadStore.hash(req.bytes);
    const key = `upload:${hash}`;
    // Parse before anything is stored: a malformed upload leaves nothing behind.
    if (sniffWorkload(Buffer.from(req.bytes.buffer, req.bytes.byteOffset, Math.min(req.bytes.byteLength, 4096)).toString('utf8'))) {
      throw new TlabError(
        'unsupported',
        'a workload names its programs by path, so it cannot be opened as an upload: open it by path (Open dialog, ?open=, or `serve FILE`)',
        { file: req.name },
      );
    }
    const file = await this.ctx.models.get(key, async () => parseSdfgBytes(req.bytes, req.name));
    const { path } = await this.ctx.uploads.add(req.bytes, hash, file.compressed);
    const source: DocSource = {
      readPath: path,
      display: req.name,
      shownPath: null,
      key,
      size: req.bytes.byteLength,
      mtimeMs: 0,
      upload: hash,
    };
    try {
      return await this.register(source, req.name, () => loadSource(source), started);
    } catch (err) {
      await this.ctx.uploads.release(hash, path);
      throw err;
    }
  }

  async openExample(req: RequestOf<'openExample'>): Promise<DocInfo> {
    this.live();
    const example = this.ctx.examples.find((e) => e.id === req.id);
    if (!example)
      throw new ContractFailure('usage', `no example '${req.id}' (examples: ${this.ctx.examples.map((e) => e.id).join(', ') || 'none'})`);
    // The host's own files: not subject to the user's file policy.
    const source = await fileSource(example.path);
    return this.registerFile(source, basename(example.path), true);
  }

  async closeDoc(req: RequestOf<'closeDoc'>): Promise<void> {
    const d = this.doc(req.doc);
    this.docs.delete(req.doc);
    await this.release(d);
  }

  private async release(d: OpenDoc): Promise<void> {
    if (d.source.upload === null) return;
    if (await this.ctx.uploads.release(d.source.upload, d.source.readPath)) this.ctx.models.drop(d.source.key);
  }

  private async analysisOf(d: OpenDoc, req: Omit<AnalyzeRequest, 'doc'>): Promise<Analysis> {
    const file = await this.model(d);
    const key = JSON.stringify([Object.entries(req.symbols).sort(([a], [b]) => (a < b ? -1 : 1)), req.defaultSymbol, req.target]);
    if (d.memo && d.memo.key === key && d.memo.file === file) return d.memo.analysis;
    const analysis = analyzeModel(file, {
      symbols: new Map(Object.entries(req.symbols).map(([k, value]) => [k, BigInt(value)])),
      defaultSymbol: req.defaultSymbol === null ? null : BigInt(req.defaultSymbol),
      target: req.target,
    });
    d.memo = { key, file, analysis };
    return analysis;
  }

  async analyze(req: AnalyzeRequest): Promise<AnalysisView> {
    const d = this.doc(req.doc);
    const analysis = await this.analysisOf(d, req);
    const file = await this.model(d);
    const check = this.profileOf(d, file, analysis.target);
    return this.ctx.views.analysis(
      analysis,
      check.ok ? withSymbolNeeds(check, this.needsOf(d, file), (s) => analysis.symbols.has(s)) : check,
    );
  }

  /** The symbols a build needs values for, once per parsed file (independent of the values and the target). */
  private needsOf(d: OpenDoc, file: SdfgFile): string[] {
    if (d.profile?.file !== file) d.profile = { file, byTarget: new Map(), needs: null };
    d.profile.needs ??= buildSymbolNames(file);
    return d.profile.needs;
  }

  /** Whether the window may offer Profile, and why not: the same verdict as `analyze`'s "Can profile" line. */
  // On the file as parsed, not the analysis' (already expanded with pure loops): the check expands it as the
  // build would, and can then also say what blas would give.
  private profileOf(d: OpenDoc, file: SdfgFile, target: Target): ProfileCheck {
    if (d.profile?.file !== file) d.profile = { file, byTarget: new Map(), needs: null };
    let check = d.profile.byTarget.get(target);
    if (!check) {
      check = profileCheck(file, target);
      d.profile.byTarget.set(target, check);
    }
    return check;
  }

  async graph(req: RequestOf<'graph'>): Promise<GraphRegion> {
    const d = this.doc(req.doc);
    const preview = d.preview;
    if (req.region === null && preview && !this.ctx.models.has(d.source.key)) {
      return this.ctx.views.graph(preview.file, null, null);
    }
    const file = await this.model(d);
    return this.ctx.views.graph(file, req.region, d.memo?.file === file ? d.memo.analysis : null);
  }

  async search(req: RequestOf<'search'>): Promise<SearchHit[]> {
    const d = this.doc(req.doc);
    return this.ctx.views.search(await this.model(d), req.query, req.limit);
  }

  /** The remote machine a request names, if the host allows it; a page can never make the host ssh anywhere else. */
  private remoteOf(req: ProfileRequest): { target: string; run: RemoteProfiler } | null {
    const target = req.remote ?? null;
    if (target === null) return null;
    const remote = this.ctx.remote;
    if (!remote || !remote.hosts.includes(target)) {
      const allowed = remote?.hosts.length ? `only ${remote.hosts.join(', ')}` : 'none';
      throw new ContractFailure('refused', `this host does not allow profiling on '${target}' (allowed remote hosts: ${allowed})`, {
        jsonPath: '$.remote',
        details: [
          'Remote hosts are chosen where Transient Lab is started: `transient-lab serve --remote HOST` (repeatable), or the desktop app started with `--remote=HOST`.',
        ],
      });
    }
    return { target, run: remote.run };
  }

  async profile(req: ProfileRequest): Promise<ProfileResult> {
    const d = this.doc(req.doc);
    const remote = this.remoteOf(req);
    const inputs = new Map<string, string>();
    for (const [name, path] of Object.entries(req.inputs)) inputs.set(name, await this.ctx.files.resolveRead(path, 'input'));
    if (d.source.upload === null) {
      // The profiler compiles what is on disk now: it must be what the renderer has been looking at.
      const st = await stat(d.source.readPath);
      if (st.size !== d.source.size || st.mtimeMs !== d.source.mtimeMs) {
        throw new TlabError('input', 'the file changed on disk since it was opened: open it again before profiling', {
          file: d.source.display,
        });
      }
    }
    const limit = req.timeoutS > 0 ? Math.min(req.timeoutS * 1000, this.ctx.options.maxProfileMs) : this.ctx.options.maxProfileMs;
    return this.ctx.jobs.run(this.id, req.job, limit, (signal) =>
      runProfileJob({
        req,
        sdfgPath: d.source.readPath,
        display: d.source.display,
        inputs,
        runner: this.ctx.createRunner(),
        remote,
        runnerTimeoutMs: limit,
        signal,
        onProgress: (event) => {
          if (!this.closed) this.sink.emit('profileProgress', event);
        },
      }),
    );
  }

  async cancel(req: RequestOf<'cancel'>): Promise<void> {
    this.live();
    this.ctx.jobs.cancel(this.id, req.job);
  }

  async openResult(req: RequestOf<'openResult'>): Promise<ResultDoc> {
    this.live();
    if ('path' in req) {
      const real = await this.ctx.files.resolveRead(req.path, 'result');
      return { name: basename(real), path: real, result: await readProfileFile(real, this.ctx.limits.uploadBytes) };
    }
    return { name: req.name, path: null, result: parseProfileBytes(req.bytes, req.name) };
  }

  async saveResult(req: RequestOf<'saveResult'>): Promise<{ path: string }> {
    this.live();
    const target = await this.ctx.files.resolveWrite(req.path, 'result');
    await writeProfileFile(target, req.result, this.ctx.limits.uploadBytes);
    return { path: target };
  }

  async exportReport(req: ExportReportRequest): Promise<ReportExport> {
    this.live();
    const d = req.doc === null ? null : this.doc(req.doc);
    const source = d
      ? { sdfgPath: d.source.readPath, display: d.source.display, missing: '' }
      : {
          sdfgPath: null,
          display: '',
          missing:
            'The report was exported without the profiled program open, so the lifetimes, the workspace map and the transients table are left out (open the SDFG and export again).',
        };
    return exportReport(req, source, this.ctx.printPdf);
  }

  /** Cancels this session's jobs (waiting for them to end) and releases its documents. */
  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ctx.jobs.cancelAll(this.id);
    const docs = [...this.docs.values()];
    this.docs.clear();
    await Promise.all(docs.map((d) => this.release(d)));
    this.onDispose();
  }
}
