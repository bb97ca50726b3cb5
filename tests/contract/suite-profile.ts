/**
 * The contract suite's profile requests and what follows them: progress, results saved, reopened and exported,
 * cancel, time limits, remote hosts over ssh, and refusals.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HostEvents, TransientLabClient } from '../../electron/ipc/contract.js';
import { parseCsv } from '../../electron/engine/report/csv.js';
import { parseProfileBytes } from '../../electron/host-kit/result-files.js';
import { HostError } from '../../renderer/src/host/errors.js';
import { descendants } from '../../electron/cli/children.js';
import type { TestSshd } from '../fixtures/sshd.js';
import { eventually, exampleBytes, fileBytes, runnerChildren, type Scratch } from './fixtures.js';
import { failure, LONG_RUN, loose, profileRequest, type SuiteContext } from './suite-kit.js';

export function profileTests(ctx: () => SuiteContext): void {
  let client: TransientLabClient;
  let scratch: Scratch;
  let sshd: TestSshd;
  beforeAll(() => {
    ({ client, scratch, sshd } = ctx());
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
}
