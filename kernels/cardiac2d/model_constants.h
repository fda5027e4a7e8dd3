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

namespace stencil::cardiac2d {

// The sides of a piece of the mesh, as the ghost filler's mask (ghosts.cuh) takes them: a side on
// the outer boundary gets the no-flux mirror; a side between two ranks of a decomposition gets
// the neighbour's cells instead, so the filler leaves it alone. Here, not in ghosts.cuh, because
// the plain C++ callers (backends, distributed/) name the same bits. x grows east, y south.
enum OuterSide : int {
    kWestSide = 1,   // column 0
    kEastSide = 2,   // column nx + 1
    kNorthSide = 4,  // row 0
    kSouthSide = 8,  // row ny + 1
    kAllSides = 15,  // one domain alone: every side is the outer boundary
};

}  // namespace stencil::cardiac2d
