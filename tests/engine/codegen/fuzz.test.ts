/**
 * The generator stage of the structural fuzzer (bench/lib/fuzz-codegen.ts): mutated real files that pass the
 * subset check are generated — full C++/CUDA source text, not compiled — in every mode (EXTERNAL in both
 * layouts) for the CPU and the GPU target; every one must generate or be refused with a TlabError.
 *
 * Each counterexample the fuzzer found is kept, shrunk (bench/fuzz-shrink.ts, then by hand), under
 * tests/fixtures/fuzz/ and replayed here with the outcome its fix gives. `npm run bench -- fuzz` and
 * `node dist/bench/fuzz-driver.js --codegen` run many more cases with fresh seeds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODEGEN_VARIANTS } from '../../../bench/lib/fuzz-codegen.js';
import { TEST_SEEDS, caseArb, describeCrash, loadSeeds, runCase } from '../../../bench/lib/fuzz-core.js';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Target } from '../../../electron/engine/analysis/types.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { MAX_CONTROL_DEPTH } from '../../../electron/engine/codegen/subset.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { MAX_EXPRESSION_DEPTH } from '../../../electron/engine/symbolic/index.js';

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'fuzz');

/** Refused by the subset check with (at least) this finding. */
interface Refused {
  jsonPath: string;
  message: RegExp;
}

interface Counterexample {
  file: string;
  /** What the fuzzer saw before the fix: an internal error, or code that g++ rejected or that lost a write. */
  crashed: string;
  defaultSymbol: bigint | null;
  /** Per target: the finding findUnsupported must report (every variant then throws TlabError 'unsupported'). */
  expect: Partial<Record<Target, Refused>>;
}

const COUNTEREXAMPLES: Counterexample[] = [
  {
    file: 'cuda_copy_subset_rank.sdfg',
    crashed: "TypeError: Cannot read properties of undefined (reading 'trim') at stride (codegen/cuda/copy)",
    defaultSymbol: 1n,
    expect: {
      gpu: { jsonPath: '$.nodes[3].edges[0]', message: /the subset has 1 dimension\(s\) but 'A' has 0/ },
    },
  },
  {
    file: 'memlet_empty_data.sdfg',
    crashed: "Error: internal: '' at $.nodes[0].edges[0] has no C++ variable (EmitCore.containerPtr)",
    defaultSymbol: 1n,
    expect: {
      cpu: { jsonPath: '$.nodes[0].edges[0]', message: /memlet refers to unknown container ''/ },
      gpu: { jsonPath: '$.nodes[0].edges[0]', message: /memlet refers to unknown container ''/ },
    },
  },
  {
    // Shared memory at the top level, sized by a symbol: declared as a stack array outside any recover().
    file: 'gpu_shared_symbolic_size.sdfg',
    crashed: 'ExprError: symbol N has no value (sizeValue in declareStack)',
    defaultSymbol: 8n,
    expect: {
      gpu: {
        jsonPath: '$.attributes._arrays.tmp',
        message: /a stack array \(storage GPU_Shared\) needs a size known at compile time, but its size \(N\) depends on N/,
      },
    },
  },
  {
    // A Default-storage array inside a kernel is Register there; sized by the interstate symbol K. The subset
    // check passed it and every variant was then refused at the map: findUnsupported must say so itself.
    file: 'kernel_register_symbolic_size.sdfg',
    crashed: 'findUnsupported passed, generateProgram refused: symbol K has no value (interstate symbol)',
    defaultSymbol: 8n,
    expect: {
      gpu: {
        jsonPath: '$.attributes._arrays.tmp',
        message:
          /storage Default, which is Register where it is used\) needs a size known at compile time, but its size \(K\) depends on K/,
      },
    },
  },
  {
    // From the compile-and-run check (fuzz-driver --compile): a tasklet output memlet turned into a range
    // makes the connector a pointer, and `b = …` became a second declaration `auto b`, which g++ rejects.
    file: 'tasklet_range_connector_assigned.sdfg',
    crashed: "g++: conflicting declaration 'auto b' (exit 5 of profile)",
    defaultSymbol: 8n,
    expect: {
      cpu: { jsonPath: '$.nodes[0].nodes[3]', message: /array connector 'b' \(its memlet is a range\) is assigned as a whole/ },
      gpu: { jsonPath: '$.nodes[0].nodes[3]', message: /array connector 'b' \(its memlet is a range\) is assigned as a whole/ },
    },
  },
  {
    // From the compile-and-run check: an edge leaving a tasklet from a connector the tasklet does not declare.
    // The code bound that connector, the tasklet wrote its own local, and the container never got the value
    // (here B[i]; in the mutant an index scalar, read uninitialised: SIGSEGV in verification).
    file: 'tasklet_unknown_connector.sdfg',
    crashed: 'lost write: B[i] never written (profile: SIGSEGV in verification when the value is an index)',
    defaultSymbol: 8n,
    expect: {
      cpu: { jsonPath: '$.nodes[0].edges[2]', message: /leaves tasklet 't' from connector 'c', which is not one of its output connectors/ },
      gpu: { jsonPath: '$.nodes[0].edges[2]', message: /leaves tasklet 't' from connector 'c', which is not one of its output connectors/ },
    },
  },
  {
    // From the 100,000-mutant bench run: a constants_prop value nested 10,000 lists deep (the mutant wrapped
    // it); the subset check's walk over the constant's elements recursed once per level.
    file: 'constant_nested_10000_deep.sdfg',
    crashed: 'RangeError: Maximum call stack size exceeded (constantElements in codegen/constants)',
    defaultSymbol: 0n,
    expect: {
      cpu: { jsonPath: '$.attributes._arrays.C', message: /constants_prop holds 1 value\(s\) for a shape of 10 element\(s\)/ },
      gpu: { jsonPath: '$.attributes._arrays.C', message: /constants_prop holds 1 value\(s\) for a shape of 10 element\(s\)/ },
    },
  },
];

