// CUDA's execution model on the CPU: what kernels/device_compat.h includes when the host compiler
// (not nvcc/NVRTC) compiles a kernel source. Self-contained: std headers and trace.h only.
//
//   __global__ __device__ __host__ __forceinline__ __launch_bounds__(...)  vanish
//   __constant__          plain globals (each TU that launches sets its copy before a launch)
//   __shared__            `static thread_local`: one worker OS thread runs all fibers of a block,
//                         one block at a time, so a thread-local array is the block's array
//   threadIdx blockIdx blockDim gridDim   the current fiber's, read from thread-local state
//   __syncthreads()       a real barrier: the fiber yields to its block's scheduler; its source
//                         position (file:line and macro expansion) tells divergent barriers apart
//   __syncwarp(mask)      a warp-scoped barrier: the lane waits until every live lane of its warp
//                         in `mask` arrived (threads of a block only switch at these barriers)
//   Shared<T>             a shared cell of sizeof(T): reading it is a traced load, assigning it a
//                         traced store (races, reads of never-written cells, bank conflicts)
//   simt::GlobalPtr<T>    a traced global pointer with bounds: p[i] is a proxy (GlobalRef: loads,
//                         stores unless T is const, &p[i]); out of bounds throws (reported, no crash);
//                         a read_only pointer reports every store (DiagKind::input_write)
//   atomicAdd, __ldg, min/max (CUDA's mixed int/unsigned overloads too), rsqrtf, the _rn
//   arithmetic intrinsics (__fmaf_rn, __fadd_rn, ...: the host rounds to nearest; none contracts)
//
// A shared index outside its array (an address in no __shared__ array, up to 1 MiB away) is
// reported as out_of_bounds in every mode, before the access happens: never a silent value.
// Limit: an index that lands inside another __shared__ array is that array's cell.
//
// Shared memory is poisoned at block start: a float/double cell no thread of the block stored
// reads as NaN (other types as 0xCD bytes) and is reported as an uninitialized shared read when
// shared checks are on. Launch a grid with simt::launch (below); see trace.h for the report.
//
// Sections: CUDA keywords; the launch; global memory (GlobalPtr, GlobalRef); shared memory
// (Shared<T>); built-in variables and functions.
#pragma once
// kernels/device_compat.h takes this header's definitions instead of CUDA's.
#define STENCIL_HOST_SIMT 1
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "backends/cpu/trace.h"


// ---- CUDA keywords -----------------------------------------------------------------------------
#ifndef __global__
#define __global__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __forceinline__
#define __forceinline__ inline
#endif
// __noinline__ is not defined: GCC's own headers spell __attribute__((__noinline__)).
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __constant__
#define __constant__
#endif
#ifndef __shared__
#define __shared__ static thread_local
#endif
// __restrict__ is a GCC/Clang keyword already.

#define SIMT_INLINE inline __attribute__((always_inline))
#define SIMT_UNLIKELY(x) __builtin_expect(!!(x), 0)

struct uint3 {
    unsigned x = 0, y = 0, z = 0;
};
struct dim3 {
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    constexpr dim3(uint3 u) : x(u.x), y(u.y), z(u.z) {}
    constexpr operator uint3() const { return {x, y, z}; }
};

