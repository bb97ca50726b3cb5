/**
 * The layering rules of docs/ARCHITECTURE.md, checked on the import statements themselves so that a
 * violation fails CI instead of waiting for a reviewer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../electron/engine/paths.js';

const root = packageRoot();

function sources(dir: string, ext = /\.ts$/): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') out.push(...sources(p, ext));
    } else if (ext.test(e.name)) out.push(p);
  }
  return out;
}

/** Every module specifier a file imports or re-exports, with relative ones resolved to repo paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(root, resolve(dirname(file), s)) : s));
}

describe('architecture', () => {
  const engine = sources(join(root, 'electron', 'engine'));

  it('finds the engine sources', () => {
    expect(engine.length).toBeGreaterThan(30);
  });

  it('the engine imports only node:* and other engine modules, with no exception', () => {
    const bad: string[] = [];
    for (const f of engine) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('node:') && !spec.startsWith('electron/engine/')) bad.push(`${relative(root, f)} imports '${spec}'`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the profile result schema is a leaf: result.ts imports types only, and from profile/ only the per-call column table (itself importing nothing)', () => {
    const file = join(root, 'electron', 'engine', 'profile', 'result.ts');
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/^\s*import\b([^'"]*?)from\s+['"]([^'"]+)['"]/gm)];
    expect(imports.length).toBeGreaterThan(0);
    for (const [, what, spec] of imports) {
      expect(what!.trim().startsWith('type '), `result.ts: import ${what} from '${spec}' must be a type import`).toBe(true);
      const target = relative(root, resolve(dirname(file), spec!));
      expect(
        !target.startsWith('electron/engine/profile/') || target === 'electron/engine/profile/columns.js',
        `result.ts imports ${spec}`,
      ).toBe(true);
    }
    expect(importsOf(join(root, 'electron', 'engine', 'profile', 'columns.ts'))).toEqual([]);
    // Schema types and the schema's name, nothing else: no function, class or other value.
    expect(text).not.toMatch(/^export\s+(async\s+)?(function|class|let|var)\b/m);
    expect([...text.matchAll(/^export\s+const\s+(\w+)/gm)].map((m) => m[1])).toEqual(['PROFILE_SCHEMA']);
  });

  // Scoped to cycles through the profiler and the runner (the layering this test guards); a cycle elsewhere in
  // the engine is that module's own business.
  it('has no import cycle through engine/profile or the runner, type imports included', () => {
    const files = [...engine, ...sources(join(root, 'electron', 'runner'))];
    const known = new Set(files.map((f) => relative(root, f).replace(/\.ts$/, '.js')));
    const graph = new Map<string, string[]>();
    for (const f of files) {
      graph.set(
        relative(root, f).replace(/\.ts$/, '.js'),
        importsOf(f).filter((s) => known.has(s)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (node: string) => {
      state.set(node, 'open');
      path.push(node);
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(node, 'done');
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    expect(cycles.filter((c) => /electron\/(engine\/profile|runner)\//.test(c))).toEqual([]);
  });

  it('the engine never names a concrete runner host: hosts inject one', () => {
    const named = engine.filter((f) =>
      /\bNodeRunnerHost\b|host-node/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')),
    );
    expect(named.map((f) => relative(root, f))).toEqual([]);
  });

  it('nothing outside electron/runner loads the native addon', () => {
    const all = [...sources(join(root, 'electron')), ...sources(join(root, 'bench'))];
    const loaders = all.filter((f) => importsOf(f).some((s) => /runner\/native\.js$|native\/build|transient_native/.test(s)));
    expect(loaders.map((f) => relative(root, f))).toContain('electron/runner/runner-entry.ts');
    expect(loaders.map((f) => relative(root, f)).filter((f) => !f.startsWith('electron/runner/'))).toEqual([]);
  });

  it('no engine, CLI or runner module imports electron', () => {
    // The desktop shell (main.ts, shell/, preload/) is the one place that may: architecture-shell.test.ts checks it.
    const shell = /^electron\/(?:shell\/|preload\/|main\.ts$)/;
    const all = sources(join(root, 'electron')).filter((f) => !shell.test(relative(root, f)));
    expect(all.filter((f) => importsOf(f).includes('electron')).map((f) => relative(root, f))).toEqual([]);
  });
});

/**
 * Tests and the bench share code through bench/lib/ only: the bench never imports tests/, tests import from
 * bench/ only its lib/, and bench/lib/ imports no other bench file (so neither side drags in the other's
 * entry points). The product (electron/, renderer/) imports neither.
 */
