/**
 * `transient-lab analyze FILE`: what each memory mode would cost on one SDFG, as a human summary or as the
 * `transient-lab/analysis@1` JSON document.
 */
import {
  analyze,
  isFortranLowerBound,
  listNames,
  MODES,
  type Analysis,
  type AnalysisOptions,
  type TransientInfo,
} from '../engine/analysis/index.js';
import { toAnalysisJson } from '../engine/analysis/json.js';
import { stat } from 'node:fs/promises';
import { TlabError } from '../engine/errors.js';
import { readSdfgFile } from '../engine/sdfg/index.js';
import { daceFolderSdfg, folderBuiltBy } from '../engine/dace/folder.js';
import { checkLibraryImpl, parseLibraryImpl } from '../engine/sdfg/expand/impl.js';
import { libraryNodesParts } from '../engine/view/library-nodes.js';
import { buildSymbolNames, profileCheck, withSymbolNeeds } from '../engine/codegen/index.js';
import { aliasText, canProfileText } from '../engine/view/format.js';
import type { ProfileCheck } from '../engine/view/types.js';
import { optionValue, parseArgs, parseInteger, parseSymbolList } from './args.js';
import type { Command } from './command.js';
import { groupDigits, humanBytes, outputWidth, percent, table } from './format.js';

const USAGE =
  'analyze FILE|DACE_FOLDER [--symbols K=V,...] [--default-symbol V] [--target cpu|gpu] [--library-impl pure|blas[,NODE=IMPL…]] [--json] [--all]';

const HELP = `Usage: transient-lab ${USAGE}

Analyses the transient (temporary) arrays of a DaCe SDFG file (.sdfg or .sdfgz) and what the memory
modes SCOPED, PERSISTENT, POOL and EXTERNAL would cost per call.

Options:
  --symbols K=V,...     values of the program's symbols (integers)
  --default-symbol V    value for every free symbol not given in --symbols
  --target cpu|gpu      override the detected target
  --library-impl IMPL[,NODE=IMPL…]
                        expand library nodes as pure loops (default) or blas calls (OpenBLAS/LAPACKE, where one
                        exists; NODE=IMPL for one node): the transients analysed are those of that expansion
  --json                print the transient-lab/analysis@1 JSON document instead of the summary
  --all                 list every transient (by default at most 60 rows: the largest allocating ones)
  --help                this text

Exit codes: 0 ok, 2 bad usage, 3 unreadable or malformed input.
`;

