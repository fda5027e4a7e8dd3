// The Aliev-Panfilov model's constants, as the CSE 260 assignment (text 002, the `apf` program)
// fixes them. Plain C++ (constexpr doubles): the fp64 reference (core/cardiac2d.h) and the kernels
// (aliev_panfilov.cuh, which rounds them to the kernel's precision) read the same numbers.
#pragma once

namespace stencil::cardiac2d {

struct AlievPanfilov {
    static constexpr double a = 0.1;
    static constexpr double b = 0.1;
    static constexpr double kk = 8.0;
    static constexpr double M1 = 0.07;
    static constexpr double M2 = 0.3;
    static constexpr double epsilon = 0.01;
    static constexpr double d = 5e-5;  // the diffusion coefficient
};

}  // namespace stencil::cardiac2d