describe('architecture of tests and the bench', () => {
  const code = /\.tsx?$/;
  const edges = (dir: string) =>
    sources(join(root, dir), code).flatMap((f) => importsOf(f).map((spec) => ({ from: relative(root, f), spec })));
  const show = (xs: Array<{ from: string; spec: string }>) => xs.map((x) => `${x.from} imports '${x.spec}'`);

  it('the product never imports tests/ or bench/', () => {
    expect(show([...edges('electron'), ...edges('renderer')].filter((e) => /^(tests|bench)\//.test(e.spec)))).toEqual([]);
  });

  it('the bench never imports tests/', () => {
    expect(show(edges('bench').filter((e) => e.spec.startsWith('tests/')))).toEqual([]);
  });

  it('tests import from bench/ only its lib/', () => {
    expect(show(edges('tests').filter((e) => e.spec.startsWith('bench/') && !e.spec.startsWith('bench/lib/')))).toEqual([]);
  });

  it('bench/lib/ imports no bench file outside it', () => {
    expect(show(edges('bench/lib').filter((e) => e.spec.startsWith('bench/') && !e.spec.startsWith('bench/lib/')))).toEqual([]);
  });

  it('no bench section imports the runner that lists the sections (BenchSection lives in bench/section.ts)', () => {
    expect(show(edges('bench').filter((e) => e.spec === 'bench/run.js'))).toEqual([]);
  });
});

/**
 * The renderer (browser code, renderer/src) reaches electron/ through exactly three modules: the contract, the wire
 * codec and the engine's public view (engine/view/public.ts: view-model types and pure helpers). Type imports
 * count too, so that one file says what of the engine the window depends on.
 */
describe('architecture of the renderer', () => {
  const RENDERER_GATES = ['electron/ipc/contract.js', 'electron/ipc/wire.js', 'electron/engine/view/public.js'];

  /** Module specifiers a file imports or re-exports, relative ones as repo paths; `typeOnly` marks `import type`. */
  function typedImportsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
    const text = readFileSync(file, 'utf8');
    const found = [...text.matchAll(/^\s*(import|export)(\s+type)?\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => ({
      spec: m[3]!,
      typeOnly: Boolean(m[2]),
    }));
    for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, typeOnly: false });
    for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push({ spec: m[1]!, typeOnly: false });
    return found.map(({ spec, typeOnly }) => ({
      spec: spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : spec,
      typeOnly,
    }));
  }

  /** An engine module whose whole runtime import graph stays inside electron/engine and never reaches Node. */
  function pureEngineModule(spec: string, seen = new Set<string>()): boolean {
    if (!spec.startsWith('electron/engine/')) return false;
    if (seen.has(spec)) return true;
    seen.add(spec);
    return typedImportsOf(join(root, spec.replace(/\.js$/, '.ts'))).every(({ spec: s, typeOnly }) => typeOnly || pureEngineModule(s, seen));
  }

  const node = new Set([...builtinModules, 'electron', 'ws']);
  /** What a renderer file may import: its own modules, packages (no Node module), and the three gates. */
  function rendererMay(spec: string): boolean {
    if (spec.startsWith('node:') || node.has(spec)) return false;
    if (spec.startsWith('renderer/src/')) return true;
    // Package specifiers are bare; a repo path outside renderer/src starts with one of the repo's folders.
    if (/^(electron|bench|tests|native|dist|scripts|renderer)\//.test(spec)) return RENDERER_GATES.includes(spec);
    return !spec.startsWith('/');
  }

  it('renderer/src imports from electron/ only the contract, the wire codec and engine/view/public.ts, and no Node module', () => {
    const files = sources(join(root, 'renderer', 'src'), /\.tsx?$/);
    expect(files.length).toBeGreaterThan(50);
    const bad: string[] = [];
    const gates = new Set<string>();
    for (const f of files) {
      for (const { spec } of typedImportsOf(f)) {
        if (!rendererMay(spec)) bad.push(`${relative(root, f)} imports '${spec}'`);
        if (RENDERER_GATES.includes(spec)) gates.add(spec);
      }
    }
    expect(bad).toEqual([]);
    expect([...gates].sort()).toEqual([...RENDERER_GATES].sort());
  });

  it('the rule refuses what it must: another engine module, a Node module, a repo path outside renderer/src', () => {
    for (const spec of [
      'electron/engine/view/format.js',
      'electron/engine/view/types.js',
      'electron/ipc/contract-schema.js',
      'node:fs',
      'fs',
      'electron',
      'bench/browser.js',
    ])
      expect(rendererMay(spec), spec).toBe(false);
    for (const spec of ['react', 'd3', 'renderer/src/app/store.js', ...RENDERER_GATES]) expect(rendererMay(spec), spec).toBe(true);
  });

  it('engine/view/public.ts is pure: its runtime import graph stays in the engine and reaches no Node module', () => {
    expect(pureEngineModule('electron/engine/view/public.js')).toBe(true);
    // The one verdict the CLI, the window and the reports render: the renderer runs it, so it must stay pure.
    for (const m of [
      'view/format.js',
      'view/verdict.js',
      'view/time-comparison.js',
      'view/gpu.js',
      'view/analysis-doc.js',
      'view/public.js',
      'profile/stats.js',
      'profile/columns.js',
      'profile/noise.js',
      'profile/dip.js',
      'profile/significance.js',
      'json.js',
    ])
      expect(pureEngineModule(`electron/engine/${m}`), m).toBe(true);
    expect(pureEngineModule('electron/engine/sdfg/index.js')).toBe(false);
  });

  it('the contract and the wire codec carry no runtime import into the engine', () => {
    for (const gate of ['electron/ipc/contract.ts', 'electron/ipc/wire.ts']) {
      const runtime = typedImportsOf(join(root, gate))
        .filter((i) => !i.typeOnly)
        .map((i) => i.spec);
      expect(runtime, gate).toEqual([]);
    }
  });
});
