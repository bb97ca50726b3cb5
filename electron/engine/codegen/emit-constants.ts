/**
 * Constants (`constants_prop`) that are also data containers, as DaCe emits them: file-scope constexpr
 * arrays with the values stored in the file, in C order. They are never allocated, so no mode can see them
 * uninitialised.
 */
import { constantLiterals } from './constants.js';
import type { EmitCore } from './core.js';

export function emitConstants(core: EmitCore): void {
  const o = core.out;
  for (const s of core.file.sdfgs) {
    for (const [name, desc] of s.arrays) {
      if (!desc.transient || core.plan.placement(s, name).kind !== 'constant') continue;
      const c = constantLiterals(s, desc, (src) => core.symExpr(src));
      if ('problem' in c)
        throw new Error(`internal: constant '${name}' reached the emitter although the subset check refuses it (${c.problem})`);
      o.mark(desc.jsonPath);
      o.line(`static constexpr ${c.ctype} ${core.constantName(s, name)}[${c.literals.length}] = {${c.literals.join(', ')}};`);
    }
  }
  o.line('');
}
