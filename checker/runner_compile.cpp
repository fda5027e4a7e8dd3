// stencil-check-runner: the one compile both backends run (NVRTC to PTX), and the runner's own
// limits on it and on the runs. The GPU's driver assembles this PTX, the CPU engine interprets
// it: a submission cannot tell the two apart.
//
// NVRTC runs in this process on text the student wrote, so a macro-expansion or template bomb
// is NVRTC's problem to survive and ours to bound: a clock (SIGALRM: kCompileTimeLimitExit) and an
// address-space limit while it runs (RLIMIT_AS, lowered to what the process has plus
// compile_memory_bytes, restored after). NVRTC may answer an allocation that fails with an error,
// a std::bad_alloc, or by aborting or faulting; the first two are a compile failure of stage
// `memory`, the last two end the runner with kCompileCrashExit. Either way a compile_error.
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "core/cubin_resources.h"
#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/nvrtc_ptx.h"
#include "checker/protocol.h"
#include "checker/ptx_vetting.h"
#include "checker/runner.h"

namespace stencil::checker::runner {

namespace {

volatile sig_atomic_t g_phase = static_cast<int>(Phase::compiling);

// Async-signal-safe: write() and _exit() only.
void on_alarm(int) {
    const bool compiling = g_phase == static_cast<int>(Phase::compiling);
    const char* msg = compiling ? "stencil-check-runner: NVRTC ran past its time limit\n"
                                : "stencil-check-runner: the kernel's runs ran past the time limit\n";
    size_t n = 0;
    while (msg[n]) ++n;
    (void)!write(2, msg, n);
    _exit(compiling ? kCompileTimeLimitExit : kRunTimeLimitExit);
}

// Async-signal-safe: NVRTC died (usually of the memory limit). Installed for the compile only.
void on_compile_fault(int) {
    const char msg[] = "stencil-check-runner: NVRTC died while compiling (out of its memory limit?)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(kCompileCrashExit);
}

long long address_space_in_use() {
    long long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%lld", &pages) != 1) pages = 0;
        std::fclose(f);
    }
    return pages * sysconf(_SC_PAGESIZE);
}

// While alive: the address space is bounded to what is in use now plus `extra` bytes, and a fault
// or abort ends the runner with kCompileCrashExit. Both undone at the end of the scope.
class CompileBounds {
public:
    explicit CompileBounds(long long extra) {
        getrlimit(RLIMIT_AS, &saved_);
        if (extra > 0) {
            rlimit lowered = saved_;
            const rlim_t want = static_cast<rlim_t>(address_space_in_use() + extra);
            if (saved_.rlim_cur == RLIM_INFINITY || want < saved_.rlim_cur) lowered.rlim_cur = want;
            setrlimit(RLIMIT_AS, &lowered);
        }
        struct sigaction sa {};
        sa.sa_handler = on_compile_fault;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &sa, &saved_actions_[i]);
    }
    ~CompileBounds() {
        setrlimit(RLIMIT_AS, &saved_);
        for (size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &saved_actions_[i], nullptr);
    }
    CompileBounds(const CompileBounds&) = delete;
    CompileBounds& operator=(const CompileBounds&) = delete;

private:
    static constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT};
    rlimit saved_{};
    struct sigaction saved_actions_[std::size(kSignals)] {};
};

}  // namespace

void arm_time_limit(Phase phase, double seconds) {
    g_phase = static_cast<int>(phase);
    struct sigaction sa {};
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, nullptr);
    itimerval t{};
    const double s = seconds > 0 ? seconds : 1e-3;
    t.it_value.tv_sec = static_cast<time_t>(s);
    t.it_value.tv_usec = static_cast<suseconds_t>((s - static_cast<double>(t.it_value.tv_sec)) * 1e6);
    if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1000;
    setitimer(ITIMER_REAL, &t, nullptr);
}

CompileOutcome compile_failure(CompileStage stage, const std::string& log) {
    CompileOutcome c;
    c.ok = false;
    c.stage = stage;
    c.log = log;
    return c;
}