namespace simt {

// ---- the launch (ExecOptions and TraceOptions are in trace.h) --------------------------------
// The kernel body type-erased: called once per emulated thread, on its fiber.
struct KernelBody {
    void (*call)(void*) = nullptr;
    void* ctx = nullptr;
};
ExecReport launch_body(dim3 grid, dim3 block, const ExecOptions& opt, KernelBody body);

// Runs `thread_body()` for every thread of every block, CUDA-style:
//   simt::launch(grid, block, opt, [&] { my_kernel<float>(in, out, n); });
// Blocks are spread over `workers` OS threads (results do not depend on how many); the threads
// of a block run as fibers between barriers in the order `schedule` says.
template <class F>
ExecReport launch(dim3 grid, dim3 block, const ExecOptions& opt, F&& thread_body) {
    using Fn = std::remove_reference_t<F>;
    KernelBody b{[](void* p) { (*static_cast<Fn*>(p))(); },
                 const_cast<void*>(static_cast<const void*>(std::addressof(thread_body)))};
    return launch_body(grid, block, opt, b);
}

// What kernel code throws for a fault the launch reports (out-of-bounds index, ...).
struct KernelFault {
    DiagKind kind;
    const char* what;
    // The array and element the fault is about (bounds, input_write), when there is one.
    Space space = Space::global;
    const char* array = nullptr;
    long long offset = -1;  // bytes
    int elem_size = 0;
};

namespace detail {

// Flags of the running block (thread-local): any set sends accesses to the slow path.
enum : unsigned { kCount = 1, kRecord = 2, kCheckShared = 4, kDeadline = 8 };

// One registered run of consecutive Shared<T> cells (a __shared__ array) on this OS thread.
struct SharedRange {
    std::uintptr_t base = 0;
    std::size_t bytes = 0;
    std::uint64_t block_tag = 0;  // the block that last poisoned it
};
inline constinit SharedRange g_no_range{};

struct Worker;
struct Tls {
    uint3 thread_idx{};
    uint3 block_idx{};
    dim3 block_dim{};
    dim3 grid_dim{};
    unsigned flags = 0;
    SharedRange* range = &g_no_range;  // the range the last shared access hit
    std::uint64_t block_tag = 0;       // unique per block run on this OS thread
    Worker* worker = nullptr;
};
inline thread_local constinit Tls tls{};

enum class Poison : std::uint8_t { f32, f64, bytes };
template <class T>
constexpr Poison poison_kind() {
    if constexpr (std::is_same_v<T, float>) return Poison::f32;
    else if constexpr (std::is_same_v<T, double>) return Poison::f64;
    else return Poison::bytes;
}

// Out of line (backends/cpu/simt.cpp).
void register_shared_cell(void* p, std::size_t size, Poison kind);
// Records, for this OS thread, the name and extents of its copy of the __shared__ array at
// `first` (each worker thread has its own copy, and constructs its own SharedName).
void name_shared_array(const void* first, std::size_t bytes, std::size_t elem, const char* name,
                       const int* extents, int rank);
void shared_slow(const void* p, std::size_t size, Op op);
// A traced global access that is counted, recorded, checked or a store through a read-only
// pointer: `data` (the buffer base) keys the race shadow, `index` is in elements.
void global_slow(const void* data, long long count, int buffer, const char* name, bool read_only,
                 long long index, std::size_t size, Op op);
[[noreturn]] void global_out_of_bounds(const char* name, int buffer, long long index,
                                       long long count, std::size_t size, Op op);
// `expansion` is __COUNTER__ of the __syncthreads() macro: two calls on one line differ.
void syncthreads(const char* file, int line, int expansion);
void syncwarp(unsigned mask);

template <class T>
SIMT_INLINE bool shared_fast(const T* p) {
    const Tls& t = tls;
    const SharedRange* r = t.range;
    return (reinterpret_cast<std::uintptr_t>(p) - r->base < r->bytes) &
           (r->block_tag == t.block_tag) & (t.flags == 0);
}

template <class T>
SIMT_INLINE T shared_load(const T* p) {
    if (SIMT_UNLIKELY(!shared_fast(p))) shared_slow(p, sizeof(T), Op::load);
    return *p;
}
template <class T>
SIMT_INLINE void shared_store(T* p, T v) {
    if (SIMT_UNLIKELY(!shared_fast(p))) shared_slow(p, sizeof(T), Op::store);
    *p = v;
}

template <class T>
SIMT_INLINE void poison_value(T& v) {
    if constexpr (std::is_floating_point_v<T>) v = std::numeric_limits<T>::quiet_NaN();
    else std::memset(static_cast<void*>(&v), 0xCD, sizeof(T));
}

}  // namespace detail

// ---- global memory -----------------------------------------------------------------------------
template <class T>
class GlobalPtr;

// `p[i]` of a GlobalPtr<T>: a reference-like proxy. It converts to T (a traced load); for
// non-const T it assigns (a traced store) and compound-assigns (load, then store); `&p[i]` is the
// traced pointer p + i (so `__ldg(&in[c])`, `atomicAdd(&out[c], v)` and `auto q = &out[c]` work).
// For const T every store through it is a compile error, as on the GPU. Note: `auto v = p[i];`
// copies the proxy, not the value: each later use of v is another traced load.
template <class T>
class GlobalRef {
public:
    using value_type = std::remove_const_t<T>;
    SIMT_INLINE GlobalRef(const GlobalPtr<T>& p, long long idx) : p_(p), idx_(idx) {}
    SIMT_INLINE operator value_type() const { return p_.load_at(idx_); }
    SIMT_INLINE GlobalRef& operator=(value_type v)
        requires(!std::is_const_v<T>)
    {
        p_.store_at(idx_, v);
        return *this;
    }
    SIMT_INLINE GlobalRef& operator=(const GlobalRef& o)
        requires(!std::is_const_v<T>)
    {
        return *this = static_cast<value_type>(o);
    }
    SIMT_INLINE GlobalRef& operator+=(value_type v) requires(!std::is_const_v<T>) { return *this = static_cast<value_type>(*this) + v; }
    SIMT_INLINE GlobalRef& operator-=(value_type v) requires(!std::is_const_v<T>) { return *this = static_cast<value_type>(*this) - v; }
    SIMT_INLINE GlobalRef& operator*=(value_type v) requires(!std::is_const_v<T>) { return *this = static_cast<value_type>(*this) * v; }
    SIMT_INLINE GlobalRef& operator/=(value_type v) requires(!std::is_const_v<T>) { return *this = static_cast<value_type>(*this) / v; }
    SIMT_INLINE GlobalRef& operator++() requires(!std::is_const_v<T>) { return *this = static_cast<value_type>(*this) + value_type(1); }
    SIMT_INLINE GlobalRef& operator--() requires(!std::is_const_v<T>) { return *this = static_cast<value_type>(*this) - value_type(1); }
    // &p[i] is a traced pointer again.
    SIMT_INLINE GlobalPtr<T> operator&() const { return p_ + idx_; }

private:
    GlobalPtr<T> p_;
    long long idx_;
};

template <class T>
class GlobalPtr {
public:
    using value_type = std::remove_const_t<T>;
    using reference = GlobalRef<T>;

