// NCCL, loaded when a run first needs it (dlopen), not linked: stencil-lab starts on machines
// without NCCL (the device machines run a build carried from here), and only `--gpus` or the NCCL
// halos say, in one line, that it is missing. nccl.h gives the types and signatures.
#pragma once
#include <nccl.h>

namespace stencil::distributed {

struct NcclLibrary {
    decltype(&ncclGetErrorString) get_error_string = nullptr;
    decltype(&ncclGetUniqueId) get_unique_id = nullptr;
    decltype(&ncclCommInitRank) comm_init_rank = nullptr;
    decltype(&ncclCommInitAll) comm_init_all = nullptr;
    decltype(&ncclCommDestroy) comm_destroy = nullptr;
    decltype(&ncclGroupStart) group_start = nullptr;
    decltype(&ncclGroupEnd) group_end = nullptr;
    decltype(&ncclSend) send = nullptr;
    decltype(&ncclRecv) recv = nullptr;
};

// libnccl.so.2 from the library path (LD_LIBRARY_PATH first), else the one this build was
// configured with; loaded once. Throws UserError naming both places when neither loads.
const NcclLibrary& nccl();

}  // namespace stencil::distributed
