/**
 * Structural fuzzing of the SDFG front end: real files, parsed once, are mutated in place (a value replaced by
 * a hostile one, a key deleted or renamed, a value wrapped thousands of levels deep, a subtree moved to
 * another place), run through parse → analyse → the analyze command's JSON and text output, and restored.
 * The property: every case either succeeds or throws TlabError; anything else is a crash (exit 70 in the CLI).
 *
 * Shared by the property test (tests/engine/sdfg/fuzz.test.ts), the bench section (bench/fuzz.ts) and the
 * stand-alone driver (bench/fuzz-driver.ts). Every mutation keeps the document JSON-representable, so a
 * failing case can be written to a file and replayed through the CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { analyze } from '../../electron/engine/analysis/index.js';
import type { Analysis, Target } from '../../electron/engine/analysis/types.js';
import type { GeneratedProgram } from '../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../electron/engine/model/sdfg.js';
import { toAnalysisJson } from '../../electron/engine/analysis/json.js';
import { TlabError } from '../../electron/engine/errors.js';
import { corpusDir, examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { parseSdfgJson } from '../../electron/engine/sdfg/index.js';
import { MAX_EXPRESSION_DEPTH } from '../../electron/engine/symbolic/index.js';
import { buildDocInfo } from '../../electron/engine/view/doc.js';
import { humanReport } from '../../electron/cli/analyze.js';
import { runGenerator, type GeneratorReach } from './fuzz-codegen.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Container = Json[] | { [key: string]: Json };

/** One place in a document: a value and the container that holds it. */
interface Slot {
  parent: Container;
  key: string | number;
}

export interface Seed {
  name: string;
  doc: Json;
  slots: Slot[];
}

/** Small enough to keep one case near a millisecond, and together they cover every format generation. */
export const TEST_SEEDS = [
  'corpus:spcl__dace__examples__gemm.sdfg',
  'corpus:spcl__dace__doc___static__sdfg__scalarsym.sdfg',
  'corpus:spcl__dace__tests__sdfg_corpus__loops_for_else.sdfgz',
  'corpus:spcl__dace__tests__sdfg_corpus__nestinger_1.sdfgz',
  'corpus:spcl__dace__tests__sdfg_corpus__named_region_func_0.sdfg',
  'corpus:spcl__dace__tests__sdfg_corpus__vectortypes_0.sdfgz',
  'example:chain.sdfg',
  'fixture:nested_offset.sdfg',
  'fixture:control_legacy_loop_conditional.sdfg',
];

function loadJson(path: string): Json {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8')) as Json;
}

/** Every value of the document except the root, in document order. Nested SDFGs stored as JSON text stay text. */
function collectSlots(doc: Json): Slot[] {
  const slots: Slot[] = [];
  const stack: Json[] = [doc];
  while (stack.length) {
    const value = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        slots.push({ parent: value, key: i });
        if (value[i] !== null && typeof value[i] === 'object') stack.push(value[i]!);
      }
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        slots.push({ parent: value, key });
        const child = value[key]!;
        if (child !== null && typeof child === 'object') stack.push(child);
      }
    }
  }
  return slots;
}

/** `corpus:NAME` (../shared/corpus/sdfg), `example:NAME` (assets/examples), `fixture:NAME` (tests/fixtures/sdfg). */
function seedPath(spec: string): string {
  const colon = spec.indexOf(':');
  const where = spec.slice(0, colon);
  const name = spec.slice(colon + 1);
  if (where === 'corpus') return join(corpusDir(), name);
  if (where === 'example') return join(examplesDir(), name);
  if (where === 'fixture') return join(packageRoot(), 'tests', 'fixtures', 'sdfg', name);
  return spec;
}

export function loadSeeds(specs: readonly string[]): Seed[] {
  return specs.map((spec) => makeSeed(spec.slice(spec.indexOf(':') + 1), loadJson(seedPath(spec))));
}

function makeSeed(name: string, doc: Json): Seed {
  return { name, doc, slots: collectSlots(doc) };
}

