// ---------------------------------------------------------------------------------------------
// Hardware counters through CUPTI's range profiler, in-process (see counters.h).
//
// The sequence (CUDA 13): cuptiProfilerInitialize; chip name and counter availability; a host
// object that turns metric names into a config image; cuptiRangeProfilerEnable on the context;
// a counter-data image; SetConfig (auto range, kernel replay); Start, one launch, Stop; Decode;
// EvaluateToGpuValues for range 0.
//
// libcupti is dlopen()ed on first use (it is part of the CUDA toolkit, not of the driver), and the
// CUcontext comes from the runtime's driver entry point: nothing here links libcuda or libcupti.
//
// Sections: the CUPTI functions (dlopen and lookup); the session (initialise, config image,
// counter image, one profiled launch, decode, evaluate); the metrics the lab reads and what to do
// when a metric is missing on this GPU.
// ---------------------------------------------------------------------------------------------
#include "backends/cuda/counters.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>

#include "backends/cuda/cuda_internal.h"
#include "core/error.h"

#ifndef STENCIL_CUPTI_LIBRARY_DIR
#define STENCIL_CUPTI_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace stencil {

namespace {

// ---- the CUPTI functions we call, looked up in the dlopen()ed library ----------------------------
struct Cupti {
#define STENCIL_CUPTI_FN(name) decltype(&::name) name = nullptr;
    STENCIL_CUPTI_FN(cuptiGetResultString)
    STENCIL_CUPTI_FN(cuptiProfilerInitialize)
    STENCIL_CUPTI_FN(cuptiProfilerDeInitialize)
    STENCIL_CUPTI_FN(cuptiDeviceGetChipName)
    STENCIL_CUPTI_FN(cuptiProfilerGetCounterAvailability)
    STENCIL_CUPTI_FN(cuptiProfilerHostInitialize)
    STENCIL_CUPTI_FN(cuptiProfilerHostDeinitialize)
    STENCIL_CUPTI_FN(cuptiProfilerHostConfigAddMetrics)
    STENCIL_CUPTI_FN(cuptiProfilerHostGetConfigImageSize)
    STENCIL_CUPTI_FN(cuptiProfilerHostGetConfigImage)
    STENCIL_CUPTI_FN(cuptiProfilerHostEvaluateToGpuValues)
    STENCIL_CUPTI_FN(cuptiRangeProfilerEnable)
    STENCIL_CUPTI_FN(cuptiRangeProfilerDisable)
    STENCIL_CUPTI_FN(cuptiRangeProfilerGetCounterDataSize)
    STENCIL_CUPTI_FN(cuptiRangeProfilerCounterDataImageInitialize)
    STENCIL_CUPTI_FN(cuptiRangeProfilerSetConfig)
    STENCIL_CUPTI_FN(cuptiRangeProfilerStart)
    STENCIL_CUPTI_FN(cuptiRangeProfilerStop)
    STENCIL_CUPTI_FN(cuptiRangeProfilerDecodeData)
    STENCIL_CUPTI_FN(cuptiRangeProfilerGetCounterDataInfo)
#undef STENCIL_CUPTI_FN
    std::string error;  // why it could not be loaded; empty when loaded
};

const Cupti& cupti() {
    static Cupti c;
    static std::once_flag once;
    std::call_once(once, [] {
        std::vector<std::string> candidates = {"libcupti.so.13", "libcupti.so"};
        if (const char* home = std::getenv("CUDA_HOME")) {
            candidates.push_back(std::string(home) + "/lib64/libcupti.so.13");
            candidates.push_back(std::string(home) + "/extras/CUPTI/lib64/libcupti.so.13");
        }
        candidates.push_back(std::string(STENCIL_CUPTI_LIBRARY_DIR) + "/libcupti.so.13");
        candidates.push_back("/usr/local/cuda/lib64/libcupti.so.13");
        candidates.push_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13");
        void* lib = nullptr;
        std::string last;
        for (const auto& name : candidates) {
            if ((lib = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
            if (const char* e = ::dlerror()) last = e;
        }
        if (!lib) {
            c.error = "CUPTI (libcupti.so.13, part of the CUDA toolkit) was not found: " + last;
            return;
        }
        bool missing = false;
        auto load = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
            if (!fn && !missing) {
                missing = true;
                c.error = fmt::format("the CUPTI found here has no {} (it must be CUDA 13's)", name);
            }
        };
#define STENCIL_CUPTI_LOAD(name) load(c.name, #name);
        STENCIL_CUPTI_LOAD(cuptiGetResultString)
        STENCIL_CUPTI_LOAD(cuptiProfilerInitialize)
        STENCIL_CUPTI_LOAD(cuptiProfilerDeInitialize)
        STENCIL_CUPTI_LOAD(cuptiDeviceGetChipName)
        STENCIL_CUPTI_LOAD(cuptiProfilerGetCounterAvailability)
        STENCIL_CUPTI_LOAD(cuptiProfilerHostInitialize)
        STENCIL_CUPTI_LOAD(cuptiProfilerHostDeinitialize)
        STENCIL_CUPTI_LOAD(cuptiProfilerHostConfigAddMetrics)
        STENCIL_CUPTI_LOAD(cuptiProfilerHostGetConfigImageSize)
        STENCIL_CUPTI_LOAD(cuptiProfilerHostGetConfigImage)
        STENCIL_CUPTI_LOAD(cuptiProfilerHostEvaluateToGpuValues)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerEnable)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerDisable)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerGetCounterDataSize)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerCounterDataImageInitialize)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerSetConfig)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerStart)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerStop)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerDecodeData)
        STENCIL_CUPTI_LOAD(cuptiRangeProfilerGetCounterDataInfo)
