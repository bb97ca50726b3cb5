/**
 * Properties of the generated source per memory mode (reference dace-memory-abi.md §5.11), the exported
 * symbol set, and the errors the generator reports.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { generateProgram, findUnsupported } from '../../../electron/engine/codegen/index.js';
import { emissionCount } from '../../../electron/engine/codegen/program.js';
import { TlabError } from '../../../electron/engine/errors.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { corpusDir, examplesDir } from '../../../electron/engine/paths.js';
import { readSdfgFile, parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, run, scratchDir, removeScratchDirs } from './compile.js';

afterAll(removeScratchDirs);

const SYMBOLS = new Map([
  ['I', 16n],
  ['J', 12n],
  ['K', 7n],
  ['N', 100n],
]);

/** Source split into the three places allocations can happen. */
function sections(source: string, name: string): { program: string; init: string; exit: string } {
  const start = source.indexOf('struct ');
  const init = source.indexOf(`__dace_init_${name}(`);
  const exit = source.indexOf(`__dace_exit_${name}(`);
  const after =
    source.indexOf('__dace_get_external_memory_size_', exit) >= 0
      ? source.indexOf('__dace_get_external_memory_size_', exit)
      : source.indexOf('__tlab_init', exit);
  return { program: source.slice(start, init), init: source.slice(init, exit), exit: source.slice(exit, after) };
}

/** transient index → number of tlab_alloc / tlab_free sites in `text`. */
function sites(text: string, fn: 'tlab_alloc' | 'tlab_free'): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of text.split('\n')) {
    if (!line.includes(`${fn}(`)) continue;
    const m = /, (\d+), (-?\d+)\)\)?( \+ \d+)?;\s*$/.exec(line);
    if (!m) throw new Error(`unrecognised ${fn} line: ${line}`);
    const idx = Number(m[2]);
    counts.set(idx, (counts.get(idx) ?? 0) + 1);
  }
  return counts;
}

