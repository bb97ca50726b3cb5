/**
 * Shrinks a crashing fuzz case to a small SDFG document that still crashes the same way (a fixture for
 * tests/fixtures/fuzz/): `node dist/bench/fuzz-shrink.js (--replay CASE --files LIST | --in FILE
 * [--default-symbol V]) --out FILE`.
 *
 * Greedy delta debugging on the JSON tree: top-down, each object key and array element is deleted when the
 * document without it still crashes with the same error class in the same engine function; then strings are
 * cut short the same way. Repeats until nothing more can go. Slow on big documents (every try runs the
 * front end and the generator stage), fine on the small corpus files the bench mutates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SEEDS, caseText, loadSeeds, runFrontEnd, type FuzzCase } from './lib/fuzz-core.js';
import { benchSeeds } from './fuzz-driver.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Error class and the first engine function of a crash: what must stay the same while shrinking. */
export function crashSignature(error: unknown): string {
  const e = error as Error;
  const frame = (e?.stack ?? '').split('\n').find((l) => /electron\/engine/.test(l)) ?? '';
  const fn = /at (?:new )?([\w.$<>]+) \(/.exec(frame)?.[1] ?? '';
  const file = /engine\/([\w/.-]+?)\.[jt]s/.exec(frame)?.[1] ?? '';
  return `${e?.name ?? typeof error} ${file}:${fn}`;
}

function signatureOf(doc: Json, defaultSymbol: bigint | null): string | null {
  const outcome = runFrontEnd(doc, defaultSymbol, 'shrink.sdfg', { codegen: true });
  return outcome.kind === 'crash' ? crashSignature(outcome.error) : null;
}

/** Every container path, parents before children. */
function containers(doc: Json): Array<Json[] | { [key: string]: Json }> {
  const out: Array<Json[] | { [key: string]: Json }> = [];
  const queue: Json[] = [doc];
  while (queue.length) {
    const v = queue.shift()!;
    if (v === null || typeof v !== 'object') continue;
    out.push(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') queue.push(child);
  }
  return out;
}

export function shrink(doc: Json, defaultSymbol: bigint | null, log: (line: string) => void = () => {}): Json {
  const target = signatureOf(doc, defaultSymbol);
  if (target === null) throw new Error('the document does not crash: nothing to shrink');
  log(`signature: ${target}`);
  const still = () => signatureOf(doc, defaultSymbol) === target;
  for (let pass = 1; ; pass++) {
    let changed = false;
    for (const c of containers(doc)) {
      if (Array.isArray(c)) {
        for (let i = c.length - 1; i >= 0; i--) {
          const [old] = c.splice(i, 1);
          if (still()) changed = true;
          else c.splice(i, 0, old!);
        }
      } else {
        for (const key of Object.keys(c)) {
          const entries = Object.entries(c);
          delete c[key];
          if (still()) {
            changed = true;
            continue;
          }
          for (const [k] of entries) delete c[k];
          for (const [k, v] of entries) Object.defineProperty(c, k, { value: v, enumerable: true, writable: true, configurable: true });
        }
        for (const key of Object.keys(c)) {
          const v = c[key];
          if (typeof v !== 'string' || v.length <= 8) continue;
          for (const cut of [v.slice(0, 1), v.slice(0, Math.ceil(v.length / 2))]) {
            Object.defineProperty(c, key, { value: cut, enumerable: true, writable: true, configurable: true });
            if (still()) {
              changed = true;
              break;
            }
            Object.defineProperty(c, key, { value: v, enumerable: true, writable: true, configurable: true });
          }
        }
      }
    }
    log(`pass ${pass}: ${JSON.stringify(doc).length} bytes`);
    if (!changed) return doc;
  }
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

function main(argv: string[]): number {
  const out = option(argv, 'out');
  const replay = option(argv, 'replay');
  const input = option(argv, 'in');
  if (!out || (replay === undefined) === (input === undefined)) {
    process.stderr.write('usage: fuzz-shrink (--replay CASE [--files LIST] | --in FILE [--default-symbol V]) --out FILE\n');
    return 2;
  }
  let doc: Json;
  let defaultSymbol: bigint | null;
  if (replay !== undefined) {
    const files = option(argv, 'files');
    const seeds = loadSeeds(files === undefined ? TEST_SEEDS : files === 'bench' ? benchSeeds() : files.split(','));
    const c = JSON.parse(replay, (_k, v: unknown) =>
      typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
    ) as FuzzCase;
    doc = JSON.parse(caseText(seeds, c)!) as Json;
    defaultSymbol = c.defaultSymbol;
  } else {
    doc = JSON.parse(readFileSync(input!, 'utf8')) as Json;
    const d = option(argv, 'default-symbol');
    defaultSymbol = d === undefined ? null : BigInt(d);
  }
  const small = shrink(doc, defaultSymbol, (line) => process.stderr.write(`${line}\n`));
  writeFileSync(out, `${JSON.stringify(small, null, 1)}\n`);
  process.stderr.write(`wrote ${out} (default symbol ${defaultSymbol})\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