function nestedArray(depth: number, inner: Json): Json {
  let v = inner;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

function nestedObject(depth: number, key: string, inner: Json): Json {
  let v = inner;
  for (let i = 0; i < depth; i++) v = { [key]: v };
  return v;
}

/** Objects whose own keys shadow Object.prototype: `String(x)` and `` `${x}` `` throw on them. */
const own = (text: string): Json => JSON.parse(text) as Json;

/**
 * Hostile JSON values, each made fresh (the engine must not depend on values being distinct, but a case
 * must not see what an earlier case did to a shared object either).
 */
const HOSTILE: ReadonlyArray<() => Json> = [
  () => own('{"toString": 1}'),
  () => own('{"valueOf": {}, "toString": {}}'),
  () => own('{"toString": "x", "valueOf": "y", "type": {"toString": 1}}'),
  () => own('{"__proto__": {"type": "Range", "ranges": []}}'),
  () => own('{"constructor": 1, "hasOwnProperty": 2}'),
  () => own('{"type": {"toString": 1}}'),
  () => own('{"main": {"toString": 1}}'),
  () => own('{"main": "N", "approx": {"valueOf": 1}}'),
  () => own('{"type": "Range", "ranges": [{"start": {"toString": 1}, "end": "N"}]}'),
  () => own('{"type": "pointer", "dtype": {"type": "pointer", "dtype": {"toString": 1}}}'),
  () => nestedArray(3000, []),
  () => nestedArray(3000, 1),
  () => nestedArray(10_000, []),
  () => nestedObject(3000, 'type', 'Range'),
  () => nestedObject(3000, 'main', 'N'),
  () => nestedObject(200, 'dtype', own('{"type": "pointer"}')),
  () => Array.from({ length: 5000 }, (_, i) => i),
  () => ({ type: 'SubsetUnion', subset_list: [nestedObject(50, 'subset_list', [])] }),
  () => 1e308,
  () => -1e308,
  () => 1e21,
  () => 2 ** 53 + 2,
  () => -1,
  () => -0,
  () => 0.5,
  () => 4294967296,
  () => 0,
  () => true,
  () => false,
  () => null,
  () => [],
  () => [null],
  () => [[]],
  () => ({}),
  () => '',
  () => ' ',
  () => 'NaN',
  () => 'inf',
  () => '-inf',
  () => '1e400',
  () => '9'.repeat(400),
  () => '('.repeat(5000) + 'N' + ')'.repeat(5000),
  () => '('.repeat(5000),
  () => '-'.repeat(5000) + '1',
  () => 'not '.repeat(5000) + 'N',
  () => Array.from({ length: 20_000 }, () => '1').join(' + '),
  () => Array.from({ length: 20_000 }, () => 'N').join(' * '),
  () => Array.from({ length: 5000 }, () => '2').join(' ** '),
  () => '2 ** 2 ** 2 ** 2 ** 2 ** 2',
  () => 'N ** N ** N',
  () => '10 ** 10 ** 10',
  () => 'Max(' + 'N, '.repeat(5000) + '1)',
  () => 'f('.repeat(3000) + ')'.repeat(3000),
  () => 'a[' + '['.repeat(3000),
  () => 'int_ceil(N, 0)',
  () => '1 / 0',
  () => 'N % 0',
  () => '__proto__',
  () => 'constructor',
  () => 'toString',
  () => 'hasOwnProperty',
  () => 'prototype',
  () => '$N',
  () => '$?',
  () => 'SymExpr(N, ',
  () => '0:N:0',
  () => '0:N, i:',
  () => '::',
  () => '\u0000',
  () => '\uD800',
  () => 'é'.repeat(100),
  () => 'a'.repeat(100_000),
  () => '{'.repeat(2000),
  () => '['.repeat(5000) + ']'.repeat(5000),
  () => '{"type": "SDFG", "nodes": {"toString": 1}}',
  () => 'Range',
  () => 'Indices',
  () => 'SubsetUnion',
  () => 'SDFG',
  () => 'SDFGState',
  () => 'LoopRegion',
  () => 'ConditionalBlock',
  () => 'ControlFlowRegion',
  () => 'NestedSDFG',
  () => 'MapEntry',
  () => 'MapExit',
  () => 'AccessNode',
  () => 'Tasklet',
  () => 'LibraryNode',
  () => 'Structure',
  () => 'Stream',
  () => 'Scalar',
  () => 'Array',
  () => 'View',
  () => 'pointer',
  () => 'struct',
  () => 'vector',
  () => 'int64',
  () => 'float64',
  () => 'CPP',
  () => 'NoCode',
  () => 'GPU_Global',
  () => 'CPU_Multicore',
  () => 'Persistent',
  () => 'External',
  () => 'N',
  () => 'i',
  () => '0',
  () => '-5',
  () => '1',
  // At the parser's depth limit (a tree exactly MAX_EXPRESSION_DEPTH levels high), which must work: every walk
  // of symbolic/ and codegen/ has to handle it, and what it derives (a sum of fractions becomes one fraction).
  () => chain(MAX_EXPRESSION_DEPTH - 1, 'N/2', ' + '),
  () => chain(MAX_EXPRESSION_DEPTH - 1, 'i/3', ' - '),
  () => chain(MAX_EXPRESSION_DEPTH, 'N', ' / '),
  () => chain(MAX_EXPRESSION_DEPTH, 'N', ' // '),
  () => chain(MAX_EXPRESSION_DEPTH, 'N', ' and '),
  () => chain(MAX_EXPRESSION_DEPTH - 1, 'N*2', ' + '),
  () => `${'-'.repeat(MAX_EXPRESSION_DEPTH - 1)}N`,
  () => `${chain(MAX_EXPRESSION_DEPTH - 2, 'N', ' + ')} - 1`,
  // One level over it: refused with the limit in the message.
  () => chain(MAX_EXPRESSION_DEPTH + 1, 'N', ' + '),
  // Storages that put an array on the stack (in kernels, or as shared memory), and back on the heap.
  () => 'Register',
  () => 'GPU_Shared',
  () => 'CPU_Heap',
  () => 'GPU_Device',
  () => 'Sequential',
];

function chain(terms: number, term: string, op: string): string {
  return Array.from({ length: terms }, () => term).join(op);
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '', 'a.b', '"', 'type', 'nodes', 'attributes'];

export type Mutation =
  | { op: 'replace'; slot: number; value: number }
  | { op: 'delete'; slot: number }
  | { op: 'wrap'; slot: number; depth: number; inObject: boolean }
  | { op: 'transplant'; slot: number; from: number }
  | { op: 'rename'; slot: number; key: number };

export interface FuzzCase {
  seed: number;
  mutations: Mutation[];
  /** null = symbols stay symbolic. */
  defaultSymbol: bigint | null;
}

const slotIndex = fc.nat({ max: 0x7fffffff });

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('replace' as const), slot: slotIndex, value: fc.nat({ max: HOSTILE.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), slot: slotIndex }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('wrap' as const),
      slot: slotIndex,
      depth: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom(3000, 10_000)),
      inObject: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('transplant' as const), slot: slotIndex, from: slotIndex }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('rename' as const), slot: slotIndex, key: fc.nat({ max: HOSTILE_KEYS.length - 1 }) }),
  },
);

