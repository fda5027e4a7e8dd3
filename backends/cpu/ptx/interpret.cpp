// The interpreter (block.h says how threads, warps and groups fit together): a warp's scheduler
// (which group of lanes runs next), the group's loop (the hot forms inline, every other
// instruction through its family's handler), the handlers, and memory access with its checks.
//
// Sections: the warp's scheduler; the group's loop; operands and special registers; the handlers
// by family (data movement, addresses, memory, atomics, control, calls, fences, the ALU,
// barriers and warp collectives); memory access (spaces, bounds, the observers).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/ptx/alu.h"
#include "backends/cpu/ptx/block.h"
#include "backends/cpu/ptx/device_state.h"

namespace ptx::detail {

namespace {

// Copies of 4 and 8 bytes (nearly every access) inline; others through memcpy.
inline void copy_bytes(void* d, const void* s, size_t n) {
    switch (n) {
        case 4: std::memcpy(d, s, 4); break;
        case 8: std::memcpy(d, s, 8); break;
        default: std::memcpy(d, s, n); break;
    }
}

// Lanes whose guard predicate lets them execute `in`.
u32 guard_mask(const Group& g, const Instr& in) {
    const u64* p = g.R + size_t(in.guard) * kWarpSize;
    u32 active = 0;
    for (u32 m = g.mask; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (bool(p[l] & 1) != in.guard_neg) active |= u32(1) << l;
    }
    return active;
}

// The lanes of `active`, in lane order (the hot forms: the order does not matter).
#define FOR_LANES(active, ...)                                             \
    do {                                                                   \
        if ((active) == kAllLanes) {                                       \
            for (int l = 0; l < kWarpSize; ++l) { __VA_ARGS__; }           \
        } else {                                                           \
            for (u32 m_ = (active); m_; m_ &= m_ - 1) {                    \
                const int l = std::countr_zero(m_);                        \
                __VA_ARGS__;                                               \
            }                                                              \
        }                                                                  \
    } while (0)

// The hot forms, inline (fast_form in parse.cpp guarantees register or immediate sources).
void exec_fast(const Group& g, const Instr& in, u32 active) {
    u64* d = g.R + size_t(in.o[0].reg) * kWarpSize;
    // a source: its register's row, or the immediate for every lane
    auto row = [&](int k) -> const u64* {
        const Operand& o = in.o[k];
        return o.kind == Operand::kReg ? g.R + size_t(o.reg) * kWarpSize : nullptr;
    };
    // an immediate reads as a row whose every lane is element 0 (index mask 0)
    const u64 imm[3] = {u64(in.o[1].imm), u64(in.o[2].imm), u64(in.o[3].imm)};
    const u64* ra = in.nops > 1 && row(1) ? row(1) : &imm[0];
    const u64* rb = in.nops > 2 && row(2) ? row(2) : &imm[1];
    const u64* rc = in.nops > 3 && row(3) ? row(3) : &imm[2];
    const int ma = ra == &imm[0] ? 0 : 31, mb = rb == &imm[1] ? 0 : 31, mc = rc == &imm[2] ? 0 : 31;
#define A (ra[l & ma])
#define B (rb[l & mb])
#define C (rc[l & mc])
    auto f32of = [](u64 v) { return std::bit_cast<float>(u32(v)); };
    auto f64of = [](u64 v) { return std::bit_cast<double>(v); };
    // f32 NaNs are the GPU's canonical one; f64 NaNs are the host's (alu.cpp, out64)
    auto out32 = [](float x) -> u64 { return std::isnan(x) ? 0x7fffffffu : std::bit_cast<u32>(x); };
    auto out64 = [](double x) -> u64 { return std::bit_cast<u64>(x); };
    switch (in.fast) {
        case kAdd32: FOR_LANES(active, d[l] = u32(A + B)); break;
        case kAdd64: FOR_LANES(active, d[l] = A + B); break;
        case kSub32: FOR_LANES(active, d[l] = u32(A - B)); break;
        case kMulLo32: FOR_LANES(active, d[l] = u32(A * B)); break;
        case kMadLo32: FOR_LANES(active, d[l] = u32(A * B + C)); break;
        case kMulWideS32: FOR_LANES(active, d[l] = u64(std::int64_t(std::int32_t(A)) * std::int64_t(std::int32_t(B)))); break;
        case kMulWideU32: FOR_LANES(active, d[l] = u64(u32(A)) * u64(u32(B))); break;
        case kShl32: FOR_LANES(active, { const u64 n = u32(B); d[l] = n >= 32 ? 0 : u32(A << n); }); break;
        case kShl64: FOR_LANES(active, { const u64 n = u32(B); d[l] = n >= 64 ? 0 : A << n; }); break;
        case kAnd32: FOR_LANES(active, d[l] = u32(A & B)); break;
        case kOr32: FOR_LANES(active, d[l] = u32(A | B)); break;
        case kSetpEq32: FOR_LANES(active, d[l] = u32(A) == u32(B)); break;
        case kSetpNe32: FOR_LANES(active, d[l] = u32(A) != u32(B)); break;
        case kSetpLtS32: FOR_LANES(active, d[l] = std::int32_t(A) < std::int32_t(B)); break;
        case kSetpLeS32: FOR_LANES(active, d[l] = std::int32_t(A) <= std::int32_t(B)); break;
        case kSetpGtS32: FOR_LANES(active, d[l] = std::int32_t(A) > std::int32_t(B)); break;
        case kSetpGeS32: FOR_LANES(active, d[l] = std::int32_t(A) >= std::int32_t(B)); break;
        case kSetpLtU32: FOR_LANES(active, d[l] = u32(A) < u32(B)); break;
        case kSetpLeU32: FOR_LANES(active, d[l] = u32(A) <= u32(B)); break;
        case kSetpGtU32: FOR_LANES(active, d[l] = u32(A) > u32(B)); break;
        case kSetpGeU32: FOR_LANES(active, d[l] = u32(A) >= u32(B)); break;
        case kAndPred: FOR_LANES(active, d[l] = (A & B) & 1); break;
        case kOrPred: FOR_LANES(active, d[l] = (A | B) & 1); break;
        case kNotPred: FOR_LANES(active, d[l] = (~A) & 1); break;
        case kSelp: FOR_LANES(active, d[l] = (C & 1) ? A : B); break;
        case kCvtS64S32: FOR_LANES(active, d[l] = u64(std::int64_t(std::int32_t(A)))); break;
        case kCvtU32U64: FOR_LANES(active, d[l] = u32(A)); break;
        case kFmaF32: FOR_LANES(active, d[l] = out32(std::fmaf(f32of(A), f32of(B), f32of(C)))); break;
        case kFmaF64: FOR_LANES(active, d[l] = out64(std::fma(f64of(A), f64of(B), f64of(C)))); break;
        case kMulF32: FOR_LANES(active, d[l] = out32(f32of(A) * f32of(B))); break;
        case kMulF64: FOR_LANES(active, d[l] = out64(f64of(A) * f64of(B))); break;
        case kAddF32: FOR_LANES(active, d[l] = out32(f32of(A) + f32of(B))); break;
        case kAddF64: FOR_LANES(active, d[l] = out64(f64of(A) + f64of(B))); break;
        default: break;
    }
#undef A
#undef B
#undef C
}

// A memory operand's address for one lane: [reg + imm], frame-relative for this frame's locals
// and params.
u64 address(const Group& g, const Operand& o, Sp space, int lane) {
    u64 a = (o.reg >= 0 ? g.reg(o.reg, lane) : 0) + (u64)o.imm;
    if (o.frame_rel) a += space == Sp::local ? (u64)g.local_base : (u64)g.param_base;
    return a;
}

// Compares two threads' call stacks from the kernel's frame up: which is further behind. Equal
// stacks (0) run as one group. Where one stack continues another, the deeper one goes first: it
// returns to where the other waits.
int compare_stacks(const Thread& a, const Thread& b) {
    if (a.frames.size() == 1 && b.frames.size() == 1) {
        const int x = a.frames[0].pc, y = b.frames[0].pc;
        return x < y ? -1 : x > y ? 1 : 0;
    }
    const size_t n = std::min(a.frames.size(), b.frames.size());
    for (size_t k = 0; k < n; ++k) {
        const Frame& x = a.frames[k];
        const Frame& y = b.frames[k];
        if (x.fn != y.fn) return x.fn < y.fn ? -1 : 1;
        if (x.pc != y.pc) return x.pc < y.pc ? -1 : 1;
    }
    if (a.frames.size() == b.frames.size()) return 0;
    return a.frames.size() > b.frames.size() ? -1 : 1;
}

// A group that was picked this many times in a row while other lanes of its warp waited gives
// way (CUDA's independent thread scheduling: a lane spinning on another's flag must let it run).
constexpr int kMaxStreak = 64;

}  // namespace

// ---- the warp's scheduler ----------------------------------------------------------------------
// The ready lanes furthest behind, with their equal stacks; after kMaxStreak picks of the same
// group while others wait, the next group in lane order instead.
u32 BlockRunner::pick_group(Warp& w) {
    Thread* const* lanes = lane_ptrs_.data() + size_t(w.first / kWarpSize) * kWarpSize;
    u32 ready = 0;
    for (u32 m = w.all; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (lanes[l]->state == State::ready) ready |= u32(1) << l;
    }
    if (!ready) return 0;
    // the common case: every ready lane in the kernel's own frame, so the group is the lowest pc's
    bool flat = true;
    int low = 0x7fffffff;
    for (u32 m = ready; m && flat; m &= m - 1) {
        const Thread& t = *lanes[std::countr_zero(m)];
        flat = t.frames.size() == 1;
        low = std::min(low, t.frames[0].pc);
    }
    if (flat && w.streak <= kMaxStreak) {
        u32 group = 0;
        for (u32 m = ready; m; m &= m - 1) {
            const int l = std::countr_zero(m);
            if (lanes[l]->frames[0].pc == low) group |= u32(1) << l;
        }
        const u64 key = (u64(low) << 32) | u64(group);
        if (group == ready || key != w.last_key) {
            w.streak = group == ready ? 0 : 1;
            w.last_key = key;
            return group;
        }
        ++w.streak;  // the same group again while others wait: below, it may give way
    }
    int lead = std::countr_zero(ready);
    for (u32 m = ready & (ready - 1); m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (compare_stacks(*lanes[l], *lanes[lead]) < 0) lead = l;
    }
    auto group_of = [&](int leader) {
        u32 g = 0;
        for (u32 m = ready; m; m &= m - 1) {
            const int l = std::countr_zero(m);
            if (l == leader || compare_stacks(*lanes[l], *lanes[leader]) == 0) g |= u32(1) << l;
        }
        return g;
    };
    u32 group = group_of(lead);
    const u64 key = (u64(lanes[lead]->frames.back().pc) << 32) | u64(group);
    if (group != ready && key == w.last_key && ++w.streak > kMaxStreak) {
        // give way: the first ready lane after this group's, round the warp
        const u32 rest = ready & ~group;
        const u32 after = rest & ~((u32(2) << (31 - std::countl_zero(group))) - 1);
        lead = std::countr_zero(after ? after : rest);
        group = group_of(lead);
        w.streak = 0;
        w.last_key = 0;
        return group | 0;  // (the caller runs it like any other)
    }
    if (key != w.last_key) w.streak = 0;
    w.last_key = key;
    return group;
}

void BlockRunner::run_warp(Warp& w, long long& quantum) {
    while (quantum > 0 && !abort_) {
        const u32 g = pick_group(w);
        if (!g) return;
        run_group(w, g, quantum);
    }
}

void BlockRunner::write_back(Group& g, u32 lanes, int pc) {
    for (u32 m = lanes; m; m &= m - 1) g.lanes[std::countr_zero(m)]->frames.back().pc = pc;
}

// ---- the group's loop --------------------------------------------------------------------------
// Two instances: with each instruction reported to the observers that want them (a recording
// launch's traced block, provenance.h), and without, the loop every other block runs.
void BlockRunner::run_group(Warp& w, u32 mask, long long& quantum) {
    if (stepping_) run_group_as<true>(w, mask, quantum);
    else run_group_as<false>(w, mask, quantum);
}

template <bool kStep>
void BlockRunner::run_group_as(Warp& w, u32 mask, long long& quantum) {
    Thread* const* lanes = lane_ptrs_.data() + size_t(w.first / kWarpSize) * kWarpSize;
    u32 others = 0;  // ready lanes of the warp elsewhere: a jump returns to the scheduler to meet them
    for (u32 m = w.all & ~mask; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (lanes[l]->state == State::ready) others |= u32(1) << l;
    }
    Group g{w, mask, lanes};
    const u32 formed = mask;
    int group_lanes = std::popcount(mask);
    auto enter_frame = [&] {
        const Frame& fr = lanes[std::countr_zero(g.mask)]->frames.back();
        g.fn = fr.fn;
        g.f = &L_.m.functions[(size_t)fr.fn];
        g.pc = fr.pc;
        g.reg_base = fr.reg_base;
        g.local_base = fr.local_base;
        g.param_base = fr.param_base;
        g.R = w.row(g.reg_base);
    };
    enter_frame();
    auto finish = [&] {
        for (u32 m = formed; m; m &= m - 1) lanes[std::countr_zero(m)]->executed += g.steps;
    };
    for (;;) {
        const Instr* code = g.f->code.data();
        const int ncode = (int)g.f->code.size();
        Next next = Next::advance;
        for (;;) {
            if (g.pc >= ncode) {
                next = Next::ret;  // falling off the end of a function is a return
                break;
            }
            const Instr& in = code[g.pc];
            u32 active = g.mask;
            if (in.guard >= 0) {
                active = guard_mask(g, in);
                if (!active) {
                    if constexpr (kStep)
                        for (auto& o : observers_) o->step(*this, lanes, g.mask, 0, g.fn, g.pc);
                    ++g.pc;
                    continue;
                }
            }
            if (--quantum <= 0) {  // resume at this instruction after the others ran
                write_back(g, g.mask, g.pc);
                return finish();
            }
            ++g.steps;
            block_instructions_ += active == g.mask ? group_lanes : std::popcount(active);
            if (block_instructions_ >= next_poll_ && !poll_limits(g, in)) {
                write_back(g, g.mask, g.pc);
                return finish();
            }
            if constexpr (kStep)
                for (auto& o : observers_) o->step(*this, lanes, g.mask, active, g.fn, g.pc);
            if (in.fast) {
                exec_fast(g, in, active);
                ++g.pc;
                continue;
            }
            next = execute(g, in, active);
            if (next == Next::advance) {
                ++g.pc;
                if (in.op == Op::exit) group_lanes = std::popcount(g.mask);  // (lanes left the group)
                continue;
            }
            if (next == Next::jumped) {
                if (others) {  // lanes of this warp wait elsewhere: let the warp pick again
                    write_back(g, g.mask, g.pc);
                    return finish();
                }
                continue;
            }
            break;
        }
        switch (next) {
            case Next::part:
            case Next::stop: return finish();
            case Next::call:
                enter_frame();
                continue;
            case Next::ret: {
                bool exited = false;
                for (u32 m = g.mask; m; m &= m - 1) exited = !leave_frame(*lanes[std::countr_zero(m)]) || exited;
                if (exited || abort_) return finish();
                enter_frame();
                if (others) return finish();  // the caller may be where other lanes wait
                continue;
            }
            default: return finish();
        }
    }
}

// Every kCheckEvery instructions: the block's instruction budget, the deadline and the cancel
// flag. False: the group stops (and with it the block).
bool BlockRunner::poll_limits(Group& g, const Instr& in) {
    next_poll_ = block_instructions_ + kCheckEvery;
    const Thread& t = *g.lanes[std::countr_zero(g.mask)];
    if (L_.instruction_pool > 0) {
        const long long drawn = L_.instructions_drawn.fetch_add(block_instructions_ - drawn_) + block_instructions_ - drawn_;
        drawn_ = block_instructions_;
        if (drawn > L_.instruction_pool) {
            fatal(DiagKind::timeout, t, &in,
                  fmt::format("the launch executed more than {} instructions ({} a block) without finishing (an "
                              "endless loop?); thread {} of block {} was at {}",
                              L_.instruction_pool, L_.launch.block_instruction_budget, idx_text(t.idx),
                              idx_text(block_idx_), where(&in)));
            return false;
        }
    }
    if (L_.deadline > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - block_start_).count() > L_.deadline) {
        fatal(DiagKind::timeout, t, &in,
              fmt::format("block {} ran longer than {:g} s without finishing (an endless loop?); "
                          "thread {} was at {}",
                          idx_text(block_idx_), L_.deadline, idx_text(t.idx), where(&in)));
        return false;
    }
    if (L_.opt.cancel && L_.opt.cancel->load()) {
        abort_ = true;
        report.cancelled = true;
        return false;
    }
    return true;
}

