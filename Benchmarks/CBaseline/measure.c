// Marks the measured part of a workload for `SQLCipherBench --instructions`, which runs each
// child under `valgrind --tool=callgrind --collect-atstart=no`: only the instructions between
// two toggles are counted. Outside valgrind (or without its headers) this does nothing.
#include "CBaseline.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CB_HAS_CALLGRIND 1
#endif
#endif

void cb_measure_toggle(void) {
#ifdef CB_HAS_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
#endif
}
