// What a loaded module keeps between launches (device_state.h), and device malloc / free.
#include "backends/cpu/ptx/device_state.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

namespace ptx {

DeviceState::Impl::Impl(const Module& module) : m(module), globals(module.global_image) {
    heap_slot.id = -2;
    heap_slot.name = "the device heap";
    heap_slot.heap = true;
}

DeviceState::DeviceState(const Module& m) : impl_(std::make_unique<Impl>(m)) {}
DeviceState::~DeviceState() = default;

const std::vector<unsigned char>& DeviceState::globals() const { return impl_->globals; }

// The __device__ variables (module .global memory other than string literals) whose bytes differ.
std::vector<std::string> DeviceState::changed_variables(const std::vector<unsigned char>& before) const {
    std::vector<std::string> names;
    const auto& now = impl_->globals;
    for (const Variable& v : impl_->m.variables) {
        if (v.space != Sp::global || v.bytes <= 0 || v.name.rfind("$str", 0) == 0) continue;
        const auto off = (size_t)v.offset, n = (size_t)v.bytes;
        if (off + n > now.size() || off + n > before.size()) continue;
        if (std::memcmp(now.data() + off, before.data() + off, n) != 0) names.push_back(v.display);
    }
    return names;
}

DeviceState::Impl::Hit DeviceState::Impl::find(std::uint64_t offset, int size) const {
    Hit h;
    auto it = blocks.upper_bound(offset);
    if (it == blocks.begin()) return h;
    --it;  // the block at or below the offset: the one the access belongs to, or overran
    h.block = &it->second;
    h.start = it->first;
    h.inside = offset + (std::uint64_t)size <= it->first + it->second.bytes;
    return h;
}

namespace detail {

// malloc(size): a block of the arena (a freed one of the size once it left the quarantine, else
// the next free bytes), or a null pointer when the arena is spent, as on the GPU.
void BlockRunner::do_malloc(Group& g, Thread& t, const Instr& in) {
    const u64 bytes = call_param(g, t, in, 0);
    DeviceState::Impl& d = *L_.device;
    u64 address = 0;
    const Explore& x = L_.launch.explore;
    u64 h = x.seed ^ (u64(in.ptx_line) * 0x9E3779B97F4A7C15ull) ^ (u64(t.linear) << 20) ^ (u64(block_) << 40);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    if (x.refuse_some_mallocs && h % 4 == 0) {
        ++report.mallocs_refused;
    } else if (bytes > 0 && bytes <= kHeapBytes) {
        const u64 size = (bytes + 15) / 16 * 16 + kHeapRedZone;  // an overrun lands in no block
        std::unique_lock lock(d.heap_mutex);
        if (d.arena.empty()) {  // made at the first malloc: most modules never call it
            d.arena.assign(kHeapBytes, 0xFF);
            d.heap_slot.data = d.arena.data();
            d.heap_slot.bytes = d.arena.size();
        }
        u64 at = ~u64(0);
        if (auto f = d.free_.lower_bound(size); f != d.free_.end() && f->first < 2 * size) {
            at = f->second;
            d.free_.erase(f);
        } else if (d.top + size <= kHeapBytes) {
            at = d.top;
            d.top += size;
        }
        if (at != ~u64(0)) {
            d.blocks[at] = {bytes, d.next_id++, true};
            std::memset(d.arena.data() + at, 0xFF, (size_t)bytes);  // malloc's bytes are undefined
            address = buffer_address(kHeapIndex) + at;
        }
    }
    const CallList& cl = g.f->call_lists[(size_t)in.call_args];
    if (cl.retval_offset >= 0)
        std::memcpy(t.params.data() + g.param_base + cl.retval_offset, &address, (size_t)std::min(8, cl.retval_bytes));
}

void BlockRunner::do_free(Group& g, Thread& t, const Instr& in) {
    const u64 address = call_param(g, t, in, 0);
    if (address == 0) return;  // free(NULL) does nothing
    DeviceState::Impl& d = *L_.device;
    const u64 base = buffer_address(kHeapIndex);
    std::unique_lock lock(d.heap_mutex);
    auto it = address >= base ? d.blocks.find(address - base) : d.blocks.end();
    if (it == d.blocks.end() || !it->second.live) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("{} calls free({:#x}) at {}, {}", thread_text(t), address, where(&in),
                          it != d.blocks.end() ? "but that block was already freed (a double free)"
                                               : "but malloc did not return that pointer"));
        return;
    }
    it->second.live = false;
    const u64 size = (it->second.bytes + 15) / 16 * 16 + kHeapRedZone;
    d.quarantine.push_back({it->first, size});
    d.quarantined += size;
    while (d.quarantined > kHeapQuarantineBytes) {  // the oldest freed blocks become reusable
        const auto [off, sz] = d.quarantine.front();
        d.quarantine.pop_front();
        d.quarantined -= sz;
        d.blocks.erase(off);
        d.free_.insert({sz, off});
    }
}

// A heap access: inside a live block, or the fault that says where it went.
bool BlockRunner::heap_access_ok(Thread& t, const Instr& in, long long off, int size, engine::Op op, bool store) {
    DeviceState::Impl& d = *L_.device;
    std::shared_lock lock(d.heap_mutex);
    const auto hit = d.find((u64)off, size);
    if (hit.block && hit.inside && hit.block->live) return true;
    const int elem = std::max(1, bytes_of(in.type));
    std::string what;
    if (!hit.block)
        what = fmt::format("byte {} of the device heap, which is in no block malloc returned", off);
    else if (!hit.block->live && (u64)off < hit.start + hit.block->bytes)
        what = fmt::format("malloc'd block {}[{}], after that allocation was freed", hit.block->id,
                           ((u64)off - hit.start) / (u64)elem);
    else
        what = fmt::format("malloc'd block {}[{}], but that block has {} elements", hit.block->id,
                           ((u64)off - hit.start) / (u64)elem, hit.block->bytes / (u64)elem);
    engine::Diagnostic dg;
    dg.kind = DiagKind::out_of_bounds;
    locate(dg, t, &in);
    dg.space = engine::Space::global;
    dg.array = "heap";
    dg.offset = off;
    dg.elem_size = elem;
    dg.op_a = op;
    dg.message = fmt::format("out-of-bounds {}: {} {} {} at {}", store ? "store" : "load", thread_text(t),
                             store ? "stores" : "loads", what, where(&in));
    add_diag(std::move(dg));
    fail_block();
    return false;
}

}  // namespace detail
}  // namespace ptx
