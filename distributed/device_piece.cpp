#include "distributed/device_piece.h"

#include <utility>

#include "distributed/nccl_library.h"
#include "distributed/nccl_support.h"

namespace stencil::distributed {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;

DevicePiece::DevicePiece(int device, const analysis::SubBox& box, int halo, int value_bytes, int fields)
    : device_(device), dims_(box.local_dims()), value_bytes_(value_bytes) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    const std::size_t bytes = std::size_t(dims_.cells()) * value_bytes_;
    a_ = DeviceBuffer(bytes, "a piece's field (in)");
    b_ = DeviceBuffer(bytes, "a piece's field (out)");
    in_ = a_.get(), out_ = b_.get();
    for (int f = 1; f < fields; ++f) others_.emplace_back(bytes, "a piece's field");
    late_axis_ = dims_.nz > 1 ? 2 : dims_.ny > 1 ? 1 : 0;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            if (box.neighbour[axis][side] == analysis::kNoNeighbour) continue;
            Face f;
            f.peer = box.neighbour[axis][side];
            f.late = axis == late_axis_;
            (f.late ? late_ : early_) = true;
            f.send = send_face(box, axis, side, halo);
            f.receive = receive_face(box, axis, side, halo);
            f.bytes = std::size_t(f.send.cells()) * value_bytes_;
            f.send_at = contiguous_offset(f.send, dims_);
            f.receive_at = contiguous_offset(f.receive, dims_);
            if (!f.send_at) f.send_buffer = DeviceBuffer(f.bytes, "a halo face (send)");
            if (!f.receive_at) f.receive_buffer = DeviceBuffer(f.bytes, "a halo face (receive)");
            bytes_sent_ += static_cast<long long>(f.bytes);
            faces_.push_back(std::move(f));
        }
    comm_stream_ = create_exchange_stream();
    for (cudaEvent_t* e : {&computed_, &early_arrived_, &late_arrived_, &before_late_work_, &exchange_done_})
        check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
}

DevicePiece::~DevicePiece() {
    cudaSetDevice(device_);
    for (cudaEvent_t e : {computed_, early_arrived_, late_arrived_, before_late_work_, exchange_done_})
        cudaEventDestroy(e);
    cudaStreamDestroy(comm_stream_);
}

void DevicePiece::upload(const Fields& piece) {
    const std::size_t bytes = a_.bytes();
    check(cudaMemcpy(a_.get(), piece.at(0).data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy of the input");
    check(cudaMemcpy(b_.get(), piece.at(0).data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy of the input");
    for (std::size_t f = 1; f < piece.size(); ++f)
        check(cudaMemcpy(others_.at(f - 1).get(), piece[f].data(), bytes, cudaMemcpyHostToDevice),
              "cudaMemcpy of the input");
    check(cudaEventRecord(computed_, nullptr), "cudaEventRecord");
}

Fields DevicePiece::download() const {
    Fields piece(1 + others_.size(), std::vector<unsigned char>(a_.bytes()));
    check(cudaMemcpy(piece[0].data(), in_, a_.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy of the result");
    for (std::size_t f = 0; f < others_.size(); ++f)
        check(cudaMemcpy(piece[f + 1].data(), others_[f].get(), a_.bytes(), cudaMemcpyDeviceToHost),
              "cudaMemcpy of the result");
    return piece;
}

void DevicePiece::begin_pass(ncclComm_t comm) {
    // The faces are read from `in` only after the last pass wrote it.
    check(cudaStreamWaitEvent(comm_stream_, computed_, 0), "cudaStreamWaitEvent");
    if (early_) {
        exchange(comm, false);
        check(cudaEventRecord(early_arrived_, comm_stream_), "cudaEventRecord");
        check(cudaStreamWaitEvent(nullptr, early_arrived_, 0), "cudaStreamWaitEvent");
    }
    if (late_) {
        exchange(comm, true);
        check(cudaEventRecord(late_arrived_, comm_stream_), "cudaEventRecord");
    }
}

void DevicePiece::wait_for_late_halos() {
    if (late_) check(cudaStreamWaitEvent(nullptr, late_arrived_, 0), "cudaStreamWaitEvent");
}

cudaStream_t DevicePiece::late_halo_stream() {
    if (!late_) return nullptr;
    check(cudaEventRecord(before_late_work_, nullptr), "cudaEventRecord");
    check(cudaStreamWaitEvent(comm_stream_, before_late_work_, 0), "cudaStreamWaitEvent");
    return comm_stream_;
}

void DevicePiece::end_pass() {
    // The exchange's stream holds this pass's faces, which the default stream waited for already,
    // and whatever late_halo_stream was given: joining it costs nothing when that is nothing.
    check(cudaEventRecord(exchange_done_, comm_stream_), "cudaEventRecord");
    check(cudaStreamWaitEvent(nullptr, exchange_done_, 0), "cudaStreamWaitEvent");
    check(cudaEventRecord(computed_, nullptr), "cudaEventRecord");
    std::swap(in_, out_);
}

void DevicePiece::exchange_and_wait(ncclComm_t comm) {
    exchange(comm, false);
    exchange(comm, true);
    check(cudaStreamSynchronize(comm_stream_), "an exchange (cudaStreamSynchronize)");
}

void DevicePiece::synchronize() const {
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaDeviceSynchronize(), "the steps (cudaDeviceSynchronize)");
}

void DevicePiece::exchange(ncclComm_t comm, bool late) {
    for (Face& f : faces_)
        if (f.late == late && !f.send_at)
            copy_box_async(in_, dims_, value_bytes_, f.send, f.send_buffer.get(), true, comm_stream_);
    nccl_check(nccl().group_start(), "ncclGroupStart");
    for (Face& f : faces_) {
        if (f.late != late) continue;
        void* receive = f.receive_at ? at(*f.receive_at) : f.receive_buffer.get();
        const void* send = f.send_at ? at(*f.send_at) : f.send_buffer.get();
        nccl_check(nccl().recv(receive, f.bytes, ncclUint8, f.peer, comm, comm_stream_), "ncclRecv");
        nccl_check(nccl().send(send, f.bytes, ncclUint8, f.peer, comm, comm_stream_), "ncclSend");
    }
    nccl_check(nccl().group_end(), "ncclGroupEnd");
    for (Face& f : faces_)
        if (f.late == late && !f.receive_at)
            copy_box_async(in_, dims_, value_bytes_, f.receive, f.receive_buffer.get(), false, comm_stream_);
}

}  // namespace stencil::distributed
