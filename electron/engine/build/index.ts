export { buildProgram, invalidateEntry, isValidEntry, defaultIncludeDir, libsDir, RUNTIME_HEADER } from './build.js';
export type { BuildOptions, BuildResult } from './build.js';
export { findCompiler, probeOpenMP } from './compiler.js';
export type { CompilerInfo } from './compiler.js';
export { cacheRoot } from './cache-dir.js';
