/**
 * What each library a blas expansion calls needs at build time (DaCe's "environments"): the headers the
 * translation unit includes, what the link adds, and the Debian/Ubuntu package that provides both, named in
 * the error when they are missing.
 */
import type { ExternalLibrary } from './operand.js';

interface LibraryEnvironment {
  headers: string[];
  link: string[];
  install: string;
}

export const LIBRARY_ENVIRONMENTS: Record<ExternalLibrary, LibraryEnvironment> = {
  OpenBLAS: { headers: ['cblas.h'], link: ['-lopenblas'], install: 'libopenblas-dev' },
  LAPACKE: { headers: ['lapacke.h'], link: ['-llapacke', '-lopenblas'], install: 'liblapacke-dev libopenblas-dev' },
};

/** `#include` lines for the libraries a program calls. */
export function libraryIncludes(libs: readonly ExternalLibrary[]): string[] {
  return [...new Set(libs.flatMap((l) => LIBRARY_ENVIRONMENTS[l].headers))].map((h) => `#include <${h}>`);
}

/** Linker flags for the libraries a program calls, in link order. */
export function libraryLinkFlags(libs: readonly ExternalLibrary[]): string[] {
  return [...new Set(libs.flatMap((l) => LIBRARY_ENVIRONMENTS[l].link))];
}
