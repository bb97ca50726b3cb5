/**
 * The engine host (electron/engine-host/entry.ts) and main's client for it (electron/shell/engine-client.ts),
 * with the desktop configuration: only approved paths open; events reach the right window's session; when the
 * engine process dies, pending calls fail with a clear message, its runner processes are killed, and the next
 * call starts a fresh engine that knows the approved paths again.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineToMain, MainToEngine } from '../../electron/host-kit/engine-protocol.js';
import { examplesDir } from '../../electron/engine/paths.js';
import { DEFAULT_LIMITS } from '../../electron/ipc/contract-schema.js';
import type { HostEvents, ProfileRequest } from '../../electron/ipc/contract.js';
import { ContractFailure } from '../../electron/ipc/errors.js';
import { fromUtilityProcess } from '../../electron/runner/child.js';
import { UtilityProcessRunnerHost } from '../../electron/runner/host-electron.js';
import { GoneRegistry } from '../../electron/shell/child-gone.js';
import { EngineClient } from '../../electron/shell/engine-client.js';
import { shellPaths } from '../../electron/shell/paths.js';
import { eventually, runnerChildren } from '../contract/fixtures.js';
import { fakeElectron } from './fake-electron.js';

let dir: string;
let engine: EngineClient;
let logs: string[];

/** The ContractError a rejected call carries. */
async function failure(p: Promise<unknown>): Promise<ContractFailure['error']> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ContractFailure);
  return (err as ContractFailure).error;
}

const request = (doc: string, job: string, over: Partial<ProfileRequest> = {}): ProfileRequest => ({
  doc,
  job,
  modes: ['SCOPED'],
  layout: 'packed',
  calls: 100_000,
  warmup: 0,
  processes: 1,
  symbols: { I: '32', J: '32', K: '8' },
  defaultSymbol: null,
  seed: '0',
  inputs: {},
  timeoutS: 0,
  ...over,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-engine-host-'));
  await copyFile(join(examplesDir(), 'chain.sdfg'), join(dir, 'mine.sdfg'));
  await copyFile(join(examplesDir(), 'vadv.sdfg'), join(dir, 'other.sdfg'));
  const electron = fakeElectron(dir);
  const gone = new GoneRegistry(electron.seam.app);
  const fork = electron.seam.utilityProcess.fork;
  let n = 0;
  logs = [];
  engine = new EngineClient({
    spawn: () => {
      const serviceName = `engine-test-${++n}`;
      return fromUtilityProcess<MainToEngine, EngineToMain>(
        fork(shellPaths().engineEntry, [], { serviceName, stdio: 'pipe', execArgv: [] }),
        () => gone.wait(serviceName),
      );
    },
    config: { host: 'electron', files: { kind: 'approved' }, openAtStart: [], limits: DEFAULT_LIMITS },
    createRunner: () => new UtilityProcessRunnerHost({ fork, goneDetails: gone.wait }),
    log: (line) => logs.push(line),
  });
});