// ---- operands ----------------------------------------------------------------------------------
// An operand's value for one lane: a register (a negated predicate flipped), an immediate, a
// special register, or a symbol's address (frame-relative ones in this frame).
u64 BlockRunner::operand(const Group& g, const Operand& o, int lane) {
    switch (o.kind) {
        case Operand::kReg: return o.negate ? (g.reg(o.reg, lane) ^ 1) : g.reg(o.reg, lane);
        case Operand::kImm: return (u64)o.imm;
        case Operand::kSpecial: return special(g, *g.lanes[lane], (Special)o.reg);
        case Operand::kSymAddr:
            if (o.frame_rel) return (u64)o.imm + (o.space == Sp::local ? (u64)g.local_base : (u64)g.param_base);
            return (u64)o.imm;
        default: return 0;
    }
}

u64 BlockRunner::special(const Group& g, const Thread& t, Special s) {
    const auto& gr = L_.launch.grid;
    const auto& b = L_.launch.block;
    const u32 lane = u32(t.lane);
    // Clocks: monotone per thread, the GPU gives no more (Explore varies stride and start).
    auto now = [&] {
        ++report.clock_reads;
        return u64(t.executed + g.steps) * L_.launch.explore.clock_stride + t.clock_offset;
    };
    switch (s) {
        case Special::tid_x: return u32(t.idx.x);
        case Special::tid_y: return u32(t.idx.y);
        case Special::tid_z: return u32(t.idx.z);
        case Special::ntid_x: return u32(b.x);
        case Special::ntid_y: return u32(b.y);
        case Special::ntid_z: return u32(b.z);
        case Special::ctaid_x: return u32(block_idx_.x);
        case Special::ctaid_y: return u32(block_idx_.y);
        case Special::ctaid_z: return u32(block_idx_.z);
        case Special::nctaid_x: return u32(gr.x);
        case Special::nctaid_y: return u32(gr.y);
        case Special::nctaid_z: return u32(gr.z);
        case Special::laneid: return lane;
        case Special::warpid: return u32(t.warp);
        case Special::nwarpid: return 64;
        case Special::smid: return u32(worker_);
        case Special::nsmid: return u32(std::max(1, report.workers));
        case Special::gridid: return 1;
        case Special::lanemask_eq: return u32(1) << lane;
        case Special::lanemask_lt: return (u32(1) << lane) - 1;
        case Special::lanemask_le: return u32((u64(2) << lane) - 1);
        case Special::lanemask_gt: return ~u32((u64(2) << lane) - 1);
        case Special::lanemask_ge: return ~((u32(1) << lane) - 1);
        case Special::clock: return u32(now());
        case Special::clock64: return now();
        case Special::globaltimer: return now();
        case Special::globaltimer_lo: return u32(now());
        case Special::globaltimer_hi: return u32(now() >> 32);
        case Special::dynamic_smem_size: return u32(L_.launch.dynamic_shared_bytes);
        case Special::total_smem_size: return u32(L_.shared_total);
    }
    return 0;
}

