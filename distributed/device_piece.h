// One GPU's piece of a decomposed run (nccl_run.h), whatever the problem: its fields on the
// device (field 0 twice, in and out, swapped after each pass), field 0's faces, and the stream
// they travel on. A pass packs the faces on that stream (cudaMemcpy3DAsync into contiguous
// buffers, or straight from the array where a face is one contiguous run of it), moves them with
// ncclSend/ncclRecv in one group, unpacks them into the halo. The faces across the piece's
// outermost axis (z; y for a 2D mesh, whose nz is 1) go last; the others arrive before anything on
// the default stream that follows.
//
// Overlap. A problem's launch may compute what reads none of the late faces on the default stream
// while they still travel (star3d: nccl_star3d.cpp, the planes that read no z halo; cardiac2d:
// nccl_cardiac2d.cpp, the rows that read no ghost row), and what reads them on the exchange's own
// stream (late_halo_stream), where it runs as soon as they land, beside the default stream's
// work, at the stream's high priority: the pass ends when the larger part ends, not after both.
// Streams are ordered by events. CUDA builds with NCCL.
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <optional>
#include <vector>

#include "backends/cuda/cuda_util.h"
#include "distributed/box_copy.h"
#include "distributed/decomposed_problem.h"

namespace stencil::distributed {

class DevicePiece {
public:
    // `box` carries halos `halo` wide; `fields` arrays of the box's local dims.
    DevicePiece(int device, const analysis::SubBox& box, int halo, int value_bytes, int fields);
    ~DevicePiece();
    DevicePiece(const DevicePiece&) = delete;
    DevicePiece& operator=(const DevicePiece&) = delete;

    // Field 0 goes into both of its arrays: the cells never exchanged and never written (the
    // grid's fixed boundary, edges and corners no star reads) then hold input values in both.
    void upload(const Fields& piece);
    Fields download() const;  // the current state (after the last pass), halos included

    // A pass as the driver runs it: begin (the faces across the inner axes arrived before anything
    // on the default stream that follows; those across the outermost axis travelling), the
    // problem's launch, end.
    void begin_pass(ncclComm_t comm);
    void end_pass();

    // What a problem's launch uses.
    void* in() const { return in_; }
    void* out() const { return out_; }
    void* field(int f) const { return others_.at(static_cast<std::size_t>(f - 1)).get(); }  // f >= 1
    GridDims local_dims() const { return dims_; }
    int value_bytes() const { return value_bytes_; }
    // The outermost axis (2 for z, 1 for y when nz is 1): its faces are the late ones, planes or
    // rows that lie contiguously in the array.
    int late_axis() const { return late_axis_; }
    bool late_halos() const { return late_; }  // the piece has a neighbour across that axis
    void wait_for_late_halos();  // the default stream waits for those faces (none: nothing to wait for)
    // The stream for what reads the late faces: its work follows their arrival and everything
    // launched on the default stream before this call, runs beside what the default stream gets
    // after it, and is done before end_pass's event. Without late faces, the default stream.
    cudaStream_t late_halo_stream();

    // NCCL connects two peers at their first send (buffers, proxy threads, and across processes
    // IPC handles): milliseconds to tens of them. One untimed exchange of every face before the
    // timed steps keeps that out of the time per step; it fills only halos that the first pass
    // fills again with the same values.
    void connect(ncclComm_t comm) { exchange_and_wait(comm); }
    // Every face waited for on the host: a step's exchange with no kernel beside it (the link
    // model's comparison, nccl_link_probe.h). Like `connect`, it refills halos with their values.
    void exchange_and_wait(ncclComm_t comm);
    void synchronize() const;
    long long bytes_sent() const { return bytes_sent_; }

private:
    struct Face {
        int peer = 0;
        bool late = false;  // across the outermost axis
        Box send, receive;
        std::size_t bytes = 0;
        // A face that is one contiguous run of the array (a z face when x and y are not cut) travels
        // straight from and into it, at this offset in values; the others through packed buffers.
        std::optional<long long> send_at, receive_at;
        cuda_detail::DeviceBuffer send_buffer, receive_buffer;
    };
    unsigned char* at(long long offset) const { return static_cast<unsigned char*>(in_) + offset * value_bytes_; }
    void exchange(ncclComm_t comm, bool late);

    int device_;
    GridDims dims_;
    int value_bytes_;
    cuda_detail::DeviceBuffer a_, b_;
    std::vector<cuda_detail::DeviceBuffer> others_;
    void* in_ = nullptr;
    void* out_ = nullptr;
    std::vector<Face> faces_;
    int late_axis_ = 2;
    bool early_ = false, late_ = false;  // faces across the inner axes, across the outermost one
    long long bytes_sent_ = 0;
    cudaStream_t comm_stream_{};
    cudaEvent_t computed_{}, early_arrived_{}, late_arrived_{}, before_late_work_{}, exchange_done_{};
};

}  // namespace stencil::distributed
