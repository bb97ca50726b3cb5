/**
 * The selection panel with nothing selected: the program at a glance — the EXTERNAL workspace per storage first,
 * then the measured verdict of a loaded result of this program, then the counts.
 */
import { useMemo } from 'react';
import {
  canProfileText,
  formatBytes,
  formatBytesExpr,
  formatCount,
  num,
  profileVerdict,
  structureMembersText,
  type AnalysisView,
} from '../../../../electron/engine/view/public.js';
import { setDockTab } from '../actions.js';
import { headlineBig } from '../profile/ProfileTab.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';

function Stat({ n, label, tone }: { n: number; label: string; tone?: 'good' | 'warn' | undefined }): React.JSX.Element {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <span className="stat-n">{formatCount(n)}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

/** With nothing selected: the program at a glance. The EXTERNAL workspace (what this tool computes) leads, then
 * the measured EXTERNAL-vs-POOL verdict when a result of this program is loaded, then the counts. */
export function Overview({ view }: { view: AnalysisView }): React.JSX.Element {
  const fates = view.totals.fates;
  const result = useSelect(store, (s) => s.result);
  const build = useSelect(store, (s) => s.doc?.daceBuild ?? null);
  const verdict = useMemo(
    () => (result && result.result.program.name === view.sdfgs[0]?.name ? profileVerdict(result.result) : null),
    [result, view],
  );
  const headline = verdict?.secondary[0] ?? null;
  const structures = useMemo(() => structureMembersText(view), [view]);
  return (
    <div className="overview" data-testid="selection-overview">
      {view.workspace.map((w) => (
        <div key={w.storage} className="ov-ws" data-testid="overview-workspace">
          <div className="ov-ws-head">EXTERNAL workspace · {w.storage}</div>
          {w.packed ? (
            <>
              <div className="ov-ws-big">{formatBytes(num(w.packed.bytes))}</div>
              <div className="ov-ws-nums">
                <span>DaCe&apos;s layout {w.dace.bytes === null ? 'symbolic' : formatBytes(num(w.dace.bytes))}</span>
                <span>lower bound {formatBytes(num(w.packed.lowerBound))}</span>
                {w.savings && num(w.savings.bytes) >= 0 && (
                  <span className={w.savings.fraction > 0 ? 'good' : 'muted'}>
                    packing saves {formatBytes(num(w.savings.bytes))} (
                    {(w.savings.fraction * 100).toFixed(w.savings.fraction > 0 && w.savings.fraction < 0.1 ? 1 : 0)}%)
                  </span>
                )}
                {w.savings && num(w.savings.bytes) < 0 && (
                  <span className="muted" title="Our layout aligns every block; DaCe's packs them unaligned back to back">
                    {w.packed.alignment} B alignment adds {formatBytes(-num(w.savings.bytes))}
                  </span>
                )}
              </div>
            </>
          ) : (
            <>
              <div className="ov-ws-big ov-ws-symbolic">needs symbol values</div>
              <div className="ov-ws-nums">
                <span className="expr" title={w.dace.bytesExpr}>
                  DaCe&apos;s layout {formatBytesExpr(w.dace.bytesExpr)}
                </span>
              </div>
            </>
          )}
        </div>
      ))}
      {headline && (
        <button
          type="button"
          className={`ov-measured verdict-${headline.time?.verdict ?? 'none'}`}
          onClick={() => setDockTab('profile')}
          data-testid="overview-measured"
          title={headline.text}
        >
          <span className="ov-ws-head">
            {headline.basis === 'emulated' ? 'measured (emulated on the CPU, --gpu host)' : 'measured'}: {headline.parts.title}
          </span>
          <span className="ov-measured-big">{headlineBig(headline)}</span>
          {verdict?.noiseText && (
            <span className="ov-measured-noise" data-testid="overview-noisy">
              noisy run: compared at p10
            </span>
          )}
        </button>
      )}
      <h4>This program</h4>
      <div className="stats">
        <Stat n={view.totals.transients} label="transients" />
        <Stat n={view.totals.holdingMemory} label="hold memory" />
        <Stat n={view.totals.eligible.EXTERNAL} label="EXTERNAL-eligible" tone="good" />
        <Stat n={view.totals.eligible.PERSISTENT} label="PERSISTENT-eligible" />
        <Stat n={fates[2] ?? 0} label="allocated every call in every mode" tone={(fates[2] ?? 0) > 0 ? 'warn' : undefined} />
      </div>
      {structures && (
        <p className="ov-note" data-testid="overview-structures">
          {structures}
        </p>
      )}
      {view.analysis.profile && (
        <p className={`ov-note${view.analysis.profile.ok ? '' : ' ov-note-warn'}`} data-testid="overview-can-profile">
          <span className="ov-note-key">can profile:</span> {canProfileText(view.analysis.profile, 2)}
        </p>
      )}
      {build && (
        <>
          <h4>This build</h4>
          <p className="ov-build" data-testid="overview-built-by">
            {build.builtBy}
          </p>
          <p className="ov-build muted" title={build.folder}>
            DaCe build folder {build.folder}
          </p>
        </>
      )}
    </div>
  );
}
