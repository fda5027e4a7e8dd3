// stencil-check-runner: the one compile both backends run (NVRTC to PTX), and the runner's own
// time limits. The GPU's driver assembles this PTX, the CPU engine interprets it: a submission
// cannot tell the two apart.
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "backends/cpu/ptx/nvrtc_ptx.h"
#include "checker/protocol.h"
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

json compile_failure(const std::string& stage, const std::string& log) {
    return {{"ok", false}, {"stage", stage}, {"log", log}};
}

Compiled compile_submission(const json& req) {
    std::ifstream f(req.at("source").get<std::string>());
    if (!f) throw std::runtime_error("runner: cannot read the translation unit");
    ptx::CompileRequest cr;
    cr.source.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    cr.name = req.at("display_name").get<std::string>();
    // The weights by name expression: NVRTC says what each is called in the PTX.
    const size_t weights = req.at("coefficients").size();
    cr.name_expressions.push_back("stencil_kernel");
    for (size_t i = 0; i < weights; ++i) cr.name_expressions.push_back("&c" + std::to_string(i));
    cr.options = {"-w"};  // the log is for errors: a student reads it only when the file fails

    progress("compiling " + cr.name + " with NVRTC");
    arm_time_limit(Phase::compiling, req.value("compile_seconds", kCompileSeconds));
    const ptx::CompileResult r = ptx::compile_to_ptx(cr);
    arm_time_limit(Phase::running, req.value("time_limit", 60.0));

    Compiled c;
    c.log = r.log;
    c.seconds = r.seconds;
    if (!r.ok) return c;
    c.ptx = r.ptx;
    c.kernel = r.lowered_name("stencil_kernel");
    for (size_t i = 0; i < weights; ++i) c.weights.push_back(r.lowered_name("&c" + std::to_string(i)));
    if (c.kernel.empty()) {
        c.log += "\nthe kernel stencil_kernel was not found after compilation";
        return c;
    }
    for (const auto& w : c.weights)
        if (w.empty()) {
            c.log += "\nthe harness's weights were not found after compilation";
            return c;
        }
    c.ok = true;
    return c;
}

}  // namespace stencil::checker::runner
