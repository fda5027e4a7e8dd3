// The contract checked on the PTX NVRTC made of the submission, where no spelling of the source
// can mislead: the kernel's parameter types (from its mangled name) and inline assembly (NVRTC
// marks every asm statement in the PTX it writes). The runner calls vet_compiled after NVRTC and
// before anything runs, on both backends; the text vetting (source.h) keeps what must be refused
// before NVRTC sees the file.
//
// Parameter types. A C++ kernel's PTX name encodes its parameters (checker/mangled_name.h:
// `_Z14stencil_kernelPKfPfj` is (const float*, float*, unsigned int)), whatever the source wrote:
// `__launch_bounds__` before or after `void`, an unnamed parameter, `__restrict__` or a top-level
// `const` (not part of the type), a typedef for float, a default argument. They are held against
// the arguments the runner passes (the request's case): a buffer is a pointer to the exercise's
// element type (`const` only on one the kernel must not write), `int` and `unsigned int` as they
// are, a real in the exercise's precision. An `extern "C"` kernel's name encodes nothing: its
// PTX parameters give their widths and, for reals, their type, not what a pointer points to.
//
// Inline assembly. CUDA's own intrinsics are inline assembly in NVRTC's PTX too (clock64(),
// __ldg(), __activemask(), __nanosleep(), __trap(), the SIMD __v* functions...), under the
// student's line like any other: NVRTC does not tell them apart. So an asm block is refused unless
// each of its instructions is of a kind CUDA's intrinsics write (ptx_vetting.cpp's tables: loads
// and stores with a cache operator, integer ALU, ...; no floating-point arithmetic, no other
// state space, no fence or barrier) and every special register it reads is one CUDA C++ gives
// (%tid, %clock64, ...; not %smid or %globaltimer). An asm statement that writes what an intrinsic
// writes is accepted: it computes what the intrinsic would.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/mangled_name.h"
#include "checker/protocol.h"

namespace stencil::checker {

// How a kernel's parameters stand against the arguments of a case.
enum class SignatureFit {
    fits,
    other_precision,  // the contract's parameters, at the other precision (float for double)
    wrong,
};
SignatureFit signature_fit(const std::vector<MangledType>& params, const CaseSpec& c, Precision p);

// The `.param` types of the PTX entry `entry` ("u64", "u32", "f64", "b8" ...), in order; empty
// when the entry is not in the PTX.
std::vector<std::string> entry_param_types(std::string_view ptx, std::string_view entry);

// The first inline-assembly block of `ptx` that is not CUDA's own (see above): one line,
// "FILE.cu:LINE: inline assembly is not allowed (`mov.u32 %r1, %smid;`): ...", naming the line of
// `display_name` the PTX's .loc gives; nullopt when there is none.
std::optional<std::string> inline_asm_problem(std::string_view ptx, const std::string& display_name);

// The runner's one call, after NVRTC and before anything runs: the kernel `kernel_lowered` of
// `ptx` against the request's contract (its parameters against the first case's arguments; the
// inline assembly). nullopt when it holds; else the one-line refusal, naming the student's file
// and line, for a compile failure of stage CompileStage::contract.
std::optional<std::string> vet_compiled(const Request& req, std::string_view ptx, const std::string& kernel_lowered);

}  // namespace stencil::checker
