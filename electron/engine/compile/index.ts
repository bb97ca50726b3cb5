export { buildProgram, DACE_CUDAFLAGS, DACE_CXXFLAGS, DEFAULT_CUDA_ARCH, libsDir, parseCxxflags } from './build.js';
export type { BuildOptions, BuildResult, GpuBackend } from './build.js';
export { findCompiler, findNvcc } from './compiler.js';
