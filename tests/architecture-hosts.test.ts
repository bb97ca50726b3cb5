/**
 * Layering of the contract and its hosts (docs/ARCHITECTURE.md): the service is host-neutral, the contract and
 * the wire codec compile anywhere, and the renderer reaches the rest of the repository only through them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../electron/engine/paths.js';

const root = packageRoot();

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Module specifiers a file imports, relative ones as repo paths; `typeOnly` marks `import type`. */
function importsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*(import|export)(\s+type)?\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => ({ spec: m[3]!, typeOnly: Boolean(m[2]) }));
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, typeOnly: false });
  return found.map(({ spec, typeOnly }) => ({ spec: spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : spec, typeOnly }));
}

function violations(dir: string, ok: (spec: string, typeOnly: boolean, file: string) => boolean): string[] {
  const bad: string[] = [];
  for (const f of sources(join(root, dir))) {
    for (const { spec, typeOnly } of importsOf(f)) if (!ok(spec, typeOnly, relative(root, f))) bad.push(`${relative(root, f)} imports '${spec}'`);
  }
  return bad;
}

/**
 * An engine module the renderer may run: its whole runtime import graph stays inside electron/engine and never
 * reaches a Node module (the pure view helpers the renderer and the reports share: format, verdict,
 * analysis-doc, profile statistics, noise detectors and tests).
 */
function pureEngineModule(spec: string, seen = new Set<string>()): boolean {
  if (!spec.startsWith('electron/engine/')) return false;
  if (seen.has(spec)) return true;
  seen.add(spec);
  return importsOf(join(root, spec.replace(/\.js$/, '.ts'))).every(({ spec: s, typeOnly }) => typeOnly || pureEngineModule(s, seen));
}

describe('architecture of the hosts', () => {
  it('the service imports only node, valibot, the engine and the contract modules: no server, runner or electron', () => {
    expect(violations('electron/service', (s) => s.startsWith('node:') || s === 'valibot' || s.startsWith('electron/engine/') || s.startsWith('electron/service/') || /^electron\/ipc\/(contract|contract-schema|result-schema|errors)\.js$/.test(s))).toEqual([]);
  });

  it('the contract is types and lists; the wire codec depends on nothing but the contract', () => {
    expect(violations('electron/ipc', (s, typeOnly, f) => {
      if (f === 'electron/ipc/contract.ts') return typeOnly && s.startsWith('electron/engine/');
      if (f === 'electron/ipc/wire.ts') return typeOnly && s === 'electron/ipc/contract.js';
      return s.startsWith('node:') || s === 'valibot' || s.startsWith('electron/engine/') || s.startsWith('electron/ipc/');
    })).toEqual([]);
  });

  it('the server and the CLI never import electron', () => {
    expect(violations('electron/server', (s) => s !== 'electron')).toEqual([]);
    expect(violations('electron/cli', (s) => s !== 'electron')).toEqual([]);
  });

  it('the renderer imports no Node module and reaches electron/ only through the contract, the wire codec and pure engine helpers', () => {
    expect(violations('renderer/src', (s, typeOnly) => {
      if (s.startsWith('node:') || s === 'electron' || s === 'ws') return false;
      if (!s.startsWith('electron/')) return true;
      return s === 'electron/ipc/contract.js' || s === 'electron/ipc/wire.js' || (typeOnly && s.startsWith('electron/engine/')) || pureEngineModule(s);
    })).toEqual([]);
  });

  it('a module that reaches Node is not a pure engine helper', () => {
    expect(pureEngineModule('electron/engine/view/format.js')).toBe(true);
    // The one verdict the CLI, the window and the reports render: the renderer runs it, so it must stay pure.
    for (const m of ['view/verdict.js', 'profile/noise.js', 'profile/dip.js', 'profile/significance.js', 'profile/columns.js', 'profile/stats.js', 'json.js']) expect(pureEngineModule(`electron/engine/${m}`), m).toBe(true);
    expect(pureEngineModule('electron/engine/sdfg/index.js')).toBe(false);
  });
});
