/**
 * The contract test suite, written once and run against every transport: browser mode's WebSocket today
 * (websocket.test.ts), the desktop app's IPC tomorrow (pass a `connect` that wires a fake ipcMain/ipcRenderer
 * pair, the preload and renderer/src/host/bridge.ts around the service). Every method is covered: the happy
 * path on the bundled examples, refusals of malformed payloads, a malformed SDFG, profile with progress,
 * cancel, timeout and concurrency, and a result saved and opened again.
 *
 * The host runs in this process whatever the transport, so the suite can also check that no runner child is
 * left behind.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisDocument } from '../../electron/engine/view/analysis-doc.js';
import {
  CONTRACT_VERSION,
  type ContractError,
  type HostEvents,
  type ProfileRequest,
  type TransientLabClient,
} from '../../electron/ipc/contract.js';
import type { TransientLabService } from '../../electron/service/index.js';
import { parseCsv } from '../../electron/engine/report/csv.js';
import { parseProfileBytes } from '../../electron/host-kit/result-files.js';
import { HostError } from '../../renderer/src/host/errors.js';
import { profileRemote } from '../../electron/runner/remote-host.js';
import { descendants } from '../../electron/cli/children.js';
import { describeDevices } from '../../electron/engine/profile/device.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { startTestSshd, type TestSshd } from '../fixtures/sshd.js';
import { eventually, exampleBytes, fileBytes, makeScratch, makeService, runnerChildren, type Scratch } from './fixtures.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface Connected {
  client: TransientLabClient;
  /** Closes the transport (the session's jobs end with it). */
  close(): Promise<void>;
}

/** How the suite's host reaches its allowed remote machine (an sshd on 127.0.0.1 the suite starts). */
interface SuiteRemote {
  hosts: string[];
  sshOptions: string[];
  remoteCommand: string;
}

export interface TransportFactory {
  name: string;
  /** A renderer-side client talking to a host that serves `service` over this transport. A transport that
   * builds its own service from the suite's (the engine host) also gets the remote machines' settings. */
  connect(service: TransientLabService, remote: SuiteRemote): Promise<Connected>;
}

/** The ContractError a rejected call carries (the client rejects with a HostError). */
export async function failure(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(HostError);
    return (err as HostError).toJSON();
  }
  throw new Error('expected the call to fail');
}

/** Bypasses the contract's types to send what a buggy or hostile page could. */
function loose(client: TransientLabClient): Record<string, (req: unknown) => Promise<unknown>> {
  return client as unknown as Record<string, (req: unknown) => Promise<unknown>>;
}

function profileRequest(doc: string, job: string, over: Partial<ProfileRequest> = {}): ProfileRequest {
  return {
    doc,
    job,
    modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
    layout: 'packed',
    calls: 3,
    warmup: 0,
    processes: 1,
    symbols: { N: '4096' },
    defaultSymbol: null,
    seed: '0',
    inputs: {},
    timeoutS: 0,
    ...over,
  };
}

/** A run long enough to be caught in its timed calls (hdiff, 100k calls). */
// Long on any machine: about 1 ms a call here (100k calls ≈ 2 min). At 32×32×8 (10 µs a call) a quicker machine
// finished the "slow" run inside its 2 s limit.
const LONG_RUN: Partial<ProfileRequest> = { modes: ['SCOPED'], calls: 100_000, symbols: { I: '128', J: '128', K: '40' } };

