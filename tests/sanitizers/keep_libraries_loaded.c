/* Preloaded (LD_PRELOAD) into the sanitizer run by scripts/test-hardening.sh:
 * dlclose() does nothing, so every library stays mapped until the process ends.
 *
 * Why: Mesa (llvmpipe's swrast_dri.so, loaded by libEGL_mesa through GLVND)
 * and PoCL keep blocks reachable only from their own globals, and are
 * dlclose()d at exit before LeakSanitizer looks. Unmapped, those globals no
 * longer count as roots, so the blocks show up as leaks allocated from
 * "<unknown module>" (the code is gone, nothing can be symbolised or
 * suppressed by library name). Kept mapped, they are reachable, as they were
 * all along; a block the driver really loses is still reported, and with its
 * library's name. Our own leaks are unaffected (tests/sanitizers/leak_canary.cpp
 * proves it). Built without sanitizers: it is preloaded into every child
 * process too (sh, xvfb-run, Xvfb), which have no sanitizer runtime. */
#include <dlfcn.h>

int dlclose(void* handle) {
  (void)handle;
  return 0;
}
