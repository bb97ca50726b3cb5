/**
 * The contract suite's environment, folder and document requests: environment, devices, listFolder, openFile,
 * openUpload, openExample, docInfo (a preview, then the whole file) and closeDoc.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION, type TransientLabClient } from '../../electron/ipc/contract.js';
import { describeDevices } from '../../electron/engine/profile/device.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { exampleBytes, fileBytes, type Scratch } from './fixtures.js';
import { failure, sha256, type SuiteContext } from './suite-kit.js';

export function documentTests(ctx: () => SuiteContext): void {
  let client: TransientLabClient;
  let scratch: Scratch;
  beforeAll(() => {
    ({ client, scratch } = ctx());
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
}
