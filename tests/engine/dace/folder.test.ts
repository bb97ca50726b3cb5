/** DaCe build folders: the header parser, the folder reader, mode detection and the signature check. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtByLine } from '../../../electron/engine/dace/built-by.js';
import { folderBuiltBy, readDaceFolder } from '../../../electron/engine/dace/folder.js';
import { externalStorages, findFunction } from '../../../electron/engine/dace/header.js';
import { detectMode } from '../../../electron/engine/dace/mode.js';
import { callSpec } from '../../../electron/engine/dace/signature.js';
import { examplesDir } from '../../../electron/engine/paths.js';
import { planProfile } from '../../../electron/engine/profile/plan.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { makeDaceFolder } from '../../fixtures/dace-folders.js';

const hdiff = join(examplesDir(), 'hdiff.sdfg');
const symbols = new Map([
  ['I', 8n],
  ['J', 8n],
  ['K', 4n],
]);

describe('header.ts: DaCe C prototypes', () => {
  it('reads a header as DaCe writes it (restrict, long long, a commented-out decoy)', () => {
    const text = `#include <dace/dace.h>
typedef void * parallelHandle_t;
// extern "C" void __program_parallel(parallelHandle_t handle, float *x);
extern "C" parallelHandle_t __dace_init_parallel(long long I, long long J, long long K);
extern "C" void __program_parallel(parallelHandle_t handle, double * __restrict__ u_pos, const double *w, long long I, double dtr_stage, dace::float16 h, unsigned int u, bool b);`;
    const p = findFunction(text, '__program_parallel');
    expect(p).toEqual({
      name: '__program_parallel',
      params: [
        { name: 'handle', text: 'parallelHandle_t', type: 'pointer' },
        { name: 'u_pos', text: 'double *', type: 'pointer' },
        { name: 'w', text: 'double *', type: 'pointer' },
        { name: 'I', text: 'long long', type: 'int64' },
        { name: 'dtr_stage', text: 'double', type: 'float64' },
        { name: 'h', text: 'dace::float16', type: 'float16' },
        { name: 'u', text: 'unsigned int', type: 'uint32' },
        { name: 'b', text: 'bool', type: 'bool' },
      ],
    });
    expect(findFunction(text, '__dace_init_parallel')).toMatchObject({ params: [{ type: 'int64' }, { type: 'int64' }, { type: 'int64' }] });
    expect(findFunction(text, '__dace_exit_parallel')).toBeNull();
  });

  it('finds the External pairs DACE_EXPORTED in the frame code, not declarations elsewhere', () => {
    const cpp = `DACE_EXPORTED size_t __dace_get_external_memory_size_CPU_Heap(x_state_t *__state, int N)\n{ return 8 * N; }
/* DACE_EXPORTED size_t __dace_get_external_memory_size_GPU_Global(x_state_t *__state) */
DACE_EXPORTED void __dace_set_external_memory_CPU_Heap(x_state_t *__state, char *ptr, int N) {}`;
    expect(externalStorages(cpp)).toEqual(['CPU_Heap']);
  });
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-dace-folder-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readDaceFolder + detectMode + callSpec', () => {
  it.each([
    ['SCOPED', /no Persistent, External or pooled transient/],
    ['PERSISTENT', /Persistent transients \(.*\), allocated in init/],
    ['EXTERNAL', /External transients \(.*\); exports __dace_get_external_memory_size_CPU_Heap/],
  ] as const)('a %s build is read as %s from its SDFG and exports, whatever the folder is called', async (mode, reason) => {
    const folder = await makeDaceFolder(hdiff, join(dir, `misleading-name-${mode === 'SCOPED' ? 'EXTERNAL' : 'SCOPED'}`), {
      mode,
      symbols,
      library: 'int x;',
    });
    const f = await readDaceFolder(folder);
    expect(f.name).toBe('hdiff');
    expect(f.signatureFile).toBe(join(folder, 'include', 'hdiff.h'));
    expect(f.storages).toEqual(mode === 'EXTERNAL' ? ['CPU_Heap'] : []);
    const detected = detectMode(f);
    expect(detected.mode).toBe(mode);
    expect(detected.reason).toMatch(reason);
    expect(builtByLine(f.builtBy)).toMatch(
      /^built by DaCe 2\.0\.0a6, \d{4}-\d\d-\d\d, Release, g\+\+, flags -std=c\+\+17 -fPIC -O3 -march=native$/,
    );
    const plan = await planProfile(f.sdfgPath, { modes: ['SCOPED'], layout: 'dace', calls: 1, symbols, defaultSymbol: null });
    expect(callSpec(f, plan.variants[0]!.program)).toEqual({
      name: 'hdiff',
      init: ['int32', 'int32', 'int32'],
      program: ['pointer', 'pointer', 'pointer', 'int32', 'int32', 'int32'],
      storages: mode === 'EXTERNAL' ? ['CPU_Heap'] : [],
    });
  });

  it('reads program.sdfgz (DaCe 2.0) and the older layout without include/ (signatures from src/cpu)', async () => {
    const folder = await makeDaceFolder(hdiff, join(dir, 'old'), { mode: 'SCOPED', symbols, header: false, gzip: true, library: 'int x;' });
    const f = await readDaceFolder(folder);
    expect(f.sdfgPath).toBe(join(folder, 'program.sdfgz'));
    expect(f.signatureFile).toBe(join(folder, 'src', 'cpu', 'hdiff.cpp'));
    expect(f.program.params.map((p) => p.name)).toEqual(['__state', 'coeff', 'in_field', 'out_field', 'I', 'J', 'K']);
  });

  it('refuses a header that disagrees with the SDFG, showing both signatures', async () => {
    const folder = await makeDaceFolder(hdiff, join(dir, 'wrong-header'), {
      mode: 'SCOPED',
      symbols,
      library: 'int x;',
      editHeader: (t) =>
        t
          .replace(/int K\);\nextern "C" int __dace_exit/, 'long long K);\nextern "C" int __dace_exit')
          .replace(', int K)', ', long long K)'),
    });
    const f = await readDaceFolder(folder);
    const plan = await planProfile(f.sdfgPath, { modes: ['SCOPED'], layout: 'dace', calls: 1, symbols, defaultSymbol: null });
    let error: unknown;
    try {
      callSpec(f, plan.variants[0]!.program);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TlabError);
    const text = (error as TlabError).describe();
    expect(text).toMatch(/include\/hdiff\.h and program\.sdfg disagree on __program_hdiff/);
    expect(text).toMatch(/include\/hdiff\.h: void __program_hdiff\(hdiffHandle_t handle, double \*coeff, .* long long K\)/);
    expect(text).toMatch(/the SDFG: void __program_hdiff\(hdiffHandle_t handle, double \*coeff, .* int K\)/);
  });

  it('says what is missing: no SDFG, no library, no signatures, an SDFG and exports that disagree', async () => {
    await expect(readDaceFolder(join(dir, 'nope'))).rejects.toThrow(/cannot open the DaCe build folder/);
    await expect(readDaceFolder(dir)).rejects.toThrow(/no program\.sdfgz or program\.sdfg here: not a DaCe build folder/);
    const noLib = await makeDaceFolder(hdiff, join(dir, 'no-lib'), { mode: 'SCOPED', symbols, noLibrary: true });
    await expect(readDaceFolder(noLib)).rejects.toThrow(/no libhdiff\.so in build\/, build\/<config>\/ or the folder itself/);
    const bare = await makeDaceFolder(hdiff, join(dir, 'bare'), { mode: 'SCOPED', symbols, header: false, library: 'int x;' });
    await rm(join(bare, 'src'), { recursive: true });
    await expect(readDaceFolder(bare)).rejects.toThrow(/neither include\/hdiff\.h nor src\/cpu\/hdiff\.cpp is here/);
    const ext = await makeDaceFolder(hdiff, join(dir, 'ext-no-fns'), { mode: 'EXTERNAL', symbols, library: 'int x;' });
    await writeFile(join(ext, 'src', 'cpu', 'hdiff.cpp'), '// the External pair is gone\n');
    await expect(readDaceFolder(ext).then(detectMode)).rejects.toThrow(
      /the SDFG has External transients in CPU_Heap .* but the build's sources define no __dace_get_external_memory_size_CPU_Heap/,
    );
  });

  it('says what the build does not record: the version from the SDFG, else "version unknown"; no CMake cache', async () => {
    const folder = await makeDaceFolder(hdiff, join(dir, 'built-by'), { mode: 'SCOPED', symbols, library: 'int x;' });
    const cache = join(folder, 'build', 'CMakeCache.txt');
    await writeFile(cache, 'CMAKE_BUILD_TYPE:STRING=\nCMAKE_CXX_COMPILER:FILEPATH=/opt/bin/clang++\n');
    expect(await folderBuiltBy(folder, 'hdiff', null)).toMatch(
      /^built by DaCe: version unknown, \d{4}-\d\d-\d\d, build type not recorded, clang\+\+, no flags recorded$/,
    );
    expect(await folderBuiltBy(folder, 'hdiff', '1.0.2')).toMatch(/^built by DaCe 1\.0\.2 \(the SDFG's dace_version\), /);
    await rm(cache);
    expect(await folderBuiltBy(folder, 'hdiff', null)).toMatch(
      /^built by DaCe: version unknown, \d{4}-\d\d-\d\d, no build\/CMakeCache\.txt: build type, compiler and flags unknown$/,
    );
    // The reader takes the SDFG's dace_version when the cache has none.
    const f = await readDaceFolder(folder);
    expect(builtByLine(f.builtBy)).toMatch(
      f.file.daceVersion ? /^built by DaCe \S+ \(the SDFG's dace_version\)/ : /^built by DaCe: version unknown/,
    );
  });
});