afterAll(async () => {
  await engine?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('engine host', () => {
  it('is an electron host whose renderer may open exactly the approved paths', async () => {
    const session = engine.openSession({ emit() {} });
    const env = await session.environment({});
    expect(env).toMatchObject({ host: 'electron', roots: [], openAtStart: [] });
    expect(env.examples.map((e) => e.id)).toEqual(['chain', 'hdiff', 'vadv', 'vsmooth', 'workload-dycore']);
    const refused = await failure(session.openFile({ path: join(dir, 'mine.sdfg') }));
    expect(refused).toMatchObject({ kind: 'refused', message: expect.stringMatching(/Open dialog/) });
    expect(await engine.approve(join(dir, 'mine.sdfg'))).toBe(join(dir, 'mine.sdfg'));
    const doc = await session.openFile({ path: join(dir, 'mine.sdfg') });
    expect(doc).toMatchObject({ name: 'mine.sdfg', path: join(dir, 'mine.sdfg') });
    expect((await failure(session.openFile({ path: join(dir, 'other.sdfg') }))).kind).toBe('refused');
    expect((await failure(session.listFolder({ path: null }))).kind).toBe('refused');
    const missing = await failure(engine.approve(join(dir, 'nope.sdfg')));
    expect(missing).toMatchObject({ kind: 'input', message: expect.stringMatching(/does not exist/) });
    await session.dispose();
  });

  it('keeps each window to its own documents and events', async () => {
    const a: Array<HostEvents['profileProgress']> = [];
    const b: Array<HostEvents['profileProgress']> = [];
    const one = engine.openSession({ emit: (e, p) => e === 'profileProgress' && a.push(p as HostEvents['profileProgress']) });
    const two = engine.openSession({ emit: (e, p) => e === 'profileProgress' && b.push(p as HostEvents['profileProgress']) });
    const doc = await one.openExample({ id: 'chain' });
    expect((await failure(two.analyze({ doc: doc.doc, symbols: {}, defaultSymbol: null, target: null }))).kind).toBe('usage');
    const result = await one.profile(request(doc.doc, 'mine', { calls: 2, symbols: { N: '64' } }));
    expect(result.modes.map((m) => m.mode)).toEqual(['SCOPED']);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual([]);
    await one.dispose();
    await two.dispose();
  });

  it('when the engine process dies, calls fail clearly, its runners are killed, and the next call restarts it with the approvals', async () => {
    const session = engine.openSession({ emit() {} });
    const doc = await session.openExample({ id: 'hdiff' });
    let inRunner!: () => void;
    const running = new Promise<void>((r) => (inRunner = r));
    const withEvents = engine.openSession({
      emit: (e, p) => {
        if (e === 'profileProgress' && (p as HostEvents['profileProgress']).stage === 'calls') inRunner();
      },
    });
    const docB = await withEvents.openExample({ id: 'hdiff' });
    const pending = failure(withEvents.profile(request(docB.doc, 'long')));
    await running;
    expect(runnerChildren().length).toBeGreaterThan(0);
    const pid = engine.pid!;
    process.kill(pid, 'SIGKILL');
    const e = await pending;
    expect(e.kind).toBe('internal');
    expect(e.message).toMatch(/the engine process stopped unexpectedly \(killed by SIGKILL\)/);
    expect(await eventually(() => runnerChildren().length === 0)).toBe(true);
    // The next call starts a new engine; the old document is gone, the approved file opens again.
    expect((await failure(session.analyze({ doc: doc.doc, symbols: {}, defaultSymbol: null, target: null }))).kind).toBe('usage');
    expect(engine.pid).not.toBe(pid);
    const again = await session.openFile({ path: join(dir, 'mine.sdfg') });
    expect(again.name).toBe('mine.sdfg');
    expect(logs.some((l) => /engine process ended: killed by SIGKILL/.test(l))).toBe(true);
    for (const s of [session, withEvents]) await s.dispose();
  });

  it('an engine that cannot start is a clear error for every waiting call, not a hang', async () => {
    const electron = fakeElectron(dir);
    const broken = new EngineClient({
      spawn: () =>
        fromUtilityProcess<MainToEngine, EngineToMain>(
          electron.seam.utilityProcess.fork(join(dir, 'missing-entry.js'), [], { serviceName: 'broken', stdio: 'pipe' }),
          async () => null,
        ),
      config: { host: 'electron', files: { kind: 'approved' }, openAtStart: [], limits: DEFAULT_LIMITS },
      createRunner: () => {
        throw new Error('unused');
      },
      log: () => {},
    });
    const a = broken.openSession({ emit() {} });
    const errors = await Promise.all([failure(a.environment({})), failure(broken.approve(join(dir, 'mine.sdfg')))]);
    for (const e of errors)
      expect(e).toMatchObject({
        kind: 'internal',
        message: expect.stringMatching(/the engine process could not be started: .*exit code 1/),
      });
    await broken.dispose();
  });

  it('a closed window session refuses further calls', async () => {
    const session = engine.openSession({ emit() {} });
    await session.environment({});
    await session.dispose();
    expect((await failure(session.environment({}))).kind).toBe('refused');
  });
});
