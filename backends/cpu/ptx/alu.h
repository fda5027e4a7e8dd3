// Internal to the PTX engine: the arithmetic of PTX's register-to-register instructions, on the
// 64-bit slots registers live in (integers zero- or sign-extended, f32 in the low 32 bits, f64
// whole, predicates 0 or 1). Where PTX defines a result exactly (IEEE rounding, saturation,
// shift clamping, NaN handling of min/max), it is computed exactly; the approximate
// instructions use the host's correctly rounded functions, which lie inside PTX's documented
// error bounds (tests/ptx pins both against the GPU).
#pragma once
#include <cstdint>

#include "backends/cpu/ptx/ir.h"

namespace ptx {

// Executes `in` (an ALU instruction) given its source values; writes up to two results.
// Returns false when the instruction or its type is not an ALU form this engine runs.
struct AluResult {
    std::uint64_t d = 0, d2 = 0;  // d2: the second destination (setp p|q, shfl's p, carry)
    bool has_d2 = false;
};
bool alu(const Instr& in, const std::uint64_t* src, int nsrc, AluResult& out, std::uint32_t& carry);

// PTX's approximate f32 instructions (div.approx/.full, rcp/sqrt.approx, rsqrt, sin, cos, ex2, lg2,
// tanh): the GPU's result is any value within the ISA's documented error bound, which alu()
// computes correctly rounded.
bool is_approximate(const Instr& in);
// `exact` (an approximate instruction's correctly rounded f32 result) moved by `direction`
// (-1, 0, +1) within that bound: an ulp for the ones bounded in ulps, the absolute bound for sin,
// cos and lg2, half the relative bound for tanh. NaN, infinities and zeros stay.
std::uint64_t move_within_bound(const Instr& in, std::uint64_t exact, int direction);

// Values as a type sees them.
std::uint64_t truncate_to(Ty t, std::uint64_t v);  // to the type's width, sign-extended if signed

}  // namespace ptx
