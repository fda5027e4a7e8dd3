// The executor's diagnostics: where an instruction is (file and line, or the PTX line), the names
// of memory (a shared array as the source declared it, a buffer), and the faults of an access that
// cannot happen (out of bounds, misaligned, in no allocation), each one line naming the thread,
// the element and the student's line. A fault ends the block.
#include <algorithm>

#include <fmt/format.h>

#include "backends/cpu/ptx/block.h"

namespace ptx::detail {

const char* op_word(engine::Op o) { return o == engine::Op::store ? "stores" : o == engine::Op::atomic ? "atomically updates" : "loads"; }

std::string idx_text(engine::Idx3 i) { return fmt::format("({}, {}, {})", i.x, i.y, i.z); }

std::string short_file(const std::string& f) {
    const auto p = f.find_last_of('/');
    return p == std::string::npos ? f : f.substr(p + 1);
}

void BlockRunner::add_diag(engine::Diagnostic d) {
    ++report.totals[static_cast<int>(d.kind)];
    if (kept_[static_cast<int>(d.kind)]++ < L_.opt.max_diagnostics) report.diagnostics.push_back(std::move(d));
}

// Past the cap of its kind a diagnostic is only counted: a kernel that reads unwritten shared
// memory in every block must not pay for a message each time.
bool BlockRunner::wants(DiagKind k) {
    if (kept_[static_cast<int>(k)] < L_.opt.max_diagnostics) return true;
    ++report.totals[static_cast<int>(k)];
    return false;
}

void BlockRunner::locate(engine::Diagnostic& d, const Thread& t, const Instr* in) const {
    d.block = block_idx_;
    d.thread_a = t.linear;
    d.thread_a_idx = t.idx;
    d.interval = t.interval;
    if (in) {
        const Function& f = L_.m.functions[t.frames.empty() ? (size_t)L_.entry_index : (size_t)t.frames.back().fn];
        const SourceLoc& l = L_.m.locs[(size_t)in->loc];
        if (l.file >= 0 && l.file < (int)L_.m.files.size()) d.file = L_.m.files[(size_t)l.file];
        d.line = l.line > 0 ? l.line : -1;
        d.instruction = instr_text(f, *in);
    }
}

std::string BlockRunner::where(const Instr* in) const {
    if (!in) return "its end";
    const SourceLoc& l = L_.m.locs[(size_t)in->loc];
    if (l.file >= 0 && l.file < (int)L_.m.files.size() && l.line > 0)
        return fmt::format("{}:{}", short_file(L_.m.files[(size_t)l.file]), l.line);
    return fmt::format("PTX line {}", in->ptx_line);
}

std::string BlockRunner::instr_text(const Function& f, const Instr& in) const {
    const auto fi = &f - L_.m.functions.data();
    if (fi < 0 || fi >= (long)L_.m.opcode_text.size()) return name_of(in.op);
    const auto& texts = L_.m.opcode_text[(size_t)fi];
    const auto pi = &in - f.code.data();
    if (pi >= 0 && pi < (long)texts.size()) return texts[(size_t)pi];
    return name_of(in.op);
}

std::string BlockRunner::thread_text(const Thread& t) const {
    return fmt::format("thread {} of block {}", idx_text(t.idx), idx_text(block_idx_));
}

// The shared variable holding byte `off` (-1: none, or dynamic shared memory) and the offset
// inside it.
std::pair<int, long long> BlockRunner::shared_var(long long off) const {
    for (const auto& [o, v] : L_.shared_vars)
        if (o <= off && off < o + std::max<long long>(1, L_.m.variables[(size_t)v].bytes)) return {v, off - o};
    if (off >= (long long)L_.entry->dynamic_shared_offset && L_.launch.dynamic_shared_bytes > 0)
        return {-1, off - L_.entry->dynamic_shared_offset};
    return {-1, off};
}

std::string BlockRunner::shared_var_name(int var, long long off) const {
    if (var >= 0) return L_.m.variables[(size_t)var].display;
    return off >= (long long)L_.entry->dynamic_shared_offset && L_.launch.dynamic_shared_bytes > 0 ? "extern shared"
                                                                                                 : "shared";
}

// A fault ends the block (and, with stop_on_error, the launch).
void BlockRunner::fail_block() {
    abort_ = true;
    report.ok = false;
    if (L_.opt.stop_on_error) L_.stop = true;
}

void BlockRunner::fatal(DiagKind kind, const Thread& t, const Instr* in, std::string message) {
    engine::Diagnostic d;
    d.kind = kind;
    d.space = engine::Space::global;  // faults outside shared memory (shared ones build their own)
    locate(d, t, in);
    d.message = std::move(message);
    add_diag(std::move(d));
    fail_block();
}

void BlockRunner::no_allocation(Thread& t, const Instr& in, u64 addr, int size, bool store) {
    fatal(DiagKind::out_of_bounds, t, &in,
          fmt::format("{} {} {} bytes at address {:#x}, which is in no allocation (a pointer not derived from the "
                      "kernel's arguments?), at {}",
                      thread_text(t), store ? "stores" : "loads", size, addr, where(&in)));
}

// A fault on a buffer: the diagnostic names the buffer and the element; the block stops.
void BlockRunner::buffer_fault(Thread& t, const Instr& in, const BufferSlot& b, long long off, engine::Op op,
                               DiagKind kind, bool store) {
    const int elem = std::max(1, bytes_of(in.type));
    engine::Diagnostic d;
    d.kind = kind;
    locate(d, t, &in);
    d.space = engine::Space::global;
    d.array = b.name;
    d.offset = off;
    d.elem_size = elem;
    d.op_a = op;
    if (kind == DiagKind::input_write)
        d.message = fmt::format("{} stores to the read-only input {}[{}] at {}", thread_text(t), b.name, off / elem,
                                where(&in));
    else
        d.message = fmt::format("out-of-bounds {}: {} {} {}[{}] at {}, but {} has {} elements",
                                store ? "store" : "load", thread_text(t), store ? "stores" : "loads", b.name,
                                off >= 0 ? off / elem : -((-off + elem - 1) / elem), where(&in), b.name,
                                (long long)b.bytes / elem);
    add_diag(std::move(d));
    fail_block();
}

// A shared address outside the block's shared memory, named after the nearest array of the
// kernel (shared memory has no bounds of its own on a GPU: the index is outside the block's, so
// outside every array's). The block stops.
void BlockRunner::shared_out_of_bounds(Thread& t, const Instr& in, long long a, engine::Op op, bool store) {
    engine::Diagnostic d;
    d.kind = DiagKind::out_of_bounds;
    locate(d, t, &in);
    d.space = engine::Space::shared;
    d.elem_size = std::max(1, bytes_of(in.type));
    d.op_a = op;
    long long base = 0, bytes = L_.shared_total;
    d.array = "shared";
    long long best = -1;
    for (const auto& [o, v] : L_.shared_vars) {
        const long long n = std::max<long long>(1, L_.m.variables[(size_t)v].bytes);
        const long long dist = a < o ? o - a : a >= o + n ? a - (o + n) : 0;
        if (best < 0 || dist < best) best = dist, base = o, bytes = n, d.array = L_.m.variables[(size_t)v].display;
    }
    if (L_.launch.dynamic_shared_bytes > 0 && (best < 0 || a >= (long long)L_.entry->dynamic_shared_offset)) {
        base = (long long)L_.entry->dynamic_shared_offset;
        bytes = (long long)L_.launch.dynamic_shared_bytes;
        d.array = "extern shared";
    }
    d.offset = a - base;
    const long long e = d.offset >= 0 ? d.offset / d.elem_size : -((-d.offset + d.elem_size - 1) / d.elem_size);
    const long long n = bytes / d.elem_size;
    d.message = fmt::format("out-of-bounds shared {}: {} {} {}[{}] at {}, but {} has {} elements ({}the "
                            "block has {} bytes of shared memory)",
                            store ? "store" : "load", thread_text(t), store ? "stores" : "loads", d.array, e,
                            where(&in), d.array, n, n > 0 ? fmt::format("valid 0..{}; ", n - 1) : "",
                            L_.shared_total);
    add_diag(std::move(d));
    fail_block();
}

void BlockRunner::local_out_of_bounds(Thread& t, const Instr& in, u64 addr, engine::Op op, bool store) {
    engine::Diagnostic d;
    d.kind = DiagKind::out_of_bounds;
    locate(d, t, &in);
    d.array = "local";  // the thread's local memory: its frames' arrays, one after another
    d.offset = (addr >> 55) == 1 ? (long long)addr - (1LL << 56) : (long long)addr;  // generic: 56 bits
    d.elem_size = std::max(1, bytes_of(in.type));
    d.op_a = op;
    const long long e = d.offset >= 0 ? d.offset / d.elem_size : -((-d.offset + d.elem_size - 1) / d.elem_size);
    d.message = fmt::format("out-of-bounds local-memory {}: {} {} local[{}] at {} (byte {}, but the thread has "
                            "{} bytes of local memory: an index past a local array?)",
                            store ? "store" : "load", thread_text(t), store ? "stores" : "loads", e, where(&in),
                            d.offset, t.local.size());
    add_diag(std::move(d));
    fail_block();
}

void BlockRunner::misaligned(Thread& t, const Instr& in, Sp space, int size, bool store) {
    fatal(DiagKind::kernel_exception, t, &in,
          fmt::format("misaligned address: {} {} {} bytes at an address that is not a multiple of {} ({}), at {}",
                      thread_text(t), store ? "stores" : "loads", size, std::min(size, 16),
                      space == Sp::shared ? "shared" : space == Sp::global ? "global" : "local", where(&in)));
}

}  // namespace ptx::detail
