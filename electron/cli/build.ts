/**
 * `transient-lab build FILE … --out DIR`: generates and compiles every requested mode without running anything
 * (a login node without a GPU, CI). DIR gets one library per mode and layout, its source beside it, a copy of the
 * SDFG and manifest.json (transient-lab/build@1, docs/build.md); `profile --prebuilt DIR` runs it.
 * Exit codes: 0 ok, 2 usage, 3 bad input, 4 unsupported SDFG, 5 build failed, 130 cancelled.
 */
import { relative } from 'node:path';
import { RunCancelled } from '../engine/profile/runner-host.js';
import { buildFolder } from '../engine/profile/prebuilt.js';
import { DEFAULT_PROFILE_OPTIONS } from '../engine/profile/options.js';
import { DACE_CUDAFLAGS, DACE_CXXFLAGS, DEFAULT_CUDA_ARCH, parseCxxflags } from '../engine/compile/index.js';
import { TlabError } from '../engine/errors.js';
import { parseLibraryImpl } from '../engine/sdfg/expand/impl.js';
import { optionValue, parseArgs, parseInteger, parsePoolReleaseThreshold, parseSymbolList, type OptionSpec } from './args.js';
import type { Command } from './command.js';
import { parseLayout, parseModes } from './profile.js';

const NAME = 'build';

const SPEC: Record<string, OptionSpec> = {
  modes: { value: true },
  layout: { value: true },
  symbols: { value: true, repeat: true },
  'default-symbol': { value: true },
  out: { value: true },
  cxxflags: { value: true },
  'pool-release-threshold': { value: true },
  'library-impl': { value: true },
  help: { value: false },
};

const HELP = `Usage: transient-lab build FILE --out DIR [options]

Generates and compiles the program in each requested memory mode, without running it (GPU programs too: no
device is needed, only nvcc). DIR receives one shared
library per mode and layout with its generated source beside it, a copy of the SDFG, and manifest.json
(schema transient-lab/build@1). Run the folder later, here or on another machine with the same Transient Lab
version, with \`transient-lab profile --prebuilt DIR\`.

Options:
  --out DIR             folder to write (created if needed; files of the same names are replaced)
  --modes LIST          modes to build, comma-separated (default scoped,persistent,pool,external)
  --layout L            EXTERNAL workspace layout: packed (default), dace, or both
  --symbols N=V,…       symbol values (may be repeated)
  --default-symbol V    value for every symbol not given with --symbols
  --cxxflags "FLAGS"    compiler optimisation flags for every mode, instead of DaCe's defaults
                        (CPU: ${DACE_CXXFLAGS.join(' ')}; GPU programs are compiled by nvcc:
                        ${DACE_CUDAFLAGS.join(' ')}, -arch=${DEFAULT_CUDA_ARCH} unless the flags name an architecture)
  --pool-release-threshold BYTES|max
                        GPU programs: the release threshold POOL's init sets on the default memory pool
                        (default max = UINT64_MAX, DaCe's; 0 returns the pool's memory at every synchronisation)
  --library-impl IMPL[,NODE=IMPL…]
                        how library nodes are expanded: pure (default) or blas (OpenBLAS/LAPACKE calls where one
                        exists); NODE=IMPL sets one node by its label. Recorded in manifest.json

Exit codes: 0 ok, 2 usage, 3 bad input, 4 unsupported SDFG, 5 build failed, 130 cancelled.`;

export const buildCommand: Command = {
  name: NAME,
  usage:
    'build FILE --out DIR [--modes …] [--layout dace|packed|both] [--symbols N=V,…] [--default-symbol V] [--cxxflags "FLAGS"] [--pool-release-threshold BYTES|max] [--library-impl pure|blas[,NODE=IMPL…]]',
  async run(argv: string[]): Promise<number> {
    const args = parseArgs(NAME, argv, SPEC);
    if (args.flags.has('help')) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (args.positionals.length !== 1) {
      throw new TlabError(
        'usage',
        `${NAME}: expected exactly one SDFG file, got ${args.positionals.length}${args.positionals.length ? ` (${args.positionals.join(' ')})` : ''}`,
      );
    }
    const outDir = optionValue(args, 'out');
    if (!outDir) throw new TlabError('usage', `${NAME}: --out DIR is required (the folder that receives the libraries and manifest.json)`);
    const modesText = optionValue(args, 'modes');
    const layoutText = optionValue(args, 'layout');
    const symbols = new Map<string, bigint>();
    for (const text of args.options.get('symbols') ?? []) for (const [k, v] of parseSymbolList(NAME, text)) symbols.set(k, v);
    const def = optionValue(args, 'default-symbol');
    const cxxflagsText = optionValue(args, 'cxxflags');
    const thresholdText = optionValue(args, 'pool-release-threshold');
    const poolReleaseThreshold = thresholdText === undefined ? null : parsePoolReleaseThreshold(NAME, thresholdText);
    const libraryImplText = optionValue(args, 'library-impl');
    const libraryImpl = libraryImplText === undefined ? undefined : parseLibraryImpl(libraryImplText, `${NAME}: --library-impl`);
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const { manifest, manifestPath } = await buildFolder(
        args.positionals[0]!,
        {
          modes: modesText === undefined ? [...DEFAULT_PROFILE_OPTIONS.modes] : parseModes(NAME, modesText),
          layout: layoutText === undefined ? DEFAULT_PROFILE_OPTIONS.layout : parseLayout(NAME, layoutText),
          symbols,
          defaultSymbol: def === undefined ? null : parseInteger(NAME, 'default-symbol', def),
          outDir,
          cxxflags: cxxflagsText === undefined ? null : parseCxxflags(cxxflagsText, `${NAME}: --cxxflags`),
          poolReleaseThreshold,
          ...(libraryImpl ? { libraryImpl } : {}),
          signal: controller.signal,
        },
        (p) => {
          if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${p.message}`);
        },
      );
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
      const rel = (p: string) => relative(process.cwd(), p) || '.';
      const lines = [
        `${manifest.sdfg.name} (${manifest.target.toUpperCase()}): ${manifest.variants.length} librar${manifest.variants.length === 1 ? 'y' : 'ies'} in ${rel(outDir)}`,
      ];
      for (const v of manifest.variants) {
        const ws = Object.entries(v.workspaceBytes)
          .map(([s, b]) => `${s} ${b} B`)
          .join(', ');
        lines.push(`  ${v.label.padEnd(20)} ${v.library.padEnd(24)} ${v.source}${ws ? `   workspace ${ws}` : ''}`);
      }
      lines.push(`manifest: ${rel(manifestPath)}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    } catch (err) {
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
      if (err instanceof RunCancelled || controller.signal.aborted) {
        process.stderr.write(`transient-lab ${NAME}: cancelled\n`);
        return 130;
      }
      throw err;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};