export function caseArb(seeds: number): fc.Arbitrary<FuzzCase> {
  return fc.record({
    seed: fc.nat({ max: seeds - 1 }),
    mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
    defaultSymbol: fc.constantFrom<bigint | null>(null, 8n, 0n, 1n, -3n, 2n ** 40n),
  });
}

/** Restores one applied mutation. */
type Undo = () => void;

function getValue(slot: Slot): Json {
  return (slot.parent as Record<string | number, Json>)[slot.key]!;
}

function setValue(slot: Slot, value: Json): Undo {
  const parent = slot.parent as Record<string | number, Json>;
  const had = Object.prototype.hasOwnProperty.call(parent, slot.key);
  const old = parent[slot.key]!;
  // defineProperty: a key named `__proto__` must become an own property, as JSON.parse makes it.
  Object.defineProperty(parent, slot.key, { value, enumerable: true, writable: true, configurable: true });
  return () => {
    if (had) Object.defineProperty(parent, slot.key, { value: old, enumerable: true, writable: true, configurable: true });
    else delete parent[slot.key];
  };
}

/** Removes an object key (keeping the order of the others on undo) or an array element. */
function removeValue(slot: Slot): Undo {
  if (Array.isArray(slot.parent)) {
    const arr = slot.parent;
    const index = slot.key as number;
    if (index >= arr.length) return () => {};
    const [old] = arr.splice(index, 1);
    return () => void arr.splice(index, 0, old!);
  }
  const obj = slot.parent;
  const key = slot.key as string;
  if (!Object.prototype.hasOwnProperty.call(obj, key)) return () => {};
  const entries = Object.keys(obj).map((k) => [k, obj[k]!] as const);
  delete obj[key];
  return () => {
    for (const [k] of entries) delete obj[k];
    for (const [k, v] of entries) Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  };
}

