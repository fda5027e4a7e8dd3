// The interpreter (block.h says how threads, warps and groups fit together): a warp's scheduler
// (which group of lanes runs next), the group's loop (the hot forms inline, every other
// instruction through its family's handler), and the handlers other than memory (memory.cpp) and
// calls (calls.cpp).
//
// Sections: the warp's scheduler; the group's loop; operands and special registers; the handlers
// by family (data movement, addresses, control, fences, the ALU, barriers and warp collectives).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/ptx/alu.h"
#include "backends/cpu/ptx/block.h"
#include "backends/cpu/ptx/lanes.h"

namespace ptx::detail {

namespace {

// Lanes whose guard predicate lets them execute `in`.
u32 guard_mask(const Group& g, const Instr& in) {
    const u64* p = g.R + size_t(in.guard) * kWarpSize;
    u32 active = 0;
    if (g.mask == kAllLanes) {  // (a converged group: one plain loop the compiler unrolls)
        for (int l = 0; l < kWarpSize; ++l) active |= u32(p[l] & 1) << l;
        return in.guard_neg ? ~active : active;
    }
    for (u32 m = g.mask; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (bool(p[l] & 1) != in.guard_neg) active |= u32(1) << l;
    }
    return active;
}

// The hot forms, inline (fast_form in parse_instructions.cpp guarantees register or immediate sources).
// Long because it is the hot forms' one switch: a function per form would cost the call this saves.
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
    // A converged group runs each form as one plain loop over the 32 lanes (no lane mask, no index
    // masking: the compiler unrolls and vectorises it); an immediate is spread over a row for it.
    u64 spread[3][kWarpSize];
    const bool converged = active == kAllLanes;
    const u64* va = ra;
    const u64* vb = rb;
    const u64* vc = rc;
    if (converged) {
        auto spread_imm = [&](const u64*& v, int k, int m) {
            if (m) return;
            std::fill(spread[k], spread[k] + kWarpSize, imm[k]);
            v = spread[k];
        };
        spread_imm(va, 0, ma);
        if (in.nops > 2) spread_imm(vb, 1, mb);
        if (in.nops > 3) spread_imm(vc, 2, mc);
    }
#define A (ra[l & ma])
#define B (rb[l & mb])
#define C (rc[l & mc])
// (the converged loop's rows shadow the masked ones: the same expression, indexed plainly)
#define F(...)                                                                    \
    do {                                                                          \
        if (converged) {                                                          \
            [[maybe_unused]] const u64* const ra = va;                            \
            [[maybe_unused]] const u64* const rb = vb;                            \
            [[maybe_unused]] const u64* const rc = vc;                            \
            [[maybe_unused]] constexpr int ma = 31, mb = 31, mc = 31;             \
            for (int l = 0; l < kWarpSize; ++l) d[l] = (__VA_ARGS__);             \
        } else {                                                                  \
            FOR_LANES(active, d[l] = (__VA_ARGS__));                              \
        }                                                                         \
    } while (0)
    auto f32of = [](u64 v) { return std::bit_cast<float>(u32(v)); };
    auto f64of = [](u64 v) { return std::bit_cast<double>(v); };
    // f32 NaNs are the GPU's canonical one; f64 NaNs are the host's (alu.cpp, out64)
    auto out32 = [](float x) -> u64 { return std::isnan(x) ? 0x7fffffffu : std::bit_cast<u32>(x); };
    auto out64 = [](double x) -> u64 { return std::bit_cast<u64>(x); };
    switch (in.fast) {
        case kAdd32: F(u32(A + B)); break;
        case kAdd64: F(A + B); break;
        case kSub32: F(u32(A - B)); break;
        case kMulLo32: F(u32(A * B)); break;
        case kMadLo32: F(u32(A * B + C)); break;
        case kMulWideS32: F(u64(std::int64_t(std::int32_t(A)) * std::int64_t(std::int32_t(B)))); break;
        case kMulWideU32: F(u64(u32(A)) * u64(u32(B))); break;
        case kShl32: F(u32(B) >= 32 ? 0 : u32(A << u32(B))); break;
        case kShl64: F(u32(B) >= 64 ? 0 : A << u32(B)); break;
        case kAnd32: F(u32(A & B)); break;
        case kOr32: F(u32(A | B)); break;
        case kSetpEq32: F(u32(A) == u32(B)); break;
        case kSetpNe32: F(u32(A) != u32(B)); break;
        case kSetpLtS32: F(std::int32_t(A) < std::int32_t(B)); break;
        case kSetpLeS32: F(std::int32_t(A) <= std::int32_t(B)); break;
        case kSetpGtS32: F(std::int32_t(A) > std::int32_t(B)); break;
        case kSetpGeS32: F(std::int32_t(A) >= std::int32_t(B)); break;
        case kSetpLtU32: F(u32(A) < u32(B)); break;
        case kSetpLeU32: F(u32(A) <= u32(B)); break;
        case kSetpGtU32: F(u32(A) > u32(B)); break;
        case kSetpGeU32: F(u32(A) >= u32(B)); break;
        case kAndPred: F((A & B) & 1); break;
        case kOrPred: F((A | B) & 1); break;
        case kNotPred: F((~A) & 1); break;
        case kSelp: F((C & 1) ? A : B); break;
        case kCvtS64S32: F(u64(std::int64_t(std::int32_t(A)))); break;
        case kCvtU32U64: F(u32(A)); break;
        case kFmaF32: F(out32(std::fmaf(f32of(A), f32of(B), f32of(C)))); break;
        case kFmaF64: F(out64(std::fma(f64of(A), f64of(B), f64of(C)))); break;
        case kMulF32: F(out32(f32of(A) * f32of(B))); break;
        case kMulF64: F(out64(f64of(A) * f64of(B))); break;
        case kAddF32: F(out32(f32of(A) + f32of(B))); break;
        case kAddF64: F(out64(f64of(A) + f64of(B))); break;
        default: break;
    }
#undef A
#undef B
#undef C
#undef F
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

// A strong load or an atomic into a register that read, in every active lane, what this warp's
// last poll at the same instruction read.
bool BlockRunner::poll_unchanged(Warp& w, const Group& g, const Instr& in, u32 active) {
    const Family f = family_of(in.op);
    if (!(f == Family::atomic || (f == Family::load && (in.flags & kStrong))) || in.o[0].kind != Operand::kReg)
        return false;
    const u64* d = g.R + size_t(in.o[0].reg) * kWarpSize;
    u64 h = 0x9E3779B97F4A7C15ull;
    for (u32 m = active; m; m &= m - 1) h = (h ^ d[std::countr_zero(m)]) * 0xff51afd7ed558ccdull;
    const u64 at = (u64(g.fn) << 40) ^ (u64(g.pc) << 8) ^ u64(active);
    const bool same = at == w.poll_at && h == w.poll_read;
    w.poll_at = at;
    w.poll_read = h;
    return same;
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

// Long because it is the interpreter's hot loop: the group's state (its lanes, frame, program
// counter and register rows) stays in locals across instructions, and the hot forms run inline.
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
            if (next == Next::advance && !others && polls_yield_ && poll_unchanged(w, g, in, active)) {
                // a poll that saw no change, by every ready lane of the warp: the other warps first
                write_back(g, g.mask, g.pc + 1);
                quantum = 0;
                poll_yielded_ = true;
                return finish();
            }
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


}  // namespace ptx::detail
