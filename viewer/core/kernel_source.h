// A kernel's .cu(h) file as the stepper shows it: found on disk, split into lines, and mapped from
// a barrier interval of the CPU trace to the source lines that run in it.
//
// The mapping is read from the source itself: the kernel body, the lines holding __syncthreads()
// and the loop that contains them. Interval 0 runs from the top of the body to the first barrier;
// interval k ends at the barrier it was closed by. In a loop with n barriers the intervals cycle
// through them and the one that crosses the loop's end also covers the loop head.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/versions.h"

namespace stencil::viewer {

// Where to look for `relative` (a path below the repository root, e.g. "kernels/tiled.cuh"), in
// order: $STENCIL_LAB_SOURCE_DIR, the executable's folder and its parent, the source dir the
// build was configured from, the working directory. nullopt when none has it.
std::optional<std::string> find_source_file(const std::string& relative, const std::string& exe_dir);

struct LineRange {
    int first = 0, last = 0;  // 0-based, inclusive
    bool contains(int line) const { return line >= first && line <= last; }
};

struct KernelSource {
    std::string path;                // where it was read from; empty when not found
    std::string name;                // as shown: "kernels/tiled.cuh" (the build machine's folders are
                                     // nobody's business on a projector), or a student's file as named
    std::string error;               // why it could not be read
    std::vector<std::string> lines;  // without line ends
    int body_first = -1, body_last = -1;  // the __global__ function's braces
    std::vector<int> barriers;            // lines with a __syncthreads() call, ascending
    int loop_first = -1, loop_last = -1;  // innermost loop enclosing every barrier (-1: none)
};

KernelSource parse_kernel_source(std::string path, std::vector<std::string> lines);
// `relative` found by find_source_file, read and parsed; `error` says why not.
KernelSource load_source_file(const std::string& relative, const std::string& exe_dir);
KernelSource read_kernel_source(const std::string& path);  // a file named as given (a student's)
KernelSource load_kernel_source(KernelId k, const std::string& exe_dir);    // the row's source_file
KernelSource load_textbook_source(KernelId k, const std::string& exe_dir);  // its textbook_file

// True when a PTX .loc file name (as NVRTC was given it: "kernels/tiled.cuh", or a student's
// file name) and a path on disk name the same file: one ends with the other at a '/'.
bool same_source_file(const std::string& loc_file, const std::string& path);

// The lines that execute in barrier interval `interval` of a block that ran `intervals` in all.
std::vector<LineRange> interval_lines(const KernelSource& s, int interval, int intervals);

}  // namespace stencil::viewer
