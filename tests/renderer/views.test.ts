// @vitest-environment jsdom
/**
 * Views and references in every view of the memory (docs/memory-views.md "Views and references"): drawn as the
 * alias of what they view, never added to a sum — graph roll-ups, the selection panel, the outline, the table's
 * total, the lifetime and workspace charts, the report's table.
 *
 * tests/fixtures/sdfg/views.sdfg at N = 16: T 128 B, T2 512 B, T3 128 B own memory; VT and VV (views of T),
 * VA (of the argument A), VO (of T3), R (a reference set to T) and the nested 1:vx (of its connector x) own none,
 * though each spans 128 B.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import type { SdfgFile, StateBlock } from '../../electron/engine/model/sdfg.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { transientsTable } from '../../electron/engine/report/model.js';
import { Summaries } from '../../electron/engine/view/graph-summary.js';
import type { AnalysisView } from '../../electron/engine/view/types.js';
import { buildMarks } from '../../renderer/src/app/graph/marks.js';
import { outlineGroups } from '../../renderer/src/app/outline-model.js';
import { memoryOf, transientFacts } from '../../renderer/src/app/selection/facts.js';
import { renderChartSVG } from '../../renderer/src/charts/chart.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { lifetimeChart } from '../../renderer/src/charts/lifetime.js';
import { lifetimeModel } from '../../renderer/src/charts/lifetime-model.js';
import { SvgPainter } from '../../renderer/src/charts/painter-svg.js';
import { transientTooltip } from '../../renderer/src/charts/transient-info.js';
import { workspaceChart } from '../../renderer/src/charts/workspace.js';
import { fateBytes, transientMarks } from '../../renderer/src/graph/marks.js';
import { COLUMNS, ownedTotal, tableRows } from '../../renderer/src/views/transients-model.js';
import { parseSvg, viewOfModel } from './fixtures.js';

let file: SdfgFile;
let view: AnalysisView;
const row = (id: string): number => view.table.id.indexOf(id);
const stateNamed = (label: string): StateBlock => {
  const b = file.root.body.blocks.find((x) => x.label === label);
  if (b?.kind !== 'state') throw new Error(label);
  return b;
};

beforeAll(async () => {
  file = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'views.sdfg'));
  view = viewOfModel(file, { N: 16 });
});

describe('views and references in the memory views', () => {
  it('rolls up only what a graph element’s transients own (badges, tooltips, the selection panel)', async () => {
    const summaries = new Summaries();
    // read_views holds T, its views VT and VV, and T2: 128 + 512 B, not 896 B.
    const ids = summaries.state(file.root, stateNamed('read_views')).transients;
    expect([...ids].sort()).toEqual(['0:T', '0:T2', '0:VT', '0:VV']);
    for (const marks of [transientMarks(view, 'ALL'), (await buildMarks(view, 'EXTERNAL', () => false))!]) {
      expect(fateBytes(ids, marks)).toMatchObject({ total: 640, unknown: 0, aliases: 2 });
      expect(marks.get('0:VV')).toMatchObject({ alias: true, fate: null, tag: 'view', note: 'view of T: owns no bytes' });
      expect(marks.get('0:R')!.tag).toBe('ref');
    }
    expect(memoryOf(view, ids)).toEqual({ bytes: 640, symbolic: 0, aliases: 2 });
    // The whole program: T, T2 and T3; five views, one reference and the nested view add nothing.
    const all = summaries.cfg(file.root, file.root.body).transients;
    expect(memoryOf(view, all)).toEqual({ bytes: 768, symbolic: 0, aliases: 6 });
  });

  it('keeps views out of the outline’s and the table’s totals, and says what they alias', () => {
    const groups = outlineGroups(view);
    expect(groups.totals.get(0)).toEqual({ count: 8, bytes: 768, symbolic: false });
    expect(groups.totals.get(1)).toEqual({ count: 1, bytes: 0, symbolic: false });
    // Owners first, biggest first; the aliases after them.
    expect(groups.top(0, 3).map((i) => view.table.id[i])).toEqual(['0:T2', '0:T', '0:T3']);
    const all = tableRows(view, '', null);
    expect(ownedTotal(view, all)).toEqual({ bytes: 768, symbolic: 0, aliases: 6 });
    const bytes = COLUMNS.find((c) => c.key === 'bytes')!;
    expect(bytes.text(view, row('0:VV'))).toBe('view of T');
    expect(bytes.text(view, row('0:VA'))).toBe('view of argument A');
    expect(bytes.text(view, row('0:R'))).toBe('reference to T');
    expect(bytes.text(view, row('1:vx'))).toBe('view of argument x');
    expect(bytes.text(view, row('0:T'))).toBe('128 B');
    // Sorted by bytes, the aliases come last; no byte comparison matches them.
    const sorted = [...tableRows(view, '', { key: 'bytes', dir: 'desc' })].map((i) => view.table.id[i]);
    expect(sorted.slice(0, 3)).toEqual(['0:T2', '0:T', '0:T3']);
    expect([...tableRows(view, 'bytes>100', null)].map((i) => view.table.id[i]).sort()).toEqual(['0:T', '0:T2', '0:T3']);
    expect(tableRows(view, 'is:alias', null)).toHaveLength(6);
    expect(tableRows(view, 'is:view', null)).toHaveLength(5);
    expect([...tableRows(view, 'is:reference', null)].map((i) => view.table.id[i])).toEqual(['0:R']);
  });

  it('shows a view in the selection panel as “view of T”, with T’s size as T’s', () => {
    const f = transientFacts(view, row('0:VV'));
    expect(f.alias).toEqual({ text: 'view of T', reason: null, target: { row: row('0:T'), id: '0:T', name: 'T', size: '128 B' } });
    expect(transientFacts(view, row('0:VA')).alias).toMatchObject({ text: 'view of argument A', target: null });
    expect(transientFacts(view, row('0:T')).viewedBy.sort()).toEqual(['R', 'VT', 'VV']);
    expect(transientFacts(view, row('0:T2')).alias).toBeNull();
    const tip = transientTooltip(view, row('0:VV'), chartTheme('light'));
    expect(tip.rows).toContainEqual(['aliases', 'view of T']);
    expect(tip.rows).toContainEqual(['size', 'owns no bytes (its extent: 128 B)']);
    expect(transientTooltip(view, row('0:T'), chartTheme('light')).rows).toContainEqual(['viewed as', 'VT, VV, R']);
  });

  it('hatches the viewed container’s lifetime bar where its views live, and draws a view as an alias', () => {
    const data = { view, rows: 'all' as const };
    const model = lifetimeModel(data);
    // T's bar: VT and VV at step 1, R over steps 2–4.
    expect(model.viewed.get(model.rowOf[row('0:T')]!)).toEqual([1, 1, 1, 1, 2, 4]);
    expect(model.viewed.get(model.rowOf[row('0:T3')]!)).toEqual([3, 3]);
    const doc = parseSvg(renderChartSVG(lifetimeChart, data, { width: 900, height: 600 }));
    expect(doc.querySelectorAll('g.viewed rect').length).toBe(4);
    const text = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(text).toContain('view of T');
    expect(text).toContain('aliased by a view or reference');
    expect(text).not.toContain('896 B');
    expect(lifetimeChart.describe(data, lifetimeChart.draw(new SvgPainter(), data, frame()))).toMatch(
      /2 hatched where views or references alias them; 6 views or references drawn as aliases/,
    );
    // The memory curves never counted them: the SCOPED peak is T + T2 + T3.
    expect(view.memory[0]!.curves!.find((c) => c.mode === 'SCOPED')!.peak.bytes).toBe(768);
  });

  it('gives a view no block in the workspace map and hatches the block it views', () => {
    const ws = view.workspace[0]!;
    const rows = new Set([...ws.dace.rects!.row, ...ws.packed!.rects.row].map((r) => view.table.id[r]));
    expect([...rows].sort()).toEqual(['0:T', '0:T2', '0:T3']);
    const doc = parseSvg(renderChartSVG(workspaceChart, { view }, { width: 900, height: 420 }));
    // T (3 aliases) and T3 (1) in both layouts.
    expect(doc.querySelectorAll('g.viewed rect').length).toBe(8);
  });

  it('writes what a view aliases in the report’s table, with no byte count to add', () => {
    const t = transientsTable(view);
    const vv = t.rows.find((r) => r.id === '0:VV')!;
    expect(vv).toMatchObject({ bytes: 'view of T', byteCount: null, fate: 'holds no memory: an alias of another container' });
    expect(t.rows.find((r) => r.id === '0:T')!.byteCount).toBe(128);
  });
});

function frame() {
  return {
    width: 900,
    height: 600,
    theme: chartTheme('light'),
    state: lifetimeChart.initialState({ view }),
    selected: null,
    hover: null,
    interactive: false,
  };
}

describe('velocity_tendencies (every free symbol 64): a state’s roll-up is what its transients own', () => {
  it('rolls up state_2_0 to 4.50 MiB, not the 407 MiB of its views, and the whole program to its workspace scale', async () => {
    const velocity = await readSdfgFile(join(corpusDir(), 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz'));
    const v = viewOfModel(velocity, {}, 64n);
    const summaries = new Summaries();
    const state = velocity.root.body.blocks.find((b) => b.label === 'state_2_0');
    if (state?.kind !== 'state') throw new Error('state_2_0 is gone');
    const ids = summaries.state(velocity.root, state).transients;
    // 51 transients: 40 views (of the arguments p_diag, p_metrics, p_int, ptr_patch, … inside the nested SDFGs
    // the state calls; three of them span 128 MiB of p_diag each) and 11 containers that own bytes: z_ekinh,
    // z_w_con_c_full and zeta (48 × 64 × 64 doubles: 1,572,864 B each), levelmask (64 int32: 256 B), and seven
    // stack scalars (one int32, six doubles: 52 B). 3 × 1,572,864 + 256 + 52 = 4,718,900 B.
    expect(ids).toHaveLength(51);
    const marks = (await buildMarks(v, 'ALL', () => false))!;
    expect(fateBytes(ids, marks)).toMatchObject({ total: 4_718_900, unknown: 0, aliases: 40 });
    expect(memoryOf(v, ids)).toEqual({ bytes: 4_718_900, symbolic: 0, aliases: 40 });
    // Before, the views were summed with them: 406.66 MiB.
    const extents = ids.reduce((s, id) => s + Number(v.table.bytes[v.table.id.indexOf(id)] ?? 0), 0);
    expect(extents).toBe(426_410_456);
    // The whole program owns 7,943,136 B: the 13 arrays of the EXTERNAL set (7,942,992 B back to back; packed
    // into 6,369,792 B by the per-point live sets, docs/liveness.md §3.7; the SCOPED peak, over allocation
    // sites, is 7,942,656 B) and 19 stack scalars (144 B). The 125 views and structure
    // views its states touch (877 MiB of extents) add nothing.
    const all = summaries.cfg(velocity.root, velocity.root.body).transients;
    const owned = memoryOf(v, all);
    expect(owned.aliases).toBe(125);
    expect(owned.bytes).toBe(7_943_136);
    expect(v.workspace.find((w) => w.storage === 'CPU_Heap')!.dace.bytes).toBe(7_942_992);
    const heap = v.memory.find((m) => m.storage === 'CPU_Heap')!;
    expect(heap.curves!.find((c) => c.mode === 'SCOPED')!.peak.bytes).toBe(7_942_656);
    expect(v.workspace.find((w) => w.storage === 'CPU_Heap')!.packed!.bytes).toBe(6_369_792);
  }, 300_000);
});
