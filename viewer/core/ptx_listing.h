// The PTX the CPU engine runs, beside the CUDA source (Compiler Explorer's linking, with counts no
// GPU is needed for): the kernel's PTX lines with the source line each came from (its .loc), the
// PTX lines of a source line, and per source line what the traced block did there: global loads and
// stores, shared loads and stores (from the trace's sites) and FLOPs (each PTX line's floating-point
// operations, times how often the traced block ran its straight-line run of code, which the trace's
// memory instructions in that run count).
//
// The PTX comes from lab_ptx (backends/cpu/ptx/lab_ptx.h), the text the engine parsed; a site of the
// trace is the engine's instruction index in its function (ExecReport::sites). The listing numbers
// the entry's instructions the same way and checks each site's opcode against the trace's own
// (SiteSource::instruction): where they differ, FLOPs and the current instruction are not shown
// rather than shown wrong.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/engine_trace.h"

namespace stencil::viewer {

struct PtxLine {
    std::string text;        // the line as NVRTC wrote it, without its indentation
    int instruction = -1;    // index among the entry's instructions (the engine's numbering); -1: not one
    std::string opcode;      // "ld.global.f32" (instructions only)
    int flops = 0;           // floating-point operations of one execution (fma 2, add / sub / mul 1)
    std::string file;        // the source position in force (.loc; an inlined call's: its caller's), ""
    int line = 0;            // when none; the .loc lines themselves are not listed
    bool block_start = false;  // starts a straight-line run (a label, or after a branch)
};

struct PtxListing {
    std::string entry;
    std::vector<PtxLine> lines;  // the entry's body, from its opening brace to its closing one
    std::string error;           // why there is none ("" when there is)
    bool ok() const { return error.empty() && !lines.empty(); }
};

// The entry `entry` of a PTX module's text (its .file table gives the .loc's names).
PtxListing ptx_listing(const std::string& ptx, const std::string& entry);

// The listing's lines (indices) that came from `line` of `file` (a source file as .loc names it).
std::vector<int> ptx_lines_of(const PtxListing& l, const std::string& file, int line);

// Site s of the trace -> the listing's line, when the opcodes agree (-1 for a site not found);
// empty when any site's opcode differs (the numbering is not the engine's).
// sites: ExecReport::sites (the instruction index of each site); sources: ExecReport::site_source.
std::vector<int> site_lines(const PtxListing& l, const std::vector<std::uintptr_t>& sites,
                            const std::vector<engine::ExecReport::SiteSource>& sources);

// What the traced block did at one source line.
struct LineCounts {
    long long global_loads = 0, global_stores = 0, shared_loads = 0, shared_stores = 0;
    double flops = 0;
    bool flops_known = true;  // false: floating-point code in a run no traced instruction counts
};
// Per source line of `file` (1-based): the block's accesses (acc) by their sites' lines, and FLOPs
// (needs site_lines; without it every line's flops_known is false).
std::map<int, LineCounts> counts_by_line(const PtxListing& l, const std::vector<int>& site_line,
                                         const std::vector<engine::Access>& acc,
                                         const std::vector<engine::ExecReport::SiteSource>& sources,
                                         const std::string& file);

}  // namespace stencil::viewer