// ---- the handlers, by family -------------------------------------------------------------------
Next BlockRunner::execute(Group& g, const Instr& in, u32 active) {
    switch (family_of(in.op)) {
        case Family::move: return exec_mov(g, in, active);
        case Family::address: return exec_address(g, in, active);
        case Family::load: return exec_load(g, in, active);
        case Family::store: return exec_store(g, in, active);
        case Family::prefetch: case Family::nop: return Next::advance;
        case Family::alu: return exec_alu(g, in, active);
        case Family::atomic: return exec_atomic(g, in, active);
        case Family::branch: return exec_branch(g, in, active);
        case Family::call: return exec_call(g, in, active);
        case Family::ret: return exec_ret(g, in, active);
        case Family::exit: return exec_exit(g, in, active);
        case Family::fence: return exec_fence(g, in, active);
        case Family::barrier: return exec_barrier(g, in, active);
        case Family::warp: return exec_warp(g, in, active);
        case Family::yield:  // nanosleep: the lanes let the others run
            write_back(g, g.mask, g.pc + 1);
            return Next::stop;
        case Family::trap: {
            const Thread& t = *g.lanes[std::countr_zero(active)];
            fatal(DiagKind::kernel_exception, t, &in,
                  fmt::format("{} executed {} at {} (a store through a null pointer, which the compiler turns "
                              "into a trap, or an assert that failed?)", thread_text(t),
                              in.op == Op::trap ? "trap" : "brkpt", where(&in)));
            return Next::stop;
        }
    }
    return Next::advance;
}