describe('counterexamples of the generator stage (tests/fixtures/fuzz)', () => {
  it.each(COUNTEREXAMPLES)('$file: a clear refusal (was: $crashed)', async (c) => {
    const file = await readSdfgFile(join(FIXTURES, c.file));
    for (const [target, want] of Object.entries(c.expect) as Array<[Target, Refused]>) {
      const analysis = analyze(file, { symbols: new Map(), defaultSymbol: c.defaultSymbol, target });
      const findings = findUnsupported(file, target);
      expect(findings, target).toContainEqual(
        expect.objectContaining({ jsonPath: want.jsonPath, message: expect.stringMatching(want.message) }),
      );
      for (const v of CODEGEN_VARIANTS) {
        let error: unknown;
        try {
          generateProgram(file, analysis, v);
        } catch (e) {
          error = e;
        }
        expect(error, `${target} ${v.mode}/${v.layout}`).toBeInstanceOf(TlabError);
        expect((error as TlabError).kind).toBe('unsupported');
      }
    }
  });
});

describe('symbols without a value when init runs', () => {
  it.each(['Persistent', 'External'])(
    'a %s transient sized by an interstate symbol is refused by the subset check, at the descriptor',
    (lifetime) => {
      // interstate_size.sdfg: dyn has shape [K], and K = N - 1 is assigned on the first interstate edge.
      const doc = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'interstate_size.sdfg'), 'utf8'));
      doc.attributes._arrays.dyn.attributes.lifetime = lifetime;
      const file = parseSdfgJson(doc, 'lifetime.sdfg', 0, false);
      for (const target of ['cpu', 'gpu'] as const) {
        expect(findUnsupported(file, target), target).toContainEqual(
          expect.objectContaining({
            jsonPath: '$.attributes._arrays.dyn',
            message: `lifetime ${lifetime}: sized before the program runs, but its size uses 'K', which the program assigns itself (interstate assignment, loop or map): no value there`,
          }),
        );
        const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 8n, target });
        for (const v of CODEGEN_VARIANTS) expect(() => generateProgram(file, analysis, v)).toThrow(TlabError);
      }
    },
  );
});

/** interstate_size.sdfg (a project fixture) with `text` in the tasklet, an interstate assignment, a map range and a transient's shape. */
function deepDoc(text: (depth: number) => string, depth: number): unknown {
  const doc = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'interstate_size.sdfg'), 'utf8'));
  const fill = doc.nodes[1];
  fill.nodes[2].attributes.code.string_data = `o = a * 2.0 + (${text(depth)})`;
  fill.nodes[0].attributes.range.ranges[0].end = `K - 1 + 0*(${text(depth)})`;
  doc.edges[0].attributes.data.attributes.assignments.K = `N - 1 + 0*(${text(depth)})`;
  doc.attributes._arrays.dyn.attributes.shape = [`K + 0*(${text(depth)})`];
  return doc;
}