/** Applies the mutations in order; the returned function undoes all of them (in reverse order). */
export function applyMutations(seed: Seed, mutations: Mutation[]): Undo {
  const undos: Undo[] = [];
  const n = seed.slots.length;
  if (n === 0) return () => {};
  for (const m of mutations) {
    const slot = seed.slots[m.slot % n]!;
    switch (m.op) {
      case 'replace':
        undos.push(setValue(slot, HOSTILE[m.value]!()));
        break;
      case 'delete':
        undos.push(removeValue(slot));
        break;
      case 'wrap': {
        const inner = getValue(slot) ?? null;
        undos.push(setValue(slot, m.inObject ? nestedObject(m.depth, 'main', inner) : nestedArray(m.depth, inner)));
        break;
      }
      case 'transplant': {
        // Another subtree of the same file: right shapes in the wrong places. The source may contain the
        // target (a cycle would not be JSON), so only leaves and subtrees elsewhere are moved.
        const from = seed.slots[m.from % n]!;
        const value = getValue(from);
        if (value !== null && typeof value === 'object' && contains(value, slot.parent)) break;
        undos.push(setValue(slot, value ?? null));
        break;
      }
      case 'rename': {
        if (Array.isArray(slot.parent)) break;
        const value = getValue(slot);
        const undoRemove = removeValue(slot);
        const undoSet = setValue({ parent: slot.parent, key: HOSTILE_KEYS[m.key]! }, value ?? null);
        undos.push(() => {
          undoSet();
          undoRemove();
        });
        break;
      }
    }
  }
  return () => {
    for (let i = undos.length - 1; i >= 0; i--) undos[i]!();
  };
}

function contains(root: Json, target: Container): boolean {
  const stack: Json[] = [root];
  while (stack.length) {
    const v = stack.pop()!;
    if (v === target) return true;
    const children = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : [];
    for (const x of children) if (x !== null && typeof x === 'object') stack.push(x);
  }
  return false;
}

/** `generator`: set when the case reached the generator stage (bench/fuzz-codegen.ts). `stage`: where a crash happened. */
export type Outcome = (
  { kind: 'ok' } | { kind: 'tlab'; error: TlabError } | { kind: 'crash'; error: unknown; stage: 'front' | 'generator' }
) & {
  generator?: GeneratorReach;
};

export interface FrontEndOptions {
  /** Also run the generator stage: every mode and layout, for the CPU and the GPU target. */
  codegen?: boolean;
  /** Each generated program (the compile check samples them). */
  onProgram?: (program: GeneratedProgram, target: Target) => void;
}

/**
 * What `transient-lab analyze FILE [--default-symbol V] --json` and its text form do, in-process (and the
 * DocInfo the app and browser mode build first). With `codegen`, also what `profile` does next before
 * compiling, for every mode, layout and target: the subset check and the generated programs.
 */
export function runFrontEnd(doc: unknown, defaultSymbol: bigint | null, name = 'fuzz.sdfg', opts: FrontEndOptions = {}): Outcome {
  let file: SdfgFile;
  let analysis: Analysis;
  try {
    file = parseSdfgJson(doc, name, 0, false);
    // What the app and browser mode show first, before any analysis.
    JSON.stringify(buildDocInfo(file, { doc: 'fuzz', name, path: null, fileBytes: 0, parseMs: 0 }));
    analysis = analyze(file, { symbols: new Map(), defaultSymbol, target: null });
    JSON.stringify(toAnalysisJson(analysis));
    humanReport(analysis, 120, true);
  } catch (error) {
    if (error instanceof TlabError) return { kind: 'tlab', error };
    return { kind: 'crash', error, stage: 'front' };
  }
  if (!opts.codegen) return { kind: 'ok' };
  const generator = runGenerator(file, analysis, defaultSymbol, opts.onProgram);
  if (generator.internal) return { kind: 'crash', error: generator.internal.error, stage: 'generator', generator };
  return generator.firstRefusal ? { kind: 'tlab', error: generator.firstRefusal, generator } : { kind: 'ok', generator };
}

export function runCase(seeds: Seed[], c: FuzzCase, opts: FrontEndOptions = {}): Outcome {
  const seed = seeds[c.seed % seeds.length]!;
  const undo = applyMutations(seed, c.mutations);
  try {
    return runFrontEnd(seed.doc, c.defaultSymbol, `${seed.name} (mutated)`, opts);
  } finally {
    undo();
  }
}

/** The mutated document of a case as JSON text (for replay through the CLI); null when it cannot be written. */
export function caseText(seeds: Seed[], c: FuzzCase): string | null {
  const seed = seeds[c.seed % seeds.length]!;
  const undo = applyMutations(seed, c.mutations);
  try {
    return JSON.stringify(seed.doc);
  } catch {
    return null; // JSON.stringify recurses: 10,000 levels can exceed its stack
  } finally {
    undo();
  }
}

/** A one-line description of a crash for reports: error class, message and the first engine frame. */
export function describeCrash(error: unknown): string {
  const e = error as Error;
  const frame =
    (e?.stack ?? '')
      .split('\n')
      .find((l) => /electron\/engine|electron\/cli/.test(l))
      ?.trim() ?? '';
  return `${e?.name ?? typeof error}: ${String(e?.message ?? error).slice(0, 160)} ${frame}`;
}