// mov: a value, or a vector of registers unpacked from / packed into one wide value.
Next BlockRunner::exec_mov(Group& g, const Instr& in, u32 active) {
    const Operand& d = in.o[0];
    const Operand& s = in.o[1];
    const Function& f = *g.f;
    if (d.kind == Operand::kReg && s.kind == Operand::kSpecial) {  // %tid.x and the like
        u64* out = g.R + size_t(d.reg) * kWarpSize;
        switch ((Special)s.reg) {
            case Special::tid_x: FOR_LANES(active, out[l] = u32(g.lanes[l]->idx.x)); return Next::advance;
            case Special::tid_y: FOR_LANES(active, out[l] = u32(g.lanes[l]->idx.y)); return Next::advance;
            case Special::tid_z: FOR_LANES(active, out[l] = u32(g.lanes[l]->idx.z)); return Next::advance;
            default: break;
        }
        const Thread& first = *g.lanes[std::countr_zero(active)];
        switch ((Special)s.reg) {  // the same for every lane of the block
            case Special::ntid_x: case Special::ntid_y: case Special::ntid_z: case Special::ctaid_x:
            case Special::ctaid_y: case Special::ctaid_z: case Special::nctaid_x: case Special::nctaid_y:
            case Special::nctaid_z: {
                const u64 v = special(g, first, (Special)s.reg);
                FOR_LANES(active, out[l] = v);
                return Next::advance;
            }
            default: break;
        }
    }
    FOR_LANES(active, {
        if (d.kind == Operand::kVec) {  // unpack: mov.b64 {%r1, %r2}, %rd1
            const u64 v = operand(g, s, l);
            const int n = d.reg2, w = bytes_of(in.type) * 8 / n;
            for (int k = 0; k < n; ++k) {
                const int r = f.vec_regs[size_t(d.reg + k)];
                if (r >= 0) g.reg(r, l) = (v >> (k * w)) & (w >= 64 ? ~u64(0) : (u64(1) << w) - 1);
            }
        } else if (s.kind == Operand::kVec) {  // pack
            const int n = s.reg2, w = bytes_of(in.type) * 8 / n;
            u64 v = 0;
            for (int k = 0; k < n; ++k) {
                const int r = f.vec_regs[size_t(s.reg + k)];
                const u64 part = r >= 0 ? g.reg(r, l) : 0;
                v |= (part & (w >= 64 ? ~u64(0) : (u64(1) << w) - 1)) << (k * w);
            }
            g.reg(d.reg, l) = v;
        } else {
            const u64 v = operand(g, s, l);
            g.reg(d.reg, l) = in.type == Ty::pred ? (v & 1) : truncate_to(in.type == Ty::f32 ? Ty::b32 : in.type, v);
        }
    });
    return Next::advance;
}

// cvta: a space's address to a generic one (its window); cvta.to: back; isspacep: which window.
Next BlockRunner::exec_address(Group& g, const Instr& in, u32 active) {
    FOR_LANES(active, {
        u64 v = operand(g, in.o[1], l);
        if (in.op == Op::isspacep) {
            const u64 window = v >> kSpaceShift;
            bool in_space = false;
            switch (in.space) {
                case Sp::global: in_space = window == 0; break;
                case Sp::shared: in_space = window == 1; break;
                case Sp::local: in_space = window == 2; break;
                case Sp::constant: in_space = window == 3; break;
                case Sp::param: in_space = window == 4; break;
                default: break;
            }
            g.reg(in.o[0].reg, l) = in_space ? 1 : 0;
            continue;
        }
        if (in.op == Op::cvta_to) {
            if (in.space != Sp::global) v &= kWindowMask;
        } else {
            switch (in.space) {
                case Sp::shared: v = kSharedWindow + v; break;
                case Sp::local: v = kLocalWindow + v; break;
                case Sp::constant: v = kConstWindow + v; break;
                case Sp::param: v = kParamWindow + v; break;
                default: break;
            }
        }
        g.reg(in.o[0].reg, l) = in.type == Ty::u32 ? u32(v) : v;
    });
    return Next::advance;
}

