/**
 * Structures (DaCe's `Structure`/`StructureView`) in generated code, as DaCe's code generator has them: each
 * structure type is a C `struct` (scalar members by value, array members as `T *`, nested structures as
 * pointers), a structure container is a pointer to one, and a member path `a.b.c` is `a->b->c`.
 *
 * The generator sees member paths through two look-ups that resolve dotted names, as DaCe's `SDFG.arrays`
 * (a `NestedDict`) does: `StructArrays` (descriptors) and `Containers` (C++ expressions). Iteration over
 * both stays top-level, so nothing else of the generator counts a member as a container of its own.
 *
 * The runner's ABI (`__tlab_program`'s flat argv) is unchanged: a structure argument is passed as its leaves,
 * one argument per array member (`config.weights`) and per scalar member (a one-element array, so that a
 * member the program writes comes back), and the trampoline assembles the struct instances before it calls
 * `__program_<n>` with DaCe's own signature (one pointer per structure), then copies scalar members back.
 */
import type { DataDescriptor, SdfgFile } from '../model/sdfg.js';
import type { EmitCore } from './core.js';
import { cppIdent, ctypeOf, elementPointerDtype, structDtype } from './names.js';

const STRUCTURE_TYPES: ReadonlySet<string> = new Set(['Structure', 'StructureView', 'StructureReference']);

export const isStructureType = (type: string): boolean => STRUCTURE_TYPES.has(type);

/** Splits `a.b.c` into the container `a` and the member names. */
function splitPath(name: string): [string, string[]] {
  const parts = name.split('.');
  return [parts[0]!, parts.slice(1)];
}

/** The member descriptor a path names under a structure descriptor, or undefined. */
function memberOf(desc: DataDescriptor | undefined, members: string[]): DataDescriptor | undefined {
  let d = desc;
  for (const m of members) {
    if (!d || !d.members) return undefined;
    d = d.members.find((x) => x.name === m);
  }
  return d;
}

/** An SDFG's descriptors, where `get`/`has` also resolve member paths (`a.b`), as DaCe's NestedDict. */
class StructArrays extends Map<string, DataDescriptor> {
  override get(name: string): DataDescriptor | undefined {
    const own = super.get(name);
    if (own || !name.includes('.')) return own;
    const [head, members] = splitPath(name);
    return memberOf(super.get(head), members);
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}

/**
 * A member path as code writes it (`ptr_patch[0].edges.quad_idx`: DaCe's Fortran frontend indexes the
 * one-element structure; `ptr_patch->edges.end_index`: it also writes C's arrow) as a container name
 * (`ptr_patch.edges.quad_idx`). Only a structure has members, so `[0].` can only index one.
 */
export function memberPath(text: string): string {
  return text.includes('[0].') || text.includes('->') ? text.replace(/\[0\]\./g, '.').replace(/->/g, '.') : text;
}

/** Container name → C++ pointer expression, where a member path resolves through its structure. */
export class Containers extends Map<string, string> {
  constructor(
    private readonly arrays: Map<string, DataDescriptor>,
    entries?: Iterable<readonly [string, string]>,
  ) {
    super(entries);
  }

