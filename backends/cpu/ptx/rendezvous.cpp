// Rendezvous: the warp collectives (shfl, vote, match, redux, bar.warp.sync) completed for a
// group of lanes, at once when every lane of the member mask arrives together (the interpreter's
// common case) or when the last of them arrives; the block's barrier released when every live
// thread waits at it; and when nothing can run, the reason the block is stuck.
#include <algorithm>
#include <bit>
#include <tuple>

#include <fmt/format.h>

#include "backends/cpu/ptx/alu.h"
#include "backends/cpu/ptx/block.h"

namespace ptx::detail {

namespace {

int lane_of(const Thread* t) { return t->lane; }

}  // namespace

// Completes the warp group `lanes` (all waiting at `in`, with the same member mask): the results,
// then every lane ready at the next instruction.
// One function because it is one case per warp collective (bar.warp, vote, shfl, match, redux),
// each over the same group of lanes.
void BlockRunner::complete_warp_group(std::vector<Thread*>& lanes, const Instr& in) {
    Thread* by_lane[kWarpSize] = {};
    u32 mask = 0;
    for (Thread* t : lanes) {
        by_lane[lane_of(t)] = t;
        mask |= u32(1) << lane_of(t);
    }
    auto dest = [&](Thread* t) -> u64& { return reg_of(*t, in.o[0].reg); };
    switch (in.op) {
        case Op::bar_warp:
            if (observing_)
                for (auto& o : observers_) o->warp_synced(*this, lanes);
            break;
        case Op::vote: {  // all / any / uni / ballot over the group's predicates
            u32 ballot = 0;
            for (Thread* t : lanes)
                if (t->wait_value & 1) ballot |= u32(1) << lane_of(t);
            for (Thread* t : lanes) {
                u64 r = 0;
                switch (in.sub) {
                    case Sub::all: r = ballot == mask; break;
                    case Sub::any: r = ballot != 0; break;
                    case Sub::uni: r = ballot == 0 || ballot == mask; break;
                    case Sub::ballot: r = ballot; break;
                    default: break;
                }
                dest(t) = r;
            }
            break;
        }
        case Op::match: {  // any: the lanes with my value; all: the mask when every lane agrees
            const Ty w = in.type == Ty::b64 ? Ty::u64 : Ty::u32;
            for (Thread* t : lanes) {
                u32 same = 0;
                for (Thread* o : lanes)
                    if (truncate_to(w, o->wait_value) == truncate_to(w, t->wait_value)) same |= u32(1) << lane_of(o);
                const Operand& d = in.o[0];
                if (in.sub == Sub::any) {
                    dest(t) = same;
                } else {
                    const bool all = same == mask;
                    dest(t) = all ? mask : 0;
                    if (d.kind == Operand::kPair) reg_of(*t, d.reg2) = all;
                }
            }
            break;
        }
        case Op::redux: {  // the group's 32-bit values reduced, in lane order, into every lane
            u64 acc = 0;
            bool first = true;
            for (Thread* t : lanes) {
                const u64 v = u32(t->wait_value);
                if (first) acc = v, first = false;
                else switch (in.sub) {
                        case Sub::add: acc = u32(acc + v); break;
                        case Sub::and_: acc &= v; break;
                        case Sub::or_: acc |= v; break;
                        case Sub::xor_: acc ^= v; break;
                        case Sub::min:
                            acc = is_signed(in.type) ? u32(std::min(std::int32_t(acc), std::int32_t(v))) : std::min(acc, v);
                            break;
                        case Sub::max:
                            acc = is_signed(in.type) ? u32(std::max(std::int32_t(acc), std::int32_t(v))) : std::max(acc, v);
                            break;
                        default: break;
                    }
            }
            for (Thread* t : lanes) dest(t) = acc;
            break;
        }
        case Op::shfl: {  // up / down / bfly / idx within the segment that c's mask and clamp describe
            // b and c are per-lane values, read before any lane's destination is written
            std::vector<std::pair<u32, u32>> bc(lanes.size());
            for (size_t k = 0; k < lanes.size(); ++k) {
                auto v = [&](const Operand& o) -> u64 {
                    return o.kind == Operand::kReg ? reg_of(*lanes[k], o.reg) : o.kind == Operand::kImm ? (u64)o.imm : 0;
                };
                bc[k] = {u32(v(in.o[2])) & 31, u32(v(in.o[3]))};
            }
            for (size_t k = 0; k < lanes.size(); ++k) {
                Thread* t = lanes[k];
                const int lane = lane_of(t);
                const auto [bval, cval] = bc[k];
                const u32 segmask = (cval >> 8) & 31, clamp = cval & 31;
                const u32 max_lane = (u32(lane) & segmask) | (clamp & ~segmask);
                const u32 min_lane = u32(lane) & segmask;
                int j = lane;
                bool pval = false;
                switch (in.sub) {
                    case Sub::up: j = lane - int(bval); pval = j >= int(max_lane); break;
                    case Sub::down: j = lane + int(bval); pval = j <= int(max_lane); break;
                    case Sub::bfly: j = lane ^ int(bval); pval = j <= int(max_lane); break;
                    case Sub::idx: j = int(min_lane | (bval & ~segmask)); pval = j <= int(max_lane); break;
                    default: break;
                }
                if (!pval) j = lane;
                u64 got = t->wait_value;
                // a source lane outside the member mask: PTX leaves the value undefined; the lane
                // gets its own value (as when pval is false) rather than another's
                if (pval && by_lane[j]) got = by_lane[j]->wait_value;
                const Operand& d = in.o[0];
                dest(t) = u32(got);
                if (d.kind == Operand::kPair) reg_of(*t, d.reg2) = pval ? 1 : 0;
            }
            break;
        }
        default: break;
    }
    for (Thread* t : lanes) {
        t->state = State::ready;
        t->wait = nullptr;
        ++t->frames.back().pc;
    }
}

// The lanes of a running group that just arrived at a warp collective: every member mask that is
// wholly among them (and the same for each of its lanes) is completed now. True when every lane
// of `active` completed; the others wait for their lanes.
bool BlockRunner::try_complete_now(Group& g, const Instr& in, u32 active) {
    u32 left = active;
    bool all = true;
    while (left) {
        const int l = std::countr_zero(left);
        Thread& t = *g.lanes[l];
        const u32 mask = t.wait_mask;
        if (!((mask >> l) & 1)) {
            fatal(DiagKind::kernel_exception, t, &in,
                  fmt::format("{}: the member mask {:#010x} of {} at {} does not include the lane itself ({})",
                              thread_text(t), mask, instr_text(*g.f, in), where(&in), l));
            return false;
        }
        bool now = (mask & ~active) == 0;
        for (u32 m = mask; now && m; m &= m - 1) now = g.lanes[std::countr_zero(m)]->wait_mask == mask;
        if (now) {
            std::vector<Thread*> group;
            for (u32 m = mask; m; m &= m - 1) group.push_back(g.lanes[std::countr_zero(m)]);
            complete_warp_group(group, in);
            left &= ~mask;
        } else {
            all = false;
            left &= ~(u32(1) << l);
        }
    }
    return all;
}

// Completes every waiting warp group whose lanes have all arrived. Returns whether any did.
bool BlockRunner::resolve_warps() {
    bool progress = false;
    const int n = (int)threads_.size();
    for (int w0 = 0; w0 < n; w0 += kWarpSize) {
        const int w1 = std::min(n, w0 + kWarpSize);
        for (int i = w0; i < w1; ++i) {
            Thread& t = threads_[(size_t)i];
            if (t.state != State::warp) continue;
            const Instr& in = *t.wait;
            const int lane = i - w0;
            const u32 mask = t.wait_mask;
            if (!((mask >> lane) & 1)) {
                fatal(DiagKind::kernel_exception, t, &in,
                      fmt::format("{}: the member mask {:#010x} of {} at {} does not include the lane itself ({})",
                                  thread_text(t), mask, instr_text_at(t.wait_fn, in), where(&in), lane));
                return false;
            }
            std::vector<Thread*> group;
            bool complete = true;
            for (int k = 0; k < kWarpSize && complete; ++k) {
                if (!((mask >> k) & 1)) continue;
                const int q = w0 + k;
                if (q >= w1 || threads_[(size_t)q].state == State::exited) {
                    fatal(DiagKind::kernel_exception, t, &in,
                          fmt::format("{}: {} at {} names lane {} in its member mask {:#010x}, but that lane {}",
                                      thread_text(t), instr_text_at(t.wait_fn, in), where(&in), k, mask,
                                      q >= w1 ? "does not exist (the block has fewer threads)" : "has exited"));
                    return false;
                }
                Thread& o = threads_[(size_t)q];
                // the same collective: the same instruction, or (lanes that parted) one of the same
                // kind on the same source line
                if (o.state != State::warp || o.wait_mask != mask || o.wait->op != in.op ||
                    (in.op != Op::bar_warp && o.wait != t.wait &&
                     !(o.wait->sub == in.sub && L_.m.locs[(size_t)o.wait->loc].line == L_.m.locs[(size_t)in.loc].line))) {
                    complete = false;
                    break;
                }
                group.push_back(&o);
            }
            if (!complete) continue;
            complete_warp_group(group, in);
            progress = true;
        }
    }
    return progress;
}

// Nothing can run: every live thread waits. Release the block barrier or diagnose.
void BlockRunner::resolve_stuck() {
    Thread* at_barrier = nullptr;
    Thread* exited = nullptr;
    Thread* at_warp = nullptr;
    for (auto& t : threads_) {
        if (t.state == State::barrier && !at_barrier) at_barrier = &t;
        if (t.state == State::exited && !exited) exited = &t;
        if (t.state == State::warp && !at_warp) at_warp = &t;
    }
    if (at_warp) return diagnose_warp_stuck(*at_warp);
    if (!at_barrier) return;  // all exited
    if (exited) return diagnose_exit_before_barrier(*at_barrier, *exited);
    if (diagnose_divergent_barrier(*at_barrier)) return;
    release_barrier(*at_barrier->wait);
}

// A warp rendezvous that cannot complete: the first lane of its member mask that does not wait
// with it (thread_b, site_b) is named.
void BlockRunner::diagnose_warp_stuck(Thread& t) {
    const Instr& in = *t.wait;
    Thread* other = nullptr;
    for (int k = 0, w0 = t.linear / kWarpSize * kWarpSize; k < kWarpSize && !other; ++k) {
        if (!((t.wait_mask >> k) & 1) || w0 + k >= (int)threads_.size()) continue;
        Thread& o = threads_[(size_t)(w0 + k)];
        if (o.state != State::warp || o.wait_mask != t.wait_mask || o.wait->op != in.op) other = &o;
    }
    engine::Diagnostic d;
    d.kind = DiagKind::divergent_barrier;
    locate(d, t, &in);
    d.site_a = where(&in);
    std::string why = "for lanes that never get there";
    if (other) {
        d.thread_b = other->linear;
        d.thread_b_idx = other->idx;
        if (other->wait) {
            d.site_b = where(other->wait);
            why = fmt::format("for thread {}, which waits at {} at {}", idx_text(other->idx),
                              instr_text_at(other->wait_fn, *other->wait), d.site_b);
        }
    }
    d.message = fmt::format("{} waits at {} at {} (member mask {:#010x}) {}", thread_text(t),
                            instr_text_at(t.wait_fn, in), d.site_a, t.wait_mask, why);
    add_diag(std::move(d));
    fail_block();
}

void BlockRunner::diagnose_exit_before_barrier(Thread& at_barrier, const Thread& exited) {
    engine::Diagnostic d;
    d.kind = DiagKind::exit_before_barrier;
    locate(d, at_barrier, at_barrier.wait);
    d.thread_b = exited.linear;
    d.thread_b_idx = exited.idx;
    d.site_a = where(at_barrier.wait);
    d.message = fmt::format("thread {} of block {} waits at the __syncthreads() at {}, but thread {} has already "
                            "returned: every thread of a block must reach each barrier",
                            idx_text(at_barrier.idx), idx_text(block_idx_), d.site_a, idx_text(exited.idx));
    add_diag(std::move(d));
    fail_block();
}

// All live threads at barriers: the same one (by source position, as the compiler may copy one
// __syncthreads() into several paths)? If not, the first that differs is diagnosed (true).
bool BlockRunner::diagnose_divergent_barrier(Thread& at_barrier) {
    auto key = [&](const Thread& t) {
        const SourceLoc& l = L_.m.locs[(size_t)t.wait->loc];
        return std::tuple(l.file, l.line, t.wait->op, l.line > 0 ? 0 : t.wait->ptx_line);
    };
    for (auto& t : threads_) {
        // (the same instruction is the same barrier: the key only for the rest)
        if (t.state != State::barrier || t.wait == at_barrier.wait || key(t) == key(at_barrier)) continue;
        engine::Diagnostic d;
        d.kind = DiagKind::divergent_barrier;
        locate(d, at_barrier, at_barrier.wait);
        d.thread_b = t.linear;
        d.thread_b_idx = t.idx;
        d.site_a = where(at_barrier.wait);
        d.site_b = where(t.wait);
        d.message = fmt::format("divergent __syncthreads(): thread {} of block {} waits at the barrier at {} while "
                                "thread {} waits at the one at {}",
                                idx_text(at_barrier.idx), idx_text(block_idx_), d.site_a, idx_text(t.idx), d.site_b);
        add_diag(std::move(d));
        fail_block();
        return true;
    }
    return false;
}

// Release: bar.red reductions, then every thread into the next interval.
void BlockRunner::release_barrier(const Instr& in) {
    if (in.op == Op::bar_red) {
        u64 popc = 0, all = 1, any = 0;
        for (auto& t : threads_) {
            popc += t.wait_value & 1;
            all &= t.wait_value & 1;
            any |= t.wait_value & 1;
        }
        for (auto& t : threads_) {
            const u64 r = in.sub == Sub::popc ? popc : in.sub == Sub::and_ ? all : any;
            reg_of(t, t.wait->o[0].reg) = r;
        }
    }
    for (auto& t : threads_) {
        t.state = State::ready;
        t.wait = nullptr;
        ++t.frames.back().pc;
        ++t.interval;
    }
    if (observing_)
        for (auto& o : observers_) o->barrier_released(*this);
}

}  // namespace ptx::detail
