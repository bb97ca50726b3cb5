/**
 * The workload file, schema `transient-lab/workload@1` (docs/workload.md): several programs run in sequence
 * that share one workspace per storage, as a model's time step does. This module only reads and checks the
 * document; every error names the file and the JSON path of the offending value.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { TlabError } from '../errors.js';

const WORKLOAD_SCHEMA = 'transient-lab/workload@1';

export interface WorkloadProgram {
  key: string;
  /** Absolute path of the SDFG file, or null when the program is `prebuilt`. */
  sdfg: string | null;
  /** Absolute path of a `build` folder (the `--prebuilt` form) or of the first DaCe build folder, or null. */
  prebuilt: string | null;
  /** Every folder `prebuilt` names (one, or several DaCe build folders of one program, one per mode), with the
   * JSON path of each; empty when the program is `sdfg`. */
  prebuiltFolders: Array<{ dir: string; jsonPath: string }>;
  /** The program's own symbol values: they override the workload's shared ones. */
  symbols: Map<string, bigint>;
  /** Argument name → absolute .npy path. */
  inputs: Map<string, string>;
  /** Argument name → shared array name (arguments are bound by their own name otherwise). */
  bind: Map<string, string>;
  jsonPath: string;
}

/** One call in the sequence: a program, with symbol values that override the program's for this call only. */
export interface WorkloadCall {
  program: string;
  symbols: Map<string, bigint>;
  jsonPath: string;
}

export interface Workload {
  path: string;
  name: string;
  programs: Map<string, WorkloadProgram>;
  symbols: Map<string, bigint>;
  inputs: Map<string, string>;
  sequence: WorkloadCall[];
  steps: number;
}

/** True when the text is a JSON object naming the workload schema (cheap: no full parse of SDFG-sized files). */
export function sniffWorkload(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*\{/.test(head) && /"schema"\s*:\s*"transient-lab\/workload@\d+"/.test(head);
}

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_STEPS = 1_000_000;

type Obj = Record<string, unknown>;

class Reader {
  constructor(readonly path: string) {}

  fail(jsonPath: string, message: string): never {
    throw new TlabError('input', message, { file: this.path, jsonPath });
  }

  object(v: unknown, at: string, what: string): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(at, `${what} must be an object, got ${kindOf(v)}`);
    return v as Obj;
  }

  only(o: Obj, at: string, allowed: string[]): void {
    for (const k of Object.keys(o)) {
      if (!allowed.includes(k)) this.fail(`${at}.${k}`, `unknown field '${k}' (allowed: ${allowed.join(', ')})`);
    }
  }

  string(v: unknown, at: string): string {
    if (typeof v !== 'string' || v.trim() === '') this.fail(at, `expected a non-empty string, got ${kindOf(v)}`);
    return v;
  }

  file(v: unknown, at: string): string {
    const p = this.string(v, at);
    return isAbsolute(p) ? p : resolve(dirname(this.path), p);
  }

  symbols(v: unknown, at: string): Map<string, bigint> {
    const out = new Map<string, bigint>();
    if (v === undefined) return out;
    for (const [k, val] of Object.entries(this.object(v, at, 'symbols'))) {
      if (!IDENT.test(k)) this.fail(`${at}.${k}`, `'${k}' is not a symbol name`);
      // Symbol values may pass 2^53 (sizes of real models): decimal strings carry them exactly.
      if (typeof val === 'number' && Number.isSafeInteger(val)) out.set(k, BigInt(val));
      else if (typeof val === 'string' && /^-?\d+$/.test(val)) out.set(k, BigInt(val));
      else this.fail(`${at}.${k}`, `symbol ${k} must be an integer (a number, or a decimal string past 2^53), got ${show(val)}`);
    }
    return out;
  }

  files(v: unknown, at: string, what: string): Map<string, string> {
    const out = new Map<string, string>();
    if (v === undefined) return out;
    for (const [k, val] of Object.entries(this.object(v, at, what))) out.set(k, this.file(val, `${at}.${k}`));
    return out;
  }
}

