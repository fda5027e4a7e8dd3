#include "distributed/nccl_library.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <mutex>
#include <string>

#include "core/error.h"

#ifndef STENCIL_NCCL_LIBRARY
#define STENCIL_NCCL_LIBRARY "libnccl.so.2"
#endif

namespace stencil::distributed {

namespace {

template <class F>
void resolve(void* handle, const char* name, F& f) {
    f = reinterpret_cast<F>(dlsym(handle, name));
    if (!f) throw UserError(fmt::format("NCCL's library has no {} (NCCL 2.7 or later is needed)", name));
}

NcclLibrary load() {
    void* handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen(STENCIL_NCCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        throw UserError(fmt::format("NCCL is not installed here: libnccl.so.2 is neither on the library path nor at "
                                    "{} (set LD_LIBRARY_PATH to a folder that has it)",
                                    STENCIL_NCCL_LIBRARY));
    NcclLibrary l;
    resolve(handle, "ncclGetErrorString", l.get_error_string);
    resolve(handle, "ncclGetUniqueId", l.get_unique_id);
    resolve(handle, "ncclCommInitRank", l.comm_init_rank);
    resolve(handle, "ncclCommInitAll", l.comm_init_all);
    resolve(handle, "ncclCommDestroy", l.comm_destroy);
    resolve(handle, "ncclGroupStart", l.group_start);
    resolve(handle, "ncclGroupEnd", l.group_end);
    resolve(handle, "ncclSend", l.send);
    resolve(handle, "ncclRecv", l.recv);
    return l;  // the handle stays open for the process
}

}  // namespace

const NcclLibrary& nccl() {
    static std::once_flag once;
    static NcclLibrary library;
    std::call_once(once, [] { library = load(); });  // a throw leaves it to be tried again
    return library;
}

}  // namespace stencil::distributed
