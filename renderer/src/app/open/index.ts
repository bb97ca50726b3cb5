/**
 * Opening a document: the one module that owns the whole sequence — the request, the root region, the commit,
 * the graph's layout start and first frame, the analysis that follows, and the `tlab:*` marks the bench reads
 * (sequence.ts, graph.ts, marks.ts). The rest of the window calls what is exported here.
 */
import { client, showError } from '../actions.js';
import { openResultPath, openResultUpload } from '../results.js';
import { store } from '../state.js';
import { openWith } from './sequence.js';

export { analysisDrawn } from './sequence.js';
export { graphFirstFrame, graphMounted } from './graph.js';

/** Opens a file by path (the Open dialog, `?open=`, start-up files, the desktop's `openRequest`): a result `.json`
 * opens as a result, anything else as an SDFG. */
export async function openPath(path: string): Promise<void> {
  // A `.json` is a result, or a workload (docs/workload.md): the host reads its first bytes to tell.
  if (/\.json$/i.test(path) && (await jsonKind(path)) !== 'workload') return openResultPath(path);
  const name = path.split(/[\\/]/).pop() || path;
  return openWith(name, (c) => c.openFile({ path }));
}

/** What a `.json` file is; a failure here is reported by the open that follows. */
async function jsonKind(path: string): Promise<string> {
  try {
    return (await client().fileKind({ path })).kind;
  } catch {
    return 'result';
  }
}

export function openExample(id: string): Promise<void> {
  const ex = store.get().env?.examples.find((e) => e.id === id);
  const name = ex ? `${ex.title}.${ex.kind === 'workload' ? 'json' : 'sdfg'}` : id;
  return openWith(name, (c) => c.openExample({ id }), ex?.symbols ?? {});
}

/** Opens program `key` of the open workload as an SDFG (its graph), remembering the way back. */
export function openWorkloadProgram(key: string): Promise<void> {
  const s = store.get();
  const doc = s.doc;
  if (!doc?.workload) return Promise.resolve();
  const file = doc.workload.programs.find((p) => p.key === key)?.file ?? key;
  const example = s.env?.examples.find((e) => e.kind === 'workload' && `${e.title}.json` === doc.name)?.id ?? null;
  const origin = { name: doc.name, path: doc.path, example };
  // The symbols of its first call, so that its graph and sizes are those the workload runs.
  const symbols = s.workload?.calls.find((c) => c.program === key)?.symbols ?? {};
  return openWith(file, (c) => c.openProgram({ doc: doc.doc, program: key }), symbols, origin);
}

/** Back to the workload a program was opened from. */
export function backToWorkload(): Promise<void> {
  const o = store.get().workloadOrigin;
  if (!o) return Promise.resolve();
  if (o.example) return openExample(o.example);
  return o.path ? openPath(o.path) : Promise.resolve();
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