describe('memory modes in the generated source', () => {
  const loaded = new Map<string, { file: SdfgFile; analysis: Analysis }>();
  beforeAll(async () => {
    for (const example of ['hdiff', 'vadv', 'chain']) {
      const file = await readSdfgFile(join(examplesDir(), `${example}.sdfg`));
      loaded.set(example, { file, analysis: analyze(file, { symbols: SYMBOLS, defaultSymbol: null, target: null }) });
    }
  });

  for (const example of ['hdiff', 'vadv', 'chain']) {
    test(`${example}: SCOPED allocates every transient once per call, PERSISTENT in init/exit, EXTERNAL never`, () => {
      const { file, analysis } = loaded.get(example)!;
      const eligible = analysis.transients.map((t, i) => ({ t, i })).filter(({ t }) => t.eligible.PERSISTENT && t.eligible.EXTERNAL);
      expect(eligible.length).toBeGreaterThanOrEqual(3);

      const scoped = sections(generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source, file.root.name);
      for (const { i } of eligible) {
        expect(sites(scoped.program, 'tlab_alloc').get(i)).toBe(1);
        expect(sites(scoped.program, 'tlab_free').get(i)).toBe(1);
        expect(sites(scoped.init, 'tlab_alloc').get(i)).toBeUndefined();
      }

      const persistent = sections(generateProgram(file, analysis, { mode: 'PERSISTENT', layout: 'dace' }).source, file.root.name);
      for (const { i } of eligible) {
        expect(sites(persistent.program, 'tlab_alloc').get(i)).toBeUndefined();
        expect(sites(persistent.program, 'tlab_free').get(i)).toBeUndefined();
        expect(sites(persistent.init, 'tlab_alloc').get(i)).toBe(1);
        expect(sites(persistent.exit, 'tlab_free').get(i)).toBe(1);
      }

      for (const layout of ['dace', 'packed'] as const) {
        const p = generateProgram(file, analysis, { mode: 'EXTERNAL', layout });
        const all = p.source;
        for (const { i } of eligible) {
          expect(sites(all, 'tlab_alloc').get(i)).toBeUndefined();
          expect(sites(all, 'tlab_free').get(i)).toBeUndefined();
        }
        expect(all).toContain('__dace_get_external_memory_size_CPU_Heap(');
        expect(all).toContain('__dace_set_external_memory_CPU_Heap(');
        const ext = p.externals.find((e) => e.storage === 'CPU_Heap')!;
        expect(ext.slots.map((s) => s.id).sort()).toEqual(eligible.map(({ t }) => t.id).sort());
        const sizes = ext.slots.map((s) => s.bytes);
        if (layout === 'dace') {
          expect(ext.bytes).toBe(sizes.reduce((a, b) => a + b, 0n));
          let offset = 0n;
          for (const s of ext.slots) {
            expect(s.offset).toBe(offset);
            offset += s.bytes;
          }
        } else {
          const packed = analysis.layouts.packed.CPU_Heap!;
          expect(ext.bytes).toBe(packed.bytes);
          const padded = sizes.reduce((a, b) => a + ((b + 63n) / 64n) * 64n, 0n);
          expect(ext.bytes).toBeLessThanOrEqual(padded);
          for (const s of ext.slots) {
            expect(s.offset % 64n).toBe(0n);
            expect(s.offset).toBe(packed.offsets.get(s.id));
          }
        }
      }
    });

    test(`${example}: EXTERNAL (packed) says so when a storage falls back to DaCe's layout`, () => {
      const { file, analysis } = loaded.get(example)!;
      const packed = generateProgram(file, analysis, { mode: 'EXTERNAL', layout: 'packed' });
      expect(packed.warnings).toEqual([]);
      expect(packed.externals.map((e) => e.layout)).toEqual(['packed']);
      // An analysis whose packed layout lacks one slot's offset.
      const layout = analysis.layouts.packed['CPU_Heap']!;
      const offsets = new Map(layout.offsets);
      const dropped = [...offsets.keys()][0]!;
      offsets.delete(dropped);
      const partial = {
        ...analysis,
        layouts: { ...analysis.layouts, packed: { ...analysis.layouts.packed, CPU_Heap: { ...layout, offsets } } },
      };
      const p = generateProgram(file, partial, { mode: 'EXTERNAL', layout: 'packed' });
      expect(p.externals.map((e) => e.layout)).toEqual(['dace']);
      expect(p.externals[0]!.bytes).toBe(p.externals[0]!.slots.reduce((sum, s) => sum + s.bytes, 0n));
      expect(p.warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `^EXTERNAL \\(packed\\): the CPU_Heap workspace uses DaCe's back-to-back layout instead: the packed layout has no offset for 1 of its \\d+ slot\\(s\\) \\(${dropped}\\)$`,
          ),
        ),
      ]);
    });

    test(`${example}: POOL on CPU is byte-identical to SCOPED`, () => {
      const { file, analysis } = loaded.get(example)!;
      const pool = generateProgram(file, analysis, { mode: 'POOL', layout: 'dace' });
      const scoped = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
      expect(pool.source).toBe(scoped.source);
    });
  }

  test('arguments follow DaCe order: arrays by name, then scalars and symbols merged by name', () => {
    const { file, analysis } = loaded.get('vadv')!;
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    expect(p.args.map((a) => a.name)).toEqual(['u_pos', 'utens', 'utens_stage', 'wcon', 'I', 'J', 'K', 'dtr_stage']);
    expect(p.args.map((a) => a.kind)).toEqual(['array', 'array', 'array', 'array', 'symbol', 'symbol', 'symbol', 'scalar']);
    expect(p.initSymbols).toEqual(['I', 'J', 'K']);
    const wcon = p.args.find((a) => a.name === 'wcon')!;
    expect(wcon.shape).toEqual([17n, 12n, 8n]);
    expect(wcon.strides).toEqual([96n, 8n, 1n]);
    expect(wcon.totalElements).toBe(17n * 12n * 8n);
    expect(p.args.find((a) => a.name === 'utens_stage')).toMatchObject({ written: true, read: true });
    expect(p.args.find((a) => a.name === 'u_pos')).toMatchObject({ written: false, read: true });
    expect(p.source).toMatch(
      /extern "C" void __program_vadv\(vadv_state_t \*__state, double \*__restrict__ u_pos, double \*__restrict__ utens, double \*__restrict__ utens_stage, double \*__restrict__ wcon, int I, int J, int K, double dtr_stage\)/,
    );
    expect(p.usesOpenMP).toBe(true);
    expect(p.nondeterministicFloat).toBe(false);
  });

  test('maps run with the schedules DaCe resolves: top-level Default maps are OpenMP parallel, collapse only when asked', () => {
    const pragmas = (example: string) => {
      const { file, analysis } = loaded.get(example)!;
      return generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' })
        .source.split('\n')
        .filter((l) => l.includes('#pragma omp parallel'))
        .map((l) => l.trim());
    };
    // chain's five maps have no schedule: CPU_Multicore at the top level (SCOPEDEFAULT_SCHEDULE[None]).
    expect(pragmas('chain')).toEqual(Array(5).fill('#pragma omp parallel for'));
    // hdiff's maps are explicit CPU_Multicore over (i, j, k) with collapse 1: only the outer loop is parallel.
    expect(pragmas('hdiff')).toEqual(Array(4).fill('#pragma omp parallel for'));
    const { file, analysis } = loaded.get('hdiff')!;
    const entry = file.root.body.blocks.flatMap((b) => (b.kind === 'state' ? b.nodes : [])).find((n) => n.kind === 'map_entry')!;
    if (entry.kind !== 'map_entry') throw new Error('no map');
    entry.map.collapse = 2;
    entry.map.ompNumThreads = 3;
    const src = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
    expect(src).toContain('#pragma omp parallel for num_threads(3) collapse(2)');
    entry.map.collapse = 1;
    entry.map.ompNumThreads = 0;
  });

  test('lineOrigins point compiler errors at SDFG elements', () => {
    const { file, analysis } = loaded.get('hdiff')!;
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    const lines = p.source.split('\n');
    const tasklet = lines.findIndex((l) => l.includes('res = lap_p - lap_c;'));
    expect(tasklet).toBeGreaterThan(0);
    expect(p.lineOrigins.get(tasklet + 1)).toMatch(/^\$\.nodes\[1\]\.nodes\[\d+\]$/);
  });

  test('the library exports exactly DaCe ABI plus the trampolines (nm -D)', async () => {
    const dir = scratchDir('nm');
    const { file, analysis } = loaded.get('chain')!;
    for (const mode of ['SCOPED', 'EXTERNAL'] as const) {
      const p = generateProgram(file, analysis, { mode, layout: 'dace' });
      const c = await compileLibrary(p.source, dir, `chain_${mode}`);
      expect(c.ok, c.output).toBe(true);
      const nm = await run('nm', ['-D', '--defined-only', c.library]);
      const exported = nm.output
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f.length === 3 && f[1] === 'T')
        .map((f) => f[2]!)
        .sort();
      const expected = [
        '__dace_exit_chain',
        '__dace_init_chain',
        '__program_chain',
        '__tlab_abi_version',
        '__tlab_events',
        '__tlab_exit',
        '__tlab_external_size',
        '__tlab_external_slot_count',
        '__tlab_init',
        '__tlab_program',
        '__tlab_set_external',
        '__tlab_set_external_offsets',
        '__tlab_set_poison',
        '__tlab_arg_count',
        '__tlab_init_symbol_count',
        '__tlab_init_arg_count',
      ];
      if (mode === 'EXTERNAL') expected.push('__dace_get_external_memory_size_CPU_Heap', '__dace_set_external_memory_CPU_Heap');
      expect(exported).toEqual(expected.sort());
    }
  });
});

