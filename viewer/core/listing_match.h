// Which line of the textbook's listing (bench/textbook/) holds the statement a line of the lab's
// kernel (kernels/) holds, so the stepper can mark the current line in both.
//
// The two are written differently (the lab's `in_s[tz][ty][tx] = in[c];` is the book's
// `tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];`), so lines are compared by
// their normalised statements: comments, types and casts dropped, threadIdx.x and tx both "tx",
// every __shared__ array "smem", every number, the radius and a loop counter "#", a weight "coef"; two lines correspond when the
// sets of their normalised tokens and token pairs overlap enough (Jaccard), the best such line of
// the listing's kernel body, ties to the one nearest the same relative place in the body.
#pragma once
#include <string>
#include <vector>

#include "viewer/core/kernel_source.h"

namespace stencil::viewer {

// The normalised tokens of one line of code (`shared_names`: the __shared__ arrays of its kernel,
// `loop_names`: its loop counters, which stand where the book writes a number).
std::vector<std::string> statement_tokens(const std::string& line, const std::vector<std::string>& shared_names,
                                          const std::vector<std::string>& loop_names = {});
// The names of the __shared__ arrays declared in the kernel body, and of its for-loop counters.
std::vector<std::string> shared_array_names(const KernelSource& s);
std::vector<std::string> loop_counter_names(const KernelSource& s);
// Jaccard similarity of two token lists' tokens and adjacent pairs: 1 for the same statement.
double statement_similarity(const std::vector<std::string>& a, const std::vector<std::string>& b);

// statement_similarity of two lines; of two assignments, the mean of their targets' and values'
// (the value's alone when one target is a local), and a store to the same array counted as a
// (weaker) match whatever its index.
double line_similarity(const std::vector<std::string>& a, const std::vector<std::string>& b);

inline constexpr double kMinStatementSimilarity = 0.4;

// For each line of `lab` (0-based), the corresponding 0-based line of `book`, or -1 (a comment, a
// brace, a statement the listing does not have).
std::vector<int> corresponding_lines(const KernelSource& lab, const KernelSource& book);

}  // namespace stencil::viewer
