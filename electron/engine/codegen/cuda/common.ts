/** What the CUDA backend's parts share: the stream, the storages that live on the device, the kernel counter. */
import type { Sdfg } from '../../model/sdfg.js';

/** The stream of every allocation, free, copy and kernel: gt4py builds with max_concurrent_streams=-1 (DaCe then
 * uses the legacy default stream, the literal `nullptr`). */
export const CUDA_STREAM = 'nullptr';

/** DaCe's `compiler.cuda.mempool_release_threshold = -1`: the default pool never releases. */
export const UINT64_MAX = (1n << 64n) - 1n;

/** Storage the host allocates on the device (cudaMalloc & co.). GPU_Shared and Register live inside kernels. */
export const isDeviceStorage = (storage: string): boolean => storage === 'GPU_Global';

/** What kernel emission needs from the backend. */
export interface KernelContext {
  /** Storage of a container as the program uses it (Default resolved as the analysis does for transients). */
  storageOf(s: Sdfg, name: string): string;
  /** Next kernel number. */
  nextKernel(): number;
  /** Records that a kernel dereferences program argument `root` (a top-level container name): it must be
   * device memory. */
  noteKernelArgument(root: string): void;
}

/**
 * Whether container `name` of `s` is (through the connectors of every enclosing nested SDFG) a non-transient
 * container of the top-level SDFG: a program argument, which the GPU ABI passes as device memory.
 */
export function isProgramArgument(s: Sdfg, name: string): boolean {
  return programArgumentRoot(s, name) !== null;
}

/** The top-level container that `name` of `s` is, through the connectors of every enclosing nested SDFG, or
 * null when it is not a program argument. */
function programArgumentRoot(s: Sdfg, name: string): string | null {
  for (let sdfg = s, data = name, guard = 0; guard < 1000; guard++) {
    const d = sdfg.arrays.get(data);
    if (!d || d.transient) return null;
    const parent = sdfg.parent;
    if (!parent) return data;
    const edge = parent.state.edges.find(
      (e) =>
        e.memlet.data !== null &&
        ((e.dst === parent.node.id && e.dstConnector === data) || (e.src === parent.node.id && e.srcConnector === data)),
    );
    if (!edge || edge.memlet.data === null) return null;
    sdfg = parent.sdfg;
    data = edge.memlet.data;
  }
  return null;
}

/** Records a program argument that a kernel dereferences (through any nesting): it stays device memory. */
export function noteArgument(backend: KernelContext, s: Sdfg, name: string): void {
  const root = programArgumentRoot(s, name);
  if (root !== null) backend.noteKernelArgument(root);
}