#undef STENCIL_CUPTI_LOAD
    });
    return c;
}

// A CUPTI failure as a sentence; the privilege error gets the administrator's fix.
struct CuptiFailure {
    std::string what;
    bool busy = false;  // another process holds the GPU's counters: worth waiting for
};

std::string privilege_sentence() {
    return "hardware counters are restricted to administrators on this machine "
           "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, ERR_NVGPUCTRPERM): run as root, or have an administrator "
           "allow them for everyone with the nvidia kernel module option NVreg_RestrictProfilingToAdminUsers=0 "
           "(a line 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/, then reload the "
           "driver or reboot; see https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
}

// On a virtual GPU the guest's driver options change nothing: the hypervisor decides.
std::string vgpu_privilege_sentence() {
    return "hardware counters are not permitted on this virtual GPU "
           "(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES): the hypervisor / vGPU profile must "
           "allow profiling (on NVIDIA vGPU the host administrator enables it for this VM, e.g. the "
           "vGPU plugin parameter enable_profiling=1); options of the guest's driver cannot lift it";
}

void ck(CUptiResult r, const char* call) {
    if (r == CUPTI_SUCCESS) return;
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) throw CuptiFailure{privilege_sentence()};
    if (r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) throw CuptiFailure{vgpu_privilege_sentence()};
    const char* s = nullptr;
    if (cupti().cuptiGetResultString) cupti().cuptiGetResultString(r, &s);
    throw CuptiFailure{fmt::format("CUPTI failed in {}: {} (error {})", call, s ? s : "unknown", static_cast<int>(r)),
                       r == CUPTI_ERROR_HARDWARE_BUSY};
}

// The counters serve one process at a time (another profiler, or a second check graded beside this
// one, gets CUPTI_ERROR_HARDWARE_BUSY): wait for them, up to about 10 s, before giving up.
template <class F>
auto when_counters_free(F&& profile) {
    for (int attempt = 0;; ++attempt) {
        try {
            return profile();
        } catch (const CuptiFailure& f) {
            if (!f.busy || attempt >= 50) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }
}
#define CK(call) ck(c.call, #call)

// Closes what was opened, in reverse order, whatever happens in between.
template <class F>
struct Finally {
    F f;
    ~Finally() { f(); }
};
template <class F>
Finally(F) -> Finally<F>;

CounterValues to_values(const std::vector<std::string>& names, const std::vector<double>& v) {
    CounterValues out;
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string& n = names[i];
        out.raw.emplace_back(n, v[i]);
        auto is = [&](const char* m) { return n == m; };
        if (is("dram__bytes_read.sum")) out.dram_bytes_read = v[i];
        else if (is("dram__bytes_write.sum")) out.dram_bytes_write = v[i];
        else if (is("lts__t_bytes.sum")) out.l2_bytes = v[i];
        else if (is("lts__t_sectors_srcunit_tex_op_read.sum")) out.l2_read_sectors = v[i];
        else if (is("lts__t_sectors_srcunit_tex_op_write.sum")) out.l2_write_sectors = v[i];
        else if (is("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")) out.l1_global_load_sectors = v[i];
        else if (is("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")) out.l1_global_load_requests = v[i];
        else if (is("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum")) out.fadd = v[i];
        else if (is("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum")) out.fmul = v[i];
        else if (is("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")) out.ffma = v[i];
        else if (is("smsp__sass_thread_inst_executed_op_dadd_pred_on.sum")) out.dadd = v[i];
        else if (is("smsp__sass_thread_inst_executed_op_dmul_pred_on.sum")) out.dmul = v[i];
        else if (is("smsp__sass_thread_inst_executed_op_dfma_pred_on.sum")) out.dfma = v[i];
        else if (is("smsp__sass_data_bytes_mem_global_op_ld.sum")) out.global_load_data_bytes = v[i];
        else if (is("smsp__sass_data_bytes_mem_global_op_st.sum")) out.global_store_data_bytes = v[i];
    }
    return out;
}

