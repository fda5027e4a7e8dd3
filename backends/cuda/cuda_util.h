// The CUDA utilities every CUDA-runtime user in the project shares (the backend, bench/'s
// textbook listings, the baseline in experiments/): the error check, device buffers, a pair of
// events around one timed operation, the L2 flush between timed launches, and a comparison of two
// device buffers.
//
// Plain C++ over the CUDA runtime API (no kernel code): usable from .cpp and .cu files alike.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "core/error.h"

namespace stencil::cuda_detail {

// "CUDA error in cudaMalloc (input, 512 MiB): out of memory [cudaErrorMemoryAllocation]"
std::string cuda_error_text(cudaError_t e, const std::string& what);

// Every CUDA call goes through this: a failure becomes a one-line UserError.
inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw UserError(cuda_error_text(e, what));
}
inline void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess) throw UserError(cuda_error_text(e, what));
}
// After a launch: the launch's own error (bad configuration) now, and with `sync` also what the
// kernel did (an illegal address shows up only at the next synchronisation).
void check_launch(const char* what, bool sync);

// cudaMalloc'ed memory that frees itself.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t bytes, const char* what);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr; o.bytes_ = 0; }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return p_; }
    std::size_t bytes() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

// A pair of events around one timed operation on a stream: start(), the work, stop(); ms() after
// the stream has reached the stop event (it synchronises on nothing itself).
class EventPair {
public:
    EventPair();
    ~EventPair();
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    void start(cudaStream_t s = nullptr);
    void stop(cudaStream_t s = nullptr);
    double ms() const;

private:
    cudaEvent_t start_{}, stop_{};
};

// Twice the device's L2 (at least 64 MiB): a memset of that many bytes leaves nothing a kernel
// read before in L2.
std::size_t l2_flush_bytes(int device = 0);

// The flush itself, between timed launches (untimed: call it outside the EventPair). The buffer
// is allocated at the first flush; each flush writes a different byte, so no write is elided.
class L2Flush {
public:
    void flush(cudaStream_t s = nullptr);
    std::size_t bytes() const { return buffer_.bytes(); }

private:
    DeviceBuffer buffer_;
    int value_ = 0;
};

// The 4-byte words at which two device buffers of `bytes` bytes (a multiple of 4) differ, counted
// on the device: 0 means equal bit for bit. Synchronises.
long long count_differing_words(const void* a, const void* b, std::size_t bytes);

}  // namespace stencil::cuda_detail
