/** The header of a result: program, machine and settings as rows of facts. */
import { libraryNodesParts } from '../view/library-nodes.js';
import type { ProfileResult } from '../profile/result.js';
import { formatCount } from '../view/format.js';
import { deviceSummary, deviceVersions, EMULATED_DEVICE, formatReleaseThreshold, isEmulatedResult } from '../view/gpu.js';
import type { Fact, ResultHeader } from './types.js';

/** Fields a later profile@1 may add (GPU runs): read when present, never required. */
interface OptionalFields {
  createdAt?: unknown;
  machine: { gpu?: unknown; driver?: unknown };
  settings: { poolThreshold?: unknown; cxxflags?: unknown };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : null);

/** "2026-05-04 13:12 UTC" from an ISO date; the text as is when it does not parse. */
export function dateText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function resultHeader(label: string, result: ProfileResult): ResultHeader {
  const r = result as ProfileResult & OptionalFields;
  const created = str(r.createdAt);
  const program: Fact[] = [
    { label: 'Program', value: result.program.name },
    { label: 'File', value: result.program.file, mono: true },
    { label: 'sha256', value: `${result.program.hash.slice(0, 16)}…`, title: result.program.hash, mono: true },
    { label: 'Profiled', value: created ? dateText(created) : 'not recorded (written before profile@1 recorded the date)' },
    // Modes DaCe built (docs/dace-folders.md): which folder, and how the build says it was made.
    ...result.modes.flatMap((m) =>
      m.daceFolder
        ? [
            {
              label: `DaCe build: ${m.label}`,
              value: `${m.daceFolder.builtBy ?? 'built by DaCe: not recorded'} (${m.daceFolder.path})`,
              title: m.daceFolder.modeReason,
            },
          ]
        : [],
    ),
  ];
  // profile@1's GPU additions put the device at the top level (`device`); `machine.gpu`/`driver` are read for
  // results of an older draft that wrote them there.
  const dev = result.device;
  const emulated = isEmulatedResult(result);
  const gpu = emulated ? EMULATED_DEVICE : dev ? `GPU ${dev.index}: ${deviceSummary(dev)}` : str(r.machine.gpu);
  const machine: Fact[] = [
    { label: 'CPU', value: `${result.machine.cpu} (${result.machine.cores} logical cores)` },
    { label: 'GPU', value: gpu ?? 'none: CPU run' },
    {
      label: 'Driver',
      value: emulated
        ? 'none: emulated'
        : dev
          ? `CUDA ${deviceVersions(dev)}`
          : (str(r.machine.driver) ?? (gpu ? 'not recorded' : 'none: CPU run')),
    },
    { label: 'Compiler', value: result.machine.compiler },
    {
      label: 'Flags',
      value: Array.isArray(r.settings.cxxflags)
        ? (r.settings.cxxflags as unknown[]).join(' ') || 'none'
        : 'not recorded (written before profile@1 recorded compiler flags)',
      mono: true,
    },
    { label: 'OS', value: result.machine.os },
    { label: 'Node.js', value: result.machine.node },
  ];
  const s = result.settings;
  const symbols = Object.entries(s.symbols)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const inputs = Object.entries(s.inputs)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const libraryNodes = libraryNodesParts(result.libraryNodes);
  const pooled = result.modes.find((m) => m.gpu?.pool)?.gpu?.pool;
  const poolThreshold = pooled ? formatReleaseThreshold(pooled.releaseThreshold) : str(r.settings.poolThreshold);
  const settings: Fact[] = [
    { label: 'Modes', value: s.modes.join(', ') },
    { label: 'Layout', value: s.layout === 'both' ? 'both (dace and packed)' : s.layout },
    { label: 'Symbols', value: symbols || 'none', mono: true },
    {
      label: 'Calls',
      value: `${formatCount(s.calls)} timed per process × ${formatCount(s.processes)} process${s.processes === 1 ? '' : 'es'} = ${formatCount(s.calls * s.processes)} per mode`,
    },
    { label: 'Warm-up', value: `${formatCount(s.warmup)} untimed calls per process` },
    { label: 'Seed', value: String(s.seed) },
    { label: 'Inputs', value: inputs || `generated from the seed` },
    // Every mode runs the same expansion, so it qualifies every per-call time in the report.
    ...(libraryNodes ? [{ label: 'Library nodes', value: `${libraryNodes.join('; ')} (in every mode's time)` }] : []),
    { label: 'Pool threshold', value: poolThreshold ?? (gpu ? 'not recorded' : 'not applicable: on CPU, POOL allocates like SCOPED') },
  ];
  return { label, program, machine, settings };
}
