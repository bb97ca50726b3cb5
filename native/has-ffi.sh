#!/bin/sh
# Prints 1 when libffi's header and library are usable (Debian: libffi-dev), else 0. binding.gyp asks this so
# that the addon builds without libffi; the DaCe-folder path then refuses with "install libffi-dev".
printf '#include <ffi.h>\nint main(void){ffi_cif c;(void)c;return 0;}\n' > "${TMPDIR:-/tmp}/tlab-has-ffi-$$.c"
if ${CC:-cc} -o "${TMPDIR:-/tmp}/tlab-has-ffi-$$" "${TMPDIR:-/tmp}/tlab-has-ffi-$$.c" -lffi >/dev/null 2>&1; then
  echo 1
else
  echo 0
fi
rm -f "${TMPDIR:-/tmp}/tlab-has-ffi-$$" "${TMPDIR:-/tmp}/tlab-has-ffi-$$.c"
