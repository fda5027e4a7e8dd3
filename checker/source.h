// Reading and vetting a submission, and the translation unit both backends compile.
//
// The contract: one `.cu` file of UTF-8 text (a UTF-8 byte-order mark is dropped) of device code
// only, defining exactly one kernel, the exercise's (checker/contract.h), e.g. for star3d
//   __global__ void stencil_kernel(float* in, float* out, unsigned int N)   (const float* in too)
// (`double` for the fp64 exercises). The harness provides what the contract names (star3d:
// `__constant__ float c0..c{6r}` and the macros IN_TILE_DIM, OUT_TILE_DIM = T - 2r).
//
// Vetting runs on a copy with comments and literals blanked (positions and lines kept) and holds
// what must be refused before NVRTC sees the file, the same for both backends: no #include
// (NVRTC would read the grading machine's files) and no directives but #define/#undef/#if*/
// #pragma unroll (#line would misplace the evidence), no redefinition of the harness's names, no
// `asm` as written, no extern __shared__, and exactly one __global__ function, named as the
// contract says and defined here (a clear message instead of a compiler's). The kernel's
// parameter types are checked where no spelling can mislead: on the PTX NVRTC makes of it
// (ptx_vetting.h, in the runner), as is inline assembly however the preprocessor built it. No
// student code runs natively: both backends compile the file with NVRTC to PTX
// (checker/README.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "checker/contract.h"
#include "checker/exercises.h"

namespace stencil::checker {

inline constexpr std::size_t kMaxSourceBytes = 256 * 1024;

// What vetting found wrong (callers decide on this, never on the problem's wording).
enum class SourceProblem {
    none,
    too_large,
    encoding,             // not UTF-8 text (text_encoding.h)
    empty,
    directive,            // #include, #line, ... or a #pragma other than unroll
    harness_name,         // #define of a name the harness defines
    digraph,              // `%:` or `??=` spelling `#`
    dynamic_shared,       // extern __shared__
    contract_identifier,  // asm, _Pragma, ...
    no_kernel,
    several_kernels,
    template_kernel,
    declaration,          // the __global__ function is not named as the contract says
    definition,           // no body where the kernel is declared
};

struct VettedSource {
    bool ok = false;
    SourceProblem kind = SourceProblem::none;
    std::string problem;       // when !ok: "FILE.cu:LINE: what is wrong" (one or two lines)
    std::string display_name;  // the file's base name, as diagnostics show it
    std::string text;          // the file as read
};

// Reads at most kMaxSourceBytes (+1 to notice a larger file). Throws UserError for a path that
// is missing, unreadable, a folder or not a regular file (a FIFO would hang a plain read).
std::string read_submission(const std::string& path);
// read_submission, then vet_source.
VettedSource read_and_vet(const std::string& path, const KernelContract& contract);
// `contract`: the kernel it must define (nullptr: the star3d exercises' stencil_kernel).
VettedSource vet_source(std::string text, std::string display_name, const KernelContract* contract = nullptr);

// The text NVRTC compiles, on both backends: the harness (the macros, the weights in the
// exercise's precision) and then the student's code, whose lines keep their numbers (#line 1
// "FILE").
std::string translation_unit(const VettedSource& s, const Exercise& ex, int tile);
// C identifiers: a first character, and any other.
bool is_ident_start(char c);
bool is_ident(char c);

// The student's code with comments and literals blanked (exposed for tests). Lexes identifiers,
// pp-numbers (digit separators included) and raw strings as the compiler does.
std::string blank_comments_and_literals(const std::string& text);
// Translation phase 2 (backslash-newline splices removed), with the removed newlines appended
// after each logical line so that line numbers hold up to the splice. Vetting and the
// translation unit use this text.
std::string splice_lines(const std::string& text);

// NVRTC's log trimmed to what the student needs: FILE.cu(LINE) as FILE.cu:LINE, the harness's
// own lines and the summary line dropped, at most `max_lines` lines.
std::string tidy_compiler_output(const std::string& out, const std::string& display_name,
                                 int max_lines = 40);

inline constexpr const char* kHarnessFileName = "<stencil-lab harness>";

}  // namespace stencil::checker