describe('generator errors', () => {
  test('an SDFG outside the subset is a TlabError(unsupported) naming the file, JSON path and a hint', async () => {
    // CSRMV expands now; an MPI node needs a runtime the generated code does not have.
    const path = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__mpi_allgather.sdfg');
    const file = await readSdfgFile(path);
    const findings = findUnsupported(file);
    expect(findings[0]).toMatchObject({
      element: expect.stringContaining('library node Allgather'),
      hint: expect.stringContaining('expand_library_nodes'),
    });
    const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 8n, target: null });
    let err: unknown;
    try {
      generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TlabError);
    const t = err as TlabError;
    expect(t.kind).toBe('unsupported');
    expect(t.file).toBe(path);
    expect(t.jsonPath).toMatch(/^\$\.nodes\[\d+\]\.nodes\[\d+\]$/);
    expect(t.details.join('\n')).toContain('expand_library_nodes');
  });

  test('a missing symbol value is a TlabError(input) that says how to give it', async () => {
    const file = await readSdfgFile(join(examplesDir(), 'chain.sdfg'));
    const analysis = analyze(file, { symbols: new Map(), defaultSymbol: null, target: null });
    expect(() => generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' })).toThrow(/symbol N has no value: pass --symbols N=/);
  });

  test('generation runs the program through the emitter once; the subset check once more (a five-variant profile: 6, was 11)', async () => {
    const file = await readSdfgFile(join(examplesDir(), 'hdiff.sdfg'));
    const analysis = analyze(file, { symbols: SYMBOLS, defaultSymbol: null, target: null });
    const start = emissionCount();
    expect(findUnsupported(file)).toEqual([]);
    expect(emissionCount() - start).toBe(1);
    for (const v of [
      { mode: 'SCOPED', layout: 'dace' },
      { mode: 'PERSISTENT', layout: 'dace' },
      { mode: 'POOL', layout: 'dace' },
      { mode: 'EXTERNAL', layout: 'dace' },
      { mode: 'EXTERNAL', layout: 'packed' },
    ] as const) {
      generateProgram(file, analysis, v);
    }
    expect(emissionCount() - start).toBe(6);
  });

  test('one emission reports every element it cannot translate, each at its own JSON path', async () => {
    const text = (await import('node:fs'))
      .readFileSync(join(examplesDir(), 'chain.sdfg'), 'utf8')
      .replace('b = ((2.0 * a) + 1.0)', 'b = frobnicate(a)')
      .replace('b = ((a * 0.5) - 3.0)', 'b = gizmo(a)');
    const file = parseSdfgBytes(new TextEncoder().encode(text), 'mutated-chain.sdfg');
    const findings = findUnsupported(file);
    expect(findings.map((f) => f.message)).toEqual(
      expect.arrayContaining([expect.stringContaining("'frobnicate'"), expect.stringContaining("'gizmo'")]),
    );
    expect(new Set(findings.map((f) => f.jsonPath)).size).toBe(findings.length);
    const analysis = analyze(file, { symbols: SYMBOLS, defaultSymbol: null, target: null });
    expect(() => generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' })).toThrow(TlabError);
  });

  test('untranslatable tasklet code is a finding at the tasklet, not a crash', async () => {
    const text = (await import('node:fs'))
      .readFileSync(join(examplesDir(), 'chain.sdfg'), 'utf8')
      .replace('b = ((2.0 * a) + 1.0)', 'b = frobnicate(a)');
    const file = parseSdfgBytes(new TextEncoder().encode(text), 'mutated-chain.sdfg');
    const findings = findUnsupported(file);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.jsonPath).toBe('$.nodes[0].nodes[2]');
    expect(findings[0]!.message).toContain("no C++ translation for function 'frobnicate'");
  });
});
