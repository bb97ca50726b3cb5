/**
 * The transients table: every transient of an AnalysisView, largest first until sorted otherwise, filterable (transients-model.ts),
 * virtualised by hand (only the rows in view are in the DOM, so 30k rows scroll as fast as 30), keyboard
 * navigable (↑ ↓ PgUp PgDn Home End move and select, Esc clears, / focuses the filter), and in sync with
 * every other view through `selectedTransient` / `onSelect` / `onHover`.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { formatBytes, formatCount, formatSize, type AnalysisView } from '../../../electron/engine/view/public.js';
import { chartTheme, type ChartTheme } from '../charts/chart-theme.js';
import { fateOf, indexOfId, storageOf, structureOf } from '../charts/transient-info.js';
import { headTail, MidCut, type CutPart } from '../app/text/MidCut.js';
import { isHatch } from '../charts/painter.js';
import type { ThemeName } from '../theme/index.js';
import { COLUMNS, DEFAULT_SORT, ownedTotal, tableRows, type Column, type SortSpec } from './transients-model.js';

export interface TransientsTableProps {
  view: AnalysisView;
  theme: ThemeName;
  selectedTransient: string | null;
  onSelect: (id: string | null) => void;
  onHover?: (id: string | null) => void;
  /** Initial filter text. */
  filter?: string;
  /** Row height in px. */
  rowHeight?: number;
}

/**
 * Cells cut in the middle: an id's end tells members apart (`p_metrics_0.__f2dac…d_0_s_4871`), and a member's
 * type cell must keep the structure it lives in (`Scalar in structure p_metrics_0`), not lose it to an ellipsis.
 */
function cellParts(view: AnalysisView, c: Column, i: number, text: string): CutPart[] | null {
  // A member's id: as much of the member's own name as a cell holds (their ends repeat: `…_d_0_s_5159`).
  if (c.key === 'id') return text.includes('.') ? headTail(text, Math.min(18, text.length - text.lastIndexOf('.') - 1)) : headTail(text);
  if (c.key !== 'type') return null;
  const s = structureOf(view, i);
  if (s === null) return null;
  const head = { text: text.slice(0, text.length - s.length) };
  return s.length <= 24 ? [head, { text: s, keep: true }] : [head, ...headTail(s)];
}

const OVERSCAN = 8;
const SWATCH_W = 22;

const cellStyle = (c: Column): CSSProperties => ({
  width: c.width,
  flex: 'none',
  padding: '0 8px',
  boxSizing: 'border-box',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  textAlign: c.align,
  fontVariantNumeric: 'tabular-nums',
});

interface RowProps {
  view: AnalysisView;
  /** Transient index and row position. */
  i: number;
  r: number;
  selected: boolean;
  active: boolean;
  t: ChartTheme;
  width: number;
  height: number;
  onPick: (r: number, id: string) => void;
  onEnter: (id: string) => void;
}

/** One row; memoised, so that scrolling renders only the rows that come into view. */
const Row = memo(function Row({ view, i, r, selected, active, t, width, height, onPick, onEnter }: RowProps): React.JSX.Element {
  const id = view.table.id[i]!;
  const fate = fateOf(view, i);
  const fill = t.fate[fate].fill;
  const eligible = view.table.eligible[i]!;
  return (
    <div
      id={`tlab-row-${i}`}
      role="row"
      aria-rowindex={r + 2}
      aria-selected={selected}
      onClick={() => onPick(r, id)}
      onMouseEnter={() => onEnter(id)}
      style={{
        position: 'absolute',
        top: 0,
        transform: `translateY(${(r + 1) * height}px)`,
        contain: 'layout style paint',
        left: 0,
        width,
        height,
        display: 'flex',
        alignItems: 'center',
        cursor: 'default',
        background: selected ? `color-mix(in srgb, ${t.accent} 22%, ${t.background})` : r % 2 ? t.palette.surface : t.background,
        boxShadow: active ? `inset 2px 0 0 ${t.accent}` : undefined,
        color: fate === 'none' || fate === 'alias' ? t.muted : t.text,
      }}
    >
      <div role="gridcell" style={{ width: SWATCH_W, flex: 'none', display: 'flex', justifyContent: 'center' }}>
        <span
          title={t.fate[fate].label}
          style={{
            width: 10,
            height: 10,
            borderRadius: 2,
            background: isHatch(fill) ? fill.hatch : fill,
            border: t.fate[fate].stroke ? `1px solid ${t.fate[fate].stroke}` : undefined,
            boxSizing: 'border-box',
          }}
        />
      </div>
      {COLUMNS.map((c) => {
        const text = c.text(view, i);
        const parts = cellParts(view, c, i, text);
        const style = cellStyle(c);
        if (c.key === 'id') style.fontFamily = 'ui-monospace, "DejaVu Sans Mono", monospace';
        if (c.key === 'persistent' || c.key === 'external') {
          const ok = eligible & (c.key === 'persistent' ? 1 : 2);
          style.color = ok ? t.modes[c.key === 'persistent' ? 'PERSISTENT' : 'EXTERNAL'] : t.muted;
          style.fontSize = 14;
          style.fontWeight = ok ? 700 : 400;
        }
        if (c.key === 'reason') style.color = t.muted;
        const alias = c.key === 'bytes' && fate === 'alias';
        if (alias) style.fontStyle = 'italic';
        const title =
          c.key === 'storage'
            ? `${storageOf(view, i)} (${view.table.dict.storage[view.table.storage[i]!]} in the file)`
            : alias
              ? `${text}: owns no bytes (its extent is ${formatSize(view.table.bytes[i], view.table.bytesExpr[i]!)}), never counted in a total`
              : text;
        return (
          <div key={c.key} role="gridcell" title={title} style={style} data-alias={alias ? '' : undefined}>
            {parts ? <MidCut parts={parts} /> : text}
          </div>
        );
      })}
    </div>
  );
});

