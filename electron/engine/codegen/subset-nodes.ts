/**
 * The subset check's rules for the nodes of a state, by kind (subset.ts walks the states and calls checkNode on
 * each): library nodes left unexpanded, consume scopes, unknown node types, nested SDFGs, map schedules and
 * ranges, tasklet languages and code, and access nodes (constants written, containers without a descriptor).
 */
import type { DataflowNode, LibraryNode, Sdfg, SdfgFile, StateBlock } from '../model/sdfg.js';
import { EXPANDED_CLASSES, expansionProblem } from '../sdfg/expand/index.js';
import { daceRuntimeFinding } from './dace-runtime.js';
import { ctypeOf, dtypeLabel } from './names.js';
import { checkConsume } from './stream-rules.js';
import {
  HINT,
  DACE_GPU_SYNC,
  DACE_RUNTIME_TOKENS,
  EXTERNAL_LIBRARY_TOKENS,
  daceRejects,
  type AddFn,
  checkCode,
  checkDynamicInputs,
  checkNestedConnectors,
  checkSym,
} from './subset-checks.js';

/** Map schedules of the CPU generator (`Unrolled` exists up to DaCe 1.x and is a plain loop; CPU_Persistent is one
 * OpenMP parallel region, omp-persistent.ts). */
const SUPPORTED_SCHEDULES: ReadonlySet<string> = new Set(['Default', 'Sequential', 'CPU_Multicore', 'Unrolled', 'CPU_Persistent']);
/** What the CUDA generator (codegen/cuda) adds for GPU programs. */
const GPU_SCHEDULES: ReadonlySet<string> = new Set(['GPU_Device', 'GPU_ThreadBlock', 'GPU_Warp', 'GPU_Persistent']);

/** Library nodes with an expansion are expanded before generation (sdfg/expand); others, or those whose
 * memlets the expansion cannot handle, stay library nodes. */
function libraryMessage(file: SdfgFile, n: LibraryNode): string {
  const why = expansionProblem(file, n);
  return why === null
    ? `library node ${n.className} has no expansion here (${EXPANDED_CLASSES.join(', ')} do)`
    : `it cannot be expanded: ${why}`;
}

