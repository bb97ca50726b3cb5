/**
 * Which transients live inside structures, in one sentence above the report's transients table (and in the
 * window's overview): velocity_tendencies has 30k members of structures, more than the table's 400 rows.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../electron/engine/analysis/index.js';
import { packageRoot } from '../../electron/engine/paths.js';
import { transientsTable } from '../../electron/engine/report/model.js';
import { buildReport, loadReportAssets, renderHtml } from '../../electron/engine/report/index.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { buildAnalysisView } from '../../electron/engine/view/analysis.js';
import { structureMembersText } from '../../electron/engine/view/structures.js';
import { FIXTURE, labelled, reportInput } from './fixtures.js';

async function structView(): Promise<ReturnType<typeof buildAnalysisView>> {
  const file = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'struct_args.sdfg'));
  file.root.arrays.get('vq')!.members!.find((m) => m.name === 'b')!.transient = true;
  return buildAnalysisView(analyze(file, { symbols: new Map([['N', 6n]]), defaultSymbol: null, target: null }));
}

describe('transients inside structures, summed up', () => {
  it('names the structures and whether their members hold memory', async () => {
    const view = await structView();
    const text = structureMembersText(view);
    expect(text).toMatch(/^1 of \d+ transients is a member of structure vq; /);
    expect(transientsTable(view).insideStructures).toBe(text);
    // The report says it above its transients table.
    const input = await reportInput([labelled('hdiff', FIXTURE.run)], false);
    input.analysis = { view, note: '' };
    const html = renderHtml(buildReport(input), view, await loadReportAssets());
    expect(html).toContain(`<p id="inside-structures">${text!}</p>`);
  });

  it('is absent for a program without structures', async () => {
    const file = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'struct_args.sdfg'));
    const view = buildAnalysisView(analyze(file, { symbols: new Map([['N', 6n]]), defaultSymbol: null, target: null }));
    expect(structureMembersText(view)).toBeNull();
  });
});