/** Parses and checks a workload document; `path` is the file's path (relative paths inside resolve against it). */
export function parseWorkload(text: string, path: string): Workload {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new TlabError('input', `not valid JSON: ${(err as Error).message}`, { file: path });
  }
  const r: Reader = new Reader(path);
  const top = r.object(doc, '$', 'a workload');
  r.only(top, '$', ['schema', 'name', 'programs', 'symbols', 'inputs', 'sequence', 'steps']);
  if (top.schema !== WORKLOAD_SCHEMA) {
    r.fail('$.schema', `schema must be '${WORKLOAD_SCHEMA}', got ${show(top.schema)}`);
  }
  const name = top.name === undefined ? 'workload' : r.string(top.name, '$.name');

  const programs = new Map<string, WorkloadProgram>();
  const progs = r.object(top.programs, '$.programs', 'programs');
  if (Object.keys(progs).length === 0) r.fail('$.programs', 'a workload needs at least one program');
  for (const [key, raw] of Object.entries(progs)) {
    const at = `$.programs.${key}`;
    if (!KEY.test(key)) r.fail(at, `'${key}' is not a program key (letters, digits, _ . -, not starting with a digit)`);
    const p = r.object(raw, at, `program '${key}'`);
    r.only(p, at, ['sdfg', 'prebuilt', 'symbols', 'inputs', 'bind']);
    if ((p.sdfg === undefined) === (p.prebuilt === undefined)) {
      r.fail(at, `program '${key}' needs exactly one of 'sdfg' (an SDFG file) or 'prebuilt' (a build folder)`);
    }
    const bind = new Map<string, string>();
    if (p.bind !== undefined) {
      for (const [arg, array] of Object.entries(r.object(p.bind, `${at}.bind`, 'bind'))) {
        bind.set(arg, r.string(array, `${at}.bind.${arg}`));
      }
    }
    const prebuiltFolders = prebuiltList(r, p.prebuilt, `${at}.prebuilt`);
    programs.set(key, {
      key,
      sdfg: p.sdfg === undefined ? null : r.file(p.sdfg, `${at}.sdfg`),
      prebuilt: prebuiltFolders[0]?.dir ?? null,
      prebuiltFolders,
      symbols: r.symbols(p.symbols, `${at}.symbols`),
      inputs: r.files(p.inputs, `${at}.inputs`, 'inputs'),
      bind,
      jsonPath: at,
    });
  }

  const seq: unknown = top.sequence;
  if (!Array.isArray(seq)) r.fail('$.sequence', `sequence must be an array of program keys, got ${kindOf(seq)}`);
  if (seq.length === 0) r.fail('$.sequence', 'the sequence is empty: name the programs to run, in order');
  const sequence = seq.map((entry: unknown, i: number): WorkloadCall => {
    const at = `$.sequence[${i}]`;
    let key: string;
    let symbols = new Map<string, bigint>();
    if (typeof entry === 'string') key = entry;
    else {
      const e = r.object(entry, at, 'a sequence entry (a program key, or {"program": …, "symbols": …})');
      r.only(e, at, ['program', 'symbols']);
      key = r.string(e.program, `${at}.program`);
      symbols = r.symbols(e.symbols, `${at}.symbols`);
    }
    if (!programs.has(key)) r.fail(at, `no program '${key}' in programs (known: ${[...programs.keys()].join(', ')})`);
    return { program: key, symbols, jsonPath: at };
  });

  let steps = 1;
  const rawSteps: unknown = top.steps;
  if (rawSteps !== undefined) {
    if (typeof rawSteps !== 'number' || !Number.isInteger(rawSteps) || rawSteps < 1 || rawSteps > MAX_STEPS) {
      r.fail('$.steps', `steps must be an integer from 1 to ${MAX_STEPS}, got ${show(rawSteps)}`);
    }
    steps = rawSteps;
  }
  return {
    path,
    name,
    programs,
    symbols: r.symbols(top.symbols, '$.symbols'),
    inputs: r.files(top.inputs, '$.inputs', 'inputs'),
    sequence,
    steps,
  };
}

/** `prebuilt`: one folder, or a non-empty array of DaCe build folders of one program (one per mode). */
function prebuiltList(r: Reader, v: unknown, at: string): Array<{ dir: string; jsonPath: string }> {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return [{ dir: r.file(v, at), jsonPath: at }];
  if (v.length === 0) r.fail(at, 'prebuilt must name a folder, or a non-empty array of DaCe build folders (one per mode)');
  return v.map((item: unknown, i: number) => ({ dir: r.file(item, `${at}[${i}]`), jsonPath: `${at}[${i}]` }));
}

/**
 * The symbol values one call sees, lowest precedence first: the workload's shared symbols, the program's own,
 * then the sequence entry's. Every layer may name symbols the program does not have; the analysis ignores them.
 */
export function callSymbols(w: Workload, call: WorkloadCall): Map<string, bigint> {
  const program = w.programs.get(call.program)!;
  return new Map([...w.symbols, ...program.symbols, ...call.symbols]);
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${show(v)}`;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
