/**
 * `transient-lab check FILE|WORKLOAD --max-workspace STORAGE=BYTES --max-allocs-per-call N`: a CI gate. Exit
 * 0 when every budget holds, 1 with a one-line reason when one is exceeded (or cannot be evaluated).
 */
import { advise, checkBudgets } from '../engine/advise/index.js';
import { checkJson } from '../engine/advise/json.js';
import { loadSubject } from '../engine/advise/subject.js';
import { MODES, type Mode } from '../engine/analysis/types.js';
import { TlabError } from '../engine/errors.js';
import { layoutOption, parseBudget, SUBJECT_OPTIONS, subjectOptions } from './advise-args.js';
import { optionValue, parseArgs, parseInteger } from './args.js';
import type { Command } from './command.js';
import type { OutputStreams } from './analyze.js';

const USAGE = 'check FILE|WORKLOAD --max-workspace STORAGE=BYTES ... [--max-allocs-per-call N] [--mode M] [--json]';

const HELP = `Usage: transient-lab ${USAGE}

A budget gate for CI: holds a program's (or a workload's) transient memory against limits.

Options:
  --max-workspace STORAGE=BYTES   the EXTERNAL workspace of STORAGE (largest over a workload's calls) may not
                                  exceed BYTES (units B, KB, MB, GB, KiB, MiB, GiB); may be repeated
  --max-allocs-per-call N         allocations per program call in --mode may not exceed N
  --mode MODE                     the mode the allocation budget applies to (default EXTERNAL)
  --layout packed|dace            the workspace layout to size (default packed)
  --symbols K=V,... --default-symbol V --target cpu|gpu   as in analyze
  --json                          print the transient-lab/check@1 document
  --help                          this text

Exit codes: 0 every budget holds, 1 a budget is exceeded (one line says which), 2 bad usage, 3 bad input.
`;

export function createCheckCommand(io: OutputStreams): Command {
  return {
    name: 'check',
    usage: USAGE,
    async run(argv: string[]): Promise<number> {
      const args = parseArgs('check', argv, {
        ...SUBJECT_OPTIONS,
        'max-workspace': { value: true, repeat: true },
        'max-allocs-per-call': { value: true },
        mode: { value: true },
      });
      if (args.flags.has('help')) {
        io.stdout.write(HELP);
        return 0;
      }
      if (args.positionals.length !== 1) {
        throw new TlabError(
          'usage',
          `check: expected exactly one FILE or WORKLOAD, got ${args.positionals.length}\nUsage: transient-lab ${USAGE}`,
        );
      }
      const maxWorkspace = new Map<string, bigint>();
      for (const text of args.options.get('max-workspace') ?? []) {
        const [storage, bytes] = parseBudget('check', text);
        if (maxWorkspace.has(storage)) throw new TlabError('usage', `check: --max-workspace ${storage} given twice`);
        maxWorkspace.set(storage, bytes);
      }
      const allocsText = optionValue(args, 'max-allocs-per-call');
      const maxAllocsPerCall = allocsText === undefined ? null : parseInteger('check', 'max-allocs-per-call', allocsText, 0n);
      if (maxWorkspace.size === 0 && maxAllocsPerCall === null) {
        throw new TlabError('usage', 'check: give at least one budget: --max-workspace STORAGE=BYTES or --max-allocs-per-call N');
      }
      const modeText = (optionValue(args, 'mode') ?? 'EXTERNAL').toUpperCase();
      if (!(MODES as readonly string[]).includes(modeText))
        throw new TlabError('usage', `check: --mode expects one of ${MODES.join(', ')}, got '${modeText}'`);
      const opts = subjectOptions('check', args);
      const subject = await loadSubject(args.positionals[0]!, opts);
      const a = advise(subject, { ...opts, layout: layoutOption('check', args) });
      const outcome = checkBudgets(a, { maxWorkspace, maxAllocsPerCall, mode: modeText as Mode });
      if (args.flags.has('json')) io.stdout.write(`${checkJson(a, outcome)}\n`);
      else if (outcome.ok) io.stdout.write(`check: ok: ${outcome.checked.join('; ')}\n`);
      else io.stdout.write(`check: FAILED: ${outcome.failures.join('; ')}\n`);
      return outcome.ok ? 0 : 1;
    },
  };
}

export const checkCommand: Command = createCheckCommand({ stdout: process.stdout, stderr: process.stderr });
