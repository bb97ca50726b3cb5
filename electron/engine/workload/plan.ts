/**
 * Planning `profile workload.json` (docs/workload.md, "Profiling"): every call of the sequence analysed with its
 * own symbol values, one instance per (program, symbol values), one generated program per instance and mode, the
 * shared arrays (arguments bound by name, `bind` renames) and their initial bytes. Nothing is compiled or run.
 */
import { readFile } from 'node:fs/promises';
import { analyze } from '../analysis/index.js';
import type { Mode } from '../analysis/types.js';
import { findUnsupported, generateProgram } from '../codegen/index.js';
import type { GeneratedProgram, Layout, ProgramArg } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { withFileErrors } from '../io/fs-errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { fillGenerated, generatorFor, placeNpy } from '../profile/inputs.js';
import type { BuildManifest } from '../profile/manifest.js';
import { readNpy } from '../profile/npy.js';
import { planVariants } from '../profile/plan.js';
import { openPrebuilt } from '../profile/prebuilt.js';
import type { LayoutChoice } from '../profile/result.js';
import { variantLabel } from '../profile/runner-host.js';
import { parseLibraryImpl } from '../sdfg/expand/impl.js';
import { readSdfgFile } from '../sdfg/index.js';
import { checkDaceModes, planDaceCall, readDaceProgram, type DaceInstance, type DaceProgram } from './dace-programs.js';
import { callSymbols, parseWorkload, type Workload } from './schema.js';

interface PlannedInstance {
  /** `hdiff`, or `hdiff@I=256` when a later call runs the program with other symbol values. */
  id: string;
  program: string;
  /** The SDFG file (a prebuilt program's: the folder's copy). */
  sdfgFile: string;
  /** A `prebuilt` program's folder: its libraries are run instead of building the generated programs. */
  prebuilt: { dir: string; manifest: BuildManifest } | null;
  /** Generated program per variant label (a DaCe program's: read off its folder's SDFG, never built). */
  programs: Map<string, GeneratedProgram>;
  /** A program named by DaCe build folders: per variant label, the folder's library to run. */
  dace: Map<string, DaceInstance> | null;
  /** Argument → shared array name (arrays and scalars). */
  binding: Record<string, string>;
  symbols: Record<string, bigint>;
}

export interface WorkloadPlan {
  workload: Workload;
  /** SCOPED first (the reference of the verification), then the other variants in canonical order. */
  variants: Array<{ mode: Mode; layout: Layout | null; label: string }>;
  /** Labels of the variants that are timed (the modes asked for). */
  timed: string[];
  instances: PlannedInstance[];
  /** Per position of one step: the instance it calls. */
  sequence: Array<{ program: string; instance: number; symbols: Record<string, bigint> }>;
  /** Shared arrays: bytes, dtype, and the first argument bound to each (its shape when `--save-outputs` writes it). */
  arrays: Record<string, { bytes: number; dtype: string; arg: ProgramArg }>;
  /** Every shared array's initial bytes (its .npy, or seeded random data). */
  inputs: Record<string, Uint8Array>;
  /** SDFG name of each program key. */
  sdfgNames: Record<string, string>;
  warnings: string[];
}

export interface WorkloadPlanOptions {
  modes: Mode[];
  layout: LayoutChoice;
  /** `--symbols`: override the workload's shared symbols. */
  symbols: Map<string, bigint>;
  defaultSymbol: bigint | null;
  seed: bigint;
}

const argBytes = (a: ProgramArg): number => (a.kind === 'array' ? Number(a.totalElements) : 1) * a.elementBytes;

