/**
 * What the Compare tab says about the runs themselves, from what each result records: which file, symbols,
 * modes, calls and machine it is (so that "hdiff (2)" is never the only name of a run), whether the runs are of
 * different programs or different symbols (then their times differ for that reason, not only the modes), and
 * whether their times differ so much that a linear axis squashes the faster ones. Pure.
 */
import type { ProfileResult } from '../../../../electron/engine/view/public.js';
import { mediansDifferTenfold } from '../../charts/profile-data.js';

export interface Labelled {
  label: string;
  result: ProfileResult;
}

export interface RunFacts {
  file: string;
  /** The path as recorded (tooltip). */
  filePath: string;
  /** "N=64" or "I=128 J=128 K=40"; many symbols: the first few and a count. */
  symbols: string;
  /** Every symbol, one per line (tooltip). */
  symbolsAll: string;
  modes: string;
  /** "30 calls × 3 processes". */
  calls: string;
  /** "AMD EPYC · 2 cores", with the GPU when there is one. */
  machine: string;
  /** Compiler, OS, Node (tooltip). */
  machineAll: string;
  /** The Profile tab's settings line: "20 calls × 1 process, 3 warm-up · nx=16 ny=16 · AMD EPYC". */
  settings: string;
}

const SHOWN_SYMBOLS = 4;

const baseName = (p: string): string => p.split(/[\\/]/).pop() || p;
const symbolEntries = (r: ProfileResult): Array<[string, string]> =>
  Object.entries(r.settings.symbols)
    .map(([k, v]): [string, string] => [k, String(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function runFacts(r: ProfileResult): RunFacts {
  const syms = symbolEntries(r);
  const shown = syms.slice(0, SHOWN_SYMBOLS).map(([k, v]) => `${k}=${v}`);
  const m = r.machine;
  const s = r.settings;
  const calls = `${s.calls} call${s.calls === 1 ? '' : 's'} × ${s.processes} process${s.processes === 1 ? '' : 'es'}`;
  return {
    file: baseName(r.program.file),
    filePath: `${r.program.file}\nsha256 ${r.program.hash}`,
    symbols: syms.length === 0 ? 'none' : syms.length > SHOWN_SYMBOLS ? `${shown.join(' ')} … (${syms.length} symbols)` : shown.join(' '),
    symbolsAll: syms.map(([k, v]) => `${k} = ${v}`).join('\n') || 'no symbols',
    modes: r.modes.map((x) => x.label).join(', '),
    calls,
    machine: [m.cpu, `${m.cores} core${m.cores === 1 ? '' : 's'}`, ...(r.device ? [r.device.name] : [])].join(' · '),
    machineAll: [m.cpu, `${m.cores} cores`, m.compiler, m.os, `Node ${m.node}`].join('\n'),
    settings: [`${calls}, ${s.warmup} warm-up`, ...(syms.length ? [syms.map(([k, v]) => `${k}=${v}`).join(' ')] : []), m.cpu].join(' · '),
  };
}

export interface CompareWarning {
  kind: 'program' | 'symbols';
  text: string;
}

const shortHash = (h: string): string => h.slice(0, 10);

/** Runs that differ from the reference (the first) in their program (sha256), or, for the same program (by
 * name: an edited file included), in their symbol values. */
export function compareWarnings(runs: readonly Labelled[]): CompareWarning[] {
  const [ref, ...others] = runs;
  if (!ref) return [];
  const out: CompareWarning[] = [];
  const programs = others.filter((o) => o.result.program.hash !== ref.result.program.hash);
  if (programs.length) {
    const list = programs.map((o) => `${o.label} is ${o.result.program.name} (sha256 ${shortHash(o.result.program.hash)}…)`).join('; ');
    out.push({
      kind: 'program',
      text: `Different programs: ${list}, the reference ${ref.label} is ${ref.result.program.name} (sha256 ${shortHash(ref.result.program.hash)}…). Their times compare programs, not only memory modes.`,
    });
  }
  const refSyms = new Map(symbolEntries(ref.result));
  const diffs: string[] = [];
  // Between different programs the symbols say nothing more than the warning above.
  for (const o of others.filter((x) => x.result.program.name === ref.result.program.name)) {
    const mine = new Map(symbolEntries(o.result));
    const names = [...new Set([...refSyms.keys(), ...mine.keys()])].filter((k) => refSyms.get(k) !== mine.get(k)).sort();
    if (!names.length) continue;
    const shown = names.slice(0, 3).map((k) => `${k} = ${mine.get(k) ?? 'unset'} (reference ${refSyms.get(k) ?? 'unset'})`);
    diffs.push(`${o.label}: ${shown.join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`);
  }
  if (diffs.length) out.push({ kind: 'symbols', text: `Different symbols — ${diffs.join('; ')}. The sizes differ, so the times do too.` });
  return out;
}

/** Medians of every mode of every run differ tenfold or more: a linear axis would squash the faster runs. */
export function wantsLogAxis(runs: readonly Labelled[]): boolean {
  return mediansDifferTenfold([...runs]);
}
