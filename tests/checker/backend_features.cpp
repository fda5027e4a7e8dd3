// Which features of the CPU backend this build has (the runner is built from the same tree):
// corpus entries that need one are reported as pending, not passed, when it is missing.
// A TU of its own because backends/cpu/simt.h defines CUDA's names as macros.
#include "backends/cpu/simt.h"

bool simt_has_read_only() {
#if defined(STENCIL_SIMT_HAS_READ_ONLY)
    return true;
#else
    return false;
#endif
}

bool simt_has_block_order() {
#if defined(STENCIL_SIMT_HAS_BLOCK_ORDER)
    return true;
#else
    return false;
#endif
}
