/** Shapes of the DaCe-folder reader (docs/dace-folders.md), shared by the engine, the runner and the result. */

/** C types as libffi passes them (native/index.d.ts `DaceCType`; the same names). */
export type DaceCType =
  'pointer' | 'bool' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'float16' | 'float32' | 'float64';

/** What the runner calls through libffi (native/index.d.ts `DaceCallSpec`). */
export interface DaceCallSpec {
  name: string;
  init: DaceCType[];
  program: DaceCType[];
  storages: string[];
}

/** A variant whose library DaCe built: where it came from and how its mode was read. */
export interface DaceVariant {
  call: DaceCallSpec;
  /** The build folder (absolute). */
  folder: string;
  /** sha256 (hex) of the folder's program.sdfgz / program.sdfg. */
  sdfgSha256: string;
  /** Why this folder is this mode (mode.ts). */
  modeReason: string;
  /** "built by DaCe …, <date>, flags …" from the build's CMakeCache; null without one. */
  builtBy: string | null;
  /** Allocations per call the analysis of the folder's SDFG gives in its detected mode (null: unknown): what
   * interposition must see, or say that the library bypasses it (profile/interpose.ts). */
  expectedAllocationsPerCall: number | null;
}
