// Test support for kernels run on the PTX engine (backends/cpu/ptx/engine.h): the CUDA fixtures of
// tests/cpu/fixtures/*.cu, compiled by NVRTC and decoded once per process (one program per
// fixture file, kept in a static map), launched with the lab's buffer conventions (buffer 0 is
// the read-only `in`, buffer 1 the writable `out`), and located by their marker comments so a
// test can name the source line a diagnostic must point at without hard-coding a number.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "backends/cpu/ptx/nvrtc_ptx.h"

namespace ptxtest {

inline std::string read_text(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// One compiled and decoded fixture file.
struct Fixture {
    std::string file;  // "shared_memory.cu": the name NVRTC writes in .file, so Diagnostic::file
    std::string text;
    ptx::CompileResult compiled;
    std::shared_ptr<const ptx::Module> module;

    // The PTX name of a kernel: the lowered name of a name expression ("tiled<float, 8, 1>"), or
    // the name itself (an extern "C" kernel).
    std::string entry(const std::string& kernel) const {
        const std::string lowered = compiled.lowered_name(kernel);
        return lowered.empty() ? kernel : lowered;
    }
    // The 1-based line holding `marker` (exactly one line must hold it), 0 if none.
    int line_of(std::string_view marker) const {
        int found = 0, count = 0, n = 1;
        for (std::size_t at = 0; at <= text.size(); ++n) {
            const std::size_t end = std::min(text.find('\n', at), text.size());
            if (std::string_view(text).substr(at, end - at).find(marker) != std::string_view::npos) {
                found = n;
                ++count;
            }
            at = end + 1;
        }
        return count == 1 ? found : 0;
    }
    // "shared_memory.cu:17" for the marker's line (the form messages use).
    std::string at(std::string_view marker) const { return file + ":" + std::to_string(line_of(marker)); }
};

// The CompileRequest of a fixture: its text from the source tree, the lab's kernel headers (as
// lab_ptx embeds them) available to #include.
inline ptx::CompileRequest fixture_request(const std::string& file, const std::vector<std::string>& name_expressions) {
    ptx::CompileRequest req;
    req.name = file;
    req.source = read_text(std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/cpu/fixtures/" + file);
    for (int i = 0; i < stencil::lab_ptx_detail::kEmbeddedHeaderCount; ++i)
        req.headers.push_back(
            {stencil::lab_ptx_detail::kEmbeddedHeaders[i].name, stencil::lab_ptx_detail::kEmbeddedHeaders[i].text});
    req.name_expressions = name_expressions;
    return req;
}

// Compiled and loaded once per process (per file and name expressions).
inline const Fixture& fixture(const std::string& file, const std::vector<std::string>& name_expressions = {}) {
    static std::mutex m;
    static std::map<std::string, std::unique_ptr<Fixture>> cache;
    std::string key = file;
    for (const auto& e : name_expressions) key += "|" + e;
    std::lock_guard lock(m);
    auto& slot = cache[key];
    if (!slot) {
        auto f = std::make_unique<Fixture>();
        f->file = file;
        const ptx::CompileRequest req = fixture_request(file, name_expressions);
        f->text = req.source;
        REQUIRE(!f->text.empty());
        f->compiled = ptx::compile_to_ptx(req);
        INFO(f->compiled.log);
        REQUIRE(f->compiled.ok);
        f->module = ptx::load(f->compiled.ptx);
        slot = std::move(f);
    }
    return *slot;
}

// ---- buffers and parameters ---------------------------------------------------------------------
template <class T>
ptx::Buffer input(std::vector<T>& v, const char* name = "in") {
    return {v.data(), v.size() * sizeof(T), 0, name, true};
}
template <class T>
ptx::Buffer output(std::vector<T>& v, const char* name = "out", int id = 1) {
    return {v.data(), v.size() * sizeof(T), id, name, false};
}
// A kernel parameter pointing `byte_offset` bytes into Launch::buffers[index].
inline std::uint64_t ptr(int index, long long byte_offset = 0) {
    return ptx::buffer_address(index) + static_cast<std::uint64_t>(byte_offset);
}
inline std::uint64_t arg(long long v) { return static_cast<std::uint64_t>(v); }

// The old fixtures' buffers: in = 1, 2, 3, ... (read-only), out filled with `fill`.
struct Buffers {
    std::vector<float> in, out;
    explicit Buffers(int n, float fill = -1.0f) : in(n), out(n, fill) { std::iota(in.begin(), in.end(), 1.0f); }
    std::vector<ptx::Buffer> both() { return {input(in), output(out)}; }
};

inline engine::ExecOptions opts(engine::Schedule s = engine::Schedule::in_order, bool checked = true, int workers = 1) {
    engine::ExecOptions o;
    o.schedule = s;
    o.check_shared = checked;
    o.workers = workers;
    return o;
}

// One launch of `kernel` (a name expression or an extern "C" name) of fixture `f`.
struct Call {
    engine::Idx3 grid{1, 1, 1}, block{1, 1, 1};
    std::vector<ptx::Buffer> buffers;
    std::vector<std::uint64_t> params;
    std::vector<ptx::ConstantInit> constants;
    long long block_instruction_budget = 0;
    std::string* printf_output = nullptr;
};
// A launch of a fixture kernel whose parameters are (in, out, extra...): `b`'s two buffers first.
inline Call in_out_call(engine::Idx3 grid, engine::Idx3 block, Buffers& b, std::vector<std::uint64_t> extra = {}) {
    Call c;
    c.grid = grid;
    c.block = block;
    c.buffers = b.both();
    c.params = {ptr(0), ptr(1)};
    c.params.insert(c.params.end(), extra.begin(), extra.end());
    return c;
}
inline ptx::Launch launch_of(const Fixture& f, const std::string& kernel, const Call& c) {
    ptx::Launch l;
    l.entry = f.entry(kernel);
    l.grid = c.grid;
    l.block = c.block;
    l.buffers = c.buffers;
    l.params = c.params;
    l.constants = c.constants;
    l.block_instruction_budget = c.block_instruction_budget;
    l.printf_output = c.printf_output;
    return l;
}
inline engine::ExecReport run(const Fixture& f, const std::string& kernel, const Call& c,
                            const engine::ExecOptions& o = opts()) {
    return ptx::run(*f.module, launch_of(f, kernel, c), o);
}

// ---- reading diagnostics --------------------------------------------------------------------------
inline long long element(const engine::Diagnostic& d) {
    if (d.elem_size <= 0) return -1;
    return d.offset >= 0 ? d.offset / d.elem_size : -((-d.offset + d.elem_size - 1) / d.elem_size);
}
// The thread that loaded and the one that stored, for a race between a load and a store.
inline int loader(const engine::Diagnostic& d) { return d.op_a == engine::Op::load ? d.thread_a : d.thread_b; }
inline int storer(const engine::Diagnostic& d) { return d.op_a == engine::Op::load ? d.thread_b : d.thread_a; }
inline bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }
// "(x, y, z)", as messages write a thread or a block.
inline std::string idx_text(engine::Idx3 i) {
    return "(" + std::to_string(i.x) + ", " + std::to_string(i.y) + ", " + std::to_string(i.z) + ")";
}
// The message is one line naming the faulting thread, its block, the cell ("in[-1]") and file:line.
inline bool names_all(const engine::Diagnostic& d, const std::string& cell, const std::string& at) {
    const auto has = [&](const std::string& s) { return d.message.find(s) != std::string::npos; };
    return one_line(d.message) && has(cell) && has(at) && has("thread " + idx_text(d.thread_a_idx)) &&
           has(idx_text(d.block));
}

}  // namespace ptxtest
