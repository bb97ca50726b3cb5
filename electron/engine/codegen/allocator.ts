/** How generated code allocates one buffer: the interface between memory.ts and each storage's allocator. */

/** One buffer as the allocator statements see it. */
export interface AllocationCode {
  /** The pointer variable or state field that receives the buffer (points at the data, after any pre-padding). */
  ptr: string;
  ctype: string;
  /** C++ expression of the byte count (without pre-padding, as DaCe counts it). */
  bytes: string;
  alignment: number;
  /** Index into GeneratedProgram.transientIds: the tag of the runtime's allocation events. */
  index: number;
  /** DaCe's `start_offset`: elements of pre-padding in front of the data. */
  startOffset: number;
}

/** How one storage type's buffers are allocated, freed and zeroed. */
export interface StorageAllocator {
  allocate(a: AllocationCode): string[];
  free(a: AllocationCode): string[];
  zero(a: AllocationCode): string[];
}