// The plain loads and stores that are most of a kernel's memory instructions (one value of 1 to 8
// bytes, not observed or recorded: counting is fine), each lane's address checked as always.
bool BlockRunner::plain_access(const Instr& in) const { return in.vec == 1 && bytes_of(in.type) <= 8 && !observing_ && !record_block_; }

// A load every lane of the group makes from one address: the kernel's own parameters (every lane's
// copy of the launch's; a call site's params in the kernel's frame are the lane's own), and
// __constant__ memory at a fixed address.
bool BlockRunner::uniform_load(const Group& g, const Instr& in) const {
    const Operand& a = in.o[1];
    if (a.reg >= 0) return false;
    if (in.space == Sp::constant) return true;
    return in.space == Sp::param && a.frame_rel && g.fn == L_.entry_index && a.imm >= 0 &&
           a.imm + bytes_of(in.type) <= L_.entry_formal_bytes;
}

Next BlockRunner::load_plain(Group& g, const Instr& in, u32 active) {
    const int eb = bytes_of(in.type);
    u64* d = g.R + size_t(in.o[0].reg) * kWarpSize;
    const bool sign = is_signed(in.type);
    auto value = [&](const unsigned char* p) -> u64 {
        switch (eb) {
            case 8: { u64 v; std::memcpy(&v, p, 8); return v; }
            case 4: { u32 v; std::memcpy(&v, p, 4); return sign ? u64(std::int64_t(std::int32_t(v))) : u64(v); }
            default: { u64 v = 0; std::memcpy(&v, p, (size_t)eb); return sign ? truncate_to(in.type, v) : v; }
        }
    };
    if (uniform_load(g, in)) {  // one access for the group, its value to every lane
        unsigned char buf[8];
        const int first = std::countr_zero(active);
        if (!access<false>(*g.lanes[first], in, in.space, address(g, in.o[1], in.space, first), eb, buf)) return Next::stop;
        const u64 v = value(buf);
        FOR_LANES(active, d[l] = v);
        return Next::advance;
    }
    bool ok = true;
    FOR_LANES(active, {
        Thread& t = *g.lanes[l];
        u64 a = address(g, in.o[1], in.space, l);
        Sp space = in.space;
        unsigned char* p = nullptr;
        if (space == Sp::generic && !resolve_generic(t, in, space, a, eb, false)) {
            ok = false;
            break;
        }
        if ((a & u64(eb - 1)) != 0) {
            misaligned(t, in, space, eb, false);
            ok = false;
            break;
        }
        const bool got = space == Sp::shared   ? shared_pointer(t, in, a, eb, engine::Op::load, false, p)
                         : space == Sp::global ? global_pointer(t, in, a, eb, engine::Op::load, false, p)
                         : space == Sp::local  ? local_pointer(t, in, a, eb, engine::Op::load, false, p)
                                               : access<false>(t, in, space, a, eb, &p, true);  // (its address)
        if (!got) {
            ok = false;
            break;
        }
        d[l] = value(p);
    });
    return ok ? Next::advance : Next::stop;
}

Next BlockRunner::store_plain(Group& g, const Instr& in, u32 active) {
    const int eb = bytes_of(in.type);
    bool ok = true;
    // (in lane order as the exploration gives it: two lanes storing one cell leave the last one's)
    each_lane(active, [&](int l) {
        if (!ok) return;
        Thread& t = *g.lanes[l];
        u64 a = address(g, in.o[0], in.space, l);
        Sp space = in.space;
        unsigned char* p = nullptr;
        if (space == Sp::generic && !resolve_generic(t, in, space, a, eb, true)) {
            ok = false;
            return;
        }
        if ((a & u64(eb - 1)) != 0) {
            misaligned(t, in, space, eb, true);
            ok = false;
            return;
        }
        const bool got = space == Sp::shared   ? shared_pointer(t, in, a, eb, engine::Op::store, true, p)
                         : space == Sp::global ? global_pointer(t, in, a, eb, engine::Op::store, true, p)
                         : space == Sp::local  ? local_pointer(t, in, a, eb, engine::Op::store, true, p)
                                               : access<true>(t, in, space, a, eb, &p, true);  // (its address)
        if (!got) {
            ok = false;
            return;
        }
        const u64 v = operand(g, in.o[1], l);
        std::memcpy(p, &v, (size_t)eb);
    });
    return ok ? Next::advance : Next::stop;
}

// ld / ldu: one value or a vector per lane, signed types sign-extended.
Next BlockRunner::exec_load(Group& g, const Instr& in, u32 active) {
    if (in.o[0].kind == Operand::kReg && plain_access(in)) return load_plain(g, in, active);
    const int eb = bytes_of(in.type);
    const int n = in.vec;
    const Operand& d = in.o[0];
    bool ok = true;
    each_lane(active, [&](int l) {
        if (!ok) return;
        unsigned char buf[64];
        const u64 a = address(g, in.o[1], in.space, l);
        if (!access<false>(*g.lanes[l], in, in.space, a, eb * n, buf)) {
            ok = false;
            return;
        }
        auto elem = [&](int k) {
            u64 v = 0;
            copy_bytes(&v, buf + k * eb, (size_t)std::min(eb, 8));
            return is_signed(in.type) ? truncate_to(in.type, v) : v;
        };
        if (d.kind == Operand::kVec) {
            for (int k = 0; k < d.reg2; ++k) {
                const int r = g.f->vec_regs[size_t(d.reg + k)];
                if (r >= 0) g.reg(r, l) = elem(k);
            }
        } else {
            g.reg(d.reg, l) = elem(0);
        }
    });
    return ok ? Next::advance : Next::stop;
}

