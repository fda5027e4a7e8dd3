// The one seam between the kernel sources and the compilers that build them.
//
// The kernels in this folder are plain CUDA C++. nvcc (the GPU backend's launches) and NVRTC
// (everything the CPU backend runs: backends/cpu/ptx/lab_ptx.cpp) compile them as they are; the
// CPU backend executes NVRTC's PTX. Only the retired fiber engine, which the CPU benchmark keeps as
// the PTX engine's peer, compiles these files with the host compiler: its launch files include
// backends/cpu/simt.h first, which supplies what CUDA would (__global__, __shared__, threadIdx,
// __syncthreads(), Shared<T>, ...). kernels/ itself includes nothing above it.
//
// Two names are ours, not CUDA's, and both are the identity under nvcc and NVRTC:
//   Shared<T>  the element type of a __shared__ array: T; in the fiber engine a traced cell.
//   In / Out   kernels take their global pointers as template parameters: `const real*` and
//              `real*`; in the fiber engine traced pointers with the same syntax.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
template <class T>
using Shared = T;
#elif !defined(STENCIL_HOST_SIMT)
#error "kernels/*.cuh are CUDA: compile them with nvcc or NVRTC, or include backends/cpu/simt.h first"
#endif