/** The findings of one node `n` of state `b` in SDFG `s`; `gpu`: the CUDA generator's rules. */
export function checkNode(s: Sdfg, b: StateBlock, n: DataflowNode, file: SdfgFile, add: AddFn, gpu: boolean): void {
  switch (n.kind) {
    case 'library':
      add(
        n.jsonPath,
        `library node ${n.className} '${n.label}' in state ${b.label}`,
        libraryMessage(file, n),
        'expand library nodes in DaCe first (sdfg.expand_library_nodes())',
      );
      break;
    case 'consume_entry':
      checkConsume(s, b, n, add, gpu);
      break;
    case 'unknown':
      add(
        n.jsonPath,
        `${n.type} node '${n.label}' in state ${b.label}`,
        `node type ${n.type} is not supported`,
        'replace the node with tasklets and maps',
      );
      break;
    case 'nested_sdfg':
      if (!n.sdfg)
        add(n.jsonPath, `nested SDFG '${n.label}'`, `the nested SDFG is stored in an external file (${n.extSdfgPath ?? '?'})`, HINT.embed);
      else checkNestedConnectors(n, n.sdfg, b, add);
      for (const v of Object.values(n.symbolMapping)) checkSym(v, file.grammar, n.jsonPath, `nested SDFG '${n.label}' symbol mapping`, add);
      if (
        (n.schedule.startsWith('GPU') && !(gpu && (n.schedule === 'GPU_Default' || GPU_SCHEDULES.has(n.schedule)))) ||
        n.schedule.startsWith('FPGA')
      ) {
        add(n.jsonPath, `nested SDFG '${n.label}'`, `schedule ${n.schedule} is not supported`, HINT.cpuVersion);
      }
      break;
    case 'map_entry': {
      const m = n.map;
      const element = `map '${m.label}' in state ${b.label}`;
      if (!SUPPORTED_SCHEDULES.has(m.schedule) && !(gpu && GPU_SCHEDULES.has(m.schedule))) {
        const gpuSchedule = m.schedule.startsWith('GPU');
        const why = !gpuSchedule
          ? ''
          : gpu
            ? ' by the CUDA generator'
            : ' by the CPU generator (GPU programs are generated with target gpu)';
        add(
          n.jsonPath,
          element,
          `map schedule ${m.schedule} is not supported${why}`,
          gpuSchedule && gpu
            ? 'use GPU_Device maps with GPU_ThreadBlock, GPU_Warp or Sequential inner maps'
            : 'use a Sequential, Default or CPU_Multicore schedule',
        );
      }
      if (m.schedule === 'CPU_Persistent' && m.params.length !== 1)
        add(
          n.jsonPath,
          element,
          `a CPU_Persistent map has one parameter (the OpenMP thread number), not ${m.params.length}`,
          'give the map one parameter',
        );
      checkDynamicInputs(s, b, n, element, add);
      if (n.exitId === null) add(n.jsonPath, element, 'the map has no exit node', HINT.validate);
      if (m.range.length !== m.params.length) add(n.jsonPath, element, 'map range and parameters differ in length', HINT.validate);
      for (const r of m.range) {
        if (r.tile.trim() !== '1')
          add(n.jsonPath, element, `tiled map ranges (tile ${r.tile}) are not supported`, 'remove the tile from the map range');
        [r.start, r.end, r.step].forEach((x) => checkSym(x, file.grammar, n.jsonPath, element, add));
      }
      break;
    }
    case 'tasklet': {
      const element = `tasklet '${n.label}' in state ${b.label}`;
      const lang = n.code.language;
      if (lang === 'Python') checkCode(n.code.code, 'statements', n.jsonPath, element, add);
      else if (lang === 'CPP') {
        const m = DACE_RUNTIME_TOKENS.exec(gpu ? n.code.code.replace(DACE_GPU_SYNC, '') : n.code.code);
        if (m?.[1] === 'pipe.') {
          // DaCe's experimental CUDA codegen declares `pipe` (cuda::make_pipeline) only for pipelines listed in
          // the SDFG's metadata; nothing in the SDFG declares it otherwise (docs/gpu.md, coverage).
          add(
            n.jsonPath,
            element,
            `the C++ code calls the cuda::pipeline object 'pipe' ('${n.code.code.trim().slice(0, 60)}'), which no container of the SDFG declares`,
            'express the copies as memlets; asynchronous pipelines are not generated',
          );
        } else if (m) {
          const f = daceRuntimeFinding('the C++ code', n.code.code, m[1]!);
          add(n.jsonPath, element, f.message, f.hint);
        } else if (EXTERNAL_LIBRARY_TOKENS.test(n.code.code))
          add(
            n.jsonPath,
            element,
            `the C++ code calls ONNX Runtime ('${EXTERNAL_LIBRARY_TOKENS.exec(n.code.code)![1]}'), which generated code does not link`,
            HINT.expandOnnx,
          );
      } else add(n.jsonPath, element, `${lang} tasklets are not supported`, 'write the tasklet in Python or C++');
      for (const extra of [n.codeGlobal, n.codeInit, n.codeExit]) {
        if (extra && extra.code.trim())
          add(n.jsonPath, element, 'tasklet global/init/exit code is not supported', 'move the code into the tasklet body');
      }
      for (const [c, t] of [...Object.entries(n.inConnectors), ...Object.entries(n.outConnectors)]) {
        // Pointer connectors (DaCe's C frontend) point into the connected container: their element type must be one.
        if (t && !ctypeOf(t.kind === 'pointer' ? t.base : t))
          add(n.jsonPath, element, `connector ${c} has type ${dtypeLabel(t)}, which is not supported`, 'use scalar connector types');
      }
      break;
    }
    case 'access':
      if (s.constants.has(n.data) && b.edges.some((e) => e.dst === n.id && e.memlet.data !== null)) {
        // Constants are compile-time data (constexpr in DaCe's code): a write cannot compile there either.
        add(
          n.jsonPath,
          `access node '${n.data}'`,
          `'${n.data}' is a constant (constants_prop) but is written here`,
          'remove the write or the constant in DaCe',
        );
      } else if (!s.arrays.has(n.data))
        add(
          n.jsonPath,
          `access node '${n.data}'`,
          daceRejects(`Node validation failed: Array "${n.data}" not found in SDFG`, `no descriptor named '${n.data}'`),
          HINT.daceRejects,
        );
      break;
    default:
      break;
  }
}