// st: one value or a vector per lane.
Next BlockRunner::exec_store(Group& g, const Instr& in, u32 active) {
    if (in.o[1].kind != Operand::kVec && plain_access(in)) return store_plain(g, in, active);
    const int eb = bytes_of(in.type);
    const int n = in.vec;
    const Operand& s = in.o[1];
    bool ok = true;
    each_lane(active, [&](int l) {
        if (!ok) return;
        unsigned char buf[64];
        if (s.kind == Operand::kVec) {
            for (int k = 0; k < s.reg2; ++k) {
                const int r = g.f->vec_regs[size_t(s.reg + k)];
                const u64 v = r >= 0 ? g.reg(r, l) : 0;
                copy_bytes(buf + k * eb, &v, (size_t)std::min(eb, 8));
            }
        } else {
            const u64 v = operand(g, s, l);
            copy_bytes(buf, &v, (size_t)std::min(eb, 8));
        }
        const u64 a = address(g, in.o[0], in.space, l);
        if (!access<true>(*g.lanes[l], in, in.space, a, eb * n, buf)) ok = false;
    });
    return ok ? Next::advance : Next::stop;
}

Next BlockRunner::exec_atomic(Group& g, const Instr& in, u32 active) {
    bool ok = true;
    each_lane(active, [&](int l) {
        if (ok && !atomic(g, *g.lanes[l], in)) ok = false;
    });
    return ok ? Next::advance : Next::stop;
}

// bra: the whole group, or the lanes part.
Next BlockRunner::exec_branch(Group& g, const Instr& in, u32 active) {
    const int target = (int)in.o[0].imm;
    if (active == g.mask) {
        g.pc = target;
        return Next::jumped;
    }
    write_back(g, active, target);
    write_back(g, g.mask & ~active, g.pc + 1);
    return Next::part;
}

// ret: the whole group leaves its frame (the loop does it), or the returning lanes part.
Next BlockRunner::exec_ret(Group& g, const Instr&, u32 active) {
    if (active == g.mask) return Next::ret;
    for (u32 m = active; m; m &= m - 1) leave_frame(*g.lanes[std::countr_zero(m)]);
    write_back(g, g.mask & ~active, g.pc + 1);
    return abort_ ? Next::stop : Next::part;
}

Next BlockRunner::exec_exit(Group& g, const Instr&, u32 active) {
    for (u32 m = active; m; m &= m - 1) g.lanes[std::countr_zero(m)]->state = State::exited;
    if (active == g.mask) return Next::stop;
    g.mask &= ~active;  // the others go on
    return Next::advance;
}

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
            case kCalleeVprintf: do_printf(g, t, in); break;
            case kCalleeAssertFail: do_assert_fail(g, t, in); break;
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

// membar / fence: the observers order what it orders.
Next BlockRunner::exec_fence(Group& g, const Instr& in, u32 active) {
    if (!observing_) return Next::advance;
    each_lane(active, [&](int l) {
        for (auto& o : observers_) o->fence(*this, *g.lanes[l], in);
    });
    return Next::advance;
}

// The arithmetic (alu.cpp): up to 5 sources per lane, one destination or a pair.
Next BlockRunner::exec_alu(Group& g, const Instr& in, u32 active) {
    const int ns = in.nops - 1;
    const Operand& d = in.o[0];
    const bool approximate = is_approximate(in);
    const bool approx = L_.launch.explore.perturb_approx && approximate;
    bool ok = true;
    FOR_LANES(active, {
        Thread& t = *g.lanes[l];
        u64 src[5];
        for (int k = 0; k < ns && k < 5; ++k) src[k] = operand(g, in.o[k + 1], l);
        AluResult r;
        if (!alu(in, src, ns, r, t.carry)) {
            fatal(DiagKind::kernel_exception, t, &in,
                  fmt::format("the PTX instruction '{}' at {} is not supported by the CPU engine",
                              instr_text(*g.f, in), where(&in)));
            ok = false;
            break;
        }
        if (approx) r.d = approx_moved(in, r.d, l, t);
        if (approximate) ++report.approximate_results;
        if (d.kind == Operand::kPair) {
            g.reg(d.reg, l) = r.d;
            g.reg(d.reg2, l) = r.d2;
        } else if (d.kind == Operand::kReg) {
            g.reg(d.reg, l) = r.d;
        }
    });
    return ok ? Next::advance : Next::stop;
}

// An approximate instruction's result moved within PTX's documented bound, by a choice the launch's
// seed, the instruction and its lane make: down, not at all, or up.
u64 BlockRunner::approx_moved(const Instr& in, u64 exact, int lane, const Thread& t) const {
    u64 h = L_.launch.explore.seed ^ (u64(in.ptx_line) * 0x9E3779B97F4A7C15ull) ^ (u64(t.linear) << 20) ^
            u64(lane) ^ (u64(block_) << 40) ^ exact;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return move_within_bound(in, exact, int(h % 3) - 1);
}

// bar.sync / bar.red: the lanes wait at the block's barrier (rendezvous.cpp releases it).
Next BlockRunner::exec_barrier(Group& g, const Instr& in, u32 active) {
    const Thread& first = *g.lanes[std::countr_zero(active)];
    if (in.nops >= 1 && in.o[0].kind == Operand::kImm && in.o[0].imm != 0) {
        fatal(DiagKind::kernel_exception, first, &in,
              fmt::format("named barrier {} at {}: only barrier 0 (__syncthreads) is supported", in.o[0].imm,
                          where(&in)));
        return Next::stop;
    }
    if (in.op == Op::bar && in.nops > 1) {
        const u64 cnt = operand(g, in.o[1], std::countr_zero(active));
        if (cnt != (u64)L_.nthreads) {
            fatal(DiagKind::kernel_exception, first, &in,
                  fmt::format("a barrier for {} threads at {}: only whole-block barriers are supported", cnt,
                              where(&in)));
            return Next::stop;
        }
    }
    for (u32 m = active; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        Thread& t = *g.lanes[l];
        t.state = State::barrier;
        t.wait = &in;
        t.wait_fn = g.fn;
        t.wait_pc = g.pc;
        t.wait_value = in.op == Op::bar_red ? operand(g, in.o[in.nops - 1], l) & 1 : 0;
    }
    write_back(g, active, g.pc);
    if (active == g.mask) return Next::stop;
    write_back(g, g.mask & ~active, g.pc + 1);
    return Next::part;
}

