/**
 * Lower-bound symbols of DaCe's Fortran frontend (docs/profile.md, "Symbols of Fortran programs").
 *
 * The frontend cannot know the lower bound of an array whose bounds the caller decides, so it names it by a
 * symbol: `__f2dace_OA_<array>_d_<dim>_s_<n>` for an assumed-shape argument (with `__f2dace_A_…` for its
 * size), `__f2dace_SOA_<member>_d_<dim>_s_<n>` for a structure member (`lbound(x%member, dim + 1)` in its
 * serialiser; `__f2dace_SA_…` is the size). Indices into such arrays read `i - SOA`. DaCe's own tests pass 1
 * for every OA symbol, its configuration injections fix each SOA it knows to 1, and files that went through
 * DaCe's name shortening keep the names without the prefix (`OA_z_kin_hor_e_d_0`, `SOA_area_d_0_cells_p_2`,
 * a member's `__CG_p_diag__m_SOA_vt_d_1`).
 *
 * A size symbol defaulted to V is a plausible size; a lower bound defaulted to V shifts every access by V - 1
 * and sends it out of its array. So where --default-symbol gives values, a lower-bound symbol the user did not
 * give takes Fortran's default lower bound, 1.
 */

/** Fortran's lower bound of a dimension declared without one. */
const FORTRAN_DEFAULT_LOWER_BOUND = 1n;

const LOWER_BOUND_SYMBOL = /^(?:__f2dace_)?S?OA_\w+_d_\d+(?:_\w*)?$|__m_S?OA_\w+_d_\d+(?:_\w*)?$/;

/** Whether `name` is one of the Fortran frontend's lower-bound symbols. */
export function isFortranLowerBound(name: string): boolean {
  return LOWER_BOUND_SYMBOL.test(name);
}

/** The value --default-symbol gives `name` (null: none given). */
export function defaultSymbolValue(name: string, defaultSymbol: bigint | null): bigint | null {
  if (defaultSymbol === null) return null;
  return isFortranLowerBound(name) ? FORTRAN_DEFAULT_LOWER_BOUND : defaultSymbol;
}
