export { buildProgram, checkCxxflags, DACE_CXXFLAGS, invalidateEntry, isValidEntry, defaultIncludeDir, libsDir, parseCxxflags, RUNTIME_HEADER } from './build.js';
export type { BuildOptions, BuildResult } from './build.js';
export { findCompiler, probeOpenMP } from './compiler.js';
export type { CompilerInfo } from './compiler.js';
export { cacheRoot } from './cache-dir.js';