export interface OutputStreams {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** Files (on disk: compressed ones expand 10-50×) big enough that a person at a terminal should see progress. */
const PROGRESS_ABOVE_BYTES = 1 << 20;

export function createAnalyzeCommand(io: OutputStreams): Command {
  return {
    name: 'analyze',
    usage: USAGE,
    async run(argv: string[]): Promise<number> {
      const args = parseArgs('analyze', argv, {
        symbols: { value: true, repeat: true },
        'default-symbol': { value: true },
        target: { value: true },
        'library-impl': { value: true },
        json: { value: false },
        all: { value: false },
        help: { value: false },
      });
      if (args.flags.has('help') || args.positionals.includes('-h')) {
        io.stdout.write(HELP);
        return 0;
      }
      if (args.positionals.length !== 1) {
        throw new TlabError('usage', `analyze: expected exactly one FILE, got ${args.positionals.length}\nUsage: transient-lab ${USAGE}`);
      }
      const symbols = new Map<string, bigint>();
      for (const text of args.options.get('symbols') ?? []) for (const [k, v] of parseSymbolList('analyze', text)) symbols.set(k, v);
      const def = optionValue(args, 'default-symbol');
      const targetText = optionValue(args, 'target');
      if (targetText !== undefined && targetText !== 'cpu' && targetText !== 'gpu') {
        throw new TlabError('usage', `analyze: --target expects cpu or gpu, got '${targetText}'`);
      }
      const opts: AnalysisOptions = {
        symbols,
        defaultSymbol: def === undefined ? null : parseInteger('analyze', 'default-symbol', def),
        target: targetText ?? null,
      };
      const implText = optionValue(args, 'library-impl');
      if (implText !== undefined) opts.libraryImpl = parseLibraryImpl(implText, 'analyze: --library-impl');
      const given = args.positionals[0]!;
      // A DaCe build folder (docs/dace-folders.md) is analysed as the SDFG DaCe saved in it.
      const path = (await daceFolderSdfg(given)) ?? given;
      // Progress only for people at a terminal: pipes and CI logs get the result alone.
      const progress = io.stderr.isTTY === true && (await sizeOf(path)) > PROGRESS_ABOVE_BYTES;
      const started = performance.now();
      const step = (what: string): void => {
        if (progress) io.stderr.write(`\r\x1b[K${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      };
      step(`parsing ${path}`);
      const file = await readSdfgFile(path);
      if (opts.libraryImpl) checkLibraryImpl(file, opts.libraryImpl);
      step(`analysing ${file.stats.sdfgs} SDFG(s), ${file.stats.transients} transient(s)`);
      const analysis = analyze(file, opts);
      step('checking what the code generator supports');
      const check = profileCheck(file, analysis.target, analysis.libraryImpl);
      const profile = withSymbolNeeds(check, check.ok ? buildSymbolNames(file, analysis.libraryImpl) : [], (s) => analysis.symbols.has(s));
      if (progress) io.stderr.write('\r\x1b[K');
      if (args.flags.has('json')) io.stdout.write(`${JSON.stringify({ ...toAnalysisJson(analysis), profile }, null, 2)}\n`);
      else {
        if (path !== given)
          io.stdout.write(`DaCe build folder ${given}: ${await folderBuiltBy(given, file.root.name, file.daceVersion)}\n`);
        io.stdout.write(`${humanReport(analysis, outputWidth(io.stdout), args.flags.has('all'), profile).join('\n')}\n`);
      }
      return 0;
    },
  };
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0; // readSdfgFile reports the real problem with the file
  }
}

export const analyzeCommand: Command = createAnalyzeCommand({ stdout: process.stdout, stderr: process.stderr });

/** The live set's intervals (`1-4,7-8`: dead in between, docs/liveness.md §3.7), `-` when never accessed. */
function liveText(t: TransientInfo): string {
  const segments = t.liveSegments ?? (t.live ? [t.live] : []);
  return segments.length ? segments.map((s) => (s.first === s.last ? `${s.first}` : `${s.first}-${s.last}`)).join(',') : '-';
}

const yesNo = (v: boolean): string => (v ? 'y' : '-');

const TRANSIENT_ROWS = 60;

function largestAllocating(all: TransientInfo[], n: number): TransientInfo[] {
  const cost = (t: TransientInfo): bigint => (t.allocation.kind === 'none' ? -1n : (t.bytes ?? 0n));
  return [...all].sort((x, y) => (cost(y) > cost(x) ? 1 : cost(y) < cost(x) ? -1 : 0)).slice(0, n);
}

/**
 * What packing does to a storage's workspace, in the window's words: "saves 640 B (50.0%)", or, where alignment
 * takes more than reuse gains, "costs 4.31 KiB more (3.0%)" (a negative "saved −4.31 KiB (−3.0%)" read oddly).
 */
function packingText(saved: bigint | null, dace: bigint | null): string {
  if (saved === null) return '?';
  return saved >= 0n
    ? `saves ${humanBytes(saved)} (${percent(saved, dace)})`
    : `costs ${humanBytes(-saved)} more (${percent(-saved, dace)})`;
}

export function humanReport(a: Analysis, width: number | null, showAll = false, profile: ProfileCheck | null = null): string[] {
  const f = a.file;
  const out: string[] = [];
  out.push(`File:       ${f.path}${f.compressed ? ' (gzip)' : ''}, ${humanBytes(BigInt(f.jsonBytes))} of JSON`);
  out.push(`SDFG:       ${f.root.name} (DaCe ${f.daceVersion ?? 'version unknown'}, format ${f.generation}, ${f.grammar} grammar)`);
  out.push(`Size:       ${f.stats.sdfgs} SDFG(s), ${f.stats.states} state(s), ${f.stats.nodes} node(s), ${a.steps.length} program step(s)`);
  out.push(`Target:     ${a.target} (${a.targetReason})`);
  if (profile) out.push(`Can profile: ${canProfileText(profile)}`);
  if (a.libraryExpansions.length) out.push(`Library:    ${libraryNodesParts(a.libraryExpansions)!.join('; ')}`);
  const given = [...a.symbols].filter(([, v]) => v.source === 'user').map(([k, v]) => `${k}=${v.value}`);
  const defaulted = [...a.symbols].filter(([, v]) => v.source === 'default');
  const symbolParts = [...given];
  if (defaulted.length) {
    symbolParts.push(
      defaulted.length <= 8
        ? defaulted.map(([k, v]) => `${k}=${v.value}*`).join(', ') + '  (* = --default-symbol)'
        : defaultedSummary(defaulted.map(([k, v]) => [k, v.value])),
    );
  }
  out.push(`Symbols:    ${symbolParts.length ? symbolParts.join(', ') : 'none given'}`);
  if (a.unresolvedSymbols.length) {
    out.push(`Unresolved: ${listNames(a.unresolvedSymbols)} (sizes that use them stay symbolic)`);
  }
  out.push('');

  out.push(`Transients: ${a.transients.length}`);
  if (a.transients.length) {
    // Fortran-generated programs carry tens of thousands of transients: by default show the ones that cost
    // memory (allocating, largest first) and say how to get the rest.
    const shown = showAll || a.transients.length <= TRANSIENT_ROWS ? a.transients : largestAllocating(a.transients, TRANSIENT_ROWS);
    const rows = shown.map((t) => [
      t.id,
      t.dtype,
      `[${t.shape.join(', ')}]`,
      t.effectiveStorage === t.storage ? t.storage : `${t.storage}→${t.effectiveStorage}`,
      t.lifetime,
      // A view or reference owns no bytes: say what it aliases instead of a size that would read as memory.
      t.alias ? aliasText(t.type, t.alias.viewOf) : t.bytes !== null ? humanBytes(t.bytes) : t.bytesExpr,
      liveText(t),
      `${yesNo(t.eligible.PERSISTENT)}/${yesNo(t.eligible.EXTERNAL)}`,
      t.allocation.kind,
      t.reason ?? '',
    ]);
    out.push(
      ...table(['id', 'dtype', 'shape', 'storage', 'lifetime', 'bytes', 'live', 'P/E', 'alloc', 'reason'], rows, {
        align: ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'left', 'left', 'left'],
        maxWidth: width,
        flexColumn: 9,
      }),
    );
    if (shown.length < a.transients.length) {
      out.push(
        `(${a.transients.length - shown.length} more transient(s) not shown (the ${shown.length} largest allocating ones are); use --all or --json)`,
      );
    }
  }
  out.push('');

  out.push('Modes (per call):');
  const modeRows = MODES.map((m) => {
    const p = a.modes[m];
    const ws = Object.entries(p.workspace).map(([s, b]) => `${s} ${humanBytes(b)}`);
    return [
      m,
      groupDigits(p.perCall.allocs),
      humanBytes(p.perCall.bytes),
      `${p.init.allocs} / ${humanBytes(p.init.bytes)}`,
      ws.length ? ws.join(', ') : '-',
      p.notes.join('; '),
    ];
  });
  out.push(
    ...table(['mode', 'allocs', 'bytes', 'init allocs/bytes', 'workspace', 'notes'], modeRows, {
      align: ['left', 'right', 'right', 'right', 'left', 'left'],
      maxWidth: width,
      flexColumn: 5,
    }),
  );
  // A bare '?' in a table of counts reads as a bug; say what it stands for (the warning below gives the count).
  if (MODES.some((m) => a.modes[m].perCall.allocs === null || a.modes[m].perCall.bytes === null))
    out.push(
      '? = unknown per call: some transients are allocated a number of times per call that depends on data or on a symbol without a value (see Warnings)',
    );
  out.push('');

  const storages = Object.keys(a.layouts.dace);
  if (storages.length === 0) out.push('Workspace layouts: no transient is External or eligible for EXTERNAL.');
  else {
    out.push('Workspace layouts (DaCe: unaligned, sequential; packed: aligned, lifetime-aware; packing: dace against packed):');
    const rows = storages.map((s) => {
      const dace = a.layouts.dace[s]!;
      const packed = a.layouts.packed[s] ?? null;
      if (!packed) return [s, dace.bytes !== null ? humanBytes(dace.bytes) : dace.bytesExpr, '?', '?', '?', '?', '?'];
      const saved = dace.bytes !== null ? dace.bytes - packed.bytes : null;
      return [
        s,
        humanBytes(dace.bytes),
        humanBytes(packed.alignedSum),
        humanBytes(packed.bytes),
        packingText(saved, dace.bytes),
        humanBytes(packed.lowerBound),
        packed.bytes === 0n ? '100.0%' : percent(packed.lowerBound, packed.bytes),
      ];
    });
    out.push(
      ...table(['storage', 'dace', 'aligned seq.', 'packed', 'packing', 'lower bound', 'bound/packed'], rows, {
        align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      }),
    );
  }
  const peaks = Object.entries(a.peakLiveBytes).map(([s, b]) => `${s} ${humanBytes(b)}`);
  if (peaks.length) out.push(`Peak live bytes (all allocating transients): ${peaks.join(', ')}`);

  if (a.warnings.length) {
    out.push('');
    out.push('Warnings:');
    for (const w of a.warnings) out.push(`  - ${w}`);
  }
  return out;
}

/** `40 symbol(s) = 32 from --default-symbol, 22 Fortran lower bound(s) = 1`. */
function defaultedSummary(defaulted: ReadonlyArray<readonly [string, bigint]>): string {
  const bounds = defaulted.filter(([k]) => isFortranLowerBound(k));
  const sized = defaulted.filter(([k]) => !isFortranLowerBound(k));
  const parts = [];
  if (sized.length) parts.push(`${sized.length} symbol(s) = ${sized[0]![1]} from --default-symbol`);
  if (bounds.length) parts.push(`${bounds.length} Fortran lower bound(s) = ${bounds[0]![1]}`);
  return parts.join(', ');
}
