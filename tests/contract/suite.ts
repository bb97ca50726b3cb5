/**
 * The contract test suite, written once and run against every transport: browser mode's WebSocket today
 * (websocket.test.ts), the desktop app's IPC tomorrow (pass a `connect` that wires a fake ipcMain/ipcRenderer
 * pair, the preload and renderer/src/host/bridge.ts around the service). Every method is covered: the happy
 * path on the bundled examples, refusals of malformed payloads, a malformed SDFG, profile with progress,
 * cancel, timeout and concurrency, and a result saved and opened again.
 *
 * The host runs in this process whatever the transport, so the suite can also check that no runner child is
 * left behind. This file sets the host up; the tests are composed by request family: documents
 * (suite-documents.ts), views and workloads (suite-views.ts), payload validation (suite-validation.ts) and
 * profile (suite-profile.ts), over helpers they share (suite-kit.ts).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { TransientLabClient } from '../../electron/ipc/contract.js';
import type { TransientLabService } from '../../electron/service/index.js';
import { profileRemote } from '../../electron/runner/remote-host.js';
import { startTestSshd, type TestSshd } from '../fixtures/sshd.js';
import { makeScratch, makeService, type Scratch } from './fixtures.js';
import type { SuiteContext } from './suite-kit.js';
import { documentTests } from './suite-documents.js';
import { viewTests } from './suite-views.js';
import { validationTests } from './suite-validation.js';
import { profileTests } from './suite-profile.js';

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

    // In this order, the order the tests were written in: a test may read what an earlier one saved (the report
    // exports reopen the first profile's result).
    const ctx = (): SuiteContext => ({ client, scratch, sshd });
    documentTests(ctx);
    viewTests(ctx);
    validationTests(ctx);
    profileTests(ctx);
  });
}