// A warp rendezvous (bar.warp, shfl, vote, match, redux) or activemask. Lanes whose member mask
// is all here complete it now; the others wait (rendezvous.cpp completes them when their lanes
// arrive).
Next BlockRunner::exec_warp(Group& g, const Instr& in, u32 active) {
    if (in.op == Op::activemask) {
        FOR_LANES(active, g.reg(in.o[0].reg, l) = active);
        return Next::advance;
    }
    for (u32 m = active; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        Thread& t = *g.lanes[l];
        t.state = State::warp;
        t.wait = &in;
        t.wait_fn = g.fn;
        t.wait_pc = g.pc;
        u64 mask = ~u64(0);
        switch (in.op) {
            case Op::bar_warp: mask = operand(g, in.o[0], l); break;
            case Op::shfl: mask = operand(g, in.o[4], l); t.wait_value = operand(g, in.o[1], l); break;
            case Op::vote: mask = operand(g, in.o[2], l); t.wait_value = operand(g, in.o[1], l) & 1; break;
            case Op::match: mask = operand(g, in.o[2], l); t.wait_value = operand(g, in.o[1], l); break;
            case Op::redux: mask = operand(g, in.o[2], l); t.wait_value = operand(g, in.o[1], l); break;
            default: break;
        }
        t.wait_mask = u32(mask);
    }
    write_back(g, active, g.pc);
    const bool all_done = try_complete_now(g, in, active);
    if (abort_) return Next::stop;
    if (all_done && active == g.mask) return Next::advance;  // (their frames' pc is g.pc + 1 too)
    write_back(g, g.mask & ~active, g.pc + 1);
    return Next::part;
}

// ---- memory ------------------------------------------------------------------------------------
// A generic address into its space (the top byte) and the offset inside it; false: in none.
bool BlockRunner::resolve_generic(Thread& t, const Instr& in, Sp& space, u64& addr, int size, bool store) {
    switch (addr >> kSpaceShift) {
        case 0: space = Sp::global; return true;
        case 1: space = Sp::shared; addr &= kWindowMask; return true;
        case 2: space = Sp::local; addr &= kWindowMask; return true;
        case 3: space = Sp::constant; addr &= kWindowMask; return true;
        case 4: space = Sp::param; addr &= kWindowMask; return true;
        default: no_allocation(t, in, addr, size, store); return false;
    }
}

// The buffer an address falls in (nearest base: an address just below a buffer, in[-1], is a
// negative index of that buffer, not one past the end of the buffer below it), or nullptr.
const BufferSlot* BlockRunner::buffer_of(u64 addr, int& index) const {
    u64 slot = (addr + (u64(1) << 39)) >> 40;
    auto known = [&](u64 s) {
        if (s == 0) return false;
        const u64 i = s - 1;
        return i < L_.buffers.size() || i == u64(kModuleGlobalsIndex) || i == u64(kHeapIndex);
    };
    if (!known(slot)) slot = addr >> 40;
    if (!known(slot)) return nullptr;
    index = int(slot - 1);
    if (index == kModuleGlobalsIndex) return &L_.module_globals;
    if (index == kHeapIndex) return &L_.device->heap_slot;
    return &L_.buffers[(size_t)index];
}

// A global address to host memory, checked against its buffer's true bounds.
bool BlockRunner::global_pointer(Thread& t, const Instr& in, u64 addr, int size, engine::Op op, bool store,
                                 unsigned char*& p) {
    int index = -1;
    const BufferSlot* b = buffer_of(addr, index);
    if (!b) {
        no_allocation(t, in, addr, size, store);
        return false;
    }
    const long long off = (long long)(addr - buffer_address(index));
    if (b->heap && off >= 0 && !heap_access_ok(t, in, off, size, op, store)) return false;
    if (off < 0 || off + size > (long long)b->bytes) {
        buffer_fault(t, in, *b, off, op, DiagKind::out_of_bounds, store);
        return false;
    }
    if (store && b->read_only) {
        buffer_fault(t, in, *b, off, op, DiagKind::input_write, store);
        return false;
    }
    p = b->data + off;
    if (L_.counting || record_block_ || observing_) {
        record(t, in, engine::Space::global, op, size, b->id, off);
        if (observing_) {
            const AccessEvent e{t, in, engine::Space::global, op, size, b, index, -1, off, 0,
                                (in.flags & kStrong) != 0, (in.flags & kSemAcquire) != 0, (in.flags & kSemRelease) != 0};
            for (auto& o : observers_) o->access(*this, e);
        }
    }
    return true;
}

bool BlockRunner::shared_pointer(Thread& t, const Instr& in, u64 addr, int size, engine::Op op, bool store,
                                 unsigned char*& p) {
    // A shared address is 32 bits wide: [%r1+-4] with %r1 = 0 is byte -4, before the block's memory.
    long long a = (long long)addr;
    if ((addr >> 32) == 0 || (addr >> 31) == 0x1FFFFFFFFull) a = (std::int32_t)u32(addr);
    if (a < 0 || a + size > L_.shared_total) {
        shared_out_of_bounds(t, in, a, op, store);
        return false;
    }
    p = shared_.data() + a;
    if (L_.counting || record_block_ || observing_) {
        const auto [var, inner] = shared_var(a);
        record(t, in, engine::Space::shared, op, size, var, inner);
        if (observing_) {
            const AccessEvent e{t, in, engine::Space::shared, op, size, nullptr, -1, var, a, inner,
                                (in.flags & kStrong) != 0, (in.flags & kSemAcquire) != 0, (in.flags & kSemRelease) != 0};
            for (auto& o : observers_) o->access(*this, e);
        }
    }
    return true;
}

bool BlockRunner::local_pointer(Thread& t, const Instr& in, u64 addr, int size, engine::Op op, bool store,
                                unsigned char*& p) {
    if (addr < t.local.size() && t.local.size() - addr >= (u64)size) {  // (a negative index wraps)
        p = t.local.data() + addr;
        return true;
    }
    local_out_of_bounds(t, in, addr, op, store);
    return false;
}