    GlobalPtr() = default;
    // `count` elements at `data`, buffer `id` (names the buffer in traces), `name` for messages.
    // `read_only`: the kernel's input; every store through it is reported (DiagKind::input_write)
    // and does not happen.
    GlobalPtr(T* data, long long count, int id = 0, const char* name = "buffer", bool read_only = false)
        : data_(data), count_(count), id_(id), name_(name), read_only_(read_only) {}
    // A const view of a mutable buffer.
    template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
    GlobalPtr(const GlobalPtr<U>& o)
        : data_(o.data()), count_(o.count()), off_(o.offset()), id_(o.id()), name_(o.name()),
          read_only_(o.read_only()) {}

    SIMT_INLINE reference operator[](long long i) const { return GlobalRef<T>(*this, i); }
    SIMT_INLINE reference operator*() const { return (*this)[0]; }
    SIMT_INLINE GlobalPtr operator+(long long d) const {
        GlobalPtr p = *this;
        p.off_ += d;
        return p;
    }
    SIMT_INLINE GlobalPtr operator-(long long d) const { return *this + (-d); }
    SIMT_INLINE GlobalPtr& operator+=(long long d) {
        off_ += d;
        return *this;
    }
    SIMT_INLINE GlobalPtr& operator-=(long long d) { return *this += -d; }
    SIMT_INLINE GlobalPtr& operator++() { return *this += 1; }
    SIMT_INLINE long long operator-(const GlobalPtr& o) const { return off_ - o.off_; }
    explicit operator bool() const { return data_ != nullptr; }

    SIMT_INLINE value_type load_at(long long i) const {
        const long long idx = off_ + i;
        if (SIMT_UNLIKELY(static_cast<unsigned long long>(idx) >= static_cast<unsigned long long>(count_)))
            detail::global_out_of_bounds(name_, id_, idx, count_, sizeof(T), Op::load);
        if (SIMT_UNLIKELY(detail::tls.flags != 0))
            detail::global_slow(data_, count_, id_, name_, read_only_, idx, sizeof(T), Op::load);
        return data_[idx];
    }
    SIMT_INLINE void store_at(long long i, value_type v) const {
        const long long idx = off_ + i;
        if (SIMT_UNLIKELY(static_cast<unsigned long long>(idx) >= static_cast<unsigned long long>(count_)))
            detail::global_out_of_bounds(name_, id_, idx, count_, sizeof(T), Op::store);
        // One test for both (the plain path stays one predictable branch per store).
        if (SIMT_UNLIKELY((detail::tls.flags != 0) | read_only_))
            detail::global_slow(data_, count_, id_, name_, read_only_, idx, sizeof(T), Op::store);
        data_[idx] = v;
    }
    // For atomics: the element, checked and traced as one atomic access.
    SIMT_INLINE T* atomic_target() const {
        const long long idx = off_;
        if (SIMT_UNLIKELY(static_cast<unsigned long long>(idx) >= static_cast<unsigned long long>(count_)))
            detail::global_out_of_bounds(name_, id_, idx, count_, sizeof(T), Op::atomic);
        if (SIMT_UNLIKELY((detail::tls.flags != 0) | read_only_))
            detail::global_slow(data_, count_, id_, name_, read_only_, idx, sizeof(T), Op::atomic);
        return data_ + idx;
    }

