/**
 * The profile's settings: Run first, in a head that stays in view while they scroll; then modes, EXTERNAL layout,
 * calls, warm-up, processes, seed, timeout, input arrays. The symbol values are the ones in the top bar (the same
 * that size every view), shown here so nothing is hidden.
 */
import { useEffect, useRef, useState } from 'react';
import { libraryNodesParts, needsValuesText } from '../../../../electron/engine/view/public.js';
import { setDefaultSymbol } from '../analysis.js';
import { MODE_NAMES } from '../../theme/index.js';
import { Icon } from '../Icon.js';
import { askDevices, updateProfileSettings } from '../profile-actions.js';
import { decideGpu } from './gpu-choice.js';
import { onRunFocus } from './open-profile.js';
import { profileBlockTitle, useProfileBlock, useSymbolNeeds } from './profile-block.js';
import './profile-form.css';
import { store } from '../state.js';
import { EMPTY, useSelect } from '../store.js';

function NumberField({
  label,
  value,
  min,
  max,
  onChange,
  testid,
  hint,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (n: number) => void;
  testid: string;
  hint?: string;
}): React.JSX.Element {
  const [text, setText] = useState(String(value));
  const n = Number(text);
  const bad = !/^\d+$/.test(text) || n < min || n > max;
  return (
    <label className={`field${bad ? ' field-bad' : ''}`} title={hint}>
      <span>{label}</span>
      <input
        inputMode="numeric"
        value={text}
        data-testid={testid}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (/^\d+$/.test(e.target.value) && v >= min && v <= max) onChange(v);
        }}
      />
    </label>
  );
}

/**
 * Run waits until every symbol the build needs has a value: the names, and one field that gives every unset symbol
 * the same value (the top bar's "others", as `--default-symbol` does), so a file with thousands of symbols is one step.
 */
function SymbolNeedsHint({ needs }: { needs: { count: number; names: string[] } }): React.JSX.Element {
  const [text, setText] = useState('');
  const [bad, setBad] = useState(false);
  return (
    <div className="hint warn symbol-needs" data-testid="profile-run-needs">
      <p>
        Waits until {needsValuesText(needs, 2)}. Set {needs.count === 1 ? 'it' : 'them'} in the top bar, or{' '}
        {needs.count === 1 ? 'here' : 'all at once here'}:
      </p>
      <label
        className={bad ? 'bad' : undefined}
        title="The value every symbol without one takes (the top bar's “others”, as --default-symbol)"
      >
        <input
          inputMode="numeric"
          placeholder="e.g. 16"
          size={6}
          value={text}
          data-testid="profile-needs-default"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Enter here sets the value; it must not submit the form (Run is still disabled, but keep it explicit).
            if (e.key !== 'Enter') return;
            e.preventDefault();
            setBad(!setDefaultSymbol(text));
          }}
        />
        <button type="button" className="btn btn-small" data-testid="profile-needs-set" onClick={() => setBad(!setDefaultSymbol(text))}>
          {needs.count === 1 ? 'Set' : 'Set all'}
        </button>
      </label>
    </div>
  );
}

