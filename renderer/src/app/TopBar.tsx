/**
 * Top bar: the file, its symbols (edit → re-analysis), the target, the mode the graph and table mark, the theme,
 * and the three main actions. Symbols beyond the first few live in the symbols popover.
 */
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../../electron/engine/view/public.js';
import { MODE_NAMES, type ModeName } from '../theme/index.js';
import { toggleTheme } from './actions.js';
import { setDefaultSymbol, setSymbol, setTarget } from './analysis.js';
import { openExport } from './results.js';
import { backToWorkload } from './open/index.js';
import { Icon } from './Icon.js';
import { openProfile } from './profile/open-profile.js';
import { profileBlockTitle, useProfileBlock } from './profile/profile-block.js';
import { store } from './state.js';
import { useSelect } from './store.js';
import { fileNameParts, headTail, MidCut } from './text/MidCut.js';
import './topbar.css';

const INLINE_SYMBOLS = 4;
/** Above this many symbols the bar shows a count instead of the first few inputs (generated names are long). */
const MANY_SYMBOLS = 8;

function SymbolCount(): React.JSX.Element {
  const total = useSelect(store, (s) => s.doc?.symbols.length ?? 0);
  const set = useSelect(store, (s) => Object.keys(s.symbols).length);
  const fallback = useSelect(store, (s) => s.defaultSymbol);
  return (
    <span className="sym-count" data-testid="symbol-count">
      {total} · {set} set{fallback !== null ? ` · others = ${fallback}` : ''}
    </span>
  );
}

function SymbolInput({ name, dtype }: { name: string; dtype: string }): React.JSX.Element {
  const value = useSelect(store, (s) => s.symbols[name] ?? '');
  const fallback = useSelect(store, (s) => s.defaultSymbol);
  const [text, setText] = useState(value);
  const [bad, setBad] = useState(false);
  useEffect(() => setText(value), [value]);
  return (
    <label className={`sym${bad ? ' sym-bad' : ''}`} title={`${name}: ${dtype}${bad ? ' — an integer, please' : ''}`}>
      <span className="sym-name">
        <MidCut parts={headTail(name)} />
      </span>
      <input
        className="sym-value"
        data-testid={`symbol-${name}`}
        value={text}
        placeholder={fallback ?? '?'}
        inputMode="numeric"
        size={Math.max(2, Math.min(9, (text || fallback || '?').length + 1))}
        onChange={(e) => {
          setText(e.target.value);
          setBad(!setSymbol(name, e.target.value));
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
        }}
      />
    </label>
  );
}

/** Inputs shown at once in the popover; a file with thousands of symbols is searched, not scrolled. */
const POPOVER_SYMBOLS = 60;

function SymbolsEditor({ all, filter = '' }: { all: boolean; filter?: string }): React.JSX.Element | null {
  const doc = useSelect(store, (s) => s.doc);
  const fallback = useSelect(store, (s) => s.defaultSymbol);
  const set = useSelect(store, (s) => s.symbols);
  const [fb, setFb] = useState(fallback ?? '');
  useEffect(() => setFb(fallback ?? ''), [fallback]);
  if (!doc) return null;
  const q = filter.trim().toLowerCase();
  // Symbols with a value first, then the rest in file order.
  const ordered = all ? [...doc.symbols.filter((x) => x.name in set), ...doc.symbols.filter((x) => !(x.name in set))] : doc.symbols;
  const matching = q ? ordered.filter((x) => x.name.toLowerCase().includes(q)) : ordered;
  const list = all ? matching.slice(0, POPOVER_SYMBOLS) : doc.symbols.slice(0, INLINE_SYMBOLS);
  return (
    <div className={all ? 'symbols-grid' : 'symbols-inline'}>
      {list.map((s) => (
        <SymbolInput key={s.name} name={s.name} dtype={s.dtype} />
      ))}
      {all && matching.length > list.length && <span className="muted small">… {matching.length - list.length} more: type to filter</span>}
      {all && (
        <label className="sym sym-default" title="Value for every symbol left empty; empty keeps them symbolic">
          <span className="sym-name">others</span>
          <input
            className="sym-value"
            data-testid="symbol-default"
            value={fb}
            placeholder="symbolic"
            size={8}
            onChange={(e) => {
              setFb(e.target.value);
              setDefaultSymbol(e.target.value);
            }}
          />
        </label>
      )}
    </div>
  );
}

