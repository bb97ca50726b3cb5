/**
 * The build's signatures against the SDFG's arguments (docs/dace-folders.md). The FFI call uses the build's
 * types; the inputs come from the SDFG's descriptors (shapes, dtypes). Both must describe one function, or the
 * call would pass wrong registers: any difference is refused with both signatures shown.
 */
import type { GeneratedProgram, ProgramArg } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import type { DaceFolder } from './folder.js';
import { signatureText, type CFunction, type CParam } from './header.js';
import type { DaceCallSpec, DaceCType } from './types.js';

const BY_DTYPE: Record<string, DaceCType> = {
  bool: 'bool',
  int8: 'int8',
  uint8: 'uint8',
  int16: 'int16',
  uint16: 'uint16',
  int32: 'int32',
  uint32: 'uint32',
  int64: 'int64',
  uint64: 'uint64',
  float16: 'float16',
  float32: 'float32',
  float64: 'float64',
};

function expected(arg: Pick<ProgramArg, 'name' | 'kind' | 'dtype' | 'ctype'>): CParam {
  if (arg.kind === 'array') return { name: arg.name, text: `${arg.ctype} *`, type: 'pointer' };
  return { name: arg.name, text: arg.ctype, type: BY_DTYPE[arg.dtype] ?? null };
}

const same = (a: CParam[], b: CParam[]) => a.length === b.length && a.every((p, i) => p.name === b[i]!.name && p.type === b[i]!.type);

function refuse(folder: DaceFolder, fn: string, built: CFunction, fromSdfg: CFunction, returns: string): never {
  const rel = folder.signatureFile.slice(folder.dir.length + 1);
  throw new TlabError('input', `${rel} and ${folder.sdfgPath.slice(folder.dir.length + 1)} disagree on ${fn}`, {
    file: folder.dir,
    details: [`${rel}: ${signatureText(built, returns)}`, `the SDFG: ${signatureText(fromSdfg, returns)}`],
  });
}

/** Checks the build's init and program signatures against `program` (generated from the folder's SDFG) and
 * returns what the runner calls. */
export function callSpec(folder: DaceFolder, program: GeneratedProgram): DaceCallSpec {
  const [state, ...params] = folder.program.params;
  if (!state || state.type !== 'pointer') {
    throw new TlabError('input', `__program_${folder.name} does not take the state pointer first`, { file: folder.signatureFile });
  }
  for (const p of [...params, ...folder.init.params]) {
    if (p.type === null) {
      throw new TlabError('input', `parameter ${p.name} has type '${p.text}', which Transient Lab cannot pass by value through libffi`, {
        file: folder.signatureFile,
      });
    }
  }
  const sdfgProgram: CFunction = { name: folder.program.name, params: [state, ...program.args.map(expected)] };
  if (!same(params, sdfgProgram.params.slice(1))) refuse(folder, folder.program.name, folder.program, sdfgProgram, 'void');
  const byName = new Map(program.args.map((a) => [a.name, a]));
  const sdfgInit: CFunction = {
    name: folder.init.name,
    params: program.initSymbols.map((n) => expected(byName.get(n) ?? { name: n, kind: 'symbol', dtype: 'int32', ctype: 'int' })),
  };
  if (!same(folder.init.params, sdfgInit.params)) refuse(folder, folder.init.name, folder.init, sdfgInit, `${folder.name}Handle_t`);
  return {
    name: folder.name,
    init: folder.init.params.map((p) => p.type!),
    program: params.map((p) => p.type!),
    storages: folder.storages,
  };
}