// The current context as the driver knows it (CUPTI wants a CUcontext; the runtime made it).
CUcontext current_context() {
    using namespace cuda_detail;
    using CtxGetCurrent = CUresult (*)(CUcontext*);
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    check(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000, cudaEnableDefault, &found),
          "cudaGetDriverEntryPointByVersion (cuCtxGetCurrent)");
    if (!entry || found != cudaDriverEntryPointSuccess) throw CuptiFailure{"the driver has no cuCtxGetCurrent"};
    CUcontext ctx = nullptr;
    if (reinterpret_cast<CtxGetCurrent>(entry)(&ctx) != CUDA_SUCCESS || !ctx)
        throw CuptiFailure{"no current CUDA context to profile"};
    return ctx;
}

// Which counters this context can read now.
std::vector<uint8_t> counter_availability(const Cupti& c, CUcontext ctx) {
    CUpti_Profiler_GetCounterAvailability_Params avail{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    CK(cuptiProfilerGetCounterAvailability(&avail));
    std::vector<uint8_t> availability(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    CK(cuptiProfilerGetCounterAvailability(&avail));
    return availability;
}

// The host object's config image for `names`. Metrics in `optional` are dropped, and the rest
// still read, where CUPTI refuses the set (`names` then lists what is read, `optional_refused`
// says why); `host` may be re-initialised on the way.
std::vector<uint8_t> config_image(const Cupti& c, CUpti_Profiler_Host_Initialize_Params& host,
                                  std::vector<std::string>& names, const std::vector<std::string>& optional,
                                  std::string& optional_refused) {
    // The optional metrics (bytes requested by global ld/st) go in with the rest; where this
    // chip's CUPTI refuses the set, it is asked again without them and the reason is kept, so the
    // other levels are still measured and the requested level says it fell back.
    auto add_metrics = [&](const std::vector<std::string>& list) {
        std::vector<const char*> ptrs;
        for (const auto& n : list) ptrs.push_back(n.c_str());
        CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        add.pHostObject = host.pHostObject;
        add.ppMetricNames = ptrs.data();
        add.numMetrics = ptrs.size();
        return c.cuptiProfilerHostConfigAddMetrics(&add);
    };
    if (CUptiResult r = add_metrics(names); r != CUPTI_SUCCESS) {
        if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
            ck(r, "cuptiProfilerHostConfigAddMetrics");
        const char* s = nullptr;
        if (c.cuptiGetResultString) c.cuptiGetResultString(r, &s);
        const auto& opt = optional;
        if (opt.empty()) ck(r, "cuptiProfilerHostConfigAddMetrics");
        std::erase_if(names, [&](const std::string& n) { return std::find(opt.begin(), opt.end(), n) != opt.end(); });
        optional_refused = fmt::format("CUPTI refused {} on this GPU ({})", opt.front(), s ? s : "unknown error");
        // A fresh host object: the refused call may have left part of the set in the old one.
        CUpti_Profiler_Host_Deinitialize_Params d{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        d.pHostObject = host.pHostObject;
        c.cuptiProfilerHostDeinitialize(&d);
        host.pHostObject = nullptr;
        CK(cuptiProfilerHostInitialize(&host));
        ck(add_metrics(names), "cuptiProfilerHostConfigAddMetrics");
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params cfg_size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    cfg_size.pHostObject = host.pHostObject;
    CK(cuptiProfilerHostGetConfigImageSize(&cfg_size));
    std::vector<uint8_t> config(cfg_size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params cfg{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    cfg.pHostObject = host.pHostObject;
    cfg.configImageSize = config.size();
    cfg.pConfigImage = config.data();
    CK(cuptiProfilerHostGetConfigImage(&cfg));
    return config;
}

// One launch under the range profiler: a fresh counter-data image and the config, the L2 flushed
// before Start (outside the profiled range), the launch (replayed by CUPTI once per pass the
// metrics need), and the metrics' values.
std::vector<double> profile_one(const Cupti& c, CUpti_RangeProfiler_Object* rp, CUpti_Profiler_Host_Object* host_object,
                                std::vector<uint8_t>& config, std::vector<uint8_t>& data,
                                std::vector<const char*>& metrics, const cuda_detail::DeviceBuffer& flush,
                                const std::function<void()>& launch) {
    using namespace cuda_detail;
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    data_init.pRangeProfilerObject = rp;
    data_init.counterDataSize = data.size();
    data_init.pCounterData = data.data();
    CK(cuptiRangeProfilerCounterDataImageInitialize(&data_init));
    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = rp;
    set.configSize = config.size();
    set.pConfig = config.data();
    set.counterDataImageSize = data.size();
    set.pCounterDataImage = data.data();
    set.range = CUPTI_AutoRange;
    set.replayMode = CUPTI_KernelReplay;
    set.maxRangesPerPass = 1;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    CK(cuptiRangeProfilerSetConfig(&set));

    check(cudaMemset(flush.get(), 1, flush.bytes()), "cudaMemset (L2 flush)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after the L2 flush)");
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = rp;
    CK(cuptiRangeProfilerStart(&start));
    launch();
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = rp;
    CK(cuptiRangeProfilerStop(&stop));
    if (!stop.isAllPassSubmitted)
        throw CuptiFailure{"CUPTI kernel replay did not finish every pass in one launch"};
    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = rp;
    CK(cuptiRangeProfilerDecodeData(&decode));
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    CK(cuptiRangeProfilerGetCounterDataInfo(&info));
    if (info.numTotalRanges < 1) throw CuptiFailure{"CUPTI recorded no range for the launch"};

    std::vector<double> values(metrics.size(), 0.0);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    eval.pHostObject = host_object;
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = metrics.data();
    eval.numMetrics = metrics.size();
    eval.pMetricValues = values.data();
    CK(cuptiProfilerHostEvaluateToGpuValues(&eval));
    return values;
}

// Profiles each launch (made by `launch` on the current device, repeatable: kernel replay re-runs
// it once per pass) for `names`, all in one profiler session (setting CUPTI up costs more than a
// small launch's replays). Metrics in `optional` are dropped where CUPTI refuses them (see
// config_image).
std::vector<std::vector<double>> profile_launches(const std::vector<std::function<void()>>& launches,
                                                 std::vector<std::string>& names,
                                                 const std::vector<std::string>& optional,
                                                 std::string& optional_refused) {
    using namespace cuda_detail;
    const Cupti& c = cupti();
    if (!c.error.empty()) throw CuptiFailure{c.error};
    check(cudaFree(nullptr), "cudaFree (context creation)");
    DeviceBuffer flush(l2_flush_bytes(), "L2 flush buffer");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (before profiling)");
    const CUcontext ctx = current_context();
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");

    // Host side: metric names -> config image, for this chip and the counters available now.
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
    CK(cuptiProfilerInitialize(&init));
    Finally init_done{[&] {
        CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, nullptr};
        c.cuptiProfilerDeInitialize(&p);
    }};
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE, nullptr, 0, nullptr};
    chip.deviceIndex = static_cast<size_t>(device);
    CK(cuptiDeviceGetChipName(&chip));
    std::vector<uint8_t> availability = counter_availability(c, ctx);
    CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip.pChipName;
    host.pCounterAvailabilityImage = availability.data();
    CK(cuptiProfilerHostInitialize(&host));
    Finally host_done{[&] {
        CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        p.pHostObject = host.pHostObject;
        c.cuptiProfilerHostDeinitialize(&p);
    }};
    std::vector<uint8_t> config = config_image(c, host, names, optional, optional_refused);
    std::vector<const char*> metrics;
    for (const auto& n : names) metrics.push_back(n.c_str());

    // Target side: the range profiler on this context, one auto range per launch, kernel replay.
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    CK(cuptiRangeProfilerEnable(&enable));
    CUpti_RangeProfiler_Object* rp = enable.pRangeProfilerObject;
    Finally rp_done{[&] {
        CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = rp;
        c.cuptiRangeProfilerDisable(&p);
    }};
    CUpti_RangeProfiler_GetCounterDataSize_Params data_size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    data_size.pRangeProfilerObject = rp;
    data_size.pMetricNames = metrics.data();
    data_size.numMetrics = metrics.size();
    data_size.maxNumOfRanges = 1;
    data_size.maxNumRangeTreeNodes = 1;
    CK(cuptiRangeProfilerGetCounterDataSize(&data_size));
    std::vector<uint8_t> data(data_size.counterDataSize);
    std::vector<std::vector<double>> all;
    for (const auto& launch : launches)
        all.push_back(profile_one(c, rp, host.pHostObject, config, data, metrics, flush, launch));
    return all;
}


CounterValues measure(const LaunchRequest& req, const StencilWeights& weights) {
    using namespace cuda_detail;
    // The kernel, its data, and a context (the runtime's primary one).
    if (auto e = request_error(req)) throw UserError(*e);
    if (auto e = grid_error(req.dims, req.radius)) throw UserError(*e);
    const KernelTable& table = kernel_table(req.kernel);
    const void* fn = kernel_function(req);  // temporal: the first launch's K
    if (!fn) throw UserError(request_text(req) + " is not compiled into this build");
    check(cudaFree(nullptr), "cudaFree (context creation)");
    const std::size_t bytes = static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
    DeviceBuffer d_in(bytes, "input"), d_out(bytes, "output");
    fill_random(d_in.get(), req.dims.cells(), req.precision, 0x5eedull, nullptr);
    check(cudaMemset(d_out.get(), 0, bytes), "cudaMemset (output)");
    table.upload_weights(weights.rounded_to(req.precision), req.precision);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (before profiling)");
    std::string optional_refused;
    std::vector<std::string> names = counter_metric_names();
    const std::vector<double> values = profile_launches(
        {[&] {
            launch_kernel(fn, req, d_in.get(), d_out.get());
            check_launch(request_text(req).c_str(), true);
        }},
        names, counter_optional_metric_names(), optional_refused).at(0);
    CounterValues out = to_values(names, values);
    out.requested_unavailable = optional_refused;
    return out;
}

}  // namespace

const std::vector<std::string>& counter_metric_names() {
    static const std::vector<std::string> names = {
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "lts__t_bytes.sum",
        "lts__t_sectors_srcunit_tex_op_read.sum",
        "lts__t_sectors_srcunit_tex_op_write.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
        // optional (counter_optional_metric_names): the requested level, measured
        "smsp__sass_data_bytes_mem_global_op_ld.sum",
        "smsp__sass_data_bytes_mem_global_op_st.sum",
    };
    return names;
}

const std::vector<std::string>& counter_optional_metric_names() {
    static const std::vector<std::string> names = {
        "smsp__sass_data_bytes_mem_global_op_ld.sum",
        "smsp__sass_data_bytes_mem_global_op_st.sum",
    };
    return names;
}

std::optional<std::vector<std::vector<double>>> measure_launches_metrics(
    const std::vector<std::function<void()>>& launches, const std::vector<std::string>& metrics, std::string* why) {
    if (auto reason = cuda_unavailable_reason()) {
        if (why) *why = *reason;
        return std::nullopt;
    }
    try {
        std::vector<std::string> names = metrics;
        std::string refused;
        return when_counters_free([&] { return profile_launches(launches, names, {}, refused); });
    } catch (const CuptiFailure& f) {
        if (why) *why = f.what;
    } catch (const UserError& e) {
        if (why) *why = e.what();
    }
    return std::nullopt;
}

std::optional<CounterValues> measure_counters(const LaunchRequest& req, const StencilWeights& weights,
                                              std::string* why) {
    if (auto reason = cuda_unavailable_reason()) {
        if (why) *why = *reason;
        return std::nullopt;
    }
    try {
        return when_counters_free([&] { return measure(req, weights); });
    } catch (const CuptiFailure& f) {
        if (why) *why = f.what;
    } catch (const UserError& e) {
        if (why) *why = e.what();
    }
    return std::nullopt;
}

}  // namespace stencil