    T* data() const { return data_; }
    long long count() const { return count_; }
    long long offset() const { return off_; }
    int id() const { return id_; }
    const char* name() const { return name_; }
    bool read_only() const { return read_only_; }

private:
    T* data_ = nullptr;
    long long count_ = 0;
    long long off_ = 0;
    int id_ = 0;
    const char* name_ = "buffer";
    bool read_only_ = false;
};

}  // namespace simt

// ---- shared memory -----------------------------------------------------------------------------
// The element type of a __shared__ array: `__shared__ Shared<float> tile[8][8][8];`
template <class T>
class Shared {
public:
    // Runs once per OS thread per array element (thread_local initialisation): registers the
    // cell so the block scheduler can poison it at each block start and check its accesses.
    Shared() { simt::detail::register_shared_cell(&v_, sizeof(T), simt::detail::poison_kind<T>()); }
    // A copy is a plain (untraced, unregistered) value: `auto x = tile[i];` still compiles.
    Shared(const Shared& o) : v_(static_cast<T>(o)) {}

    SIMT_INLINE operator T() const { return simt::detail::shared_load(&v_); }
    SIMT_INLINE Shared& operator=(T x) {
        simt::detail::shared_store(&v_, x);
        return *this;
    }
    SIMT_INLINE Shared& operator=(const Shared& o) { return *this = static_cast<T>(o); }
    SIMT_INLINE Shared& operator+=(T x) { return *this = static_cast<T>(*this) + x; }
    SIMT_INLINE Shared& operator-=(T x) { return *this = static_cast<T>(*this) - x; }
    SIMT_INLINE Shared& operator*=(T x) { return *this = static_cast<T>(*this) * x; }
    SIMT_INLINE Shared& operator/=(T x) { return *this = static_cast<T>(*this) / x; }
    SIMT_INLINE Shared& operator++() { return *this = static_cast<T>(*this) + T(1); }
    SIMT_INLINE Shared& operator--() { return *this = static_cast<T>(*this) - T(1); }
    SIMT_INLINE T operator++(int) {
        T old = *this;
        *this = old + T(1);
        return old;
    }
    SIMT_INLINE T operator--(int) {
        T old = *this;
        *this = old - T(1);
        return old;
    }

    T* raw() { return &v_; }  // untraced access (the runtime's own use)

private:
    T v_;
};
static_assert(sizeof(Shared<float>) == sizeof(float) && sizeof(Shared<double>) == sizeof(double));

namespace simt {
// Names a __shared__ array in diagnostics: "tile[2][2][3]" instead of "shared array #0 element
// 146". The checker's translation unit declares one, on the array's own line, after each
// __shared__ array of a submission:
//   __shared__ Shared<float> tile[8][8][8]; static thread_local simt::SharedName n0(tile, "tile");
struct SharedName {
    template <class A>
    SharedName(A& array, const char* name) {
        constexpr int rank = static_cast<int>(std::rank_v<A>);
        int extents[rank > 0 ? rank : 1] = {};
        fill<A>(extents, std::make_index_sequence<rank>{});
        detail::name_shared_array(&array, sizeof(A), sizeof(std::remove_all_extents_t<A>), name,
                                  extents, rank);
    }

private:
    template <class A, std::size_t... I>
    static void fill(int* e, std::index_sequence<I...>) {
        ((e[I] = static_cast<int>(std::extent_v<A, I>)), ...);
    }
};
}  // namespace simt