export function contractSuite(transport: TransportFactory): void {
  describe(`contract over ${transport.name}`, () => {
    let scratch: Scratch;
    let service: TransientLabService;
    let conn: Connected;
    let client: TransientLabClient;

    let sshd: TestSshd;
    let remote: SuiteRemote;

    beforeAll(async () => {
      scratch = await makeScratch();
      sshd = await startTestSshd();
      remote = { hosts: [sshd.target], sshOptions: sshd.sshOptions, remoteCommand: sshd.remoteCommand };
      service = await makeService(scratch, {
        remote: {
          hosts: remote.hosts,
          run: (file, options, target, onProgress) =>
            profileRemote(file, options, { target, sshOptions: remote.sshOptions, remoteCommand: remote.remoteCommand }, onProgress),
        },
      });
      conn = await transport.connect(service, remote);
      client = conn.client;
    });

    afterAll(async () => {
      await conn?.close();
      await service?.dispose();
      await sshd?.stop();
      await scratch?.remove();
    });

    describe('environment and folders', () => {
      it('environment names the contract, the host, the roots, the examples and the limits', async () => {
        const env = await client.environment({});
        expect(env.contract).toBe(CONTRACT_VERSION);
        expect(env.host).toBe('browser');
        expect(env.roots[0]).toBe(scratch.root);
        expect(env.openAtStart).toEqual([join(scratch.root, 'hdiff-copy.sdfg')]);
        expect(env.examples.map((e) => e.id)).toEqual(['chain', 'hdiff', 'vadv', 'vsmooth', 'workload-dycore']);
        expect(env.examples.at(-1)).toMatchObject({ kind: 'workload', description: expect.stringMatching(/hdiff → vsmooth/) });
        expect(env.examples.find((e) => e.id === 'hdiff')).toMatchObject({ symbols: { I: '128', J: '128', K: '80' } });
        expect(env.limits.uploadBytes).toBeGreaterThan(1 << 20);
        expect(env.remoteHosts).toEqual(['127.0.0.1']);
      });

      it('devices answers the CUDA devices `transient-lab devices` lists (or why there is none), the same to every call', async () => {
        // The CLI's path, asked directly: what the window is told must be what `transient-lab devices` says.
        const direct = await probeDevices();
        const answer = await client.devices({});
        expect(answer.devices).toEqual(direct.devices);
        expect(answer.runtime).toBe(describeDevices(direct)[0]);
        if (direct.devices.length) expect(answer.reason).toBeNull();
        else expect(answer.reason).toBe(direct.reason ?? 'none found');
        expect(await client.devices({})).toEqual(answer);
      });

      it('listFolder lists the first root, folders first, without hidden files or links leading out', async () => {
        const listing = await client.listFolder({ path: null });
        expect(listing.path).toBe(scratch.root);
        expect(listing.parent).toBeNull();
        const names = listing.entries.map((e) => e.name);
        expect(names.slice(0, 2)).toEqual(['.dacecache', 'sub']);
        expect(names).toEqual(expect.arrayContaining(['broken.sdfg', 'hdiff-copy.sdfg', 'link-in.sdfg', 'notes.json']));
        expect(names).not.toContain('.hidden.sdfg');
        expect(names).not.toContain('link-out.sdfg');
        expect(names).not.toContain('dir-out');
        expect(listing.entries.find((e) => e.name === 'hdiff-copy.sdfg')).toMatchObject({ kind: 'sdfg', bytes: expect.any(Number) });
        const sub = await client.listFolder({ path: 'sub' });
        expect(sub.parent).toBe(scratch.root);
        expect(sub.entries.map((e) => e.name)).toEqual(['chain.sdfg']);
      });

      it('listFolder lists a DaCe build folder as one `dace` entry; openFile opens its SDFG with the "built by" line', async () => {
        const listing = await client.listFolder({ path: '.dacecache' });
        expect(listing.entries.map((e) => [e.name, e.kind, e.bytes])).toEqual([
          ['hdiff', 'dace', null],
          ['only-sdfg', 'folder', null],
        ]);
        const info = await client.openFile({ path: listing.entries[0]!.path });
        try {
          expect(info.name).toBe('hdiff');
          expect(info.stats.transients).toBe(3);
          expect(info.daceBuild).toEqual({
            folder: join(scratch.root, '.dacecache', 'hdiff'),
            builtBy: 'built by DaCe 1.0.2, Release, g++, flags -fPIC -O3',
          });
          // The complete DocInfo keeps it.
          expect((await client.docInfo({ doc: info.doc })).daceBuild).toEqual(info.daceBuild);
        } finally {
          await client.closeDoc({ doc: info.doc });
        }
        const plain = await client.openFile({ path: join(scratch.root, 'hdiff-copy.sdfg') });
        expect(plain.daceBuild).toBeUndefined();
        await client.closeDoc({ doc: plain.doc });
      });

      it('listFolder refuses folders outside the roots', async () => {
        expect((await failure(client.listFolder({ path: scratch.outside }))).kind).toBe('refused');
        expect((await failure(client.listFolder({ path: 'dir-out' }))).kind).toBe('refused');
        expect((await failure(client.listFolder({ path: '..' }))).kind).toBe('refused');
      });
    });

    describe('documents', () => {
      it('openExample returns DocInfo: SDFGs, symbols to edit, target', async () => {
        const doc = await client.openExample({ id: 'hdiff' });
        expect(doc).toMatchObject({ name: 'hdiff.sdfg', compressed: false, target: 'cpu', generation: expect.any(String) });
        expect(doc.path).toMatch(/assets\/examples\/hdiff\.sdfg$/);
        expect(doc.sdfgs).toEqual([{ index: 0, name: 'hdiff', parent: null, jsonPath: '$' }]);
        expect(doc.symbols.map((s) => s.name)).toEqual(['I', 'J', 'K']);
        expect(doc.stats.transients).toBe(3);
        // The file's sha256: what a profile of it records as program.hash (the window offers a file's last results by it).
        expect(doc.sha256).toBe(sha256(await readFile(doc.path!)));
        await client.closeDoc({ doc: doc.doc });
      });

      it('openFile takes paths relative to the first root, absolute ones inside, and links that stay inside', async () => {
        const a = await client.openFile({ path: 'hdiff-copy.sdfg' });
        const b = await client.openFile({ path: join(scratch.root, 'sub', 'chain.sdfg') });
        const c = await client.openFile({ path: 'link-in.sdfg' });
        expect(a.path).toBe(join(scratch.root, 'hdiff-copy.sdfg'));
        expect(b.name).toBe('chain.sdfg');
        expect(c.path).toBe(a.path);
        expect(new Set([a.doc, b.doc, c.doc]).size).toBe(3);
        for (const d of [a, b, c]) await client.closeDoc({ doc: d.doc });
      });

      it('openFile refuses paths out of the roots: .., absolute, links out, and never decodes %2e%2e', async () => {
        for (const path of [
          '../outside/secret.sdfg',
          'sub/../../outside/secret.sdfg',
          join(scratch.outside, 'secret.sdfg'),
          '/etc/passwd',
          'link-out.sdfg',
          'dir-out/secret.sdfg',
        ]) {
          const e = await failure(client.openFile({ path }));
          expect(e.kind, path).toBe('refused');
          expect(e.file).toBe(path);
        }
        // A literal "%2e%2e" folder name is just a name: not found inside the root, nothing read outside.
        const encoded = await failure(client.openFile({ path: '%2e%2e/outside/secret.sdfg' }));
        expect(encoded.kind).toBe('input');
        expect(encoded.message).toMatch(/does not exist/);
      });

      it('a malformed SDFG fails with the file and the JSON path', async () => {
        const e = await failure(client.openFile({ path: 'broken.sdfg' }));
        expect(e).toMatchObject({ kind: 'input', jsonPath: '$.nodes[0].nodes' });
        expect(e.file).toBe(join(scratch.root, 'broken.sdfg'));
        expect(e.message).toMatch(/must be a list/);
      });

      it('openUpload parses bytes; a malformed upload names the upload and the JSON path', async () => {
        const doc = await client.openUpload({ name: 'my-chain.sdfg', bytes: exampleBytes('chain.sdfg') });
        expect(doc).toMatchObject({ name: 'my-chain.sdfg', path: null, fileBytes: exampleBytes('chain.sdfg').byteLength });
        expect(doc.symbols.map((s) => s.name)).toEqual(['N']);
        expect(doc.sha256).toBe(sha256(exampleBytes('chain.sdfg')));
        const e = await failure(client.openUpload({ name: 'bad.sdfg', bytes: await fileBytes(join(scratch.root, 'broken.sdfg')) }));
        expect(e).toMatchObject({ kind: 'input', file: 'bad.sdfg', jsonPath: '$.nodes[0].nodes' });
        await client.closeDoc({ doc: doc.doc });
      });

      it('a big file opens as a preview of its root; docInfo answers the whole file and the root redrawn complete', async () => {
        const doc = await client.openFile({ path: 'nested.sdfgz' });
        expect(doc.preview).toBe(true);
        expect(doc.stats.sdfgs).toBe(1);
        const first = await client.graph({ doc: doc.doc, region: null });
        const deferred = first.nodes.filter((n) => n.summary?.partial);
        expect(deferred.length).toBeGreaterThan(0);
        // A preview's bytes are hashed once the whole file is read, not before the first frame.
        expect(doc.sha256).toBeUndefined();
        const full = await client.docInfo({ doc: doc.doc });
        expect(full.preview).toBeUndefined();
        expect(full.sha256).toBe(sha256(await readFile(join(scratch.root, 'nested.sdfgz'))));
        expect(full).toMatchObject({ doc: doc.doc, name: 'nested.sdfgz', stats: { sdfgs: 4 } });
        expect(full.sdfgs).toHaveLength(4);
        expect(await client.docInfo({ doc: doc.doc })).toEqual(full);
        const root = await client.graph({ doc: doc.doc, region: null });
        expect(root.nodes.map((n) => n.id)).toEqual(first.nodes.map((n) => n.id));
        expect(root.nodes.some((n) => n.summary?.partial)).toBe(false);
        // Nested regions and the analysis come from the full model.
        const nested = root.nodes.find((n) => n.id === deferred[0]!.id)!;
        expect((await client.graph({ doc: doc.doc, region: nested.expand! })).nodes.length).toBeGreaterThan(0);
        const view = await client.analyze({ doc: doc.doc, symbols: {}, defaultSymbol: '16', target: null });
        expect(view.sdfgs).toEqual(full.sdfgs);
        // A small file, or one opened again once its model is held, is complete at once.
        const again = await client.openFile({ path: 'nested.sdfgz' });
        expect(again.preview).toBeUndefined();
        expect((await client.openExample({ id: 'hdiff' })).preview).toBeUndefined();
        expect((await failure(client.docInfo({ doc: 'd999' }))).kind).toBe('usage');
        for (const d of [doc, again]) await client.closeDoc({ doc: d.doc });
      });

      it('closeDoc closes: the handle is unknown afterwards', async () => {
        const doc = await client.openExample({ id: 'chain' });
        await client.closeDoc({ doc: doc.doc });
        const e = await failure(client.analyze({ doc: doc.doc, symbols: {}, defaultSymbol: null, target: null }));
        expect(e.kind).toBe('usage');
        expect((await failure(client.closeDoc({ doc: doc.doc }))).kind).toBe('usage');
        expect((await failure(client.openExample({ id: 'nope' }))).kind).toBe('usage');
      });
    });

    describe('views', () => {
      it('analyze returns analysis@1 (with sdfgs[]) and one memory curve point per step', async () => {
        const doc = await client.openExample({ id: 'chain' });
        const view = await client.analyze({ doc: doc.doc, symbols: { N: '1000' }, defaultSymbol: null, target: null });
        const analysis = analysisDocument(view);
        expect(analysis.schema).toBe('transient-lab/analysis@1');
        // The code generator's verdict rides along (the window's Profile button follows it).
        expect(view.analysis.profile).toEqual({ ok: true });
        expect(view.sdfgs).toEqual(doc.sdfgs);
        expect(analysis.transients.map((t) => t.bytes)).toEqual([8000, 8000, 8000, 8000]);
        const heap = view.memory.find((m) => m.storage === 'CPU_Heap')!;
        const curve = (mode: string) => heap.curves!.find((c) => c.mode === mode)!.bytes.map(Number);
        expect(curve('SCOPED')).toHaveLength(analysis.steps.length);
        // chain: at most two of the four 8000-byte transients are live at a time.
        expect(Math.max(...curve('SCOPED'))).toBe(16000);
        expect(curve('PERSISTENT').every((b) => b === 32000)).toBe(true);
        // Symbols change the sizes.
        const bigger = await client.analyze({ doc: doc.doc, symbols: { N: '2000' }, defaultSymbol: null, target: null });
        expect(bigger.table.bytes[0]).toBe(16000);
        await client.closeDoc({ doc: doc.doc });
      });

      it('graph returns the root region and search finds a transient', async () => {
        const doc = await client.openExample({ id: 'hdiff' });
        const root = await client.graph({ doc: doc.doc, region: null });
        expect(root.nodes.length).toBeGreaterThan(0);
        const hits = await client.search({ doc: doc.doc, query: 'lap', limit: 10 });
        expect(hits.length).toBeGreaterThan(0);
        await client.closeDoc({ doc: doc.doc });
      });
    });

    describe('workloads', () => {
      it('opens a workload: its programs in DocInfo, the Workload view, the advisor, and a program as an SDFG', async () => {
        const doc = await client.openExample({ id: 'workload-dycore' });
        expect(doc.workload).toMatchObject({ name: 'dycore-step', sequence: ['hdiff', 'vsmooth', 'vadv', 'chain', 'hdiff'], steps: 4 });
        expect(doc.workload!.programs.map((p) => p.file)).toEqual(['hdiff.sdfg', 'vsmooth.sdfg', 'vadv.sdfg', 'chain.sdfg']);
        const req = { doc: doc.doc, symbols: {}, defaultSymbol: null, target: null, layout: 'packed' as const };
        const view = await client.workloadView(req);
        const heap = view.timelines.find((t) => t.storage === 'CPU_Heap')!;
        expect(view.calls).toHaveLength(5);
        expect(Number(heap.external.band)).toBe(Math.max(...heap.external.use.map(Number)));
        expect(Number(heap.persistent.total)).toBe(heap.persistent.blocks.reduce((a, b) => a + Number(b.bytes), 0));
        expect(heap.external.sizedBy).toBe('hdiff');
        const advice = await client.advise({ ...req, sweep: { symbol: 'K', values: ['20', '40', '80', '160'] } });
        expect(advice.recommendations[0]).toMatchObject({ storage: 'CPU_Heap', mode: 'EXTERNAL', workspaceBytes: heap.external.band });
        expect(advice.sweep!.values).toEqual([20, 40, 80, 160]);
        expect(advice.sweep!.storages[0]!.packed.bytes[2]).toBe(heap.external.band);
        // Symbols override the workload's shared ones.
        const small = await client.workloadView({ ...req, symbols: { I: '64', J: '64' } });
        expect(Number(small.timelines[0]!.persistent.blocks[0]!.bytes)).toBeLessThan(Number(heap.persistent.blocks[0]!.bytes));
        // A workload has no graph of its own.
        expect((await failure(client.graph({ doc: doc.doc, region: null }))).kind).toBe('usage');
        const program = await client.openProgram({ doc: doc.doc, program: 'vadv' });
        expect(program).toMatchObject({ name: 'vadv.sdfg' });
        expect((await client.graph({ doc: program.doc, region: null })).nodes.length).toBeGreaterThan(0);
        // The advisor works on a single SDFG too.
        const one = await client.advise({ ...req, doc: program.doc, symbols: { I: '128', J: '128', K: '80' }, sweep: null });
        expect(one.subject).toMatchObject({ kind: 'sdfg', calls: 1 });
        expect((await failure(client.openProgram({ doc: doc.doc, program: 'nope' }))).jsonPath).toBe('$.program');
        await client.closeDoc({ doc: program.doc });
        await client.closeDoc({ doc: doc.doc });
      });

      it('says what a file is, and holds a workload to the allowed folders', async () => {
        const inside = join(scratch.root, 'w-in.json');
        const outside = join(scratch.root, 'w-out.json');
        const workload = (sdfg: string) =>
          JSON.stringify({ schema: 'transient-lab/workload@1', programs: { a: { sdfg } }, sequence: ['a'] });
        await writeFile(inside, workload('hdiff-copy.sdfg'));
        await writeFile(outside, workload(join(scratch.outside, 'secret.sdfg')));
        expect(await client.fileKind({ path: inside })).toEqual({ kind: 'workload' });
        expect(await client.fileKind({ path: 'notes.json' })).toEqual({ kind: 'result' });
        expect(await client.fileKind({ path: 'hdiff-copy.sdfg' })).toEqual({ kind: 'sdfg' });
        const doc = await client.openFile({ path: inside });
        expect(doc.workload!.programs).toEqual([{ key: 'a', file: 'hdiff-copy.sdfg' }]);
        await client.closeDoc({ doc: doc.doc });
        // A DaCe build folder as a program: the SDFG DaCe saved in it.
        const dace = join(scratch.root, 'w-dace.json');
        await writeFile(
          dace,
          JSON.stringify({ schema: 'transient-lab/workload@1', programs: { h: { prebuilt: '.dacecache/hdiff' } }, sequence: ['h'] }),
        );
        const daceDoc = await client.openFile({ path: dace });
        expect(daceDoc.workload!.programs).toEqual([{ key: 'h', file: 'program.sdfg' }]);
        await client.closeDoc({ doc: daceDoc.doc });
        const refused = await failure(client.openFile({ path: outside }));
        expect(refused.jsonPath).toBe('$.programs.a.sdfg');
        expect(refused.message).toMatch(/program 'a'/);
        const upload = await failure(client.openUpload({ name: 'w.json', bytes: await fileBytes(inside) }));
        expect(upload).toMatchObject({ kind: 'unsupported', file: 'w.json' });
        expect(upload.message).toMatch(/open it by path/);
      });
    });

    describe('validation', () => {
      it('refuses malformed payloads of every method with the field as JSON path', async () => {
        const c = loose(client);
        const cases: Array<[string, unknown, string]> = [
          ['environment', { extra: 1 }, '$.extra'],
          ['listFolder', {}, '$.path'],
          ['openFile', { path: 7 }, '$.path'],
          ['openFile', { path: 'a\0b' }, '$.path'],
          ['openFile', { path: 'x'.repeat(5000) }, '$.path'],
          ['openUpload', { name: 'a.sdfg', bytes: 'not bytes' }, '$.bytes'],
          ['openUpload', { name: '../a.sdfg', bytes: new Uint8Array([1]) }, '$.name'],
          ['openExample', { id: '../../etc' }, '$.id'],
          ['closeDoc', { doc: '' }, '$.doc'],
          ['analyze', { doc: 'd1', symbols: { N: 'abc' }, defaultSymbol: null, target: null }, '$.symbols.N'],
          ['analyze', { doc: 'd1', symbols: { 'not a name': '1' }, defaultSymbol: null, target: null }, '$.symbols["not a name"]'],
          ['analyze', { doc: 'd1', symbols: {}, defaultSymbol: null, target: 'tpu' }, '$.target'],
          ['graph', { doc: 'd1', region: 5 }, '$.region'],
          ['search', { doc: 'd1', query: 'x', limit: 100000 }, '$.limit'],
          ['profile', profileRequest('d1', 'j', { calls: 0 }), '$.calls'],
          ['profile', profileRequest('d1', 'j', { processes: 17 }), '$.processes'],
          ['profile', profileRequest('d1', 'j', { modes: [] }), '$.modes'],
          ['profile', profileRequest('d1', 'j', { modes: ['SCOPED', 'SCOPED'] }), '$.modes'],
          ['profile', profileRequest('d1', 'j', { seed: '-1' }), '$.seed'],
          ['profile', profileRequest('d1', 'j', { calls: 100000, processes: 16 }), '$'],
          ['profile', { ...profileRequest('d1', 'j'), extra: true }, '$.extra'],
          ['cancel', { job: 'a b' }, '$.job'],
          ['openResult', { name: 'r.json' }, '$'],
          ['saveResult', { path: 'r.json', result: { schema: 'transient-lab/profile@1' } }, '$.result.program'],
          ['exportReport', { results: [], format: 'html', doc: null }, '$.results'],
          [
            'exportReport',
            { results: [{ label: 'a', result: { schema: 'transient-lab/profile@1' } }], format: 'html', doc: null },
            '$.results[0].result.program',
          ],
          ['exportReport', { results: [], format: 'docx', doc: null }, '$.results'],
          ['exportReport', { results: [], format: 'html', doc: null, path: '/tmp/x' }, '$.results'],
          ['fileKind', { path: 3 }, '$.path'],
          ['workloadView', { doc: 'd1', symbols: {}, defaultSymbol: null, target: null, layout: 'tight' }, '$.layout'],
          [
            'advise',
            { doc: 'd1', symbols: {}, defaultSymbol: null, target: null, layout: 'packed', sweep: { symbol: 'N', values: ['1', '2'] } },
            '$.sweep.values',
          ],
          ['openProgram', { doc: 'd1', program: '' }, '$.program'],
          ['devices', { all: true }, '$.all'],
        ];
        for (const [method, req, path] of cases) {
          const e = await failure(c[method]!(req));
          expect(e.kind, `${method} ${JSON.stringify(req).slice(0, 80)}`).toBe('usage');
          expect(e.jsonPath, `${method} ${JSON.stringify(req).slice(0, 80)}`).toBe(path);
        }
      });
    });

    describe('profile', () => {
      it('runs with progress events, then the result saves and reopens (file and upload)', { timeout: 600_000 }, async () => {
        const doc = await client.openExample({ id: 'chain' });
        const events: Array<HostEvents['profileProgress']> = [];
        const off = client.on('profileProgress', (e) => events.push(e));
        const result = await client.profile(profileRequest(doc.doc, 'run-1'));
        off();
        expect(result.schema).toBe('transient-lab/profile@1');
        expect(result.modes.map((m) => m.mode)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']);
        expect(result.modes[0]!.calls.totalNs).toHaveLength(3);
        expect(result.verification.ok).toBe(true);
        expect(result.program.hash).toBe(doc.sha256);
        expect(events.every((e) => e.job === 'run-1')).toBe(true);
        const stages = new Set(events.map((e) => e.stage));
        for (const stage of ['parse', 'build', 'verify', 'calls', 'compare'] as const) expect(stages, stage).toContain(stage);
        const calls = events.filter((e) => e.stage === 'calls');
        expect(calls.at(-1)).toMatchObject({ done: 3, total: 3 });

        const saved = await client.saveResult({ path: 'sub/run-1.json', result });
        expect(saved.path).toBe(join(scratch.root, 'sub', 'run-1.json'));
        const reopened = await client.openResult({ path: 'sub/run-1.json' });
        expect(reopened).toMatchObject({ name: 'run-1.json', path: saved.path });
        expect(reopened.result).toEqual(JSON.parse(JSON.stringify(result)));
        const uploaded = await client.openResult({ name: 'copy.json', bytes: await fileBytes(saved.path) });
        expect(uploaded).toMatchObject({ name: 'copy.json', path: null });
        expect(uploaded.result).toEqual(reopened.result);
        // Replacing a result is allowed; replacing anything else, a non-.json name or a path outside is not.
        await client.saveResult({ path: 'sub/run-1.json', result });
        expect((await failure(client.saveResult({ path: 'notes.json', result }))).kind).toBe('refused');
        expect((await failure(client.saveResult({ path: 'run.txt', result }))).kind).toBe('usage');
        expect((await failure(client.saveResult({ path: '../outside/r.json', result }))).kind).toBe('refused');
        expect((await failure(client.saveResult({ path: 'dir-out/r.json', result }))).kind).toBe('refused');
        expect(existsSync(join(scratch.outside, 'r.json'))).toBe(false);
        await client.closeDoc({ doc: doc.doc });
      });

      it('a profile of an upload names the upload, not the private copy', { timeout: 600_000 }, async () => {
        const doc = await client.openUpload({ name: 'uploaded-chain.sdfg', bytes: exampleBytes('chain.sdfg') });
        const result = await client.profile(profileRequest(doc.doc, 'up-1', { modes: ['SCOPED'] }));
        expect(result.program.file).toBe('uploaded-chain.sdfg');
        await client.closeDoc({ doc: doc.doc });
      });

      it('exports a report of a result as HTML, CSV, JSON and PDF (or says that PDF needs Chromium)', { timeout: 300_000 }, async () => {
        const { result } = await client.openResult({ path: 'sub/run-1.json' });
        const doc = await client.openExample({ id: 'chain' });
        const results = [{ label: 'run-1', result }];

        const html = await client.exportReport({ results, format: 'html', doc: doc.doc });
        expect(html.format).toBe('html');
        expect(html.files).toHaveLength(1);
        expect(html.files[0]).toMatchObject({ name: `${result.program.name}-report.html`, mime: 'text/html;charset=utf-8' });
        expect(html.files[0]!.bytes).toBeInstanceOf(Uint8Array);
        const page = new TextDecoder().decode(html.files[0]!.bytes);
        expect(page).toMatch(/Content-Security-Policy/);
        // The report is of this result (it re-opens as it), with the open program's analysis (same sha256).
        expect(parseProfileBytes(html.files[0]!.bytes, 'report.html')).toEqual(result);
        expect(page).toContain('id="tlab-analysis"');
        expect(html.analysisNote).toMatch(/same sha256/);

        // An uploaded program: the note names the upload, never the host's private copy.
        const up = await client.openUpload({ name: 'uploaded-chain.sdfg', bytes: exampleBytes('chain.sdfg') });
        const fromUpload = await client.exportReport({ results, format: 'html', doc: up.doc });
        expect(fromUpload.analysisNote).toMatch(/^Analysis of uploaded-chain\.sdfg \(the profiled file: same sha256\)/);
        await client.closeDoc({ doc: up.doc });

        const bare = await client.exportReport({ results, format: 'html', doc: null });
        expect(bare.analysisNote).toMatch(/without the profiled program open/);

        const csv = await client.exportReport({ results, format: 'csv', doc: null });
        expect(csv.files.map((f) => f.name)).toEqual([`${result.program.name}-report.csv`, `${result.program.name}-report.summary.csv`]);
        const rows = parseCsv(new TextDecoder().decode(csv.files[0]!.bytes));
        expect(rows.length - 1).toBe(result.modes.reduce((n, m) => n + m.calls.totalNs.length, 0));
        expect(parseCsv(new TextDecoder().decode(csv.files[1]!.bytes)).length - 1).toBe(result.modes.length);

        const json = await client.exportReport({ results, format: 'json', doc: null });
        expect(JSON.parse(new TextDecoder().decode(json.files[0]!.bytes))).toEqual(result);
        const two = await failure(client.exportReport({ results: [...results, { label: 'again', result }], format: 'json', doc: null }));
        expect(two.kind).toBe('usage');
        expect(two.message).toMatch(/exactly one result/);
        const cmp = await client.exportReport({ results: [...results, { label: 'again', result }], format: 'html', doc: null });
        expect(cmp.files[0]!.name).toBe(`${result.program.name}-comparison.html`);

        // PDF: printed where the host has a printer (the desktop engine host looks for Chromium on the PATH), else
        // refused plainly (the test service has none).
        const pdf = await client.exportReport({ results, format: 'pdf', doc: null }).then(
          (value) => ({ value, error: null }),
          (err: unknown) => ({ value: null, error: (err as HostError).toJSON() }),
        );
        if (pdf.value) {
          expect(pdf.value.files[0]!.name).toBe(`${result.program.name}-report.pdf`);
          expect(new TextDecoder().decode(pdf.value.files[0]!.bytes.subarray(0, 5))).toBe('%PDF-');
        } else {
          expect(pdf.error).toMatchObject({ kind: 'unsupported' });
          expect(pdf.error.message).toMatch(/PDF needs Chromium/);
        }
        expect((await failure(client.exportReport({ results, format: 'html', doc: 'd999' }))).kind).toBe('usage');
        await client.closeDoc({ doc: doc.doc });
      });

      it('refuses a newer schema and foreign JSON with a clear error', async () => {
        const text = (await readFile(join(scratch.root, 'sub', 'run-1.json'), 'utf8')).replace(
          'transient-lab/profile@1',
          'transient-lab/profile@2',
        );
        await writeFile(join(scratch.root, 'newer.json'), text);
        const newer = await failure(client.openResult({ path: 'newer.json' }));
        expect(newer).toMatchObject({ kind: 'input', jsonPath: '$.schema', file: join(scratch.root, 'newer.json') });
        expect(newer.message).toMatch(/newer Transient Lab/);
        const foreign = await failure(client.openResult({ path: 'notes.json' }));
        expect(foreign).toMatchObject({ kind: 'input', jsonPath: '$.schema' });
        expect(foreign.message).toMatch(/not a Transient Lab result/);
        const junk = await failure(client.openResult({ name: 'junk.json', bytes: new TextEncoder().encode('{oops') }));
        expect(junk).toMatchObject({ kind: 'input', file: 'junk.json' });
        const broken = JSON.parse(text.replace('profile@2', 'profile@1')) as { modes: Array<{ calls: { totalNs: unknown } }> };
        broken.modes[0]!.calls.totalNs = 'fast';
        const shape = await failure(client.openResult({ name: 'shape.json', bytes: new TextEncoder().encode(JSON.stringify(broken)) }));
        expect(shape).toMatchObject({ kind: 'input', jsonPath: '$.modes[0].calls.totalNs' });
      });

      it('cancel stops a running profile, refuses a second one meanwhile, and leaves no runner process', { timeout: 600_000 }, async () => {
        const doc = await client.openExample({ id: 'hdiff' });
        let sawRunner = false;
        let running!: () => void;
        const inRunner = new Promise<void>((r) => (running = r));
        const off = client.on('profileProgress', (e) => {
          if (e.job === 'long' && (e.stage === 'verify' || e.stage === 'calls')) {
            sawRunner ||= runnerChildren().length > 0;
            running();
          }
        });
        const long = client.profile(profileRequest(doc.doc, 'long', LONG_RUN));
        await inRunner;
        const second = await failure(client.profile(profileRequest(doc.doc, 'second', { modes: ['SCOPED'] })));
        expect(second.kind).toBe('refused');
        expect((await failure(client.profile(profileRequest(doc.doc, 'long', LONG_RUN)))).kind).toBe('usage');
        await client.cancel({ job: 'long' });
        expect((await failure(long)).kind).toBe('cancelled');
        off();
        expect(sawRunner).toBe(true);
        expect(await eventually(() => runnerChildren().length === 0)).toBe(true);
        // Cancelling again, or a job that never existed, is not an error.
        await client.cancel({ job: 'long' });
        await client.cancel({ job: 'never' });
        await client.closeDoc({ doc: doc.doc });
      });

      it('a profile past its time limit fails as a timed-out run and leaves no runner process', { timeout: 600_000 }, async () => {
        const doc = await client.openExample({ id: 'hdiff' });
        const e = await failure(client.profile(profileRequest(doc.doc, 'slow', { ...LONG_RUN, timeoutS: 2 })));
        expect(e.kind).toBe('run');
        expect(e.message).toMatch(/timed out after 2 s/);
        expect(await eventually(() => runnerChildren().length === 0)).toBe(true);
        await client.closeDoc({ doc: doc.doc });
      });

      it('refuses a remote host the host process was not told to allow, before starting anything', async () => {
        const doc = await client.openExample({ id: 'chain' });
        for (const host of ['evil.example.org', 'root@127.0.0.1', '127.0.0.2', '-oProxyCommand=touch /tmp/x']) {
          const e = await failure(client.profile(profileRequest(doc.doc, 'r-bad', { modes: ['SCOPED'], remote: host })));
          expect(e.kind, host).toBe('refused');
          expect(e.jsonPath).toBe('$.remote');
          expect(e.message).toContain('allowed remote hosts: only 127.0.0.1');
        }
        expect(descendants(sshd.pid)).toEqual([]);
        expect((await failure(loose(client).profile!({ ...profileRequest(doc.doc, 'r-type'), remote: 7 }))).jsonPath).toBe('$.remote');
        await client.closeDoc({ doc: doc.doc });
      });

      it('runs a profile on an allowed remote host over ssh, with progress, and cancels one there', { timeout: 600_000 }, async () => {
        const doc = await client.openExample({ id: 'hdiff' });
        const stages: string[] = [];
        const off = client.on('profileProgress', (e) => e.job === 'r-ok' && stages.push(e.stage));
        const result = await client.profile(
          profileRequest(doc.doc, 'r-ok', { modes: ['SCOPED', 'EXTERNAL'], symbols: { I: '32', J: '32', K: '8' }, remote: '127.0.0.1' }),
        );
        off();
        expect(result.modes.map((m) => m.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
        expect(result.verification.ok).toBe(true);
        expect(result.notes.some((n) => n.startsWith('built and run on 127.0.0.1 over ssh'))).toBe(true);
        expect(stages).toContain('build');
        expect(stages).toContain('calls');
        // Cancel reaches the remote run: the agent and its runner are gone afterwards.
        let inCalls!: () => void;
        const calling = new Promise<void>((r) => (inCalls = r));
        const off2 = client.on('profileProgress', (e) => e.job === 'r-long' && e.stage === 'calls' && inCalls());
        const long = client.profile(profileRequest(doc.doc, 'r-long', { ...LONG_RUN, remote: '127.0.0.1' }));
        await calling;
        expect(descendants(sshd.pid).length).toBeGreaterThan(0);
        await client.cancel({ job: 'r-long' });
        expect((await failure(long)).kind).toBe('cancelled');
        off2();
        expect(await eventually(() => descendants(sshd.pid).length === 0, 15_000)).toBe(true);
        await client.closeDoc({ doc: doc.doc });
      });

      it('a profile of an unsupported or malformed document fails with the engine error', async () => {
        const e = await failure(client.profile(profileRequest('d999', 'x')));
        expect(e.kind).toBe('usage');
        const doc = await client.openExample({ id: 'chain' });
        const input = await failure(client.profile(profileRequest(doc.doc, 'bad-input', { inputs: { inp: '../outside/x.npy' } })));
        expect(input.kind).toBe('refused');
        await client.closeDoc({ doc: doc.doc });
      });
    });
  });
}
