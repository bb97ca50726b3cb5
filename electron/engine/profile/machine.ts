/** What the result says about the machine, and whether other work competes for its cores while timing. */
import { readFile } from 'node:fs/promises';
import { arch, cpus, release, type as osType } from 'node:os';
import { findCompiler } from '../compile/compiler.js';
import { busySentence } from './busy.js';
import type { ProfileResult } from './result.js';

export async function describeMachine(): Promise<ProfileResult['machine']> {
  const compiler = await findCompiler();
  const cpuList = cpus();
  return {
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    compiler: `${compiler.name} ${compiler.version}`.trim(),
    os: `${osType()} ${release()} ${arch()}`,
    node: process.version,
  };
}

/**
 * Fraction of all cores that OTHER processes keep busy, sampled from /proc/stat while this process sleeps
 * (the builds are done by then). The load average is no use here: it still counts our own compiles.
 * Returns null where /proc/stat does not exist.
 */
export async function foreignCpuBusy(sampleMs = 250): Promise<number | null> {
  const read = async (): Promise<{ busy: number; total: number } | null> => {
    try {
      const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
      const v = line.trim().split(/\s+/).slice(1).map(Number);
      const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
      const idle = (v[3] ?? 0) + (v[4] ?? 0);
      return { busy: total - idle, total };
    } catch {
      return null;
    }
  };
  const a = await read();
  await new Promise((r) => setTimeout(r, sampleMs));
  const b = await read();
  if (!a || !b || b.total <= a.total) return null;
  return (b.busy - a.busy) / (b.total - a.total);
}

/** A warning when other processes keep a noticeable share of the cores busy. Timings taken while other work
 * competes for the cores (OpenMP regions suffer most) can be several times off; say so rather than print
 * confident numbers. */
export function busyMachineWarning(busyFraction: number | null, cores = cpus().length): string | null {
  return busySentence(busyFraction, cores);
}
