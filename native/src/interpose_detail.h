// Between interpose.cc (the hooks) and got_patch.cc (the GOT rewriting): nothing else includes this.
#pragma once

#include <atomic>

namespace tlab {
namespace interpose {
namespace detail {

// Index of a hooked function by its symbol name, or -1.
int Lookup(const char *name);
// The hook that replaces function `fn` in a GOT slot.
void *Hook(int fn);
// The function `fn`'s hook forwards to: set by the first library patched, compared for the next ones.
std::atomic<void *> &Real(int fn);
// Chooses the hooks' clock (TSC or clock_gettime) once, before the first slot is patched.
void Calibrate();

}  // namespace detail
}  // namespace interpose
}  // namespace tlab