function SymbolsPopover({ onClose }: { onClose: () => void }): React.JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const away = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node) && !(e.target as HTMLElement).closest?.('.symbols-more')) onClose();
    };
    // Esc closes it wherever the focus is inside (its filter, a symbol's input), before the window's Esc (which
    // would only blur the input, or clear the selection) sees the key; the focus goes back to the button.
    const esc = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || store.get().dialog || store.get().error) return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
      document.querySelector<HTMLButtonElement>('[data-testid="symbols-more"]')?.focus();
    };
    window.addEventListener('pointerdown', away);
    window.addEventListener('keydown', esc, true);
    return () => {
      window.removeEventListener('pointerdown', away);
      window.removeEventListener('keydown', esc, true);
    };
  }, [onClose]);
  const count = useSelect(store, (s) => s.doc?.symbols.length ?? 0);
  const [filter, setFilter] = useState('');
  return (
    <div className="popover symbols-popover" ref={ref} role="dialog" aria-label="Symbols">
      <div className="popover-head">
        <span>Symbols ({count})</span>
        <span className="muted">empty = symbolic, or the “others” value; sizes update as you type</span>
      </div>
      {count > 12 && (
        <input
          className="symbols-filter"
          placeholder="Filter symbols"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          autoFocus
          data-testid="symbols-filter"
        />
      )}
      <SymbolsEditor all filter={filter} />
    </div>
  );
}

function Select<T extends string>({
  value,
  options,
  onChange,
  label,
  testid,
}: {
  value: T;
  options: Array<[T, string]>;
  onChange: (v: T) => void;
  label: string;
  testid: string;
}): React.JSX.Element {
  return (
    <label className="bar-select">
      <span className="bar-label">{label}</span>
      <select value={value} data-testid={testid} onChange={(e) => onChange(e.target.value as T)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * How many inline symbol inputs the bar had no room for. The inline row wraps inside a box one row high, so an
 * input that does not fit goes whole onto the hidden second row; the last one, which cannot wrap, is hidden
 * rather than shown cut. The file's name gets the room.
 */
function useWrappedAway(box: React.RefObject<HTMLDivElement | null>, key: unknown): number {
  const [away, setAway] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) {
      setAway(0);
      return;
    }
    const count = (): void => {
      const inputs = [...el.querySelectorAll<HTMLElement>('.sym')];
      const top = inputs[0]?.offsetTop ?? 0;
      let n = 0;
      for (const x of inputs) {
        const away = x.offsetTop > top || x.offsetLeft + x.offsetWidth > el.clientWidth;
        x.style.visibility = away ? 'hidden' : '';
        if (away) n++;
      }
      setAway(n);
    };
    const ro = new ResizeObserver(count);
    ro.observe(el);
    count();
    return () => ro.disconnect();
  }, [box, key]);
  return away;
}

/** Long generated file names keep their start and their end (where the program's name is). */
function shortName(name: string, max = 40): string {
  if (name.length <= max) return name;
  const tail = Math.ceil(max * 0.62);
  return `${name.slice(0, max - tail - 1)}…${name.slice(-tail)}`;
}

function FileChip(): React.JSX.Element {
  const doc = useSelect(store, (s) => s.doc);
  const opening = useSelect(store, (s) => s.opening);
  const analysing = useSelect(store, (s) => s.analysing);
  if (opening) {
    return (
      <div className="file-chip" data-testid="file-chip">
        <span className="spinner" aria-hidden="true" />
        <span className="file-name">Opening {shortName(opening.name)}…</span>
      </div>
    );
  }
  if (!doc) return <div className="file-chip file-none">No file open</div>;
  const full = [
    formatBytes(doc.fileBytes) + (doc.compressed ? ` (${formatBytes(doc.jsonBytes)} JSON)` : ''),
    ...(doc.preview ? ['root SDFG only so far'] : []),
    `${doc.stats.sdfgs} SDFG${doc.stats.sdfgs === 1 ? '' : 's'}`,
    `${doc.stats.states} states`,
    `${doc.stats.nodes} nodes`,
    `${doc.stats.transients} transients`,
    doc.daceVersion ? `DaCe ${doc.daceVersion}` : doc.generation,
  ].join(' · ');
  // A preview's counts are the root's only: say that the rest is being read rather than show small numbers.
  const w = doc.workload;
  // A DaCe build folder: how the build says it was made, in place of the size (docs/dace-folders.md).
  const built = doc.daceBuild;
  const detail = built
    ? built.builtBy
    : w
      ? `workload · ${w.programs.length} programs · ${w.sequence.length} calls × ${w.steps} steps`
      : `${formatBytes(doc.compressed ? doc.jsonBytes : doc.fileBytes)} · ${doc.preview ? 'reading nested SDFGs…' : `${doc.stats.sdfgs} SDFG${doc.stats.sdfgs === 1 ? '' : 's'}`}`;
  const parts = fileNameParts(doc.name);
  // Room for the part of the name kept whole (bold, a little wider than the chip's `ch`), the icon and a cut start:
  // a short name asks for little, so the symbols keep their inputs; topbar.css caps it.
  const kept = (parts.find((p) => p.keep) ?? parts[0]!).text.length;
  return (
    <div
      className="file-chip"
      data-testid="file-chip"
      style={{ minWidth: `min(calc(${Math.ceil(kept * 1.1)}ch + 56px), 28vw)` }}
      title={`${built ? `DaCe build folder ${built.folder}\n${built.builtBy}` : (doc.path ?? doc.name)}\n${full}\nparsed in ${doc.parseMs.toFixed(0)} ms`}
    >
      {analysing ? <span className="spinner" aria-label="analysing" /> : <Icon name={built ? 'chip' : 'file'} />}
      <MidCut className="file-name" parts={parts} testid="file-name" />
      {built && <span className="file-badge">DaCe build</span>}
      <span className="file-detail" data-testid={built ? 'dace-built-by' : undefined}>
        {detail}
      </span>
    </div>
  );
}

