/**
 * The desktop app's process model, checked on the import graph (docs/electron.md):
 * - the main process (electron/main.ts and everything it loads at run time) never parses, analyses, compiles
 *   or loads the native addon: those live in the engine host and the runner, which it only starts;
 * - only two files import `electron` at run time: the seam's real implementation and the preload;
 * - the preload imports only `electron` and the contract; the engine host and the runner never import
 *   `electron` (they run as utility processes, and as Node children in tests);
 * - the packaged app leaves the CLI out (electron-builder.json), so no process of the app may load a CLI module.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../electron/engine/paths.js';

const root = packageRoot();

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.ts$/.test(e.name) && !e.name.endsWith('.config.ts')) out.push(p);
  }
  return out;
}

/** Run-time imports of a file (type-only imports and `import type` are left out), relative ones as repo paths. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)(\s+type)?\s+([^'";]*?)\s*from\s+['"]([^'"]+)['"]/gm)) {
    if (m[2]) continue;
    // `import { type A, type B } from` is type-only too.
    const names = m[3]!
      .replace(/[{}]/g, '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (m[3]!.includes('{') && names.every((n) => n.startsWith('type '))) continue;
    specs.push(m[4]!);
  }
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), s)).replace(/\.js$/, '.ts') : s));
}

/** Every repo file `entry` loads at run time, transitively. */
function runtimeGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const s of runtimeImports(f)) if (s.startsWith('electron/') && existsSync(join(root, s))) stack.push(s);
  }
  return seen;
}

describe('architecture of the desktop app', () => {
  it('the main process loads no parser, analysis, code generator, compiler driver, service or addon', () => {
    const graph = [...runtimeGraph('electron/main.ts')];
    expect(graph).toContain('electron/shell/app.ts');
    const forbidden =
      /^electron\/(engine\/(sdfg|analysis\/(?!types)|codegen|compile|profile\/(?!runner-host|columns))|service\/(service|session|models|views)|runner\/(native|runner-entry)|engine-host\/entry)/;
    expect(graph.filter((f) => forbidden.test(f))).toEqual([]);
  });

  it('the packaged app holds every module its processes load: none of them reaches the folders it leaves out (the CLI)', () => {
    const builder = JSON.parse(readFileSync(join(root, 'electron', 'packaging', 'electron-builder.json'), 'utf8')) as { files: string[] };
    const leftOut = builder.files.flatMap((f) => /^!dist\/(electron\/.+\/)\*\*$/.exec(f)?.[1] ?? []);
    expect(leftOut).toContain('electron/cli/');
    const entries = [
      'electron/main.ts',
      'electron/engine-host/entry.ts',
      'electron/runner/runner-entry.ts',
      'electron/runner/device-probe-entry.ts',
    ];
    for (const entry of entries) {
      const missing = [...runtimeGraph(entry)].filter((f) => leftOut.some((dir) => f.startsWith(dir)));
      expect(missing, `${entry} loads modules the packaged app does not hold`).toEqual([]);
    }
  });

  it('the engine host never loads the addon itself', () => {
    const graph = [...runtimeGraph('electron/engine-host/entry.ts')];
    expect(graph).toContain('electron/service/service.ts');
    expect(graph.filter((f) => /^electron\/runner\/(native|runner-entry)/.test(f))).toEqual([]);
  });

  it('only the seam and the preload import electron at run time', () => {
    const importers = [...sources('electron')].filter((f) => runtimeImports(f).includes('electron'));
    expect(importers.sort()).toEqual(['electron/preload/index.ts', 'electron/shell/electron-seam.ts']);
  });

  it('the preload imports only electron and the contract', () => {
    for (const f of sources('electron/preload')) {
      for (const s of runtimeImports(f))
        expect(s === 'electron' || s === 'electron/ipc/contract.ts' || s.startsWith('electron/preload/'), `${f} imports ${s}`).toBe(true);
    }
  });

  it('the engine host, the runner and everything below never import electron or the shell', () => {
    for (const dir of [
      'electron/engine-host',
      'electron/runner',
      'electron/engine',
      'electron/service',
      'electron/host-kit',
      'electron/ipc',
    ]) {
      for (const f of sources(dir)) {
        const text = readFileSync(join(root, f), 'utf8');
        expect(text, f).not.toMatch(/from\s+['"]electron['"]/);
        expect(
          runtimeImports(f).filter((s) => s.startsWith('electron/shell/') || s === 'electron/main.ts'),
          f,
        ).toEqual([]);
      }
    }
  });
});
