// Static __shared__ memory of a submission, read from its CPU build: the GPU refuses a kernel
// with more than 48 KiB of static shared memory per block at compile time, the CPU backend would
// not (a __shared__ array is a thread_local there), so the parent checks the size itself.
#pragma once
#include <string>

namespace stencil::checker {

inline constexpr long long kMaxStaticSharedBytes = 48 * 1024;  // per block, every CUDA GPU

// Bytes of the __shared__ arrays of the compiled CPU shared object at `path`: on the CPU backend
// each is a `static thread_local` of Shared<T> (sizeof(Shared<T>) == sizeof(T)), so their sizes
// are those of the object's TLS symbols, less the backend's own (simt::*) and the guard variables
// of their dynamic initialisation (_ZGV*). -1 when the file has no symbol table to read.
long long static_shared_bytes(const std::string& path);

}  // namespace stencil::checker
