/**
 * A program whose blas expansions call a library that is not installed fails to compile on a missing header
 * or to link on a missing `-l`: that is said in one line naming the library and the package to install,
 * instead of the compiler's output.
 */
import { TlabError } from '../errors.js';
import type { GeneratedProgram } from '../codegen/types.js';
import { LIBRARY_ENVIRONMENTS } from '../sdfg/expand/libraries.js';

export function missingLibraryError(program: GeneratedProgram, output: string, file: string | null): TlabError | null {
  for (const lib of program.libraries) {
    const env = LIBRARY_ENVIRONMENTS[lib];
    const header = env.headers.find((h) => output.includes(`${h}: No such file`) || output.includes(`'${h}' file not found`));
    const link = env.link.find((l) => output.includes(`cannot find ${l}`) || output.includes(`library not found for ${l}`));
    if (!header && !link) continue;
    const what = header ? `its header ${header} is missing` : `the linker cannot find ${link!}`;
    return new TlabError(
      'build',
      `${lib} is not installed (${what}): the blas implementation of a library node needs it; install ${env.install} (Debian/Ubuntu: apt-get install ${env.install}), or run with --library-impl pure`,
      { file },
    );
  }
  return null;
}
