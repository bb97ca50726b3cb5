/**
 * `transient-lab advise FILE.sdfg|workload.json`: the memory mode and workspace size to use per storage, and
 * why; what keeps transients out of the workspace; with --sweep, how the workspace grows with a symbol.
 */
import { advise, type Advice } from '../engine/advise/index.js';
import { entry } from '../engine/advise/figures.js';
import { adviceJson } from '../engine/advise/json.js';
import { loadSubject } from '../engine/advise/subject.js';
import { TlabError } from '../engine/errors.js';
import { readProfileFile } from '../host-kit/result-files.js';
import { layoutOption, parseSweep, SUBJECT_OPTIONS, subjectOptions } from './advise-args.js';
import { optionValue, parseArgs } from './args.js';
import type { Command } from './command.js';
import type { OutputStreams } from './analyze.js';
import { formatBytes } from '../engine/view/format.js';
import { groupDigits, outputWidth, table } from './format.js';

const USAGE = 'advise FILE|WORKLOAD [--symbols K=V,...] [--default-symbol V] [--sweep N=64..4096[:x2]] [--result R.json] [--json]';

const HELP = `Usage: transient-lab ${USAGE}

Says, per storage, which transient memory mode to use and how many bytes of workspace to allocate, and why;
which transients cannot move to the workspace and the change that would let them; and, for a workload
(transient-lab/workload@1, docs/workload.md), which calls would overrun a workspace configured once.

Options:
  --symbols K=V,...     symbol values (for a workload: override its shared "symbols")
  --default-symbol V    value for every symbol not given
  --target cpu|gpu      override the detected target
  --layout packed|dace  workspace layout to size (default packed: lifetime-packed slots)
  --sweep N=A..B[:xF|:+S]  workspace need per storage as N goes from A to B (x2 steps by default), with a
                        closed form where one fits every point
  --result R.json       a profile result of this program: the mode is then chosen by measurement
  --json                print the transient-lab/advice@1 document
  --help                this text

Exit codes: 0 ok, 2 bad usage, 3 unreadable or malformed input.
`;

const RESULT_MAX_BYTES = 256 * 1024 * 1024;

export function createAdviseCommand(io: OutputStreams): Command {
  return {
    name: 'advise',
    usage: USAGE,
    async run(argv: string[]): Promise<number> {
      const args = parseArgs('advise', argv, { ...SUBJECT_OPTIONS, sweep: { value: true }, result: { value: true } });
      if (args.flags.has('help')) {
        io.stdout.write(HELP);
        return 0;
      }
      if (args.positionals.length !== 1) {
        throw new TlabError(
          'usage',
          `advise: expected exactly one FILE or WORKLOAD, got ${args.positionals.length}\nUsage: transient-lab ${USAGE}`,
        );
      }
      const opts = subjectOptions('advise', args);
      const layout = layoutOption('advise', args);
      const sweepText = optionValue(args, 'sweep');
      const resultPath = optionValue(args, 'result');
      const subject = await loadSubject(args.positionals[0]!, opts);
      const result = resultPath === undefined ? null : await readProfileFile(resultPath, RESULT_MAX_BYTES);
      const a = advise(subject, { ...opts, layout, result, sweep: sweepText === undefined ? null : parseSweep('advise', sweepText) });
      io.stdout.write(args.flags.has('json') ? `${adviceJson(a)}\n` : `${adviceText(a, outputWidth(io.stdout)).join('\n')}\n`);
      return 0;
    },
  };
}

export const adviseCommand: Command = createAdviseCommand({ stdout: process.stdout, stderr: process.stderr });

const bytesText = (b: bigint | null): string =>
  b === null
    ? 'a size that depends on symbols without a value (give --symbols or --default-symbol)'
    : `${formatBytes(b)} (${groupDigits(b)} B)`;