/** The way back to the workload a program was opened from. */
function BackToWorkload(): React.JSX.Element | null {
  const origin = useSelect(store, (s) => s.workloadOrigin);
  if (!origin) return null;
  return (
    <button
      type="button"
      className="btn btn-ghost btn-small"
      data-testid="back-to-workload"
      onClick={() => void backToWorkload()}
      title={`Back to the workload ${origin.name}`}
    >
      ← {origin.name}
    </button>
  );
}

export function TopBar(): React.JSX.Element {
  const doc = useSelect(store, (s) => s.doc);
  const target = useSelect(store, (s) => s.target);
  const mode = useSelect(store, (s) => s.mode);
  const theme = useSelect(store, (s) => s.theme);
  const running = useSelect(store, (s) => s.run?.status === 'running' || s.run?.status === 'cancelling');
  const hasResult = useSelect(store, (s) => s.result !== null);
  const blocked = useProfileBlock();
  const [more, setMore] = useState(false);
  const inlineBox = useRef<HTMLDivElement>(null);
  const hidden = (doc ? Math.max(0, doc.symbols.length - INLINE_SYMBOLS) : 0) + useWrappedAway(inlineBox, doc);

  return (
    <header className="topbar" role="banner">
      <div className="brand" title="Transient Lab">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Transient Lab</span>
      </div>
      <FileChip />
      <BackToWorkload />
      {doc && !doc.workload && (
        <div className="bar-group symbols" data-testid="symbols">
          <span className="bar-label">symbols</span>
          {doc.symbols.length === 0 ? (
            <span className="muted">none</span>
          ) : doc.symbols.length <= MANY_SYMBOLS ? (
            <div className="symbols-inline-box" ref={inlineBox}>
              <SymbolsEditor all={false} />
            </div>
          ) : (
            <SymbolCount />
          )}
          {doc.symbols.length > 0 && (
            <button
              type="button"
              className="btn btn-ghost btn-small symbols-more"
              data-testid="symbols-more"
              onClick={() => setMore((m) => !m)}
              aria-expanded={more}
              title="Every symbol, and one value for all the unset ones"
            >
              {doc.symbols.length > MANY_SYMBOLS ? 'edit…' : hidden > 0 ? `+${hidden} more` : 'set all…'}
            </button>
          )}
          {more && <SymbolsPopover onClose={() => setMore(false)} />}
        </div>
      )}
      {doc && !doc.workload && (
        <div className="bar-group">
          <Select
            label="target"
            testid="target"
            value={target ?? 'auto'}
            options={[
              ['auto', `${doc.target} (detected)`],
              ['cpu', 'cpu'],
              ['gpu', 'gpu'],
            ]}
            onChange={(v) => setTarget(v === 'auto' ? null : v)}
          />
          <Select<ModeName | 'ALL'>
            label="mode"
            testid="mode"
            value={mode}
            options={[['ALL', 'ALL'], ...MODE_NAMES.map((m): [ModeName, string] => [m, m])]}
            onChange={(v) => store.set({ mode: v })}
          />
        </div>
      )}
      <div className="bar-spacer" />
      <div className="bar-actions">
        <button
          type="button"
          className="btn"
          data-testid="action-open"
          onClick={() => store.set({ dialog: 'open' })}
          title="Open an SDFG or a result (Ctrl+O)"
        >
          <Icon name="open" /> Open
        </button>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="action-profile"
          disabled={!doc || doc.workload !== undefined || blocked !== null}
          onClick={openProfile}
          title={
            doc?.workload
              ? 'A workload is profiled from the command line: `transient-lab profile workload.json` (docs/workload.md)'
              : blocked
                ? profileBlockTitle(blocked)
                : doc
                  ? 'Profile: choose modes and calls, then build, verify and time every mode (Ctrl+P)'
                  : 'Open an SDFG first'
          }
        >
          <Icon name="play" /> {running ? 'Profiling…' : 'Profile'}
        </button>
        <button
          type="button"
          className="btn"
          data-testid="action-export"
          disabled={!hasResult}
          onClick={openExport}
          title={
            hasResult
              ? 'Export report… of the result: HTML, PDF, CSV or JSON, with a preview (Ctrl+E)'
              : 'Export report…: run a profile or open a result first'
          }
        >
          <Icon name="export" /> Export
        </button>
        <button
          type="button"
          className="btn btn-icon"
          data-testid="theme-toggle"
          onClick={toggleTheme}
          title={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}
          aria-label="Toggle theme"
        >
          <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
        </button>
      </div>
    </header>
  );
}
