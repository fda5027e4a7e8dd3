// What a loaded module keeps between launches (device_state.h), and device malloc / free: each
// allocation a buffer of its own, so an index past it, a use after free, a double free and a free
// of a pointer malloc never gave are each one diagnostic naming the line.
#include "backends/cpu/ptx/device_state.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace ptx {

DeviceState::Impl::Impl(const Module& module) : m(module), globals(module.global_image), slots(kSlots) {}

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

namespace detail {

// malloc(size): a fresh allocation (never a reused address: a use after free stays visible), or
// a null pointer when the heap's bytes are spent, as on the GPU.
void BlockRunner::do_malloc(Group& g, Thread& t, const Instr& in) {
    const u64 bytes = call_param(g, t, in, 0);
    DeviceState::Impl& d = *L_.device;
    u64 address = 0;
    {
        std::lock_guard lock(d.heap_mutex);
        if (bytes > 0 && (long long)bytes <= kHeapBytes - d.heap_used && d.next_slot < DeviceState::Impl::kSlots) {
            const int k = d.next_slot++;
            d.storage.push_back(std::make_unique<unsigned char[]>((size_t)bytes));
            std::memset(d.storage.back().get(), 0xFF, (size_t)bytes);  // malloc's bytes are undefined
            auto slot = std::make_unique<BufferSlot>();
            slot->data = d.storage.back().get();
            slot->bytes = (size_t)bytes;
            slot->id = -2;
            slot->name = fmt::format("malloc'd block {}", k + 1);
            d.slots[(size_t)k].store(slot.get(), std::memory_order_release);
            d.owned.push_back(std::move(slot));
            d.heap_used += (long long)bytes;
            address = buffer_address(kHeapFirstIndex + k);
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
    const int index = int((address >> 40) - 1);
    std::lock_guard lock(d.heap_mutex);
    BufferSlot* b = (address & ((u64(1) << 40) - 1)) == 0 && (address >> kSpaceShift) == 0
                        ? const_cast<BufferSlot*>(heap_slot(d, index))
                        : nullptr;
    if (!b || b->freed) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("{} calls free({:#x}) at {}, {}", thread_text(t), address, where(&in),
                          b ? "but that block was already freed (a double free)"
                            : "but malloc did not return that pointer"));
        return;
    }
    b->freed = true;
    d.heap_used -= (long long)b->bytes;
}

}  // namespace detail
}  // namespace ptx
