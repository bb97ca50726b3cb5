/**
 * What a stream transient (DaCe's `Stream`: a queue, or an array of queues) allocates, as the generated code's
 * runtime (native/include/transient_stream.h) allocates it: one block per execution of its site, holding a
 * 48-byte header and a first block of `buffer_size` elements (64 when the file says 0) for every queue of its
 * shape. A queue that holds more at once adds 1 KiB blocks at run time, as many as its peak needs (drained
 * blocks are reused): that depends on the data, so it is not in this count (the measured allocations show it).
 */
import type { DataDescriptor } from '../model/sdfg.js';

/** `sizeof(tlab_queue<T>)` in transient_stream.h (a static_assert there keeps them in step). */
const STREAM_HEADER_BYTES = 48;
/** The first block's capacity when buffer_size is 0 (TLAB_STREAM_DEFAULT_CAPACITY). */
const STREAM_DEFAULT_CAPACITY = 64;

/** The initial capacity of each queue, as an expression of the descriptor's symbols. */
export function streamCapacity(desc: DataDescriptor): string {
  const b = (desc.bufferSize ?? '0').trim();
  return b === '0' || b === '' ? String(STREAM_DEFAULT_CAPACITY) : b;
}

/** The bytes of a stream's block, as an expression (already in bytes, not elements). */
export function streamBytesSource(desc: DataDescriptor): string {
  const element = desc.dtype.bytes ?? 8;
  return `(${desc.totalSize}) * (${STREAM_HEADER_BYTES} + (${streamCapacity(desc)}) * ${element})`;
}
