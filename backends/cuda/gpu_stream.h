// A CUDA stream in the plain C++ headers that include no CUDA header (lab_kernel.h, cardiac2d.h):
// the type the runtime's cudaStream_t names, so that either converts to the other. nullptr is the
// default stream.
#pragma once

struct CUstream_st;

namespace stencil {
using GpuStream = CUstream_st*;
}  // namespace stencil
