/**
 * Why the open program cannot be profiled: the code generator's verdict that the analysis view carries (the same
 * as `analyze`'s "Can profile" line). The top bar's Profile button and the form's Run are disabled with it, and
 * the Profile tab says why (ProfileBlocked); while no analysis has arrived yet nothing is blocked (the run itself would still refuse).
 */
import type { ProfileCheck } from '../../../../electron/engine/view/public.js';
import { store } from '../state.js';
import { useSelect } from '../store.js';

type ProfileBlock = Extract<ProfileCheck, { ok: false }>;

export function useProfileBlock(): ProfileBlock | null {
  return useSelect(store, (s) => {
    const pure = s.doc ? s.analysis?.analysis.profile : undefined;
    // Refused for want of blas (Potrf): with blas chosen in the form, blas' own verdict decides.
    const check = pure && !pure.ok && pure.withBlas && s.profileSettings.libraryImpl === 'blas' ? pure.withBlas : pure;
    return check && !check.ok ? check : null;
  });
}

/** The disabled button's tooltip: the first reason, its element and JSON path, and what to do. */
export function profileBlockTitle(b: ProfileBlock): string {
  const more = b.findings > 1 ? ` (and ${b.findings - 1} more finding${b.findings === 2 ? '' : 's'})` : '';
  return `Cannot profile this program: ${b.element}: ${b.message}, at ${b.jsonPath}${more}. ${b.hint}`;
}

type SymbolNeeds = NonNullable<Extract<ProfileCheck, { ok: true }>['needsValues']>;

/** The symbols a build still needs values for (the verdict's `needsValues`): Run waits for them, and the form says so. */
export function useSymbolNeeds(): SymbolNeeds | null {
  return useSelect(store, (s) => {
    const check = s.doc ? s.analysis?.analysis.profile : undefined;
    return check?.ok && check.needsValues ? check.needsValues : null;
  });
}
