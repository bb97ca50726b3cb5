/** The console table of `profile workload.json`: one row per timed mode, then the verification, the findings and
 * the verdict line (docs/workload.md, "Profiling"). */
import { formatBytes, formatCount, formatNs } from '../view/format.js';
import type { WorkloadResult } from './result.js';

const HOW: Record<string, string> = {
  SCOPED: 'largest per-call peak',
  PERSISTENT: 'sum of init allocations',
  POOL: 'peak RSS added',
  EXTERNAL: 'one shared workspace',
};

export function formatWorkload(r: WorkloadResult): string {
  const timed = r.variants.filter((v) => r.perStep[v.label]);
  const header = ['mode', 'time per step', 'p10', 'p90', 'allocs/step', 'alloc+free/step', 'footprint'];
  const rows = timed.map((v) => {
    const s = r.perStep[v.label]!;
    const bytes = Object.values(r.footprint[v.label] ?? {}).reduce((a, b) => a + b, 0);
    return [
      v.label,
      formatNs(s.medianNs),
      formatNs(s.p10Ns),
      formatNs(s.p90Ns),
      s.allocationsUnmeasured ? 'n/m' : formatCount(Math.round(s.allocs * 10) / 10),
      s.allocationsUnmeasured ? 'n/m' : formatNs(s.allocFreeNs),
      `${formatBytes(bytes)} (${HOW[v.mode] ?? ''})`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [
    `workload ${r.name}: ${r.sequence.length} calls per step (${r.sequence.map((c) => c.program).join(' → ')}), ${r.settings.timedSteps} timed steps × ${r.settings.processes} process${r.settings.processes === 1 ? '' : 'es'} per mode`,
    line(header),
    ...rows.map(line),
  ];
  const checked = Object.entries(r.verification);
  const bad = checked.flatMap(([label, cs]) => cs.filter((c) => !c.ok).map((c) => ({ label, c })));
  const calls = checked.reduce((s, [, cs]) => s + cs.length, 0);
  out.push(
    bad.length
      ? `verification: ${bad.length} of ${calls} calls differ from SCOPED or depend on stale workspace bytes (see findings)`
      : `verification: every call of ${r.settings.steps} step${r.settings.steps === 1 ? '' : 's'} in ${checked.map(([l]) => l).join(', ') || 'no other mode'} matches SCOPED at every position (${calls} calls checked)`,
  );
  for (const f of r.findings) out.push(`finding: ${f}`);
  out.push(`verdict: ${r.verdict}`);
  return out.join('\n');
}
