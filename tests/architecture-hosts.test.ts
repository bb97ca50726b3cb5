/**
 * Layering of the contract and its hosts (docs/ARCHITECTURE.md): the service is host-neutral, and the contract and
 * the wire codec compile anywhere. The renderer's imports are checked in architecture.test.ts.
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
});
