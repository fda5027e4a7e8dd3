#include "viewer/core/student_trace.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/engine_trace_text.h"
#include "checker/contract.h"
#include "checker/evaluate.h"
#include "checker/exercises.h"
#include "checker/process.h"
#include "checker/protocol.h"
#include "checker/source.h"
#include "core/error.h"
#include "core/weights.h"

namespace stencil::viewer {

namespace fs = std::filesystem;
using namespace stencil::checker;

std::string check_runner_path() {
    if (const char* v = std::getenv("STENCIL_CHECK_RUNNER"); v && *v) return v;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (const fs::path& p : {self.parent_path() / "stencil-check-runner",
                                  self.parent_path().parent_path() / "stencil-check-runner"})
            if (fs::exists(p, ec)) return p.string();
#ifdef STENCIL_VIEWER_CHECK_RUNNER
    return STENCIL_VIEWER_CHECK_RUNNER;
#else
    return "stencil-check-runner";
#endif
}

std::string resolve_student_config(StepperConfig& cfg) {
    const Exercise* ex = find_exercise(cfg.exercise);
    if (!ex) return "unknown exercise '" + cfg.exercise + "'; one of: " + exercise_names();
    if (!ex->is_star3d())
        return fmt::format("the stepper steps the star3d exercises; {} is a {} exercise", ex->name,
                           to_string(ex->problem));
    cfg.kernel = ex->kernel();
    cfg.radius = ex->radius;
    cfg.precision = ex->precision;
    if (!tile_problem(*ex, cfg.tile).empty()) cfg.tile = default_tile(*ex);
    cfg.block_shape.reset();
    return {};
}

namespace {

// A scratch folder for the request, removed with its files when the trace is read.
struct Scratch {
    fs::path path;
    Scratch() {
        std::string t = (fs::temp_directory_path() / "stencil-viewer-trace-XXXXXX").string();
        if (!::mkdtemp(t.data())) throw std::runtime_error("cannot create a scratch folder in " + t);
        path = t;
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void write_file(const fs::path& p, const void* data, size_t bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(static_cast<const char*>(data), (std::streamsize)bytes);
    if (!f) throw std::runtime_error("cannot write " + p.string());
}

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

// Long because it is one pipeline: the student's file checked, compiled, run on the CPU engine and
// its trace made, each step's failure said.
StepperTrace trace_student_kernel(const StepperConfig& given, const std::atomic<bool>* cancel) {
    StepperTrace bad;
    bad.cfg = given;
    StepperConfig cfg = given;
    if (auto why = resolve_student_config(cfg); !why.empty()) {
        bad.error = why;
        return bad;
    }
    bad.cfg = cfg;
    const Exercise& ex = *find_exercise(cfg.exercise);
    if (cfg.dims.nx != cfg.dims.ny || cfg.dims.nx != cfg.dims.nz) {
        bad.error = "a student's kernel runs on N^3 grids (its signature has one N)";
        return bad;
    }
    const int n = cfg.dims.nx;
    try {
        const VettedSource src = read_and_vet(cfg.kernel_file, kernel_contract(ex));
        if (!src.ok) {
            bad.error = src.problem;
            return bad;
        }
        Scratch work;
        TestCase tc = make_case(ex, n, cfg.tile, 1);
        tc.runs = {RunSpec{}};
        const Launch l = launch_for(ex, n, cfg.tile);
        if (cfg.block.x < 0 || cfg.block.y < 0 || cfg.block.z < 0 || cfg.block.x >= (int)l.grid[0] ||
            cfg.block.y >= (int)l.grid[1] || cfg.block.z >= (int)l.grid[2]) {
            bad.error = fmt::format("block ({}, {}, {}) is outside the launch grid of {} x {} x {} blocks", cfg.block.x,
                                    cfg.block.y, cfg.block.z, l.grid[0], l.grid[1], l.grid[2]);
            return bad;
        }
        Request req;
        req.mode = RunnerMode::cpu;
        req.exercise = ex.name;
        req.problem = ex.problem;
        req.lab_kernel = ex.version;
        req.precision = ex.precision;
        req.radius = ex.radius;
        req.tile = cfg.tile;
        req.kernel_name = kernel_contract(ex).kernel;
        req.kernel_signature = kernel_signature(ex);
        req.display_name = src.display_name;
        const StencilWeights w = laplacian_weights(ex.radius).rounded_to(ex.precision);
        req.constants = harness_constants(ex, {w.c.begin(), w.c.begin() + weight_count(ex)});
        req.workers = 1;
        const std::string tu = translation_unit(src, ex, cfg.tile);
        write_file(work.path / "submission.cu", tu.data(), tu.size());
        req.source = (work.path / "submission.cu").string();
        req.compile_seconds = 30;
        req.compile_memory_bytes = 2048LL << 20;
        req.time_limit = 30;
        req.printf_cap_bytes = kPrintfCapBytes;
        req.cases.push_back(case_spec(tc, 0));
        write_file(work.path / "case0.in", tc.input.data(), tc.input.bytes());
        write_file(work.path / "case0.out", tc.output.data(), tc.output.bytes());
        req.trace = TraceSpec{0, 0, {cfg.block.x, cfg.block.y, cfg.block.z}, "trace.txt"};
        const std::string request = nlohmann::json(req).dump(1);
        write_file(work.path / "request.json", request.data(), request.size());

        ChildLimits lim;
        lim.wall_seconds = req.compile_seconds + req.time_limit + 30;
        lim.address_space_bytes = 4096LL << 20;
        lim.file_bytes = 1LL << 30;
        lim.stop = cancel;
        const ChildResult child = run_child({check_runner_path(), "request.json"}, lim, work.path.string());
        if (child.stopped) {
            bad.error = "cancelled";
            return bad;
        }
        const std::string result_text = read_file(work.path / "result.json");
        if (!result_text.empty()) {
            const Result result = parse_result(result_text);
            if (result.compile && !result.compile->ok) {
                bad.error = "the kernel does not compile: " + result.compile->log.substr(0, 2000);
                return bad;
            }
        }
        if (!child.ok()) {
            bad.error = fmt::format("the kernel's run on the CPU engine ended ({}){}", child.describe(),
                                    child.timed_out ? ": it ran past the time limit (a loop without end?)" : "");
            return bad;
        }
        engine::ExecReport rep = engine::trace_from_text(read_file(work.path / "trace.txt"));
        const Result result = parse_result(result_text);
        StepperTrace t = build_stepper_trace(cfg, rep);
        // The engine's findings travel with the trace: a racy or faulting kernel is still stepped
        // up to where it stopped.
        for (const auto& r : result.runs)
            for (const auto& d : r.diagnostics) t.notes.push_back(d.message);
        if (result.stopped)
            t.notes.push_back("the run stopped: a block ran out of its instruction budget (a loop without end?)");
        if (t.acc.empty())
            t.error = fmt::format("block ({}, {}, {}) of the student's kernel made no memory access{}", cfg.block.x,
                                  cfg.block.y, cfg.block.z, t.notes.empty() ? "" : ": " + t.notes.back());
        return t;
    } catch (const std::exception& e) {  // UserError (no such file), a request or trace that does not parse
        bad.error = e.what();
        return bad;
    }
}

}  // namespace stencil::viewer
