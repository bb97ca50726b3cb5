export { buildProgram, checkCxxflags, DACE_CUDAFLAGS, DACE_CXXFLAGS, DEFAULT_CUDA_ARCH, isValidEntry, defaultIncludeDir, libsDir, parseCxxflags, RUNTIME_HEADER } from './build.js';
export type { BuildOptions, BuildResult } from './build.js';
export { findCompiler, findNvcc, probeOpenMP } from './compiler.js';
export type { CompilerInfo } from './compiler.js';
export { cacheRoot } from './cache-dir.js';