export function ProfileForm({ running, onRun }: { running: boolean; onRun: () => void }): React.JSX.Element {
  const p = useSelect(store, (s) => s.profileSettings);
  const symbols = useSelect(store, (s) => s.symbols);
  const fallback = useSelect(store, (s) => s.defaultSymbol);
  const unresolved = useSelect(store, (s) => s.analysis?.analysis.unresolvedSymbols ?? EMPTY);
  const target = useSelect(store, (s) => s.analysis?.analysis.target ?? s.doc?.target ?? 'cpu');
  const blocked = useProfileBlock();
  const needs = useSymbolNeeds();
  // Offered where it matters: a program with expanded library nodes, or one refused for want of blas (Potrf).
  const libraryNodes = useSelect(store, (s) => s.analysis?.analysis.libraryNodes ?? EMPTY);
  const wantsBlas = useSelect(store, (s) => {
    const check = s.analysis?.analysis.profile;
    return check?.ok === false && check.message.includes('--library-impl blas');
  });
  const [inputName, setInputName] = useState('');
  const [inputPath, setInputPath] = useState('');
  const symText = Object.entries(symbols)
    .map(([k, v]) => `${k}=${v}`)
    .join('  ');
  const remoteHosts: readonly string[] = useSelect(store, (s) => s.env?.remoteHosts ?? EMPTY);
  const host = useSelect(store, (s) => s.env?.host);
  const total = p.calls * p.processes * p.modes.length;
  const remote = p.remote !== null && remoteHosts.includes(p.remote) ? p.remote : null;
  const devices = useSelect(store, (s) => s.devices);
  const gpu = decideGpu(p.gpu, devices, remote, host);
  // A GPU program's run waits only while nothing decides where it runs (the probe, ≈1 s, and no choice made).
  const gpuWaiting = target === 'gpu' ? gpu.waiting : null;
  useEffect(() => {
    if (target === 'gpu') void askDevices();
  }, [target]);
  const runRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Opened by the top bar's Profile (or Ctrl+P): the focus goes to Run, or to the first field while Run is disabled.
  useEffect(
    () =>
      onRunFocus(() => {
        const run = runRef.current;
        if (run && !run.disabled) run.focus();
        else formRef.current?.querySelector<HTMLElement>('input, select')?.focus();
      }),
    [],
  );
  return (
    <form
      ref={formRef}
      className="profile-form"
      data-testid="profile-form"
      onSubmit={(e) => {
        e.preventDefault();
        onRun();
      }}
    >
      {/* Run stays in view however far the settings scroll (the form's head is sticky). */}
      <div className="profile-form-head" data-testid="profile-form-head">
        <button
          ref={runRef}
          type="submit"
          className="btn btn-primary btn-run"
          data-testid="profile-run"
          disabled={running || p.modes.length === 0 || blocked !== null || needs !== null || gpuWaiting !== null}
          title={
            blocked ? profileBlockTitle(blocked) : needs ? `A build needs values first: set them in the top bar` : (gpuWaiting ?? undefined)
          }
        >
          <Icon name="play" />{' '}
          {running ? 'Running…' : `Run ${p.modes.length} mode${p.modes.length === 1 ? '' : 's'}${remote ? ` on ${remote}` : ''}`}
        </button>
        {blocked ? (
          <p className="hint center" data-testid="profile-run-blocked">
            Disabled: this program cannot be profiled
          </p>
        ) : needs ? (
          <SymbolNeedsHint needs={needs} />
        ) : gpuWaiting ? (
          <p className="hint center" data-testid="profile-run-waiting">
            {gpuWaiting} (or choose host emulation)
          </p>
        ) : (
          <p className="hint center">
            {total.toLocaleString()} timed calls in all
            {p.modes.includes('EXTERNAL') && p.layout === 'both' ? ' (+ the second EXTERNAL layout)' : ''}
          </p>
        )}
      </div>
      {remoteHosts.length > 0 && (
        <fieldset>
          <legend>Run on</legend>
          <select
            value={remote ?? ''}
            onChange={(e) => updateProfileSettings({ remote: e.target.value || null })}
            data-testid="profile-remote"
            aria-label="Run on"
          >
            <option value="">{host === 'browser' ? 'the server (this host)' : 'this machine'}</option>
            {remoteHosts.map((h) => (
              <option key={h} value={h}>
                {h} (over ssh)
              </option>
            ))}
          </select>
          {remote && (
            <p className="hint">
              Built and run on {remote}; the result comes back here. Transient Lab of the same version must be installed there.
            </p>
          )}
        </fieldset>
      )}
      {(libraryNodes.length > 0 || wantsBlas) && (
        <fieldset>
          <legend>Library nodes</legend>
          <select
            value={p.libraryImpl}
            onChange={(e) => updateProfileSettings({ libraryImpl: e.target.value === 'blas' ? 'blas' : 'pure' })}
            data-testid="profile-library-impl"
            aria-label="Library node implementation"
            style={{ width: '100%' }}
          >
            <option value="pure">pure (DaCe&apos;s loops)</option>
            <option value="blas">blas (OpenBLAS, LAPACKE)</option>
          </select>
          <p className="hint" style={{ overflowWrap: 'anywhere' }}>
            {libraryNodes.length > 0
              ? `${libraryNodesParts(libraryNodes, { implementation: false })!.join('; ')}: every mode runs the same expansion.`
              : 'This program has a library node that only a blas implementation expands.'}
          </p>
        </fieldset>
      )}
      {target === 'gpu' && (
        <fieldset>
          <legend>GPU</legend>
          <div className="seg" role="radiogroup" aria-label="Where the GPU program runs">
            {(['auto', 'host'] as const).map((g) => {
              const off = g === 'auto' ? gpu.deviceDisabled : null;
              return (
                <label key={g} className={`${gpu.gpu === g ? 'on' : ''}${off ? ' disabled' : ''}`} title={off ?? undefined}>
                  <input
                    type="radio"
                    name="gpu"
                    checked={gpu.gpu === g}
                    disabled={off !== null}
                    onChange={() => updateProfileSettings({ gpu: g })}
                    data-testid={`profile-gpu-${g}`}
                  />
                  {g === 'auto' ? 'device' : 'host emulation'}
                </label>
              );
            })}
          </div>
          {gpu.deviceDisabled && (
            <p className="hint" data-testid="profile-gpu-no-device">
              {gpu.deviceDisabled}
            </p>
          )}
          {gpu.note && (
            <p className="hint warn" role="note" data-testid="profile-gpu-note">
              {gpu.note}
            </p>
          )}
          {gpu.gpu === 'auto' && gpu.deviceHint && (
            <p className="hint" data-testid="profile-gpu-device">
              {gpu.deviceHint}
            </p>
          )}
          {gpu.unknown && (
            <p className="hint" data-testid="profile-gpu-unknown">
              {gpu.unknown}
            </p>
          )}
          {gpu.gpu === 'host' && (
            <p className="hint">
              Runs the CUDA code on this CPU: every mode is verified; its times are emulated host times, not device times.
            </p>
          )}
          <label className="field pool-threshold">
            Pool release threshold (bytes or max)
            <input
              value={p.poolReleaseThreshold}
              onChange={(e) => updateProfileSettings({ poolReleaseThreshold: e.target.value })}
              data-testid="profile-pool-release-threshold"
              aria-label="Pool release threshold"
              size={12}
            />
          </label>
          <p className="hint">
            POOL&apos;s stream-ordered pool at each synchronisation: 0 returns all its free memory; max (DaCe&apos;s default) keeps
            everything it reserved.
          </p>
        </fieldset>
      )}
      <fieldset>
        <legend>Modes</legend>
        <div className="mode-checks">
          {MODE_NAMES.map((m) => (
            <label key={m} className={`mode-check mode-${m.toLowerCase()}`}>
              <input
                type="checkbox"
                checked={p.modes.includes(m)}
                data-testid={`profile-mode-${m}`}
                onChange={(e) =>
                  updateProfileSettings({
                    modes: e.target.checked ? MODE_NAMES.filter((x) => x === m || p.modes.includes(x)) : p.modes.filter((x) => x !== m),
                  })
                }
              />
              <span className="mode-tag">{m}</span>
            </label>
          ))}
        </div>
        {target === 'cpu' && p.modes.includes('POOL') && (
          <p className="hint">On CPU, POOL runs the same code as SCOPED (pooling is for GPU arrays).</p>
        )}
      </fieldset>
      <fieldset>
        <legend>EXTERNAL layout</legend>
        <div className="seg" role="radiogroup">
          {(['packed', 'dace', 'both'] as const).map((l) => (
            <label key={l} className={p.layout === l ? 'on' : ''}>
              <input
                type="radio"
                name="layout"
                checked={p.layout === l}
                onChange={() => updateProfileSettings({ layout: l })}
                data-testid={`profile-layout-${l}`}
              />
              {l}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="fields">
        <NumberField
          label="calls"
          value={p.calls}
          min={1}
          max={100000}
          onChange={(calls) => updateProfileSettings({ calls })}
          testid="profile-calls"
          hint="Timed calls per process"
        />
        <NumberField
          label="warm-up"
          value={p.warmup}
          min={0}
          max={10000}
          onChange={(warmup) => updateProfileSettings({ warmup })}
          testid="profile-warmup"
          hint="Untimed calls before timing, per process"
        />
        <NumberField
          label="processes"
          value={p.processes}
          min={1}
          max={64}
          onChange={(processes) => updateProfileSettings({ processes })}
          testid="profile-processes"
          hint="Fresh runner processes per mode (calls pooled across them)"
        />
        <NumberField
          label="seed"
          value={Number(p.seed)}
          min={0}
          max={2 ** 31}
          onChange={(seed) => updateProfileSettings({ seed: String(seed) })}
          testid="profile-seed"
          hint="Seed of the generated input data"
        />
        <NumberField
          label="timeout s"
          value={p.timeoutS}
          min={0}
          max={86400}
          onChange={(timeoutS) => updateProfileSettings({ timeoutS })}
          testid="profile-timeout"
          hint="Whole-run limit; 0 = none"
        />
      </fieldset>
      <fieldset>
        <legend>Symbols</legend>
        <p className="sym-line" data-testid="profile-symbols">
          {symText || 'none set'}
          {fallback !== null && <span className="muted"> · others = {fallback}</span>}
        </p>
        {unresolved.length > 0 && (
          <p className="hint warn">
            Without values: {unresolved.slice(0, 8).join(', ')}
            {unresolved.length > 8 ? ` and ${unresolved.length - 8} more` : ''}. Set them in the top bar.
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend>Inputs (.npy, optional)</legend>
        {Object.entries(p.inputs).map(([k, v]) => (
          <div key={k} className="input-row">
            <code>{k}</code>
            <span className="muted ellipsis" title={v}>
              {v}
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              aria-label={`Remove ${k}`}
              onClick={() => {
                const inputs = { ...p.inputs };
                delete inputs[k];
                updateProfileSettings({ inputs });
              }}
            >
              <Icon name="close" size={12} />
            </button>
          </div>
        ))}
        <div className="input-add">
          <input placeholder="argument" value={inputName} onChange={(e) => setInputName(e.target.value)} size={8} />
          <input placeholder="path/to/array.npy" value={inputPath} onChange={(e) => setInputPath(e.target.value)} />
          <button
            type="button"
            className="btn btn-small"
            disabled={!/^[A-Za-z_]\w*$/.test(inputName) || !inputPath.trim()}
            onClick={() => {
              updateProfileSettings({ inputs: { ...p.inputs, [inputName]: inputPath.trim() } });
              setInputName('');
              setInputPath('');
            }}
          >
            add
          </button>
        </div>
        <p className="hint">Other arguments get deterministic data from the seed.</p>
      </fieldset>
    </form>
  );
}