  override get(name: string): string | undefined {
    const own = super.get(name);
    if (own !== undefined || !name.includes('.')) return own;
    const [head, members] = splitPath(name);
    let expr = super.get(head);
    let d = this.arrays.get(head);
    if (expr === undefined || !d) return undefined;
    for (const [i, m] of members.entries()) {
      const next = memberOf(d, [m]);
      if (!next) return undefined;
      // Containers are pointers: a scalar member (by value in its struct) is reached by its address.
      const last = i === members.length - 1;
      expr = last && next.type === 'Scalar' ? `(&${expr}->${cppIdent(m)})` : `${expr}->${cppIdent(m)}`;
      d = next;
    }
    return expr;
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  copy(): Containers {
    return new Containers(this.arrays, this);
  }
}

const lowered = new WeakMap<SdfgFile, SdfgFile>();

function hasStructures(file: SdfgFile): boolean {
  return file.sdfgs.some((s) => [...s.arrays.values()].some((d) => d.members !== null || d.type === 'ContainerArray'));
}

/**
 * The file as the generator reads it: descriptor maps that resolve member paths, and structure descriptors
 * whose dtype is their struct type. A copy, made once per file, only when it has structures (the file as
 * parsed, which the analysis and the views read, is never changed).
 */
export function withStructures(file: SdfgFile): SdfgFile {
  const known = lowered.get(file);
  if (known) return known;
  let result = file;
  if (hasStructures(file)) {
    result = structuredClone(file);
    for (const s of result.sdfgs) {
      for (const d of s.arrays.values()) retypeStructures(d);
      (s as { arrays: Map<string, DataDescriptor> }).arrays = new StructArrays(s.arrays);
    }
  }
  lowered.set(file, result);
  lowered.set(result, result);
  return result;
}

function retypeStructures(d: DataDescriptor): void {
  if (d.stype) {
    // A container array holds pointers to its elements (DaCe: `pointer(stype.dtype)`).
    retypeStructures(d.stype);
    const element = ctypeOf(d.stype.dtype);
    if (element) d.dtype = elementPointerDtype(element);
    return;
  }
  if (!isStructureType(d.type)) return;
  const pointee = d.dtype.kind === 'pointer' ? d.dtype.base : d.dtype;
  const name = pointee && pointee.kind === 'struct' ? pointee.name : d.name;
  d.dtype = structDtype(name);
  for (const m of d.members ?? []) retypeStructures(m);
}

/** One C struct type: its name and member declarations. */
interface StructDecl {
  name: string;
  fields: string[];
  jsonPath: string;
}

/**
 * Why a structure's member cannot be generated (null: it can): only scalar members, arrays of a scalar C
 * type and nested structures are laid out.
 */
export function memberProblem(m: DataDescriptor): string | null {
  if (m.type === 'Scalar' || m.type === 'Array') return ctypeOf(m.dtype) ? null : `member '${m.name}' has an unsupported dtype`;
  if (m.type === 'Structure') return null;
  if (m.type === 'ContainerArray') {
    const e = m.stype;
    if (e?.type === 'Structure' || (e?.type === 'Array' && ctypeOf(e.dtype))) return null;
    return `member '${m.name}' is a container array of ${e ? e.type : 'unknown elements'}, which is not supported (only of structures and arrays)`;
  }
  return `member '${m.name}' is a ${m.type}, which is not supported in structures`;
}

/** The C struct declarations of every structure type the file uses, members' types first. */
function structDeclarations(file: SdfgFile): { decls: StructDecl[]; conflicts: StructDecl[] } {
  const byName = new Map<string, StructDecl>();
  const conflicts: StructDecl[] = [];
  const visit = (d: DataDescriptor): void => {
    if (d.stype) visit(d.stype);
    if (!isStructureType(d.type)) return;
    const members = d.members ?? [];
    for (const m of members) visit(m);
    const name = d.dtype.kind === 'struct' ? ctypeOf(d.dtype) : null;
    if (!name) return;
    const fields = members.map((m) => {
      const c = ctypeOf(m.dtype);
      const field = cppIdent(m.name);
      return m.type === 'Scalar' ? `${c} ${field};` : `${c} *${field};`;
    });
    const known = byName.get(name);
    if (!known) byName.set(name, { name, fields, jsonPath: d.jsonPath });
    else if (known.fields.join() !== fields.join()) conflicts.push({ name, fields, jsonPath: d.jsonPath });
  };
  for (const s of file.sdfgs) for (const d of s.arrays.values()) visit(d);
  return { decls: [...byName.values()], conflicts };
}

/** One leaf of a structure argument: an array member, or a scalar member passed as a one-element array. */
export interface StructLeaf {
  /** Member path from the argument (`config.weights`). */
  path: string;
  desc: DataDescriptor;
}

/** Elements of a container array (its total size over the program's symbol values). */
export type ElementCount = (d: DataDescriptor) => number;

/**
 * The leaves of structure argument `name`, in member order (depth first); element `k` of a container array
 * member `m` is `name.m.k`.
 */
export function structLeaves(name: string, desc: DataDescriptor, count: ElementCount): StructLeaf[] {
  const out: StructLeaf[] = [];
  const leaf = (path: string, m: DataDescriptor): void => {
    if (m.type === 'Structure') walk(path, m);
    else if (m.type === 'ContainerArray' && m.stype) for (let k = 0; k < count(m); k++) leaf(`${path}.${k}`, m.stype);
    else out.push({ path, desc: m });
  };
  const walk = (prefix: string, d: DataDescriptor) => {
    for (const m of d.members ?? []) leaf(`${prefix}.${m.name}`, m);
  };
  walk(name, desc);
  return out;
}

/**
 * Trampoline lines that build structure argument `name` from `argv` (leaf `k` is `argv[first + k]`):
 * one local instance per struct, members set from the leaves, nested structures linked by address.
 * Returns the lines before the call, the lines after it (scalar members copied back) and the pointer.
 */
export function assembleStruct(
  name: string,
  desc: DataDescriptor,
  first: number,
  count: ElementCount,
): { before: string[]; after: string[]; pointer: string } {
  const before: string[] = [];
  const after: string[] = [];
  let next = first;
  let counter = 0;
  const build = (d: DataDescriptor): string => {
    const local = `__tlab_struct_${cppIdent(name)}_${counter++}`;
    before.push(`${ctypeOf(d.dtype)} ${local}{};`);
    for (const m of d.members ?? []) {
      const field = `${local}.${cppIdent(m.name)}`;
      if (m.type === 'Structure') before.push(`${field} = &${build(m)};`);
      else if (m.type === 'ContainerArray' && m.stype) {
        const e = m.stype;
        const n = count(m);
        const ptrs = `${local}_${cppIdent(m.name)}`;
        before.push(`${ctypeOf(m.dtype)} ${ptrs}[${Math.max(n, 1)}] = {};`);
        for (let k = 0; k < n; k++)
          before.push(
            e.type === 'Structure'
              ? `${ptrs}[${k}] = &${build(e)};`
              : `${ptrs}[${k}] = static_cast<${ctypeOf(e.dtype)} *>(__argv[${next++}]);`,
          );
        before.push(`${field} = ${ptrs};`);
      } else if (m.type === 'Scalar') {
        const ptr = `static_cast<${ctypeOf(m.dtype)} *>(__argv[${next++}])`;
        before.push(`${field} = *${ptr};`);
        after.push(`*${ptr} = ${field};`);
      } else before.push(`${field} = static_cast<${ctypeOf(m.dtype)} *>(__argv[${next++}]);`);
    }
    return local;
  };
  const root = build(desc);
  return { before, after, pointer: `&${root}` };
}

/** The file's struct types, forward-declared first (members are pointers to structs, so any order compiles). */
export function emitStructTypes(core: EmitCore): void {
  const { decls, conflicts } = structDeclarations(core.file);
  if (decls.length === 0) return;
  const o = core.out;
  for (const c of conflicts)
    core.findings.push({
      jsonPath: c.jsonPath,
      element: `structure type ${c.name}`,
      message: `two structures named ${c.name} have different members`,
      hint: 'give each structure type its own name in DaCe',
    });
  for (const d of decls) o.line(`struct ${d.name};`);
  for (const d of decls) {
    o.mark(d.jsonPath);
    o.open(`struct ${d.name}`);
    for (const f of d.fields) o.line(f);
    o.close('};');
  }
  o.line('');
}
