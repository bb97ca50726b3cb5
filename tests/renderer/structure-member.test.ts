/**
 * A transient inside a structure (a transient member of a StructureView, as velocity_tendencies' `p_diag_0`
 * members) says so in the window: the transient table's type cell, the inspector's facts and the tooltip.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../electron/engine/analysis/index.js';
import { packageRoot } from '../../electron/engine/paths.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { buildAnalysisView } from '../../electron/engine/view/analysis.js';
import { transientFacts } from '../../renderer/src/app/selection/facts.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { transientTooltip } from '../../renderer/src/charts/transient-info.js';
import { COLUMNS } from '../../renderer/src/views/transients-model.js';

describe('a transient inside a structure', () => {
  it('is shown as inside its structure in the table, the inspector and the tooltip', async () => {
    const file = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'struct_args.sdfg'));
    file.root.arrays.get('vq')!.members!.find((m) => m.name === 'b')!.transient = true;
    const view = buildAnalysisView(analyze(file, { symbols: new Map([['N', 6n]]), defaultSymbol: null, target: null }));
    const member = view.table.name.indexOf('vq.b');
    const plain = view.table.name.indexOf('vq');
    const type = COLUMNS.find((c) => c.key === 'type')!;
    expect(type.text(view, member)).toBe('Array in structure vq');
    expect(type.text(view, plain)).toBe('StructureView');
    expect(transientFacts(view, member).insideStructure).toBe('vq');
    expect(transientFacts(view, plain).insideStructure).toBeNull();
    expect(transientTooltip(view, member, chartTheme('light')).rows).toContainEqual(['inside', 'structure vq']);
  });
});
