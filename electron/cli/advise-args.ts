/**
 * What `advise` and `check` share: the subject options (symbols, target), `--layout`, and the parsers for
 * `--sweep N=64..4096[:x2|:+64]` and byte budgets (`CPU_Heap=64MiB`).
 */
import type { SubjectOptions } from '../engine/advise/subject.js';
import type { SweepSpec } from '../engine/advise/index.js';
import type { Layout } from '../engine/codegen/types.js';
import { TlabError } from '../engine/errors.js';
import { optionValue, parseInteger, parseSymbolList, type OptionSpec, type ParsedArgs } from './args.js';

export const SUBJECT_OPTIONS: Record<string, OptionSpec> = {
  symbols: { value: true, repeat: true },
  'default-symbol': { value: true },
  target: { value: true },
  layout: { value: true },
  json: { value: false },
  help: { value: false },
};

export function subjectOptions(command: string, args: ParsedArgs): SubjectOptions {
  const symbols = new Map<string, bigint>();
  for (const text of args.options.get('symbols') ?? []) for (const [k, v] of parseSymbolList(command, text)) symbols.set(k, v);
  const def = optionValue(args, 'default-symbol');
  const target = optionValue(args, 'target');
  if (target !== undefined && target !== 'cpu' && target !== 'gpu')
    throw new TlabError('usage', `${command}: --target expects cpu or gpu, got '${target}'`);
  return { symbols, defaultSymbol: def === undefined ? null : parseInteger(command, 'default-symbol', def), target: target ?? null };
}

export function layoutOption(command: string, args: ParsedArgs): Layout {
  const text = optionValue(args, 'layout') ?? 'packed';
  if (text !== 'packed' && text !== 'dace') throw new TlabError('usage', `${command}: --layout expects packed or dace, got '${text}'`);
  return text;
}

const MAX_SWEEP_POINTS = 64;

/** `N=64..4096` (×2 steps), `N=64..4096:x3` (geometric), `N=64..1024:+64` (arithmetic). */
export function parseSweep(command: string, text: string): SweepSpec {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=(\d+)\.\.(\d+)(?::(?:([x×*])(\d+)|\+(\d+)))?$/.exec(text.trim());
  if (!m) throw new TlabError('usage', `${command}: --sweep expects SYMBOL=FROM..TO[:xFACTOR|:+STEP], e.g. N=64..4096:x2, got '${text}'`);
  const [, symbol, fromText, toText, , factorText, stepText] = m;
  const from = BigInt(fromText!);
  const to = BigInt(toText!);
  if (from < 1n || to < from) throw new TlabError('usage', `${command}: --sweep needs 1 <= FROM <= TO, got ${from}..${to}`);
  const values: bigint[] = [];
  const factor = stepText === undefined ? BigInt(factorText ?? '2') : null;
  const step = stepText === undefined ? null : BigInt(stepText);
  if ((factor !== null && factor < 2n) || (step !== null && step < 1n)) {
    throw new TlabError('usage', `${command}: --sweep needs a factor of at least 2 or a step of at least 1`);
  }
  for (let v = from; v <= to; v = factor !== null ? v * factor : v + step!) {
    values.push(v);
    if (values.length > MAX_SWEEP_POINTS)
      throw new TlabError('usage', `${command}: --sweep ${text} has more than ${MAX_SWEEP_POINTS} points`);
  }
  if (values.length < 3)
    throw new TlabError('usage', `${command}: --sweep ${text} has ${values.length} point(s); a curve needs at least 3`);
  return { symbol: symbol!, values };
}

const UNITS: Record<string, bigint> = {
  '': 1n,
  b: 1n,
  kb: 1000n,
  mb: 1000n ** 2n,
  gb: 1000n ** 3n,
  kib: 1024n,
  mib: 1024n ** 2n,
  gib: 1024n ** 3n,
};

/** `CPU_Heap=64MiB` → ['CPU_Heap', 67108864n]. */
export function parseBudget(command: string, text: string): [string, bigint] {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=(\d+)\s*([A-Za-z]*)$/.exec(text.trim());
  const unit = m ? UNITS[m[3]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) {
    throw new TlabError(
      'usage',
      `${command}: --max-workspace expects STORAGE=BYTES (units B, KB, MB, GB, KiB, MiB, GiB), e.g. CPU_Heap=64MiB, got '${text}'`,
    );
  }
  return [m[1]!, BigInt(m[2]!) * unit];
}