export async function planWorkload(path: string, opts: WorkloadPlanOptions): Promise<WorkloadPlan> {
  const text = await withFileErrors('input', 'read', path, () => readFile(path, 'utf8'));
  const workload = parseWorkload(text, path);
  for (const [k, v] of opts.symbols) workload.symbols.set(k, v);
  if (!opts.modes.length) throw new TlabError('usage', 'no modes to profile');

  const files = new Map<string, SdfgFile>();
  const folders = new Map<string, { dir: string; manifest: BuildManifest; sdfgPath: string }>();
  const daces = new Map<string, DaceProgram>();
  for (const p of workload.programs.values()) {
    // DaCe build folders (one per mode): their errors name the folder's own JSON path.
    const dace = p.prebuilt !== null ? await readDaceProgram(p, path) : null;
    if (dace) {
      daces.set(p.key, dace);
      continue;
    }
    try {
      if (p.prebuiltFolders.length > 1) {
        throw new TlabError(
          'input',
          'an array in prebuilt names DaCe build folders (one per mode); name a Transient Lab build folder alone',
        );
      }
      if (p.prebuilt !== null) {
        // The folder's own checks (version, SDFG copy unchanged), as `profile --prebuilt` makes them.
        const opened = await openPrebuilt(p.prebuilt);
        folders.set(p.key, { dir: p.prebuilt, manifest: opened.manifest, sdfgPath: opened.sdfgPath });
        files.set(p.key, await readSdfgFile(opened.sdfgPath));
      } else files.set(p.key, await readSdfgFile(p.sdfg!));
    } catch (err) {
      if (err instanceof TlabError)
        throw new TlabError(err.kind, `program at ${p.jsonPath}: ${err.describe()}`, { file: path, jsonPath: p.jsonPath });
      throw err;
    }
  }

  // SCOPED is the reference of every comparison: it always runs, timed only when asked for.
  const modes: Mode[] = opts.modes.includes('SCOPED') ? opts.modes : ['SCOPED', ...opts.modes];
  // A DaCe-built library lays out its own workspace: with one in the workload, every program uses DaCe's layout.
  const layout: LayoutChoice = daces.size ? 'dace' : opts.layout;
  const variants = planVariants(modes, layout).map((v) => ({ ...v, label: variantLabel(v.mode, v.layout) }));
  const timed = variants.filter((v) => opts.modes.includes(v.mode)).map((v) => v.label);
  for (const [key, f] of folders) checkFolderVariants(key, f.dir, f.manifest, variants, path, workload);
  for (const [key, d] of daces) {
    checkDaceModes(
      d,
      variants.map((v) => v.mode),
      path,
      `${workload.programs.get(key)!.jsonPath}.prebuilt`,
    );
  }

  const instances: PlannedInstance[] = [];
  const byKey = new Map<string, number>();
  const sequence: WorkloadPlan['sequence'] = [];
  const warnings: string[] = [...daces.values()].flatMap((d) => d.warnings);
  if (daces.size && opts.layout !== 'dace' && modes.includes('EXTERNAL'))
    warnings.push(
      `EXTERNAL runs in DaCe's workspace layout (EXTERNAL (dace)), not --layout ${opts.layout}: DaCe-built programs (${[...daces.keys()].join(', ')}) lay out their own workspace`,
    );
  const sdfgNames: Record<string, string> = {};
  for (const call of workload.sequence) {
    const program = workload.programs.get(call.program)!;
    const folder = folders.get(call.program) ?? null;
    const daceProgram = daces.get(call.program) ?? null;
    const sdfgFile = daceProgram ? daceProgram.byMode.get('SCOPED')!.folder.sdfgPath : folder ? folder.sdfgPath : program.sdfg!;
    const symbols = callSymbols(workload, call);
    // Errors of the analysis and the generator, said at the sequence entry that asked for these symbols.
    const atCall = <T>(work: () => T): T => {
      try {
        return work();
      } catch (err) {
        if (err instanceof TlabError)
          throw new TlabError(err.kind, `${call.jsonPath} (${call.program}): ${err.message}`, {
            file: path,
            jsonPath: call.jsonPath,
            details: err.details,
          });
        throw err;
      }
    };
    const generated = new Map<string, GeneratedProgram>();
    let daceInstance: Map<string, DaceInstance> | null = null;
    if (daceProgram) {
      daceInstance = new Map();
      for (const v of variants) {
        const planned = atCall(() => planDaceCall(daceProgram, v.mode, symbols, opts.defaultSymbol));
        generated.set(v.label, planned.program);
        daceInstance.set(v.label, planned.dace);
      }
      const ref = generated.get(variants[0]!.label)!;
      for (const [label, g] of generated) {
        const same =
          g.args.length === ref.args.length &&
          g.args.every((a, i) => a.name === ref.args[i]!.name && a.dtype === ref.args[i]!.dtype && argBytes(a) === argBytes(ref.args[i]!));
        if (!same)
          throw new TlabError(
            'input',
            `program '${call.program}': the ${label} folder's program takes other arguments than the SCOPED folder's (at these symbol values): name build folders of one program`,
            { file: path, jsonPath: `${program.jsonPath}.prebuilt` },
          );
      }
    } else {
      const file = files.get(call.program)!;
      // A folder built with other library implementations generates (and was built from) their expansion.
      const libraryImpl = folder?.manifest.libraryImpl === undefined ? {} : { libraryImpl: parseLibraryImpl(folder.manifest.libraryImpl) };
      const analysis = atCall(() => analyze(file, { symbols, defaultSymbol: opts.defaultSymbol, target: null, ...libraryImpl }));
      if (analysis.target === 'gpu') {
        throw new TlabError(
          'unsupported',
          `program '${call.program}' is a GPU program: profiling workloads runs CPU programs only for now`,
          {
            file: path,
            jsonPath: program.jsonPath,
          },
        );
      }
      const findings = findUnsupported(file, analysis.target, analysis.libraryImpl);
      if (findings.length) {
        throw new TlabError('unsupported', `program '${call.program}' is outside the subset Transient Lab can generate code for`, {
          file: sdfgFile,
          jsonPath: findings[0]!.jsonPath,
          details: findings.slice(0, 20).map((f) => `${f.jsonPath}: ${f.element}: ${f.message}`),
        });
      }
      for (const v of variants) {
        generated.set(
          v.label,
          atCall(() => generateProgram(file, analysis, { mode: v.mode, layout: v.layout ?? 'packed' })),
        );
      }
    }
    const reference = generated.get(variants[0]!.label)!;
    if (folder) checkFolderSymbols(call.program, folder.dir, folder.manifest, reference.symbols, path, call.jsonPath);
    sdfgNames[call.program] = reference.name;
    const values = Object.entries(reference.symbols).sort(([a], [b]) => a.localeCompare(b));
    const key = `${call.program}\u0000${values.map(([k, v]) => `${k}=${v}`).join(',')}`;
    let index = byKey.get(key);
    if (index === undefined) {
      const first = instances.find((i) => i.program === call.program);
      const differs = first ? values.filter(([k, v]) => first.symbols[k] !== v).map(([k, v]) => `${k}=${v}`) : [];
      const binding: Record<string, string> = {};
      for (const a of reference.args) if (a.kind !== 'symbol') binding[a.name] = program.bind.get(a.name) ?? a.name;
      for (const arg of program.bind.keys()) {
        if (!(arg in binding))
          throw new TlabError(
            'input',
            `bind: program '${call.program}' has no array or scalar argument '${arg}' (arguments: ${Object.keys(binding).join(', ')})`,
            {
              file: path,
              jsonPath: `${program.jsonPath}.bind.${arg}`,
            },
          );
      }
      index = instances.length;
      instances.push({
        id: first ? `${call.program}@${differs.join(',') || `#${index}`}` : call.program,
        program: call.program,
        sdfgFile,
        prebuilt: folder && { dir: folder.dir, manifest: folder.manifest },
        programs: generated,
        dace: daceInstance,
        binding,
        symbols: reference.symbols,
      });
      byKey.set(key, index);
      for (const g of generated.values()) warnings.push(...g.warnings.map((w) => `${call.program}: ${w}`));
    }
    sequence.push({ program: call.program, instance: index, symbols: reference.symbols });
  }

  const arrays = sharedArrays(instances, variants[0]!.label, path, workload);
  const inputs = await sharedInputs(instances, variants[0]!.label, arrays, workload, opts.seed);
  return { workload, variants, timed, instances, sequence, arrays, inputs, sdfgNames, warnings: [...new Set(warnings)] };
}

