// What a submission's kernel must look like for an exercise, and what the harness gives it: the
// kernel's name and parameters, and the declarations put before the student's code (macros,
// __constant__ weights, helper functions). One contract per problem, derived from the exercise's
// row (checker/exercises.h); vetting (source.h), the translation unit and the runner's request
// all read it, so a signature is written here only.
//
//   star3d      __global__ void stencil_kernel(float* in, float* out, unsigned int N)
//               harness: IN_TILE_DIM, OUT_TILE_DIM (= T - 2r), __constant__ c0..c{6r}
//   cardiac2d   __global__ void cardiac_kernel(const double* E_prev, double* E, double* R, int n,
//                                              double alpha, double dt)
//               harness: TILE_X, TILE_Y, cardiac_pde(), cardiac_ode() (kernels/cardiac2d/
//               aliev_panfilov.cuh's two pieces, so the exercise is about where the neighbours
//               come from, as in the lecture)
//   data        the spec's [kernel]: its name, its parameters by role, its macros (each
//               `#define NAME <integer>` at the check's T), __constant__ c0..c{p-1} or a weights
//               pointer
//   derivative  __global__ void derivative_x(const float* f, float* df, int mx, int my, int mz)
//               harness: MX (= mx, which sizes the shared pencils as in the post), sPencils,
//               __constant__ c_ax, c_bx, c_cx, c_dx (the post's names, divided by the spacing)
#pragma once
#include <string>
#include <vector>

#include "checker/exercises.h"
#include "checker/protocol.h"

namespace stencil::checker {

enum class ParamType { pointer, int32, uint32, real };

struct ParamContract {
    std::string name;
    ParamType type = ParamType::pointer;
    bool written = false;  // a pointer the kernel stores through (must not be `const`)
};

struct KernelContract {
    std::string kernel;                   // the __global__ function's name
    std::vector<ParamContract> params;    // in order
    std::string element;                  // "float" or "double": pointers and real scalars
    std::vector<std::string> harness_names;  // what the student may not #define
    std::string harness_words;            // "the weights c0..c6 and the macros IN_TILE_DIM, OUT_TILE_DIM"
    bool spell_const = true;              // the signature shows read-only pointers as `const`
                                          // (the textbook's star3d kernels do not: `float* in`)
    bool dynamic_shared = false;          // the launch gives dynamic shared memory: `extern __shared__`
                                          // is the way to use it (an exercise's [kernel] shared)

    // "__global__ void stencil_kernel(float* in, float* out, unsigned int N)"
    std::string signature() const;
    bool defines(const std::string& name) const;
};

KernelContract kernel_contract(const Exercise& ex);
// kernel_contract(ex).signature()
std::string kernel_signature(const Exercise& ex);

// The harness's declarations for tile T (the translation unit puts them first).
std::string harness_declarations(const Exercise& ex, int tile);

// The harness's __constant__ values for one check (star3d: the check's weights c0..c{6r}; a data
// stencil: its weights c0..c{p-1} when they are in constant memory; the derivative: the post's x
// weights for the MX spacing; cardiac2d: none), rounded to the exercise's precision.
std::vector<ConstantSpec> harness_constants(const Exercise& ex, const std::vector<double>& star_weights);

// The derivative exercise's x extent (the post's 64): MX in the harness.
inline constexpr int kDerivativeExerciseMX = 64;

}  // namespace stencil::checker
