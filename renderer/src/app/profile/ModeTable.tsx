/**
 * The Profile tab's table, one row per mode. A GPU result has two clocks: the host's (the call until the device
 * is synchronised, what the headline compares) and the device's (CUDA events around the call; emulated events
 * under `--gpu host`). Each gets its own group of median, p10 and p90 under one group header, so that no
 * percentile of one clock sits beside the median of the other: a reader once took the host p90 for the device
 * median's and saw "p90 below the median". alloc+free and faults are host measurements.
 */
import type { ResultDoc } from '../../../../electron/ipc/contract.js';
import {
  formatBytes,
  formatCount,
  formatNs,
  formatPercent,
  isEmulatedResult,
  isGpuResult,
  profileVerdict,
  quantile,
  ratioText,
  type ModeResult,
} from '../../../../electron/engine/view/public.js';

const NOT_MEASURED = 'not measured: nothing recorded the allocations inside this library (see the notes)';

/** The device clock's median (over every timed call, as the result records it) and p10/p90 of its kept calls. */
function deviceQuantiles(m: ModeResult): { median: number; p10: number; p90: number } | null {
  if (!m.gpu || !m.gpu.deviceNs.length) return null;
  const sorted = [...m.gpu.deviceNs].sort((a, b) => a - b);
  return { median: m.gpu.deviceMedianNs, p10: quantile(sorted, 0.1), p90: quantile(sorted, 0.9) };
}

export function ModeTable({ doc }: { doc: ResultDoc }): React.JSX.Element {
  const r = doc.result;
  const base = r.modes.find((m) => m.mode === 'SCOPED') ?? r.modes[0];
  const gpu = isGpuResult(r);
  const deviceGroup = isEmulatedResult(r) ? 'emulated device time / call (--gpu host)' : 'device time / call (CUDA events)';
  // Kept rows of a sampled result are an evenly spaced subsample: the device p10/p90 are read from them.
  const sampledNote = r.modes.some((m) => m.sampling) ? '; p10 and p90 of the kept (sampled) calls' : '';
  // The ratio column is taken on the statistic the verdict compares, as the console's: a noisy run is compared at
  // p10, and channel_flow on a busy machine read "404×" here from medians while the verdict named no winner.
  const atP10 = profileVerdict(r).statistic === 'p10';
  const qualifiers = [...(gpu ? ['host'] : []), ...(atP10 ? ['p10'] : [])];
  const ratioHead = `vs ${base?.label ?? '—'}${qualifiers.length ? ` (${qualifiers.join(', ')})` : ''}`;
  const ratioTitle = atP10
    ? 'The noisy run is compared at p10, as the verdict compares it: the ratio of the p10s'
    : 'The ratio of the medians';
  const stat = (name: string, group: string) => (
    <th key={`${group}-${name}`} className={name === 'median' ? 'grp-start' : undefined} title={`${group}: ${name}`}>
      {name}
    </th>
  );
  return (
    <table className={`mode-table${gpu ? ' mode-table-gpu' : ''}`} data-testid="profile-table">
      <thead>
        {gpu ? (
          <>
            <tr className="grp-row">
              <th rowSpan={2}>mode</th>
              <th
                colSpan={3}
                className="grp grp-start"
                data-testid="profile-table-host"
                title="From the call until the device is synchronised, on the host's clock"
              >
                host time / call
              </th>
              <th
                colSpan={3}
                className="grp grp-start"
                data-testid="profile-table-device"
                title={`CUDA events around each call${sampledNote}`}
              >
                {deviceGroup}
              </th>
              <th rowSpan={2} className="grp-start">
                allocs / call
              </th>
              <th rowSpan={2}>alloc+free (host)</th>
              <th rowSpan={2}>faults / call</th>
              <th rowSpan={2}>workspace</th>
              <th rowSpan={2} title={ratioTitle} data-testid="profile-table-ratio">
                {ratioHead}
              </th>
            </tr>
            <tr>
              {['median', 'p10', 'p90'].map((n) => stat(n, 'host time / call'))}
              {['median', 'p10', 'p90'].map((n) => stat(n, deviceGroup))}
            </tr>
          </>
        ) : (
          <tr>
            <th>mode</th>
            <th>median / call</th>
            <th>p10</th>
            <th>p90</th>
            <th>allocs / call</th>
            <th>alloc+free</th>
            <th>faults / call</th>
            <th>workspace</th>
            <th title={ratioTitle} data-testid="profile-table-ratio">
              {ratioHead}
            </th>
          </tr>
        )}
      </thead>
      <tbody>
        {r.modes.map((m) => {
          const ws = Object.values(m.workspaceBytes).reduce((s, b) => s + b, 0);
          const dev = gpu ? deviceQuantiles(m) : null;
          return (
            <tr key={m.label}>
              <td>
                <span className={`mode-tag mode-${m.mode.toLowerCase()}${m.layout === 'dace' ? ' hatched' : ''}`}>{m.label}</span>
              </td>
              <td className={`num strong${gpu ? ' grp-start' : ''}`}>{formatNs(m.summary.medianNs)}</td>
              <td className="num">{formatNs(m.summary.p10Ns)}</td>
              <td className="num">{formatNs(m.summary.p90Ns)}</td>
              {gpu && (
                <>
                  <td className="num strong grp-start">{dev ? formatNs(dev.median) : '–'}</td>
                  <td className="num">{dev ? formatNs(dev.p10) : '–'}</td>
                  <td className="num">{dev ? formatNs(dev.p90) : '–'}</td>
                </>
              )}
              {/* A DaCe build whose allocations nothing recorded: n/m, never a 0 that looks measured. */}
              <td className={`num${gpu ? ' grp-start' : ''}`} title={m.allocationsMeasured === false ? NOT_MEASURED : undefined}>
                {m.allocationsMeasured === false ? 'n/m' : formatCount(m.summary.allocsPerCall)}
              </td>
              <td className="num" title={m.allocationsMeasured === false ? NOT_MEASURED : undefined}>
                {m.allocationsMeasured === false ? 'n/m' : formatPercent(m.summary.allocShare)}
              </td>
              <td className="num">{formatCount(Math.round(m.summary.minorFaultsPerCall))}</td>
              <td className="num">{Object.keys(m.workspaceBytes).length ? formatBytes(ws) : '–'}</td>
              <td className="num">{base ? ratioText(r, base, m, atP10 ? 'p10' : 'median') : ''}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