/** Every variant the workload runs (SCOPED, its reference, included) must be one of the folder's libraries. */
function checkFolderVariants(
  key: string,
  dir: string,
  manifest: BuildManifest,
  variants: WorkloadPlan['variants'],
  path: string,
  w: Workload,
): void {
  const missing = variants.filter((v) => !manifest.variants.some((m) => m.mode === v.mode && m.layout === v.layout));
  if (!missing.length) return;
  throw new TlabError(
    'usage',
    `program '${key}': the build folder ${dir} has no ${missing.map((v) => v.label).join(', ')} library (it holds ${manifest.variants.map((v) => v.label).join(', ')}; SCOPED is always run as the reference): rebuild it with those modes, or profile fewer`,
    { file: path, jsonPath: `${w.programs.get(key)!.jsonPath}.prebuilt` },
  );
}

/** The folder's code is specialised to the symbol values it was built for: a call must give exactly those. */
function checkFolderSymbols(
  key: string,
  dir: string,
  manifest: BuildManifest,
  symbols: Record<string, bigint>,
  path: string,
  jsonPath: string,
): void {
  const names = [...new Set([...Object.keys(manifest.symbols), ...Object.keys(symbols)])].sort();
  for (const name of names) {
    const built = manifest.symbols[name] === undefined ? undefined : BigInt(manifest.symbols[name]);
    if (built === symbols[name]) continue;
    throw new TlabError(
      'input',
      `program '${key}' runs with ${name}=${symbols[name] ?? '(none)'} here, but the build folder ${dir} was built for ${name}=${built ?? '(none)'} (its code is specialised to its symbol values): rebuild it with transient-lab build --symbols ${name}=${symbols[name] ?? ''}`,
      { file: path, jsonPath },
    );
  }
}

