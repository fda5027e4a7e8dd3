// The one seam between the kernel sources and the two backends.
//
// The kernels in this folder are plain CUDA C++. nvcc and NVRTC compile them as they are. The CPU
// backend compiles the very same files with the host compiler: backends/cpu/simt.h then supplies
// what CUDA would (__global__, __shared__, __constant__, __syncthreads(), threadIdx, blockIdx,
// blockDim, gridDim), running each block's threads as fibers with a real barrier.
//
// Two names are ours, not CUDA's, and both are the identity on the GPU:
//   Shared<T>  the element type of a __shared__ array. On the GPU it is T. On the CPU it is a
//              cell that records every load and store, which is how the CPU backend counts shared
//              traffic and bank conflicts and catches races and reads of unwritten shared memory.
//   In / Out   kernels take their global pointers as template parameters. On the GPU they are
//              `const real*` and `real*`; on the CPU they are traced pointers with the same syntax.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
template <class T>
using Shared = T;
#else
#include "backends/cpu/simt.h"
#endif
