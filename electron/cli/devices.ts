/**
 * `transient-lab devices`: which CUDA devices this machine has, as the runner's addon sees them (the CUDA runtime
 * is dlopen()ed in a probe child). Exit 0 with at least one device, 4 when there is none (the same code and
 * message a GPU profile refuses with), so scripts such as bench/gpu-check.sh can ask.
 */
import { describeDevices } from '../engine/profile/device.js';
import { TlabError } from '../engine/errors.js';
import { probeDevices } from '../runner/devices.js';
import { parseArgs, type OptionSpec } from './args.js';
import type { Command } from './command.js';

const NAME = 'devices';
const SPEC: Record<string, OptionSpec> = { json: { value: false }, help: { value: false } };

export const devicesCommand: Command = {
  name: NAME,
  usage: 'devices [--json]',
  async run(argv: string[]): Promise<number> {
    const args = parseArgs(NAME, argv, SPEC);
    if (args.flags.has('help')) {
      process.stdout.write(
        'Usage: transient-lab devices [--json]\n\nLists CUDA devices (name, memory, compute capability, driver).\nExit codes: 0 a device is present, 4 none.\n',
      );
      return 0;
    }
    if (args.positionals.length) throw new TlabError('usage', `${NAME}: takes no arguments, got ${args.positionals.join(' ')}`);
    const report = await probeDevices();
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(`${describeDevices(report).join('\n')}\n`);
    return report.devices.length ? 0 : 4;
  },
};
