// Every derivative kernel of text 004, for a compiler that builds them together (the NVRTC program
// of the CPU backend, backends/cpu/derivative_cpu.cpp, and the CUDA backend's
// backends/cuda/derivative.cu).
#pragma once
#include "kernels/derivative/x_pencils.cuh"
#include "kernels/derivative/x_tile.cuh"
#include "kernels/derivative/y_pencils.cuh"
#include "kernels/derivative/z_pencils.cuh"
