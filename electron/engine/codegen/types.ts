/**
 * What the code generator hands to the build and run stages. One `GeneratedProgram` is one C++ translation
 * unit for one (program, mode, layout, symbol values).
 */
import type { Mode } from '../analysis/types.js';
import type { ExternalLibrary } from '../sdfg/expand/operand.js';

export type Layout = 'dace' | 'packed';

export interface GenerateOptions {
  mode: Mode;
  /** EXTERNAL only: which workspace layout the set functions install. */
  layout: Layout;
  /** GPU programs in POOL mode: the default pool's release threshold set in init (default UINT64_MAX, DaCe's). */
  poolReleaseThreshold?: bigint;
}

/** What a GPU program (a CUDA translation unit, docs/gpu.md) adds. Absent on CPU programs. */
interface GpuProgramInfo {
  /** The source is CUDA C++: compile it with nvcc (`.cu`). */
  language: 'cuda';
  /** Some transient allocates from the stream-ordered pool (POOL mode): init sets the release threshold. */
  pooled: boolean;
  poolReleaseThreshold: bigint;
  /** Kernels launched by the program (one per GPU_Device map). */
  kernels: number;
}

/** One argument of `__program_<n>` in DaCe order (arrays sorted by name, then scalars+symbols sorted). */
export interface ProgramArg {
  name: string;
  kind: 'array' | 'scalar' | 'symbol';
  /** dtype name (`float64`, `int32`, …). */
  dtype: string;
  /** C type used in the signature (`double`, `int`, `int64_t`, …). */
  ctype: string;
  /** Element size in bytes. */
  elementBytes: number;
  /** Arrays: shape evaluated with the program's symbol values (elements per dimension). */
  shape: bigint[];
  /** Arrays: elements to allocate (total_size, may exceed the shape product when padded). */
  totalElements: bigint;
  /** Arrays: strides in elements. */
  strides: bigint[];
  /** Whether the program writes this argument (an output to compare across modes). */
  written: boolean;
  /** Whether the program reads it (an input to fill). */
  read: boolean;
  /** A structure's scalar member that the init code copies into this symbol (codegen/init-args.ts): its input is
   * the symbol's value, so the structure agrees with the symbols as DaCe's Fortran callers have it. */
  fromSymbol?: string;
  /** A DaCe vector argument (codegen/vectors.ts): `dtype`, `shape` and the sizes above describe its elements
   * (one more innermost dimension of `elements`); this is the vector dtype the program declares. */
  vector?: { dtype: string; elements: number };
  /** GPU programs: an array that no kernel dereferences and whose storage is not GPU storage is host memory, as
   * DaCe's caller passes it (host code may read it, e.g. in an interstate edge); every other array argument of a
   * GPU program is device memory (docs/gpu.md, "Memory"). */
  hostMemory?: boolean;
}

interface ExternalSlot {
  /** Transient id (`<sdfgIndex>:<name>`). */
  id: string;
  bytes: bigint;
  /** Offset installed by the library's own set function in the chosen layout. */
  offset: bigint;
}

export interface ExternalStorage {
  storage: string;
  /** The layout the set functions install: `dace` also in EXTERNAL (packed) when the packed layout is
   * incomplete for this storage (GeneratedProgram.warnings says so). */
  layout: Layout;
  /** What `__dace_get_external_memory_size_<storage>` returns for these symbol values. */
  bytes: bigint;
  /** Slot order of `__tlab_set_external_offsets`. */
  slots: ExternalSlot[];
}

export interface GeneratedProgram {
  /** SDFG name; the C identifier used in `__program_<name>`. */
  name: string;
  mode: Mode;
  layout: Layout;
  /** The complete C++17 translation unit (includes transient_runtime.h). */
  source: string;
  /** Arguments of `__program_<name>` / `__tlab_program`, in order. */
  args: ProgramArg[];
  /** Names of the init symbols (`__tlab_init` order); a subset of the symbol args. */
  initSymbols: string[];
  /** Symbol values the program was specialised for (all symbols the generator needed). */
  symbols: Record<string, bigint>;
  /** Index → transient id, for `tlab_alloc`'s transient_index and `AllocEvent.transient`. */
  transientIds: string[];
  externals: ExternalStorage[];
  /** Compile with OpenMP (CPU_Multicore maps present). */
  usesOpenMP: boolean;
  /** Libraries the code calls (blas expansions of library nodes): the build links them (compile/libraries.ts). */
  libraries: ExternalLibrary[];
  /** The program's own floating-point order is not deterministic (parallel WCR reductions): compare
   * outputs across modes within a tolerance rather than bitwise. */
  nondeterministicFloat: boolean;
  /** Transient ids (`<sdfgIndex>:<name>`) kept on the stack (Register storage, locals). They never go through
   * tlab_alloc, so no event names them; `tlab_poison_stack` poisons them whenever poisoning is on, and
   * verification counts them among the candidates of an uninitialised read. */
  stackTransients: string[];
  /** For compiler errors: generated line number → what produced it (JSON path of the SDFG element). */
  lineOrigins: Map<number, string>;
  /** Where the program is not quite what was asked for (e.g. a packed workspace that fell back to DaCe's
   * layout): profile results carry these as warnings. */
  warnings: string[];
  /** GPU programs only. */
  gpu?: GpuProgramInfo;
}

/** Why an SDFG (or part of it) is outside the supported subset. */
export interface UnsupportedFinding {
  jsonPath: string;
  /** The element, e.g. `library node MatMul 'gemm' in state s0`. */
  element: string;
  message: string;
  /** What the user can do, e.g. "expand library nodes in DaCe first (sdfg.expand_library_nodes())". */
  hint: string;
}
