/**
 * The layering rules of docs/ARCHITECTURE.md, checked on the import statements themselves so that a
 * violation fails CI instead of waiting for a reviewer.
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
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Every module specifier a file imports or re-exports, with relative ones resolved to repo paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm), ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(root, resolve(dirname(file), s)) : s));
}

describe('architecture', () => {
  const engine = sources(join(root, 'electron', 'engine'));

  it('finds the engine sources', () => {
    expect(engine.length).toBeGreaterThan(30);
  });

  it('the engine imports only node:* and other engine modules (the runner protocol for the profiler)', () => {
    const bad: string[] = [];
    for (const f of engine) {
      for (const spec of importsOf(f)) {
        const ok =
          spec.startsWith('node:') ||
          spec.startsWith('electron/engine/') ||
          // The profiler drives jobs through the runner's typed protocol and its Node host (docs/ARCHITECTURE.md).
          (relative(root, f).startsWith('electron/engine/profile/') && /^electron\/runner\/(messages|host-node)\.js$/.test(spec));
        if (!ok) bad.push(`${relative(root, f)} imports '${spec}'`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing outside electron/runner loads the native addon', () => {
    const all = [...sources(join(root, 'electron')), ...sources(join(root, 'bench'))];
    const loaders = all.filter((f) => importsOf(f).some((s) => /runner\/native\.js$|native\/build|transient_native/.test(s)));
    expect(loaders.map((f) => relative(root, f))).toContain('electron/runner/runner-entry.ts');
    expect(loaders.map((f) => relative(root, f)).filter((f) => !f.startsWith('electron/runner/'))).toEqual([]);
  });

  it('no engine, CLI or runner module imports electron', () => {
    const all = sources(join(root, 'electron'));
    expect(all.filter((f) => importsOf(f).includes('electron')).map((f) => relative(root, f))).toEqual([]);
  });
});
