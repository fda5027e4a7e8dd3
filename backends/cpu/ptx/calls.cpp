// Calls: a call instruction gives each calling lane a frame (registers, local memory and
// parameters above its caller's, the arguments copied in), or runs one of the engine's builtins
// (vprintf, __assertfail, malloc, free); ret pops the frame and hands back the return value.
#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/ptx/block.h"

namespace ptx::detail {

// call: vprintf, __assertfail, malloc and free are the engine's own; any other callee (named, or
// a function pointer's) gets a frame in each calling lane.
Next BlockRunner::exec_call(Group& g, const Instr& in, u32 active) {
    if (in.callee <= kCalleeVprintf && in.callee != kCalleeIndirect) return exec_builtin_call(g, in, active);
    bool ok = true;
    int common = -2;  // the one callee of every lane, or -1 when they differ
    each_lane(active, [&](int l) {
        if (!ok) return;
        Thread& t = *g.lanes[l];
        int callee = in.callee;
        if (in.callee == kCalleeIndirect) {
            const u64 target = operand(g, in.o[0], l);
            callee = function_at(L_.m, target);
            if (callee < 0) {
                fatal(DiagKind::kernel_exception, t, &in,
                      fmt::format("{} calls through a function pointer ({:#x}) that points to no function of the "
                                  "kernel's module, at {}", thread_text(t), target, where(&in)));
                ok = false;
                return;
            }
        }
        common = common == -2 ? callee : common == callee ? common : -1;
        t.frames.back().pc = g.pc + 1;  // where it returns to
        if (!push_frame(g, t, in, callee)) ok = false;
    });
    if (!ok) return Next::stop;
    if (active == g.mask && common >= 0) return Next::call;
    write_back(g, g.mask & ~active, g.pc + 1);
    return Next::part;
}

// The builtins: each active lane in lane order; then the group goes on.
Next BlockRunner::exec_builtin_call(Group& g, const Instr& in, u32 active) {
    each_lane(active, [&](int l) {
        if (abort_) return;
        Thread& t = *g.lanes[l];
        switch (in.callee) {
            case kCalleeVprintf:
                builtin_reading_ = true;
                do_printf(g, t, in);
                builtin_reading_ = false;
                break;
            case kCalleeAssertFail:
                builtin_reading_ = true;
                do_assert_fail(g, t, in);
                builtin_reading_ = false;
                break;
            case kCalleeMalloc: do_malloc(g, t, in); break;
            case kCalleeFree: do_free(g, t, in); break;
            default: break;
        }
    });
    return abort_ ? Next::stop : Next::advance;
}

// A call's argument k, as the caller's frame holds it (the builtins read their arguments here).
u64 BlockRunner::call_param(Group& g, Thread& t, const Instr& in, size_t k) const {
    const CallList& cl = g.f->call_lists[(size_t)in.call_args];
    if (k >= cl.args.size()) return 0;
    u64 v = 0;
    std::memcpy(&v, t.params.data() + g.param_base + cl.args[k].first, (size_t)std::min(8, cl.args[k].second));
    return v;
}

// The callee's frame: registers, local memory and parameters above the caller's, the arguments
// copied in, and where the caller wants the return value. False: the stack overflowed.
bool BlockRunner::push_frame(Group& g, Thread& t, const Instr& in, int callee) {
    const Function& callee_fn = L_.m.functions[(size_t)callee];
    const long long frame = L_.frame_bytes.empty() ? -1 : L_.frame_bytes[(size_t)callee];
    if (frame >= 0 && t.stack_bytes + frame > L_.launch.limits.stack_bytes) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("stack overflow: {} calls {} at {} with {} bytes of the GPU's per-thread stack in "
                          "use; its frame needs {} more, past the {} bytes a thread has (the driver's default, "
                          "cudaLimitStackSize): the GPU faults here (call depth {})",
                          thread_text(t), demangled_variable_name(callee_fn.name), where(&in), t.stack_bytes, frame,
                          L_.launch.limits.stack_bytes, t.frames.size()));
        return false;
    }
    if ((int)t.frames.size() >= kMaxFrames || t.local_top + callee_fn.local_bytes + 16 > kLocalLimit) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("stack overflow: {} called {} {} deep (recursion without an end?) at {}",
                          thread_text(t), demangled_variable_name(callee_fn.name), t.frames.size(), where(&in)));
        return false;
    }
    const CallList& cl = g.f->call_lists[(size_t)in.call_args];
    const Frame caller = t.frames.back();
    Frame nf;
    nf.fn = callee;
    nf.pc = 0;
    nf.reg_base = t.reg_top;
    nf.local_base = (t.local_top + 15) / 16 * 16;
    nf.param_base = (t.param_top + 7) / 8 * 8;
    nf.ret_offset = cl.retval_offset >= 0 ? caller.param_base + cl.retval_offset : -1;
    nf.ret_bytes = cl.retval_bytes;
    t.reg_top += callee_fn.slots;
    Warp& w = warps_[(size_t)t.warp];
    w.reserve_rows(t.reg_top);
    g.R = w.row(g.reg_base);  // (the rows may have moved)
    t.local_top = nf.local_base + callee_fn.local_bytes;
    if ((long long)t.local.size() < t.local_top) t.local.resize((size_t)t.local_top, 0xFF);
    t.param_top = nf.param_base + callee_fn.param_bytes;
    if ((int)t.params.size() < t.param_top) t.params.resize((size_t)t.param_top, 0);
    for (size_t k = 0; k < cl.args.size() && k < callee_fn.param_offsets.size(); ++k)
        std::memcpy(t.params.data() + nf.param_base + callee_fn.param_offsets[k],
                    t.params.data() + caller.param_base + cl.args[k].first,
                    (size_t)std::min(cl.args[k].second, callee_fn.params[k].bytes));
    if (frame > 0) t.stack_bytes += frame;
    t.frames.push_back(nf);
    return true;
}

// ret (or the end of a function): the return value to the caller, the frame popped. False: that
// was the kernel's own frame, and the thread has exited.
bool BlockRunner::leave_frame(Thread& t) {
    const Frame done = t.frames.back();
    const Function& fn = L_.m.functions[(size_t)done.fn];
    t.frames.pop_back();
    if (t.frames.empty()) {
        t.state = State::exited;
        return false;
    }
    if (done.ret_offset >= 0 && fn.retval_offset >= 0)
        std::memcpy(t.params.data() + done.ret_offset, t.params.data() + done.param_base + fn.retval_offset,
                    (size_t)std::min(done.ret_bytes, fn.retval_bytes));
    if (!L_.frame_bytes.empty() && L_.frame_bytes[(size_t)done.fn] > 0) t.stack_bytes -= L_.frame_bytes[(size_t)done.fn];
    t.reg_top = done.reg_base;
    t.local_top = done.local_base;
    t.param_top = done.param_base;
    return true;
}

}  // namespace ptx::detail
