#!/usr/bin/env node
/**
 * `transient-lab` command-line host: a thin shell over the engine. Each subcommand lives in its own module
 * and returns an exit code; errors from the engine are TlabErrors and map to documented exit codes.
 */
import { EXIT_CODES } from '../engine/errors.js';
import { describeFailure } from './failure.js';
import type { Command } from './command.js';
import { adviseCommand } from './advise.js';
import { analyzeCommand } from './analyze.js';
import { checkCommand } from './check.js';
import { buildCommand } from './build.js';
import { devicesCommand } from './devices.js';
import { profileCommand } from './profile.js';
import { remoteAgentCommand } from './remote-agent.js';
import { reportCommand } from './report.js';
import { serveCommand } from './serve.js';

const COMMANDS: Command[] = [
  analyzeCommand,
  profileCommand,
  buildCommand,
  adviseCommand,
  checkCommand,
  devicesCommand,
  reportCommand,
  serveCommand,
  remoteAgentCommand,
];

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.usage}`);
  return [
    'Usage: transient-lab <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `transient-lab <command> --help` for details.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    process.stderr.write(`transient-lab: unknown command '${name}'\n\n${usage()}\n`);
    return EXIT_CODES.usage;
  }
  try {
    return await cmd.run(rest);
  } catch (err) {
    const { text, code } = describeFailure(cmd.name, err);
    process.stderr.write(text);
    return code;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`transient-lab: internal error: ${String(err)}\n`);
    process.exitCode = 70;
  },
);