function adviceText(a: Advice, width: number | null): string[] {
  const out: string[] = [];
  const s = a.subject;
  out.push(
    s.kind === 'workload'
      ? `Workload ${s.name}: ${s.programs} program(s), ${s.calls} call(s) per step, target ${a.target}`
      : `Program ${s.name}, target ${a.target}`,
  );
  out.push('');
  out.push(`Recommendation (${a.basis === 'measured' ? 'measured' : 'static: from footprints and allocation counts, no timing'}):`);
  for (const r of a.recommendations) {
    const size =
      r.mode === 'EXTERNAL'
        ? `, allocate ${bytesText(r.workspaceBytes)} of workspace (${r.layout} layout${r.alignment ? `, ${r.alignment}-byte aligned slots` : ''})`
        : '';
    out.push(`  ${r.storage}: ${r.mode}${size}`);
    for (const why of r.reasons) out.push(`    - ${why}`);
  }
  out.push('');
  const storages = Object.keys(a.footprint.EXTERNAL).length
    ? [...new Set(Object.values(a.footprint).flatMap((f) => Object.keys(f)))].sort()
    : [];
  if (storages.length) {
    const unit = s.kind === 'workload' ? 'step' : 'call';
    out.push(`Footprint (bytes held for transients${s.kind === 'workload' ? ' across the workload' : ''}) and allocations per ${unit}:`);
    const rows = (['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const).map((m) => [
      m,
      ...storages.map((st) => formatBytes(entry(a.footprint[m], st))),
      groupDigits(a.allocations[m]),
    ]);
    out.push(
      ...table(['mode', ...storages, `allocs/${unit}`], rows, {
        align: ['left', ...storages.map(() => 'right' as const), 'right'],
        maxWidth: width,
      }),
    );
    out.push('');
  }
  if (s.kind === 'workload' && storages.length) {
    out.push(`Per program (its largest call): EXTERNAL workspace need; * = sizes the shared workspace`);
    const rows = Object.entries(a.perProgram).map(([key, p]) => [
      key,
      `${p.calls}`,
      ...storages.map((st) => {
        const need = entry(p.workspace, st);
        const sizes = need !== null && need > 0n && need === entry(a.footprint.EXTERNAL, st);
        return `${formatBytes(need)}${sizes ? ' *' : ''}`;
      }),
    ]);
    out.push(
      ...table(['program', 'calls', ...storages], rows, {
        align: ['left', 'right', ...storages.map(() => 'right' as const)],
        maxWidth: width,
      }),
    );
    out.push('');
  }
  if (a.hazards.length) {
    out.push("Workspace configured once (as gt4py does at each program's first call) is overrun by:");
    for (const h of a.hazards) {
      out.push(
        `  ${h.storage}: program '${h.program}' at position ${h.position} needs ${bytesText(h.neededBytes)}, configured ${bytesText(h.configuredBytes)}`,
      );
    }
    out.push('  Size the workspace to the recommendation above, and set it again whenever symbol values change.');
    out.push('');
  }
  if (a.sweep) {
    out.push(`Workspace need as ${a.sweep.symbol} varies (EXTERNAL):`);
    for (const [storage, layouts] of Object.entries(a.sweep.storages)) {
      for (const layout of ['packed', 'dace'] as const) {
        const l = layouts[layout];
        out.push(
          `  ${storage} ${layout}: ${l.closedForm ? `${l.closedForm} bytes (fits all ${a.sweep.values.length} points)` : 'no closed form (alignment steps)'}`,
        );
      }
    }
    const rows = a.sweep.values.map((v, i) => [
      `${v}`,
      ...Object.values(a.sweep!.storages).flatMap((l) => [formatBytes(l.packed.bytes[i] ?? null), formatBytes(l.dace.bytes[i] ?? null)]),
    ]);
    const heads = Object.keys(a.sweep.storages).flatMap((st) => [`${st} packed`, `${st} dace`]);
    out.push(...table([a.sweep.symbol, ...heads], rows, { align: ['right', ...heads.map(() => 'right' as const)], maxWidth: width }));
    out.push('');
  }
  if (a.blockers.length) {
    out.push(`What blocks EXTERNAL (${a.blockers.length} transient(s) that still allocate, largest first):`);
    const shown = a.blockers.slice(0, 20);
    for (const b of shown) {
      out.push(
        `  ${s.kind === 'workload' ? `${b.program}: ` : ''}${b.id} (${b.storage}, ${b.bytes === null ? b.bytesExpr : formatBytes(b.bytes)} would move)`,
      );
      out.push(`    why: ${b.reason}`);
      out.push(`    change: ${b.change}`);
    }
    if (shown.length < a.blockers.length) out.push(`  (${a.blockers.length - shown.length} more: use --json)`);
  } else {
    out.push('What blocks EXTERNAL: nothing that holds memory.');
  }
  return out;
}