// ptxas (NVRTC compiles for sm_90) refuses more static shared memory than a block may have:
// "uses too much shared data (0x40800 bytes, 0xc000 max)". The same sentence as every other
// limit, in decimal.
static std::optional<std::string> shared_memory_refusal(const std::string& log, const std::string& display) {
    const std::string key = "uses too much shared data (0x";
    const auto at = log.find(key);
    if (at == std::string::npos) return std::nullopt;
    char* end = nullptr;
    const long long used = std::strtoll(log.c_str() + at + key.size(), &end, 16);
    const auto max_at = log.find("0x", size_t(end - log.c_str()));
    const long long max = max_at == std::string::npos ? kMaxStaticSharedBytes : std::strtoll(log.c_str() + max_at + 2, nullptr, 16);
    return fmt::format("{}: the kernel declares {} bytes ({:.1f} KiB) of static __shared__ memory per block; a GPU "
                       "allows at most {} bytes ({} KiB): ptxas refuses it", display, used, used / 1024.0, max, max / 1024);
}

Compiled compile_submission(const Request& req) {
    std::ifstream f(req.source);
    if (!f) throw std::runtime_error("runner: cannot read the translation unit");
    ptx::CompileRequest cr;
    cr.source.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    cr.name = req.display_name;
    // The kernel and the harness's constants by name expression: NVRTC says what each is called
    // in the PTX.
    cr.name_expressions.push_back(req.kernel_name);
    for (const ConstantSpec& k : req.constants) cr.name_expressions.push_back("&" + k.name);
    cr.options = {"-w"};  // the log is for errors: a student reads it only when the file fails
    cr.cubin = true;      // ptxas's registers and frames: the GPU's limits, held on the CPU too

    progress("compiling " + cr.name + " with NVRTC");
    Compiled c;
    ptx::CompileResult r;
    std::string nvrtc_failure;  // NVRTC itself failed, not the source: under the bound, its memory
    arm_time_limit(Phase::compiling, req.compile_seconds);
    try {
        const CompileBounds bounds(req.compile_memory_bytes);
        r = ptx::compile_to_ptx(cr);
    } catch (const std::bad_alloc&) {
        nvrtc_failure = "out of memory";
    } catch (const ptx::Error& e) {
        nvrtc_failure = e.what();
    }
    arm_time_limit(Phase::running, req.time_limit);
    if (!nvrtc_failure.empty()) {
        c.stage = CompileStage::memory;
        c.log = fmt::format("{}: NVRTC gave up ({}) within the {} MiB it may use for one compile (a "
                            "macro or template that expands without end?)", req.display_name,
                            nvrtc_failure, req.compile_memory_bytes >> 20);
        return c;
    }
    c.log = r.log;
    c.seconds = r.seconds;
    if (!r.ok) {
        if (auto limit = shared_memory_refusal(r.log, req.display_name)) {  // ptxas's, in the student's words
            c.stage = CompileStage::limits;
            c.log = *limit;
        }
        return c;
    }
    c.ptx = r.ptx;
    c.kernel = r.lowered_name(req.kernel_name);
    for (const ConstantSpec& k : req.constants) c.constants.push_back(r.lowered_name("&" + k.name));
    if (c.kernel.empty()) {
        c.log += "\nthe kernel " + req.kernel_name + " was not found after compilation";
        return c;
    }
    for (const auto& w : c.constants)
        if (w.empty()) {
            c.log += "\nthe harness's constants were not found after compilation";
            return c;
        }
    // The contract where only the PTX shows it (the parameters' types, inline assembly), before
    // anything runs.
    if (auto refused = vet_compiled(req, c.ptx, c.kernel)) {
        c.stage = CompileStage::contract;
        c.log = *refused;
        return c;
    }
    // Registers from the cubin; stack frames from ptxas's report (the cubin's frame sizes leave out
    // the registers a call saves, and name a kernel's callees "$kernel$callee").
    try {
        for (const auto& [name, res] : cubin_resources(r.cubin))
            if (res.registers > 0) c.registers.emplace_back(name, res.registers);
    } catch (const std::runtime_error& e) {
        c.limits_note = e.what();
    }
    c.frame_bytes = r.stack_frames;
    c.ok = true;
    return c;
}

}  // namespace stencil::checker::runner
