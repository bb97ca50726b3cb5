/**
 * What a code block or C++ tasklet that uses DaCe's runtime needs, said precisely (subset.ts refuses them).
 *
 * `__state` is DaCe's per-program state struct (`<name>_state_t`). The generator has one too, with its own
 * fields (persistent transients, external-memory pointers); a block that reads a field DaCe's code generator
 * adds for another feature cannot compile against it. The commonest in the corpus are DaCe's MPI process grids
 * (`sdfg._pgrids`, `_subarrays`, `_rdistrarrays`: `__state->__pgrid_0_comm`, set up with `MPI_Cart_create` in
 * the init code and used by the MPI library nodes' tasklets): an MPI program, which needs several processes and
 * an MPI library, neither of which a profile run has.
 */

const MPI_CALL = /\bMPI_[A-Za-z_]+/;
const DISTRIBUTED_FIELD = /__state->(__(?:pgrid|subarray|rdistrarray)_\d+\w*)/;
const STATE_FIELD = /__state->(\w+)/;

/** The finding's message and hint for code in which DACE_RUNTIME_TOKENS matched `token`. */
export function daceRuntimeFinding(where: string, code: string, token: string): { message: string; hint: string } {
  const distributed = DISTRIBUTED_FIELD.exec(code);
  const mpi = MPI_CALL.exec(code);
  if (distributed || mpi) {
    const parts = [
      ...(mpi ? [`MPI ('${mpi[0]}')`] : []),
      ...(distributed ? [`the state fields of DaCe's MPI process grids and subarrays ('__state->${distributed[1]}')`] : []),
    ];
    return {
      message: `${where} uses ${parts.join(' and ')}: an MPI program (DaCe's distributed runtime: process grids, subarrays, MPI library nodes)`,
      hint: 'profile runs one process without MPI: profile the SDFG before its distribution (a single-rank program)',
    };
  }
  const field = token === '__state' ? STATE_FIELD.exec(code) : null;
  if (field)
    return {
      message: `${where} reads DaCe's state field '__state->${field[1]}', which DaCe's code generator adds for a feature Transient Lab does not generate`,
      hint: 'rewrite the code without DaCe state fields',
    };
  return { message: `${where} uses DaCe runtime API ('${token}')`, hint: 'rewrite the code without DaCe runtime calls' };
}
