/**
 * Layering of the hosts, their kit, the service and the contract (docs/ARCHITECTURE.md), checked on every
 * import the TypeScript parser finds, type imports included (architecture-imports.ts):
 * - the hosts (cli/, shell/ with main.ts, engine-host/) stand side by side: none imports another; what two of
 *   them need is in electron/host-kit/, which imports no host, no service and no runner;
 * - the service sits below the hosts and imports no host and no runner (the host injects one);
 * - the contract and the wire codec compile anywhere (the renderer's imports are checked in architecture.test.ts);
 * - no import cycle among the hosts, the kit, the service and the contract.
 */
import { describe, expect, it } from 'vitest';
import { describeEdge, importCycles, importsOf, importsOfText, sourceFiles, type ImportEdge } from './architecture-imports.js';

/** The processes' hosts: each has its own entry point and lifetime. */
const HOSTS: Record<string, RegExp> = {
  cli: /^electron\/cli\//,
  shell: /^electron\/(shell\/|main\.ts$)/,
  'engine-host': /^electron\/engine-host\//,
};

function hostOf(path: string): string | null {
  for (const [name, re] of Object.entries(HOSTS)) if (re.test(path)) return name;
  return null;
}

const hostFiles = (): string[] => [
  ...sourceFiles('electron/cli'),
  ...sourceFiles('electron/shell'),
  'electron/main.ts',
  ...sourceFiles('electron/engine-host'),
];

/** What a host may import from electron/: itself, the kit, the service, the contract, the runner (which it injects) and the engine. */
const HOST_MAY_IMPORT = /^electron\/(host-kit|service|ipc|runner|engine)\//;

/** The imports of `edges` that break the hosts' rule, each named with its file and line. */
function hostViolations(edges: readonly ImportEdge[]): string[] {
  const bad: string[] = [];
  for (const e of edges) {
    const from = hostOf(e.file);
    const to = hostOf(e.target);
    if (from === null || !e.target.startsWith('electron/')) continue;
    if (to !== null && to !== from)
      bad.push(`${describeEdge(e)}: the ${from} host imports the ${to} host; what two hosts share belongs in electron/host-kit/`);
    else if (to === null && !HOST_MAY_IMPORT.test(e.target))
      bad.push(`${describeEdge(e)}: a host imports only its own modules, host-kit, service, ipc, runner and engine`);
  }
  return bad;
}

function violations(files: readonly string[], ok: (e: ImportEdge) => boolean): string[] {
  return files.flatMap((f) =>
    importsOf(f)
      .filter((e) => !ok(e))
      .map(describeEdge),
  );
}

describe('architecture of the hosts', () => {
  it('finds the hosts and the kit', () => {
    expect(hostFiles()).toEqual(
      expect.arrayContaining(['electron/cli/main.ts', 'electron/shell/app.ts', 'electron/main.ts', 'electron/engine-host/entry.ts']),
    );
    expect(sourceFiles('electron/host-kit')).toEqual(
      expect.arrayContaining(['electron/host-kit/web-server/server.ts', 'electron/host-kit/web-security.ts', 'electron/host-kit/pdf.ts']),
    );
  });

  it('no host imports another host, type imports included', () => {
    expect(hostViolations(hostFiles().flatMap(importsOf))).toEqual([]);
  });

  it('the check reads every form of import and names the offending one', () => {
    const text = [
      "// import { A } from '../shell/comment.js';",
      'const s = "import { B } from \'../shell/string.js\'";',
      "import type { C } from '../shell/c.js';",
      "import { type D, type E } from '../engine-host/d.js';",
      'import {',
      '  F,',
      "} from '../shell/f.js';",
      "export type { G } from '../shell/g.js';",
      "export * from '../shell/h.js';",
      "import '../shell/side-effect.js';",
      "const lazy = () => import('../shell/lazy.js');",
      "type T = typeof import('../engine-host/t.js');",
      "import { H } from '../host-kit/h.js';",
      "import { I } from './i.js';",
      "import type { J } from '../preload/j.js';",
    ].join('\n');
    const edges = importsOfText('electron/cli/fixture.ts', text);
    expect(edges.map((e) => [e.line, e.written, e.typeOnly])).toEqual([
      [3, '../shell/c.js', true],
      [4, '../engine-host/d.js', true],
      [5, '../shell/f.js', false],
      [8, '../shell/g.js', true],
      [9, '../shell/h.js', false],
      [10, '../shell/side-effect.js', false],
      [11, '../shell/lazy.js', false],
      [12, '../engine-host/t.js', true],
      [13, '../host-kit/h.js', false],
      [14, './i.js', false],
      [15, '../preload/j.js', true],
    ]);
    const bad = hostViolations(edges);
    expect(bad).toHaveLength(9);
    expect(bad[0]).toBe(
      "electron/cli/fixture.ts:3 imports '../shell/c.js' (type only): the cli host imports the shell host; what two hosts share belongs in electron/host-kit/",
    );
    expect(bad.at(-1)).toMatch(/^electron\/cli\/fixture\.ts:15 imports '\.\.\/preload\/j\.js' \(type only\): a host imports only/);
  });

  it('the host kit imports no host, no service, no runner and not electron', () => {
    expect(
      violations(sourceFiles('electron/host-kit'), (e) =>
        e.target.startsWith('electron/') ? /^electron\/(host-kit|ipc|engine)\//.test(e.target) : e.target !== 'electron',
      ),
    ).toEqual([]);
  });

  it("the service imports only node, valibot, the engine, the contract modules and the kit's file rules and result files", () => {
    expect(
      violations(
        sourceFiles('electron/service'),
        ({ target: s }) =>
          s.startsWith('node:') ||
          s === 'valibot' ||
          /^electron\/(engine|service)\//.test(s) ||
          /^electron\/ipc\/(contract|contract-schema|result-schema|errors)\.ts$/.test(s) ||
          /^electron\/host-kit\/(file-access|result-files)\.ts$/.test(s),
      ),
    ).toEqual([]);
  });

  it('the runner imports no host, no kit and no service: the hosts inject it', () => {
    expect(
      violations(
        sourceFiles('electron/runner'),
        (e) => !/^electron\/(cli|shell|engine-host|host-kit|service)\/|^electron\/main\.ts$/.test(e.target),
      ),
    ).toEqual([]);
  });

  it('no import cycle among the hosts, the kit, the service and the contract, type imports included', () => {
    const files = [...hostFiles(), ...['host-kit', 'service', 'ipc', 'preload'].flatMap((d) => sourceFiles(`electron/${d}`))];
    expect(importCycles(files)).toEqual([]);
  });

  it('the contract is types and lists; the wire codec depends on nothing but the contract', () => {
    expect(
      violations(sourceFiles('electron/ipc'), ({ file, target: s, typeOnly }) => {
        if (file === 'electron/ipc/contract.ts') return typeOnly && s.startsWith('electron/engine/');
        if (file === 'electron/ipc/wire.ts') return typeOnly && s === 'electron/ipc/contract.ts';
        return s.startsWith('node:') || s === 'valibot' || s.startsWith('electron/engine/') || s.startsWith('electron/ipc/');
      }),
    ).toEqual([]);
  });
});