export function TransientsTable(props: TransientsTableProps): React.JSX.Element {
  const { view, theme, selectedTransient, onSelect, onHover } = props;
  const rowH = props.rowHeight ?? 26;
  const t = chartTheme(theme);
  const [query, setQuery] = useState(props.filter ?? '');
  const [sort, setSort] = useState<SortSpec | null>(DEFAULT_SORT);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportH, setViewportH] = useState(400);
  const [active, setActive] = useState<number>(-1);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const hovered = useRef<string | null>(null);

  const rows = useMemo(() => tableRows(view, query, sort), [view, query, sort]);
  const total = useMemo(() => ownedTotal(view, rows), [view, rows]);
  const position = useMemo(() => {
    const pos = new Int32Array(view.table.count).fill(-1);
    rows.forEach((i, r) => (pos[i] = r));
    return pos;
  }, [rows, view]);
  const totalW = SWATCH_W + COLUMNS.reduce((s, c) => s + c.width, 0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = (): void => setViewportH(el.clientHeight || 400);
    // The observer's first call comes after the browser's own layout: reading clientHeight here, in the commit,
    // forced a layout of the whole page inside React's task (the table's first mount was a 60–110 ms task).
    if (typeof ResizeObserver !== 'function') {
      measure();
      return;
    }
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const scrollToRow = useCallback(
    (r: number): void => {
      const el = scroller.current;
      if (!el || r < 0) return;
      const header = rowH;
      const top = r * rowH;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + rowH > el.scrollTop + el.clientHeight - header) el.scrollTop = top + rowH - el.clientHeight + header;
      setScrollTop(el.scrollTop);
    },
    [rowH],
  );

  // Selection from elsewhere: make it the active row and bring it into view.
  useEffect(() => {
    const i = indexOfId(view, selectedTransient);
    const r = i >= 0 ? position[i]! : -1;
    if (r >= 0) {
      setActive(r);
      scrollToRow(r);
    }
  }, [selectedTransient, view, position, scrollToRow]);

  const selectRow = (r: number): void => {
    if (!rows.length) return;
    const row = Math.max(0, Math.min(rows.length - 1, r));
    setActive(row);
    scrollToRow(row);
    onSelect(view.table.id[rows[row]!]!);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const page = Math.max(1, Math.floor(viewportH / rowH) - 2);
    const cur = active >= 0 ? active : -1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => selectRow(cur + 1),
      ArrowUp: () => selectRow(cur < 0 ? 0 : cur - 1),
      PageDown: () => selectRow(cur + page),
      PageUp: () => selectRow(cur - page),
      Home: () => selectRow(0),
      End: () => selectRow(rows.length - 1),
      Enter: () => selectRow(cur < 0 ? 0 : cur),
      Escape: () => onSelect(null),
      '/': () => input.current?.focus(),
    };
    const act = keys[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };

  const toggleSort = (c: Column): void => {
    setSort((s) =>
      s?.key !== c.key
        ? { key: c.key, dir: c.key === 'bytes' ? 'desc' : 'asc' }
        : s.dir === 'asc'
          ? { key: c.key, dir: 'desc' }
          : s.dir === 'desc' && c.key === 'bytes'
            ? { key: c.key, dir: 'asc' }
            : null,
    );
  };

  // Stable callbacks, so that memoised rows do not re-render while scrolling.
  const onHoverRef = useRef(onHover);
  onHoverRef.current = onHover;
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const hover = useCallback((id: string | null): void => {
    if (hovered.current === id) return;
    hovered.current = id;
    onHoverRef.current?.(id);
  }, []);
  const pick = useCallback((r: number, id: string): void => {
    setActive(r);
    onSelectRef.current(id);
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / rowH) - OVERSCAN);
  const last = Math.min(rows.length - 1, Math.ceil((scrollTop + viewportH) / rowH) + OVERSCAN);
  const selIndex = indexOfId(view, selectedTransient);
  const hiddenSelection = selIndex >= 0 && position[selIndex]! < 0;

  const body: React.JSX.Element[] = [];
  for (let r = first; r <= last; r++) {
    const i = rows[r]!;
    body.push(
      <Row
        key={i}
        view={view}
        i={i}
        r={r}
        selected={i === selIndex}
        active={r === active}
        t={t}
        width={totalW}
        height={rowH}
        onPick={pick}
        onEnter={hover}
      />,
    );
  }

  const font = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif';
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        minHeight: 0,
        background: t.background,
        color: t.text,
        fontFamily: font,
        fontSize: 12,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, padding: '6px 8px', borderBottom: `1px solid ${t.axis}` }}>
        <input
          ref={input}
          type="search"
          value={query}
          placeholder="filter: name, storage:gpu, bytes>1MiB, is:external, -is:never"
          aria-label="Filter transients"
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'Enter') {
              e.preventDefault();
              scroller.current?.focus();
              selectRow(active >= 0 ? active : 0);
            }
          }}
          style={{
            flex: '1 1 auto',
            maxWidth: 520,
            padding: '4px 8px',
            background: t.palette.surface,
            color: t.text,
            border: `1px solid ${t.axis}`,
            borderRadius: 4,
            font: 'inherit',
          }}
        />
        <span role="status" style={{ color: t.muted, whiteSpace: 'nowrap' }}>
          {rows.length === view.table.count
            ? `${formatCount(rows.length)} transients`
            : `${formatCount(rows.length)} of ${formatCount(view.table.count)} transients`}
          {hiddenSelection ? ' · the selected one is filtered out' : ''}
        </span>
        <span
          data-testid="table-total"
          title="What the listed transients own together. A view or reference names another container's bytes: it is listed, never added."
          style={{ color: t.muted, whiteSpace: 'nowrap' }}
        >
          {total.bytes > 0 || total.symbolic === 0 ? `${formatBytes(total.bytes)} own` : 'sizes symbolic'}
          {total.symbolic > 0 && total.bytes > 0 ? ` (+${formatCount(total.symbolic)} symbolic)` : ''}
          {total.aliases > 0
            ? ` · ${formatCount(total.aliases)} view${total.aliases === 1 ? '' : 's'} or reference${total.aliases === 1 ? '' : 's'} not counted`
            : ''}
        </span>
      </div>
      <div
        ref={scroller}
        role="grid"
        tabIndex={0}
        aria-label="Transients"
        aria-rowcount={rows.length + 1}
        aria-colcount={COLUMNS.length + 1}
        aria-activedescendant={active >= 0 && active < rows.length ? `tlab-row-${rows[active]}` : undefined}
        onKeyDown={onKey}
        // Quantised to whole rows: scrolling within a row re-renders nothing.
        onScroll={(e) => setScrollTop(Math.floor(e.currentTarget.scrollTop / rowH) * rowH)}
        onMouseLeave={() => hover(null)}
        style={{ position: 'relative', flex: '1 1 auto', minHeight: 0, overflow: 'auto', outline: 'none', contain: 'strict' }}
      >
        <div style={{ position: 'relative', height: (rows.length + 1) * rowH, width: totalW }}>
          <div
            role="row"
            aria-rowindex={1}
            style={{
              position: 'sticky',
              top: 0,
              zIndex: 1,
              height: rowH,
              width: totalW,
              display: 'flex',
              alignItems: 'center',
              background: t.palette.surfaceAlt,
              borderBottom: `1px solid ${t.axis}`,
              fontWeight: 600,
            }}
          >
            <div style={{ width: SWATCH_W, flex: 'none' }} />
            {COLUMNS.map((c) => {
              const dir = sort?.key === c.key ? sort.dir : null;
              return (
                <div
                  key={c.key}
                  role="columnheader"
                  aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
                  tabIndex={-1}
                  onClick={() => toggleSort(c)}
                  style={{ ...cellStyle(c), cursor: 'pointer', color: dir ? t.text : t.muted }}
                  title={`sort by ${c.title}`}
                >
                  {c.title}
                  {dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}
                </div>
              );
            })}
          </div>
          {body}
          {rows.length === 0 ? (
            <div style={{ position: 'absolute', top: rowH * 1.5, left: 12, color: t.muted }} data-testid="table-empty">
              {view.table.count === 0 ? 'This program has no transients.' : `No transient matches “${query}”.`}
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