let reachedFrames = 0;
function burn(k: number, fn: () => void): void {
  reachedFrames++;
  if (k === 0) fn();
  else burn(k - 1, fn);
}

/** Runs `fn` with about `fraction` of the call stack already used. */
function withStackUsed(fraction: number, fn: () => void): void {
  reachedFrames = 0;
  try {
    burn(Number.MAX_SAFE_INTEGER, () => {});
  } catch {
    // RangeError: `reachedFrames` frames fill the stack.
  }
  burn(Math.floor(reachedFrames * fraction), fn);
}

describe(`expressions at the depth limit (${MAX_EXPRESSION_DEPTH} levels) through the generator`, () => {
  // Each text is a tree MAX_EXPRESSION_DEPTH - 3 levels high: `0*(…)` and the sum around it add 2, the tasklet's `a * 2.0 + (…)` 1.
  const chain = (terms: number, term: string, op: string) => Array.from({ length: terms }, () => term).join(op);
  const SHAPES: Array<[string, (depth: number) => string]> = [
    ['sum of fractions', (d) => chain(d - 1, 'N/2', ' + ')],
    ['quotients', (d) => chain(d, 'N', ' / ')],
    ['floor quotients', (d) => chain(d, 'N', ' // ')],
    ['sum', (d) => chain(d, 'N', ' + ')],
  ];

  it.each(SHAPES)('%s: generates every mode for both targets, or refuses with a TlabError', (_name, text) => {
    const file = parseSdfgJson(deepDoc(text, MAX_EXPRESSION_DEPTH - 3), 'deep.sdfg', 0, false);
    let generated = 0;
    withStackUsed(0.5, () => {
      for (const target of ['cpu', 'gpu'] as const) {
        const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 8n, target });
        findUnsupported(file, target);
        for (const v of CODEGEN_VARIANTS) {
          try {
            generateProgram(file, analysis, v);
            generated++;
          } catch (error) {
            if (!(error instanceof TlabError)) throw error;
          }
        }
      }
    });
    // The plain sum and the floor quotients are translated (what the others refuse is a value out of 64 bits).
    if (_name === 'sum' || _name === 'floor quotients') expect(generated).toBe(2 * CODEGEN_VARIANTS.length);
  });

  it('a nested size written over the program symbols through a symbol mapping is held to the limit too', () => {
    // nested_offset.sdfg: the nested SDFG's transient tmp has shape [M], and M ↦ N.
    const doc = (innerShape: string) => {
      const d = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'nested_offset.sdfg'), 'utf8'));
      const nested = d.nodes[0].nodes[1].attributes;
      nested.symbol_mapping.M = chain(MAX_EXPRESSION_DEPTH - 1, 'N', ' + ');
      Object.assign(nested.sdfg.attributes._arrays.tmp.attributes, { shape: [innerShape], strides: ['1'] });
      delete nested.sdfg.attributes._arrays.tmp.attributes.total_size;
      return parseSdfgJson(d, 'mapped.sdfg', 0, false);
    };
    // `1 + M`: M sits 2 levels down, so the size over N is exactly at the limit, and EXTERNAL sizes it over N.
    const at = doc('1 + M');
    expect(findUnsupported(at)).toEqual([]);
    const program = generateProgram(at, analyze(at, { symbols: new Map(), defaultSymbol: 8n, target: null }), {
      mode: 'EXTERNAL',
      layout: 'dace',
    });
    expect(program.externals[0]!.bytes).toBe((1n + 8n * BigInt(MAX_EXPRESSION_DEPTH - 1)) * 8n);
    const over = doc('1 + (1 + M)');
    expect(findUnsupported(over)).toContainEqual(
      expect.objectContaining({
        jsonPath: '$.nodes[0].nodes[1].attributes.sdfg.attributes._arrays.tmp',
        message: expect.stringContaining(`nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`),
      }),
    );
  });

  it('one level deeper: a clear TlabError naming the file, the JSON path and the limit', () => {
    const file = parseSdfgJson(
      deepDoc((d) => chain(d, 'a', ' + '), MAX_EXPRESSION_DEPTH - 1),
      'deep.sdfg',
      0,
      false,
    );
    for (const target of ['cpu', 'gpu'] as const) {
      let error: unknown;
      try {
        const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 8n, target });
        generateProgram(file, analysis, { mode: 'SCOPED', layout: 'packed' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TlabError);
      const t = error as TlabError;
      expect(t.file).toBe('deep.sdfg');
      expect(t.jsonPath).toMatch(/^\$\./);
      expect(t.describe()).toContain(`nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`);
    }
  });
});

