/**
 * The subset's rules for streams and consume scopes (subset.ts calls them; streams.ts emits what they let
 * through). What is generated: transient CPU streams (one queue per element of the shape), copies that push an
 * array subset into a queue or pop a queue into one, tasklet connectors that pop one element (a memlet of one
 * access) or push (each assignment to a dynamic output; once after the tasklet otherwise), and consume scopes
 * run as one sequential loop popping until the queue is empty. Everything else about streams is a finding here.
 */
import type { ConsumeEntryNode, DataDescriptor, DataflowNode, MemletEdge, Sdfg, StateBlock } from '../model/sdfg.js';
import type { AddFn } from './subset-checks.js';
import { ctypeOf, dtypeLabel } from './names.js';

const STREAM_STORAGE: ReadonlySet<string> = new Set(['Default', 'CPU_Heap', 'Register']);
const CONSUME_SCHEDULES: ReadonlySet<string> = new Set(['Default', 'Sequential', 'CPU_Multicore']);

/** Whether `name` is a stream of `s`. */
function isStreamData(s: Sdfg, name: string | null): boolean {
  return name !== null && s.arrays.get(name)?.type === 'Stream';
}

/** The rules of one Stream descriptor (the whole descriptor check for streams). */
export function checkStreamDescriptor(d: DataDescriptor, element: string, add: AddFn, gpuTarget: boolean): void {
  if (d.storage === 'FPGA_Remote') {
    // SMI streams connect the programs of two ranks of a distributed FPGA program: one rank pushes, the other
    // pops. One program alone would pop what nobody pushes (DaCe's pop waits forever) or push into nothing.
    add(
      d.jsonPath,
      element,
      'storage FPGA_Remote: an SMI stream between ranks of a distributed FPGA program (another rank pushes or pops it), which no single CPU program can run',
      'profile a single-rank CPU version of the program',
    );
    return;
  }
  if (d.storage.startsWith('FPGA')) {
    add(
      d.jsonPath,
      element,
      `storage ${d.storage}: an FPGA channel, which the CPU generator does not emulate`,
      'profile a CPU version of the program',
    );
    return;
  }
  if (gpuTarget || d.storage.startsWith('GPU')) {
    add(d.jsonPath, element, "streams are not supported by the CUDA generator (DaCe's GPUStream)", 'profile a CPU version of the program');
    return;
  }
  if (!d.transient) {
    add(d.jsonPath, element, 'a Stream argument is not supported (the caller would pass a queue object)', 'make the stream transient');
    return;
  }
  if (!STREAM_STORAGE.has(d.storage)) add(d.jsonPath, element, `stream storage ${d.storage} is not supported`, 'use Default storage');
  if (d.lifetime === 'Persistent' || d.lifetime === 'External')
    add(
      d.jsonPath,
      element,
      `a ${d.lifetime} stream is not supported: its queue is allocated at its site, in every mode`,
      'use lifetime Scope or State',
    );
  if (!ctypeOf(d.dtype) || d.dtype.kind !== 'scalar')
    add(d.jsonPath, element, `stream dtype ${dtypeLabel(d.dtype)} is not supported`, 'use a scalar dtype');
}

/** Every memlet of state `b` that names a stream: only the forms streams.ts emits. */
export function checkStreamEdges(s: Sdfg, b: StateBlock, add: AddFn): void {
  const byId = new Map(b.nodes.map((n) => [n.id, n]));
  for (const e of b.edges) {
    if (!isStreamData(s, e.memlet.data)) continue;
    const src = byId.get(e.src);
    const dst = byId.get(e.dst);
    if (!src || !dst) continue;
    const problem = streamEdgeProblem(s, e, src, dst);
    if (problem)
      add(e.jsonPath, `memlet of stream '${e.memlet.data}' in state ${b.label}`, problem, 'read streams in consume scopes or tasklets');
  }
}

function streamEdgeProblem(s: Sdfg, e: MemletEdge, src: DataflowNode, dst: DataflowNode): string | null {
  if (e.memlet.wcr) return 'a write-conflict resolution on a stream is not supported';
  const streamAt = (n: DataflowNode) => n.kind === 'access' && isStreamData(s, n.data);
  if (streamAt(src) && streamAt(dst)) return 'a copy from one stream into another is not supported';
  if (src.kind === 'consume_entry') {
    if (e.srcConnector === 'OUT_stream' && dst.kind !== 'tasklet')
      return 'the consumed element goes to a tasklet only (not to a map, nested SDFG or container)';
    return null;
  }
  if (dst.kind === 'tasklet' && e.memlet.dynamic)
    return 'a dynamic stream input (a tasklet popping a variable number of elements) is not supported';
  if (dst.kind === 'nested_sdfg' || src.kind === 'nested_sdfg') return 'a stream passed to a nested SDFG is not supported';
  if (dst.kind === 'library' || src.kind === 'library') return 'a stream connected to a library node is not supported';
  if (dst.kind === 'map_entry' && e.dstConnector !== null && !e.dstConnector.startsWith('IN_'))
    return 'a stream as a dynamic map range input is not supported';
  return null;
}

/** A consume scope's rules: the input stream, the schedule, no quiescence condition, one element at a time. */
export function checkConsume(s: Sdfg, b: StateBlock, n: ConsumeEntryNode, add: AddFn, gpu: boolean): void {
  const element = `consume scope '${n.label}' in state ${b.label}`;
  const input = b.edges.find((e) => e.dst === n.id && e.dstConnector === 'IN_stream');
  if (!input || !isStreamData(s, input.memlet.data))
    add(n.jsonPath, element, 'the consume scope has no stream at its IN_stream connector', 'check the SDFG with DaCe validate()');
  if (gpu || !CONSUME_SCHEDULES.has(n.schedule))
    add(
      n.jsonPath,
      element,
      `consume schedule ${n.schedule}${gpu ? ' in a GPU program' : ''} is not supported`,
      'use a Default or CPU_Multicore consume scope in a CPU program',
    );
  if (n.condition !== null)
    add(
      n.jsonPath,
      element,
      `a quiescence condition ('${n.condition.slice(0, 60)}') is not supported`,
      'consume until the stream is empty',
    );
  if (n.chunksize !== 1) add(n.jsonPath, element, `chunksize ${n.chunksize} is not supported`, 'consume one element at a time');
  if (n.exitId === null) add(n.jsonPath, element, 'the consume scope has no exit node', 'check the SDFG with DaCe validate()');
}