template <bool kStore>
bool BlockRunner::access(Thread& t, const Instr& in, Sp space, u64 addr, int size, void* data, bool atomic_op) {
    const engine::Op op = atomic_op ? engine::Op::atomic : kStore ? engine::Op::store : engine::Op::load;
    std::unique_lock<std::mutex> strong;  // (an atomic's is taken by atomic(), around its effect too)
    if (observing_ && !atomic_op && (in.flags & kStrong)) strong = std::unique_lock(L_.strong_access_mutex);
    if (space == Sp::generic && !resolve_generic(t, in, space, addr, size, kStore)) return false;
    if (size > 1 && (addr & (u64)(std::min(size, 16) - 1)) != 0 && space != Sp::param) {
        misaligned(t, in, space, size, kStore);
        return false;
    }
    unsigned char* p = nullptr;
    switch (space) {
        case Sp::global:
            if (!global_pointer(t, in, addr, size, op, kStore, p)) return false;
            break;
        case Sp::shared:
            if (!shared_pointer(t, in, addr, size, op, kStore, p)) return false;
            break;
        case Sp::local:
            if (!local_pointer(t, in, addr, size, op, kStore, p)) return false;
            break;
        case Sp::constant:
            if (kStore || addr >= L_.const_mem.size() || L_.const_mem.size() - addr < (u64)size) {
                fatal(DiagKind::out_of_bounds, t, &in,
                      fmt::format("{} {} constant memory at byte {} (the module has {} bytes), at {}", thread_text(t),
                                  kStore ? "stores to" : "loads past", addr, L_.const_mem.size(), where(&in)));
                return false;
            }
            p = L_.const_mem.data() + addr;
            break;
        case Sp::param:
            if (addr >= t.params.size() || t.params.size() - addr < (u64)size) {
                fatal(DiagKind::out_of_bounds, t, &in, fmt::format("param-space access out of range at {}", where(&in)));
                return false;
            }
            p = t.params.data() + addr;
            break;
        default: return false;
    }
    if (atomic_op) {
        *static_cast<unsigned char**>(data) = p;
        return true;
    }
    if (kStore) copy_bytes(p, data, (size_t)size);
    else copy_bytes(data, p, (size_t)size);
    return true;
}
template bool BlockRunner::access<false>(Thread&, const Instr&, Sp, u64, int, void*, bool);
template bool BlockRunner::access<true>(Thread&, const Instr&, Sp, u64, int, void*, bool);

void BlockRunner::record(Thread& t, const Instr& in, engine::Space sp, engine::Op op, int size, int buffer, long long off) {
    if (L_.counting) block_counts_.add(sp, op, size);
    if (record_block_) {
        auto& oc = t.occurrence[(size_t)in.site];
        if (oc.first != t.interval) oc = {t.interval, 0};
        if (report.trace.size() >= L_.opt.trace.max_records) {
            report.trace_truncated = true;
        } else {
            engine::Access a;
            a.block = block_;
            a.thread = t.linear;
            a.interval = t.interval;
            a.site = in.site;
            a.occurrence = oc.second;
            a.seq = t.seq;
            a.space = sp;
            a.op = op;
            a.size = (std::uint8_t)std::min(size, 255);
            a.buffer = buffer;
            a.offset = off;
            report.trace.push_back(a);
        }
        ++oc.second;
    }
    ++t.seq;
}

// atom / red: read-modify-write through std::atomic_ref (blocks on other workers may hit the
// same global word).
bool BlockRunner::atomic(Group& g, Thread& t, const Instr& in) {
    const bool is_red = in.op == Op::red;
    const Operand& mem = is_red ? in.o[0] : in.o[1];
    const int lane = t.lane;
    const u64 addr = address(g, mem, in.space, lane);
    const int size = std::max(4, bytes_of(in.type));
    unsigned char* p = nullptr;
    std::unique_lock<std::mutex> strong;  // the observation and the effect as one step (block.h)
    if (observing_) strong = std::unique_lock(L_.strong_access_mutex);
    if (!access<true>(t, in, in.space, addr, size, &p, true)) return false;
    auto val = [&](const Operand& o) -> u64 {
        return o.kind == Operand::kReg ? g.reg(o.reg, lane) : o.kind == Operand::kImm ? (u64)o.imm : 0;
    };
    const u64 b = val(is_red ? in.o[1] : in.o[2]);
    const u64 c = (!is_red && in.nops > 3) ? val(in.o[3]) : 0;
    const Ty ty = in.type;
    auto apply = [&](u64 old) -> u64 {
        switch (in.sub) {
            case Sub::add:
                if (ty == Ty::f32) return std::bit_cast<u32>(std::bit_cast<float>(u32(old)) + std::bit_cast<float>(u32(b)));
                if (ty == Ty::f64) return std::bit_cast<u64>(std::bit_cast<double>(old) + std::bit_cast<double>(b));
                return old + b;
            case Sub::min: case Sub::max: {
                const bool mx = in.sub == Sub::max;
                if (ty == Ty::f32) {
                    const float x = std::bit_cast<float>(u32(old)), y = std::bit_cast<float>(u32(b));
                    return std::bit_cast<u32>(mx ? std::fmax(x, y) : std::fmin(x, y));
                }
                if (is_signed(ty)) {
                    const std::int64_t x = size == 4 ? std::int32_t(old) : std::int64_t(old);
                    const std::int64_t y = size == 4 ? std::int32_t(b) : std::int64_t(b);
                    return u64(mx ? std::max(x, y) : std::min(x, y));
                }
                const u64 x = size == 4 ? u32(old) : old, y = size == 4 ? u32(b) : b;
                return mx ? std::max(x, y) : std::min(x, y);
            }
            case Sub::inc: return (u32(old) >= u32(b)) ? 0 : u32(old) + 1;
            case Sub::dec: return (u32(old) == 0 || u32(old) > u32(b)) ? u32(b) : u32(old) - 1;
            case Sub::and_: return old & b;
            case Sub::or_: return old | b;
            case Sub::xor_: return old ^ b;
            case Sub::exch: return b;
            case Sub::cas: return (size == 4 ? u32(old) == u32(b) : old == b) ? c : old;
            default: return old;
        }
    };
    u64 old;
    if (size == 4) {
        std::atomic_ref<u32> a(*reinterpret_cast<u32*>(p));
        u32 o = a.load();
        while (!a.compare_exchange_weak(o, u32(apply(o)))) {
        }
        old = o;
    } else {
        std::atomic_ref<u64> a(*reinterpret_cast<u64*>(p));
        u64 o = a.load();
        while (!a.compare_exchange_weak(o, apply(o))) {
        }
        old = o;
    }
    if (!is_red && in.o[0].kind == Operand::kReg)
        g.reg(in.o[0].reg, lane) =
            truncate_to(ty == Ty::f32 || ty == Ty::b32 ? Ty::u32 : ty == Ty::f64 || ty == Ty::b64 ? Ty::u64 : ty, old);
    return true;
}

}  // namespace ptx::detail