/** One buffer per shared name, as large as the largest argument bound to it; one dtype per name. */
function sharedArrays(instances: PlannedInstance[], label: string, path: string, w: Workload): WorkloadPlan['arrays'] {
  const arrays: WorkloadPlan['arrays'] = {};
  const owner: Record<string, string> = {};
  for (const inst of instances) {
    for (const a of inst.programs.get(label)!.args) {
      if (a.kind === 'symbol') continue;
      const name = inst.binding[a.name]!;
      const known = arrays[name];
      if (known && known.dtype !== a.dtype) {
        throw new TlabError(
          'input',
          `array '${name}' is ${known.dtype} in program '${owner[name]}' but ${a.dtype} in program '${inst.program}' (argument ${a.name}): arguments bound to one array must have one dtype (rename one with bind)`,
          { file: path, jsonPath: w.programs.get(inst.program)!.jsonPath },
        );
      }
      arrays[name] = {
        bytes: Math.max(known?.bytes ?? 0, argBytes(a)),
        dtype: a.dtype,
        arg: known && known.bytes >= argBytes(a) ? known.arg : a,
      };
      owner[name] ??= inst.program;
    }
  }
  return arrays;
}

/** The workload's or program's .npy where one is given (laid out as the first argument bound to the array),
 * seeded random data as `profile` makes it otherwise (the generator keyed by the shared array's name). */
async function sharedInputs(
  instances: PlannedInstance[],
  label: string,
  arrays: WorkloadPlan['arrays'],
  w: Workload,
  seed: bigint,
): Promise<Record<string, Uint8Array>> {
  const inputs: Record<string, Uint8Array> = {};
  const files = new Map<string, string>(w.inputs);
  for (const inst of instances) {
    for (const [arg, file] of w.programs.get(inst.program)!.inputs) files.set(inst.binding[arg] ?? arg, file);
  }
  for (const name of files.keys()) {
    if (!(name in arrays))
      throw new TlabError('input', `inputs: no program has an array or scalar '${name}' (arrays: ${Object.keys(arrays).join(', ')})`, {
        file: w.path,
      });
  }
  for (const [name, { bytes, dtype }] of Object.entries(arrays)) {
    const file = files.get(name);
    const buf = new Uint8Array(bytes);
    if (file) {
      const arg = instances.flatMap((i) =>
        i.programs.get(label)!.args.filter((a) => a.kind !== 'symbol' && i.binding[a.name] === name),
      )[0]!;
      buf.set(placeNpy(arg, await readNpy(file), file));
    } else fillGenerated(dtype, buf, generatorFor(seed, name));
    inputs[name] = buf;
  }
  return inputs;
}