// ---- built-in variables and functions ----------------------------------------------------------
#define threadIdx (static_cast<const uint3&>(::simt::detail::tls.thread_idx))
#define blockIdx (static_cast<const uint3&>(::simt::detail::tls.block_idx))
#define blockDim (static_cast<const dim3&>(::simt::detail::tls.block_dim))
#define gridDim (static_cast<const dim3&>(::simt::detail::tls.grid_dim))
#define __syncthreads() ::simt::detail::syncthreads(__FILE__, __LINE__, __COUNTER__)
#ifndef warpSize
#define warpSize 32
#endif

inline void __syncwarp(unsigned mask = 0xffffffffu) { ::simt::detail::syncwarp(mask); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() {}

template <class T>
inline T __ldg(const T* p) { return *p; }
template <class T>
SIMT_INLINE std::remove_const_t<T> __ldg(const simt::GlobalPtr<T>& p) { return p[0]; }

// atomicAdd on plain pointers, traced global pointers (&out[i]) and shared cells (&s[i]).
template <class T>
inline T atomicAdd(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <class T>
SIMT_INLINE T atomicAdd(const simt::GlobalPtr<T>& p, std::type_identity_t<T> v) {
    return std::atomic_ref<T>(*p.atomic_target()).fetch_add(v);
}
template <class T>
SIMT_INLINE T atomicAdd(Shared<T>* p, std::type_identity_t<T> v) {
    // One block runs on one OS thread, and a fiber switches only at a barrier: plain code is
    // atomic. Traced as one Op::atomic access: atomics do not race with each other, but a plain
    // load or store of the cell by another thread in the same interval does.
    T* raw = p->raw();
    if (SIMT_UNLIKELY(!simt::detail::shared_fast(raw))) simt::detail::shared_slow(raw, sizeof(T), simt::Op::atomic);
    const T old = *raw;
    *raw = old + v;
    return old;
}

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }

// CUDA's mixed-sign overloads (crt/math_functions.hpp): the signed argument is converted to
// unsigned, and the result is unsigned, as on the device.
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline unsigned long long min(long long a, unsigned long long b) { return min(static_cast<unsigned long long>(a), b); }
inline unsigned long long min(unsigned long long a, long long b) { return min(a, static_cast<unsigned long long>(b)); }
inline unsigned long long max(long long a, unsigned long long b) { return max(static_cast<unsigned long long>(a), b); }
inline unsigned long long max(unsigned long long a, long long b) { return max(a, static_cast<unsigned long long>(b)); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }

// IEEE round-to-nearest arithmetic intrinsics. On the device they are never contracted into an
// FMA; here an empty asm makes each operand and result opaque, so the host compiler cannot fuse
// them with the code around either (-ffp-contract). The host's default rounding is to nearest.
namespace simt::detail {
template <class T>
SIMT_INLINE T opaque(T v) {
    __asm__("" : "+m"(v));
    return v;
}
}  // namespace simt::detail
inline float __fmaf_rn(float a, float b, float c) { return simt::detail::opaque(std::fmaf(a, b, c)); }
inline float __fmul_rn(float a, float b) {
    return simt::detail::opaque(simt::detail::opaque(a) * simt::detail::opaque(b));
}
inline float __fadd_rn(float a, float b) {
    return simt::detail::opaque(simt::detail::opaque(a) + simt::detail::opaque(b));
}
inline float __fsub_rn(float a, float b) {
    return simt::detail::opaque(simt::detail::opaque(a) - simt::detail::opaque(b));
}
inline float __fdiv_rn(float a, float b) { return simt::detail::opaque(a) / simt::detail::opaque(b); }
inline float __frcp_rn(float a) { return 1.0f / simt::detail::opaque(a); }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline double __fma_rn(double a, double b, double c) { return simt::detail::opaque(std::fma(a, b, c)); }
inline double __dmul_rn(double a, double b) {
    return simt::detail::opaque(simt::detail::opaque(a) * simt::detail::opaque(b));
}
inline double __dadd_rn(double a, double b) {
    return simt::detail::opaque(simt::detail::opaque(a) + simt::detail::opaque(b));
}
inline double __dsub_rn(double a, double b) {
    return simt::detail::opaque(simt::detail::opaque(a) - simt::detail::opaque(b));
}
inline double __ddiv_rn(double a, double b) { return simt::detail::opaque(a) / simt::detail::opaque(b); }
inline double __drcp_rn(double a) { return 1.0 / simt::detail::opaque(a); }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
