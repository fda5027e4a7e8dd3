// Memory access: the loads, stores and atomics the interpreter hands here (ld, st, atom, red),
// a generic address into its space, the bounds of each space (a global address checked against
// its buffer), and the accesses the observers and the trace see. The plain forms (one value, not
// observed) check each lane as the general path does, without its copies. Faulting accesses are
// diagnosed in faults.cpp.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/ptx/alu.h"
#include "backends/cpu/ptx/block.h"
#include "backends/cpu/ptx/device_state.h"
#include "backends/cpu/ptx/lanes.h"

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

// A memory operand's address for one lane: [reg + imm], frame-relative for this frame's locals
// and params.
u64 address(const Group& g, const Operand& o, Sp space, int lane) {
    u64 a = (o.reg >= 0 ? g.reg(o.reg, lane) : 0) + (u64)o.imm;
    if (o.frame_rel) a += space == Sp::local ? (u64)g.local_base : (u64)g.param_base;
    return a;
}

}  // namespace

// ---- loads, stores and atomics -----------------------------------------------------------------
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
    if (L_.counting && !builtin_reading_) block_counts_.add(sp, op, size);
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
