/**
 * DaCe build folders as workload programs (docs/workload.md, "DaCe build folders as programs"). A DaCe library is
 * built in one mode, so `programs.<k>.prebuilt` names one folder per mode (`profile A B C` does the same), each
 * folder's mode read from its SDFG and exports (dace/mode.ts), and every mode the workload runs (SCOPED, the
 * reference, always) must have its folder. Our generator only reads each folder's SDFG for the arguments and
 * symbols (as dace/profile-folders.ts does); the folder's own library runs.
 */
import { analyze } from '../analysis/index.js';
import type { Mode } from '../analysis/types.js';
import { generateProgram } from '../codegen/index.js';
import type { GeneratedProgram } from '../codegen/types.js';
import { daceFolderSdfg, readDaceFolder, type DaceFolder } from '../dace/folder.js';
import { detectMode } from '../dace/mode.js';
import { callSpec } from '../dace/signature.js';
import type { DaceCallSpec } from '../dace/types.js';
import { TlabError } from '../errors.js';
import type { WorkloadProgram } from './schema.js';

export interface DaceProgram {
  key: string;
  /** The folder built in each mode, with the JSON path that named it. */
  byMode: Map<Mode, { folder: DaceFolder; jsonPath: string }>;
  warnings: string[];
}

/** Per variant label of one instance: what the runner loads and calls. */
export interface DaceInstance {
  libraryPath: string;
  call: DaceCallSpec;
  /** What the folder's SDFG says a call allocates in its mode (null: unknown): interposition must see that many,
   * or the library bypasses it (profile/interpose.ts). */
  expectedAllocationsPerCall: number | null;
}

const short = (hash: string) => hash.slice(0, 12);

/** The program's DaCe build folders, or null when `prebuilt` names a Transient Lab build folder. */
export async function readDaceProgram(p: WorkloadProgram, path: string): Promise<DaceProgram | null> {
  const folders = p.prebuiltFolders;
  const isDace = await Promise.all(folders.map(async (f) => (await daceFolderSdfg(f.dir)) !== null));
  if (folders.length === 1 && !isDace[0]) return null;
  const notDace = folders.findIndex((_, i) => !isDace[i]);
  if (notDace >= 0) {
    throw new TlabError(
      'input',
      `${folders[notDace]!.dir} is not a DaCe build folder (no program.sdfgz or program.sdfg): an array in prebuilt names DaCe build folders of one program, one per mode`,
      { file: path, jsonPath: folders[notDace]!.jsonPath },
    );
  }
  const byMode: DaceProgram['byMode'] = new Map();
  const read: DaceFolder[] = [];
  for (const f of folders) {
    let folder: DaceFolder;
    let mode: Mode;
    try {
      folder = await readDaceFolder(f.dir);
      mode = detectMode(folder).mode;
    } catch (err) {
      if (err instanceof TlabError)
        throw new TlabError(err.kind, `program '${p.key}': ${err.describe()}`, { file: path, jsonPath: f.jsonPath });
      throw err;
    }
    if (read.length && folder.name !== read[0]!.name) {
      throw new TlabError(
        'input',
        `program '${p.key}': ${read[0]!.dir} holds program ${read[0]!.name} but ${folder.dir} holds ${folder.name}: name build folders of one program`,
        { file: path, jsonPath: f.jsonPath },
      );
    }
    const twin = byMode.get(mode);
    if (twin) {
      throw new TlabError(
        'input',
        `program '${p.key}': ${twin.folder.dir} and ${folder.dir} are both built in ${mode} mode: name one folder per mode`,
        { file: path, jsonPath: f.jsonPath },
      );
    }
    byMode.set(mode, { folder, jsonPath: f.jsonPath });
    read.push(folder);
  }
  const warnings: string[] = [];
  // Each mode's build saves its own SDFG (lifetimes applied): compare what the modes leave alone, as profile A B C.
  if (new Set(read.map((f) => f.programHash)).size > 1) {
    warnings.push(
      `${p.key}: its DaCe build folders come from different SDFGs (sha256 without lifetimes, storages and pool flags of transients: ${read.map((f) => `${f.dir} ${short(f.programHash)}`).join(', ')}): outputs are compared all the same`,
    );
  }
  return { key: p.key, byMode, warnings };
}

/** Every mode the workload runs must have its folder; SCOPED, the reference, always runs. */
export function checkDaceModes(d: DaceProgram, modes: Mode[], path: string, jsonPath: string): void {
  const missing = [...new Set(modes)].filter((m) => !d.byMode.has(m));
  if (!missing.length) return;
  const held = [...d.byMode].map(([mode, f]) => `${f.folder.dir} (${mode})`).join(', ');
  throw new TlabError(
    'usage',
    `program '${d.key}': no DaCe build folder in ${missing.join(', ')} mode (the folders: ${held}; a DaCe library is built in one mode, and SCOPED is always run as the reference): add a folder DaCe built in ${missing.join(', ')} mode to prebuilt, or profile fewer modes (--modes)`,
    { file: path, jsonPath },
  );
}

/**
 * The folder of `mode`, planned at one call's symbol values: the arguments and symbols read off its SDFG by our
 * generator (its lifetimes are the build's, so SCOPED generation keeps them), checked against the build's own
 * signatures, and what the runner calls.
 */
export function planDaceCall(
  d: DaceProgram,
  mode: Mode,
  symbols: Map<string, bigint>,
  defaultSymbol: bigint | null,
): { program: GeneratedProgram; dace: DaceInstance } {
  const { folder } = d.byMode.get(mode)!;
  const analysis = analyze(folder.file, { symbols, defaultSymbol, target: null });
  if (analysis.target === 'gpu' || folder.gpuSources.length) {
    throw new TlabError('unsupported', `${folder.dir} is a GPU DaCe build: profiling workloads runs CPU programs only for now`, {
      file: folder.dir,
    });
  }
  const program = generateProgram(folder.file, analysis, { mode: 'SCOPED', layout: 'dace' });
  const expected = analysis.modes[mode].perCall.allocs;
  return {
    program,
    dace: {
      libraryPath: folder.libraryPath,
      call: callSpec(folder, program),
      expectedAllocationsPerCall: expected === null ? null : Number(expected),
    },
  };
}
