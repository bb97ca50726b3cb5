/**
 * Small, strict argument parsing shared by the subcommands (no dependency: the grammar is tiny and the
 * error messages matter more than features). Unknown options and malformed values are usage errors (exit 2).
 */
import { TlabError } from '../engine/errors.js';

export interface OptionSpec {
  /** Takes a value (`--calls 10` or `--calls=10`). */
  value: boolean;
  /** May be given several times (values are collected). */
  repeat?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

export function parseArgs(command: string, argv: string[], spec: Record<string, OptionSpec>): ParsedArgs {
  const out: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg === '--') {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const s = spec[name];
    if (!s) throw new TlabError('usage', `${command}: unknown option --${name}`);
    if (!s.value) {
      if (eq >= 0) throw new TlabError('usage', `${command}: option --${name} takes no value`);
      out.flags.add(name);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      if (value === undefined) throw new TlabError('usage', `${command}: option --${name} needs a value`);
    }
    const prev = out.options.get(name);
    if (prev && !s.repeat) throw new TlabError('usage', `${command}: option --${name} given twice`);
    out.options.set(name, [...(prev ?? []), value]);
  }
  return out;
}

export function optionValue(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^-?\d+$/;

/** `N=64,M=32` → Map (BigInt values: symbol values may exceed 2^53). */
export function parseSymbolList(command: string, text: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const part of text.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    const key = eq < 0 ? '' : item.slice(0, eq).trim();
    const val = eq < 0 ? '' : item.slice(eq + 1).trim();
    if (!IDENT.test(key) || !INTEGER.test(val)) {
      throw new TlabError('usage', `${command}: --symbols expects NAME=INTEGER[,NAME=INTEGER…], got '${item}'`);
    }
    out.set(key, BigInt(val));
  }
  return out;
}

export function parseInteger(command: string, option: string, text: string, min?: bigint): bigint {
  if (!INTEGER.test(text.trim())) throw new TlabError('usage', `${command}: --${option} expects an integer, got '${text}'`);
  const v = BigInt(text.trim());
  if (min !== undefined && v < min) throw new TlabError('usage', `${command}: --${option} must be at least ${min}, got ${v}`);
  return v;
}

/** `--pool-release-threshold BYTES|max` (build and profile): bytes in [0, 2^64), `max` = UINT64_MAX. */
export function parsePoolReleaseThreshold(command: string, text: string): bigint {
  const v = text.trim().toLowerCase() === 'max' ? 2n ** 64n - 1n : parseInteger(command, 'pool-release-threshold', text, 0n);
  if (v >= 2n ** 64n) throw new TlabError('usage', `${command}: --pool-release-threshold must be below 2^64 (or max)`);
  return v;
}
