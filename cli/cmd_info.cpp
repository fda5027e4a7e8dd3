// `stencil-lab info [--json] [--backend auto|cuda|cpu]`: the GPU (name, SMs, L2, shared memory, compute capability, memory,
// a measured device-to-device copy bandwidth) and which backends can run here. Without a GPU or a
// driver it says so in a sentence and still succeeds: that is an answer, not an error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "cli/command.h"
#include "cli/report_run.h"
#include "core/backend.h"
#include "core/error.h"
#include "core/stats.h"

namespace stencil::cli {
namespace {

struct InfoArgs {
    bool json = false;
    int copy_mib = 256;
    std::string backend = "auto";  // auto: both; cuda: only the GPU; cpu: only the CPU
};

int info_command(const InfoArgs& a) {
    nlohmann::json j;
    std::string text;
    if (a.backend != "auto" && a.backend != "cuda" && a.backend != "cpu")
        throw UserError(fmt::format("unknown backend '{}' (choose auto, cuda or cpu)", a.backend));
    const bool want_gpu = a.backend != "cpu", want_cpu = a.backend != "cuda";

    std::string why;
    std::unique_ptr<Backend> gpu = want_gpu ? make_cuda_backend(&why) : nullptr;
    if (!want_gpu) {
    } else if (!gpu) {
        j["cuda"] = {{"available", false}, {"reason", why}};
        text += fmt::format("GPU: none usable: {}.\n", why);
    } else {
        const DeviceInfo d = gpu->device();
        const DeviceLimits lim = gpu->limits();
        const long long bytes = static_cast<long long>(a.copy_mib) << 20;
        const Stats copy = summarize(gpu->copy_gbps(bytes, 10));
        j["cuda"] = {{"available", true},
                     {"device", {{"name", d.name},
                                 {"multiprocessors", d.multiprocessors},
                                 {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                                 {"l2_bytes", d.l2_bytes},
                                 {"smem_per_block", d.smem_per_block},
                                 {"smem_per_sm", d.smem_per_sm},
                                 {"global_mem_bytes", d.global_mem_bytes},
                                 {"warp_size", d.warp_size},
                                 {"max_threads_per_block", lim.max_threads_per_block},
                                 {"max_static_smem_per_block", lim.max_static_smem_per_block},
                                 {"max_grid_yz", lim.max_grid_yz}}},
                     {"copy_bytes", bytes},
                     {"copy_gbps", copy.median},
                     {"copy_gbps_min", copy.min},
                     {"copy_gbps_max", copy.max}};
        text += fmt::format("GPU: {}\n", d.name);
        text += fmt::format("  compute capability {}.{}, {} SMs, warp {}\n", d.cc_major, d.cc_minor,
                            d.multiprocessors, d.warp_size);
        text += fmt::format("  memory {}, L2 {}\n", bytes_text(double(d.global_mem_bytes)), bytes_text(double(d.l2_bytes)));
        text += fmt::format("  shared memory {} per block ({} for static arrays), {} per SM; {} threads per "
                            "block\n",
                            bytes_text(double(d.smem_per_block)), bytes_text(double(lim.max_static_smem_per_block)),
                            bytes_text(double(d.smem_per_sm)), lim.max_threads_per_block);
        text += fmt::format("  copy bandwidth {:.0f} GB/s (median of 10 device-to-device copies of {} MiB, read "
                            "+ write; min {:.0f}, max {:.0f})\n",
                            copy.median, a.copy_mib, copy.min, copy.max);
    }

    if (want_cpu) {
        std::unique_ptr<Backend> cpu = make_cpu_backend();
        const DeviceInfo c = cpu->device();
        j["cpu"] = {{"available", true}, {"name", c.name}, {"cores", c.multiprocessors}};
        if (want_gpu)
            text += fmt::format("backends: cuda {}, cpu yes ({}, {} cores; the PTX engine)\n",
                                gpu ? "yes" : "no (see above)", c.name, c.multiprocessors);
        else
            text += fmt::format("CPU backend: {}, {} cores; the PTX engine runs NVRTC's PTX of every thread of every "
                                "block (real barriers and warp rendezvous; race and schedule checks with "
                                "run --check-races)\n",
                                c.name, c.multiprocessors);
    }

    if (a.json)
        std::cout << j.dump(2) << "\n";
    else
        std::cout << text;
    return 0;
}

const Command info_cmd("info", 10, [](CLI::App& app) -> std::function<int()> {
    app.description("the GPU, its copy bandwidth, and the backends this build can use here");
    auto a = std::make_shared<InfoArgs>();
    app.add_flag("--json", a->json, "print a JSON object");
    add_backend_option(app, a->backend, "auto (both), cuda (only the GPU) or cpu (only the CPU)");
    add_problem_option(app);
    add_int_option(app, "--copy-mib", a->copy_mib, 1, 1 << 16, "array size of the copy measurement, MiB")
        ->capture_default_str();
    return [a] { return info_command(*a); };
});

}  // namespace
}  // namespace stencil::cli
