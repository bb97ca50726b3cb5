/**
 * Opening a document: the one module that owns the whole sequence — the request, the root region, the commit,
 * the graph's layout start and first frame, the analysis that follows, and the `tlab:*` marks the bench reads
 * (sequence.ts, graph.ts, marks.ts). The rest of the window calls what is exported here.
 */
import { showError } from '../actions.js';
import { openResultPath, openResultUpload } from '../results.js';
import { store } from '../state.js';
import { openWith } from './sequence.js';

export { analysisDrawn } from './sequence.js';
export { graphFirstFrame, graphMounted } from './graph.js';

/** Opens a file by path (the Open dialog, `?open=`, start-up files, the desktop's `openRequest`): a result `.json`
 * opens as a result, anything else as an SDFG. */
export function openPath(path: string): Promise<void> {
  if (/\.json$/i.test(path)) return openResultPath(path);
  const name = path.split(/[\\/]/).pop() || path;
  return openWith(name, (c) => c.openFile({ path }));
}

export function openExample(id: string): Promise<void> {
  const ex = store.get().env?.examples.find((e) => e.id === id);
  return openWith(ex ? `${ex.title}.sdfg` : id, (c) => c.openExample({ id }), ex?.symbols ?? {});
}

/** Files the user dropped or picked: SDFGs open as documents, result JSON files open as results. */
export async function openLocalFiles(files: File[]): Promise<void> {
  const limit = store.get().env?.limits.uploadBytes ?? Infinity;
  for (const file of files) {
    if (file.size > limit) {
      showError({
        title: `Could not open ${file.name}`,
        context: `Uploading ${file.name}`,
        error: {
          kind: 'refused',
          message: `${file.name} is ${(file.size / 2 ** 20).toFixed(0)} MiB; this host accepts uploads up to ${(limit / 2 ** 20).toFixed(0)} MiB`,
          file: file.name,
          jsonPath: null,
          details: ['Start `transient-lab serve` with --root on the folder that holds it and open it by path instead.'],
        },
      });
      continue;
    }
    if (/\.json$/i.test(file.name)) {
      await openResultUpload(file);
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    await openWith(file.name, (c) => c.openUpload({ name: file.name, bytes }));
  }
}