describe(`control flow nested up to the limit (${MAX_CONTROL_DEPTH} levels)`, () => {
  const regions = (depth: number): unknown => {
    let region: Record<string, unknown> = { type: 'SDFGState', label: 'leaf', nodes: [], edges: [] };
    for (let i = 0; i < depth; i++) region = { type: 'ControlFlowRegion', label: `r${i}`, nodes: [region], edges: [], start_block: 0 };
    return { type: 'SDFG', attributes: { name: 'deep' }, nodes: [region], edges: [] };
  };
  const nestedSdfgs = (depth: number): unknown => {
    let text = '{"type":"SDFG","attributes":{"name":"leaf"},"nodes":[],"edges":[]}';
    for (let i = 0; i < depth; i++) {
      text = `{"type":"SDFG","attributes":{"name":"s${i}"},"nodes":[{"type":"SDFGState","nodes":[{"type":"NestedSDFG","label":"n${i}","attributes":{"sdfg":${text}},"id":0}],"edges":[]}],"edges":[]}`;
    }
    return JSON.parse(text);
  };

  // Before the limit, the emitter's recursion through 1,100 nested regions overflowed the stack.
  it.each([
    ['regions', regions, '$' + '.nodes[0]'.repeat(MAX_CONTROL_DEPTH + 1), /control flow nested deeper than 256 levels/],
    [
      'nested SDFGs',
      nestedSdfgs,
      '$' + '.nodes[0].nodes[0].attributes.sdfg'.repeat(MAX_CONTROL_DEPTH + 1),
      /control flow nested deeper than 256 levels/,
    ],
  ] as const)(
    '%s: at the limit every variant generates; one level deeper is refused by the parser at the block',
    (_what, make, jsonPath, message) => {
      const at = parseSdfgJson(make(MAX_CONTROL_DEPTH), 'deep.sdfg', 0, false);
      withStackUsed(0.5, () => {
        for (const target of ['cpu', 'gpu'] as const) {
          expect(findUnsupported(at, target)).toEqual([]);
          const analysis = analyze(at, { symbols: new Map(), defaultSymbol: 8n, target });
          for (const v of CODEGEN_VARIANTS) expect(generateProgram(at, analysis, v).source.length).toBeGreaterThan(0);
        }
      });
      // One level deeper never reaches the generator: the parser refuses it (sdfg/nesting.ts), at the same block.
      expect(() => parseSdfgJson(make(MAX_CONTROL_DEPTH + 1), 'deep.sdfg', 0, false)).toThrow(
        expect.objectContaining({ kind: 'unsupported', jsonPath, message: expect.stringMatching(message) }),
      );
    },
  );
});

describe('structural fuzzing through the generator', () => {
  const seeds = loadSeeds(TEST_SEEDS);

  it('mutants either generate in every mode and target or are refused with a TlabError (200 mutated files)', () => {
    let reached = 0;
    let programs = 0;
    fc.assert(
      fc.property(caseArb(seeds.length), (c) => {
        const outcome = runCase(seeds, c, { codegen: true });
        if (outcome.kind === 'crash') throw new Error(`internal error (${outcome.stage}): ${describeCrash(outcome.error)}`);
        if (outcome.generator?.targets.length) reached++;
        programs += outcome.generator?.programs ?? 0;
      }),
      // A fixed seed keeps `npm test` reproducible and fast; the bench and the driver draw new cases every run.
      { numRuns: 200, seed: 20_250_101 },
    );
    // Enough mutants must get through the subset check for the property to test the generator at all.
    expect(reached).toBeGreaterThan(30);
    expect(programs).toBeGreaterThan(200);
  });
});
