// `mpirun -np P stencil-lab run --kernel K --decompose PXxPYxPZ [--steps S] [--tile T] [--radius R]
// [--precision P] [--size N | --nx X --ny Y --nz Z] [--seed S] [--backend B] [--no-overlap] [--json]`
// `mpirun -np P stencil-lab run --problem cardiac2d --kernel K --decompose PXxPY [--size N] [--steps S]
// [--no-overlap]`
// `stencil-lab run ... --decompose PXxPYxPZ --gpus N` (N = PX*PY*PZ GPUs of one process, no MPI)
// `mpirun -np P stencil-lab run ... --decompose auto --scaling strong|weak [--out DIR]` (or --gpus N)
//
// Under mpirun the halos go through MPI on the host with any backend (the CPU backend's PTX engine
// in CI), or through NCCL between GPUs when the backend is CUDA and this build has NCCL; the
// cardiac mesh likewise (the CPU engine with MPI, or GPUs with NCCL). Each rank checks the whole
// command itself, after MPI starts and before any message: the input is the same on every rank,
// so every rank reaches the same verdict; rank 0 prints the one line and every rank exits 2. What
// may differ between ranks (its backend, its GPUs, its memory) is agreed on with one collective
// (distributed/mpi_world.h, agree). A launch that fails mid-run, when the other ranks already wait
// for it, is the only MPI_Abort.
//
// A scaling sweep is one mpirun: each row runs on the first N ranks (a split communicator) while
// the others wait, and after each row every rank learns whether it went through, so a row refused
// on some ranks ends all of them with exit 2 rather than leaving the idle ones waiting.
#include "cli/run_distributed.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/decomposition.h"
#include "cli/command.h"
#include "cli/suggest.h"
#include "core/backend.h"
#include "core/error.h"
#include "distributed/cardiac2d_problem.h"
#include "distributed/scaling_report.h"
#include "distributed/star3d_problem.h"
#include "experiments/sweep_plots.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/problems.h"

#if STENCIL_LAB_HAVE_MPI
#include "distributed/cardiac2d_run.h"
#include "distributed/link_probe.h"
#include "distributed/mpi_world.h"
#include "distributed/star3d_run.h"
#endif
#if STENCIL_LAB_HAVE_NCCL
#include "distributed/nccl_cardiac2d.h"
#include "distributed/nccl_star3d.h"
#endif

namespace stencil::cli {

namespace {

struct DistributedArgs {
    std::string decompose;
    int gpus = 0;
    bool no_overlap = false;
    std::string scaling;
    std::string out;
};
DistributedArgs& distributed_args() {
    static DistributedArgs a;  // bound to the run command's options for the process
    return a;
}


// The CPU backend interprets every thread and the single domain is computed too: a small default.
constexpr int kDecomposedGpuDefaultSize = 256, kDecomposedCpuDefaultSize = 32;
constexpr int kCardiacDefaultSize = 64;
constexpr int kDefaultSteps = 2;

using distributed::ScalingMode;

std::string problem_of(const CLI::App& app) { return option_or(app, "--problem", "star3d"); }

// Why `problem` has no decomposed run (the problems table's `decomposed`); nullopt when it has one.
std::optional<std::string> not_decomposed(const std::string& problem) {
    const std::optional<Problem> p = parse_problem(problem);
    if (p && problem_row(*p).decomposed) return std::nullopt;
    return fmt::format("run --decompose covers --problem {}, not {}", decomposed_problem_names(), problem);
}

// ---- one row of a run: which ranks, which split, which grid -------------------------------------

struct Row {
    int ranks = 1;
    analysis::Decomposition decomposition;
    GridDims grid;  // star3d: the whole grid; cardiac2d: {n, n, 1}
};

std::optional<ScalingMode> scaling_mode() {
    if (distributed_args().scaling.empty()) return std::nullopt;
    const auto m = distributed::parse_scaling_mode(distributed_args().scaling);
    if (!m) throw UserError(fmt::format("--scaling must be strong or weak (got '{}')", distributed_args().scaling));
    return m;
}

// The rows the command asks for on `ranks` ranks (or GPUs): one for a plain run; for a sweep, one
// per rank count (`auto`: 1, 2, 4, ... ranks) or per listed split. `size`: the grid the user gave,
// which is one rank's share in a weak sweep. Throws UserError for anything that cannot run.
// `halo`: the star3d run's halo width (distributed::pass_halo); `one_axis`: passes of fused steps,
// whose splits cut one axis.
std::vector<Row> plan_rows(bool cardiac, GridDims size, int halo, int ranks, bool one_axis = false) {
    const auto mode = scaling_mode();
    const bool weak = mode == ScalingMode::weak;
    std::vector<std::string> specs;
    for (std::size_t at = 0; at <= distributed_args().decompose.size();) {
        const std::size_t comma = std::min(distributed_args().decompose.find(',', at), distributed_args().decompose.size());
        specs.push_back(distributed_args().decompose.substr(at, comma - at));
        at = comma + 1;
    }
    if (specs.size() > 1 && !mode) throw UserError("a list of splits in --decompose goes with --scaling strong|weak");
    std::vector<Row> rows;
    const auto cardiac_n = [&](int r) { return weak ? int(std::lround(size.nx * std::sqrt(double(r)))) : size.nx; };
    const auto add = [&](int r, std::optional<analysis::Decomposition> d) {
        Row row;
        row.ranks = r;
        if (cardiac) {
            const int n = cardiac_n(r);
            if (!d) d = analysis::balanced_cardiac_decomposition(n, r);
            row.grid = {n, n, 1};
        } else {
            if (!d) d = analysis::balanced_decomposition(size, r, halo, weak, one_axis);
            if (d) row.grid = weak ? analysis::grown_grid(size, *d) : size;
        }
        if (!d) throw UserError(fmt::format("--decompose auto: no split of {} ranks fits this grid", r));
        row.decomposition = *d;
        rows.push_back(row);
    };
    if (specs.size() == 1 && specs[0] == "auto") {
        for (int r : mode ? distributed::scaling_rank_counts(ranks) : std::vector<int>{ranks}) add(r, std::nullopt);
        return rows;
    }
    for (const std::string& spec : specs) {
        const analysis::Decomposition d =
            cardiac ? analysis::parse_cardiac_decomposition(spec) : analysis::parse_decomposition(spec, 3);
        if (mode && d.ranks() > ranks)
            throw UserError(fmt::format("--decompose {} needs {} ranks, but this run has {}", spec, d.ranks(), ranks));
        if (!rows.empty() && d.ranks() <= rows.back().ranks)
            throw UserError("the splits of a --scaling list go from fewer ranks to more");
        add(d.ranks(), d);
    }
    return rows;
}

// One row's run: the run's JSON object and its text (on rank 0 under mpirun).
struct RowOutput {
    nlohmann::json json;
    std::string text;
};
// Why a row's options cannot run on `ranks` ranks (or GPUs); nullopt when they can.
using RowError = std::function<std::optional<std::string>(const Row& row, int ranks)>;

// The first row that cannot run: a sweep's rows on their own rank counts, a plain run on all of them.
std::optional<std::string> first_row_error(const std::vector<Row>& rows, const RowError& error, int ranks) {
    for (const Row& row : rows)
        if (auto e = error(row, scaling_mode() ? row.ranks : ranks)) return e;
    return std::nullopt;
}

// The lines every problem's text report ends with: the halo bytes beside the model's, and the link
// model's line where the run measured its link (MPI also times the exchange within the step, apart
// from the kernel; NCCL's travels beside the kernels, so only its exchange alone is timed).
std::string halo_and_model_lines(const distributed::DecomposedRunResult& r) {
    std::string s = fmt::format("  halos     {} bytes per step in all ({} by the model)\n", r.halo_bytes_total,
                                r.model_halo_bytes_total);
    if (!r.link) return s;
    return s + distributed::link_text(*r.link, r.exchange_alone_seconds,
                                      r.halo_exchange == "mpi" ? std::optional<double>(r.exchange_seconds_per_step)
                                                               : std::nullopt);
}

// ---- star3d -------------------------------------------------------------------------------------

// The run's options from the parsed command (the grid as the user gave it: the whole grid, or one
// rank's share in a weak sweep); throws UserError for anything wrong with them.
distributed::Star3dRunOptions star3d_options(const CLI::App& app, bool gpu) {
    for (const char* name :
         {"--reps", "--warmup", "--no-time", "--counters", "--check-races", "--convergence", "--block"})
        if (option_given(app, name)) throw UserError(fmt::format("{} does not apply to run --decompose", name));
    distributed::Star3dRunOptions o;
    const std::string kernel = option_or(app, "--kernel", "");
    const KernelVersion* v = find_version(kernel);
    if (!v) throw UserError(unknown_choice("kernel", kernel, version_names()));
    const std::string precision = option_or(app, "--precision", "f32");
    const auto p = parse_precision(precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", precision));
    LaunchRequest& req = o.request;
    req.kernel = v->id;
    req.tile = option_or(app, "--tile", v->default_tile);
    req.radius = option_or(app, "--radius", 1);
    req.precision = *p;
    const int n = option_or(app, "--size", gpu ? kDecomposedGpuDefaultSize : kDecomposedCpuDefaultSize);
    req.dims = {option_or(app, "--nx", n), option_or(app, "--ny", n), option_or(app, "--nz", n)};
    o.steps = option_or(app, "--steps", kDefaultSteps);
    req.fuse = option_or(app, "--fuse", 0);
    req.z_chunk = option_or(app, "--z-chunk", 0);
    o.overlap = !distributed_args().no_overlap;
    if (option_given(app, "--seed") && !parse_seed(app.get_option("--seed")->as<std::string>(), o.seed))
        throw UserError("--seed must be a whole number 0 .. 2^64 - 1 (decimal or 0x hex)");
    return o;
}

distributed::Star3dRunOptions star3d_row(distributed::Star3dRunOptions o, const Row& row) {
    o.decomposition = row.decomposition;
    o.request.dims = row.grid;
    return o;
}

std::string text_report(const distributed::Star3dRunResult& r) {
    const auto& q = r.options.request;
    std::string s = fmt::format("{} {}x{}x{} r={} {} T={}, {} steps, --decompose {} on {} {} ({} backend, halos "
                                "through {}{})\n",
                                version(q.kernel).name, q.dims.nx, q.dims.ny, q.dims.nz, q.radius,
                                to_string(q.precision), q.tile, r.options.steps, r.options.decomposition.text(),
                                r.ranks, r.ranks == 1 ? "rank" : "ranks", r.backend, r.halo_exchange,
                                r.halo_exchange == "nccl" ? (r.to_json()["overlap"] == true ? ", overlapped" : ", no overlap") : "");
    s += fmt::format("  check     {}: gathered result vs one domain alone: {} cells differ, max |diff| {}\n",
                     r.ok ? "ok" : "FAILED", r.differing_cells, r.max_abs_diff);
    s += fmt::format("  time      {:.4g} s per step, one domain alone {:.4g} s per step\n", r.seconds_per_step,
                     r.single_domain_seconds_per_step);
    return s + halo_and_model_lines(r);
}

// ---- cardiac2d ----------------------------------------------------------------------------------

distributed::Cardiac2dRunOptions cardiac_options(const CLI::App& app) {
    for (const char* name : {"--reps", "--warmup", "--no-time", "--counters", "--check-races", "--convergence",
                             "--block", "--tile", "--radius", "--nx", "--ny", "--nz", "--seed", "--fuse"})
        if (option_given(app, name)) throw UserError(fmt::format("{} does not apply to --problem cardiac2d --decompose", name));
    distributed::Cardiac2dRunOptions o;
    const std::string kernel = option_or(app, "--kernel", "");
    const cardiac2d::Version* v = cardiac2d::find_version(kernel);
    if (!v)
        throw UserError(unknown_choice("kernel", kernel, cardiac2d::version_names(), "for --problem cardiac2d"));
    o.kernel = v->id;
    const std::string precision = option_or(app, "--precision", "f32");
    const auto p = parse_precision(precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", precision));
    o.precision = *p;
    o.n = option_or(app, "--size", kCardiacDefaultSize);
    o.steps = option_or(app, "--steps", kDefaultSteps);
    o.overlap = !distributed_args().no_overlap;
    return o;
}

std::string cardiac_text_report(const distributed::Cardiac2dRunResult& r) {
    const auto& o = r.options;
    std::string s = fmt::format("cardiac2d {} {} n={}, {} steps, --decompose {}x{} on {} {} ({} backend, ghost "
                                "cells through {}{})\n",
                                cardiac2d::version(o.kernel).name, to_string(o.precision), o.n, o.steps,
                                o.decomposition.parts[0], o.decomposition.parts[1], r.ranks,
                                r.ranks == 1 ? "rank" : "ranks", r.backend, r.halo_exchange,
                                r.halo_exchange == "nccl" ? (o.overlap ? ", overlapped" : ", no overlap") : "");
    s += fmt::format("  check     {}: gathered E and R vs the whole mesh alone: {} values differ, max |diff| {}\n",
                     r.ok ? "ok" : "FAILED", r.differing_cells, r.max_abs_diff);
    s += fmt::format("  time      {:.4g} s per step{}, the whole mesh alone {:.4g} s per step\n", r.seconds_per_step,
                     r.halo_exchange == "mpi" ? fmt::format(" ({:.4g} s of it exchanging)", r.exchange_seconds_per_step) : "",
                     r.single_domain_seconds_per_step);
    return s + halo_and_model_lines(r);
}

// ---- printing -----------------------------------------------------------------------------------

// One run: its JSON object or its text report; exit 0 when equal to the single domain.
int print_run(const CLI::App& app, const nlohmann::json& j, const std::string& text) {
    std::cout << (option_given(app, "--json") ? j.dump() + "\n" : text);
    std::cout.flush();
    const bool ok = j.value("ok", false);
    if (!ok)
        fmt::print(stderr, "stencil-lab: run --decompose differs from the single domain in {} cells\n",
                   j.value("differing_cells", 0LL));
    return ok ? 0 : 1;
}

// A sweep: the table (or its JSON), and with --out DIR scaling.json and the figure.
int print_sweep(const CLI::App& app, distributed::ScalingSweep sweep) {
    sweep.set_efficiencies();
    const nlohmann::json j = sweep.to_json();
    std::string note;
    if (!distributed_args().out.empty()) {
        namespace fs = std::filesystem;
        std::error_code ec;
        fs::create_directories(distributed_args().out, ec);
        if (ec) throw UserError(fmt::format("--out {}: {}", distributed_args().out, ec.message()));
        experiments::write_text_file((fs::path(distributed_args().out) / "scaling.json").string(), j.dump(2) + "\n");
        std::string why;
        const auto term = experiments::gnuplot_png_terminal(&why);
        experiments::write_text_file((fs::path(distributed_args().out) / "scaling.dat").string(), sweep.plot_data());
        experiments::write_text_file((fs::path(distributed_args().out) / "scaling.gp").string(),
                                     sweep.plot_script(term ? *term : "pngcairo"));
        if (!term)
            note = why;
        else if (auto failure = experiments::draw_gnuplot_script(distributed_args().out, "scaling.gp"); !failure.empty())
            note = failure;
        else
            note = "scaling.png and scaling.svg drawn";
        note = fmt::format("  wrote     {}/scaling.json, scaling.dat, scaling.gp: {}\n", distributed_args().out, note);
    }
    std::cout << (option_given(app, "--json") ? j.dump() + "\n" : sweep.text() + note);
    std::cout.flush();
    if (!sweep.ok()) fmt::print(stderr, "stencil-lab: a row of the scaling sweep differs from its single domain\n");
    return sweep.ok() ? 0 : 1;
}

distributed::Cardiac2dRunOptions cardiac_row(distributed::Cardiac2dRunOptions o, const Row& row) {
    o.n = row.grid.nx;
    o.decomposition = row.decomposition;
    return o;
}

// ---- --gpus N: one process, no MPI --------------------------------------------------------------

#if STENCIL_LAB_HAVE_NCCL
// The rows on GPUs of this process: a plain run on all --gpus N, a sweep's rows on 1, 2, ... of them.
int run_rows_on_gpus(const CLI::App& app, const std::vector<Row>& rows, const RowError& error,
                     const std::function<RowOutput(int gpus, const Row& row)>& run) {
    if (auto e = first_row_error(rows, error, distributed_args().gpus)) throw UserError(*e);
    if (!scaling_mode()) {
        const RowOutput out = run(distributed_args().gpus, rows[0]);
        return print_run(app, out.json, out.text);
    }
    distributed::ScalingSweep sweep;
    sweep.mode = *scaling_mode();
    for (const Row& row : rows) sweep.rows.push_back(distributed::scaling_row(run(row.ranks, row).json));
    return print_sweep(app, sweep);
}

int run_cardiac_on_gpus(const CLI::App& app) {
    const distributed::Cardiac2dRunOptions base = cardiac_options(app);
    if (auto e = cardiac2d::size_error(base.n)) throw UserError(*e);
    return run_rows_on_gpus(
        app, plan_rows(true, {base.n, base.n, 1}, 1, distributed_args().gpus),
        [&](const Row& row, int ranks) { return distributed::cardiac2d_run_error(cardiac_row(base, row), ranks); },
        [&](int gpus, const Row& row) {
            const auto r = distributed::run_cardiac2d_gpus(gpus, cardiac_row(base, row));
            return RowOutput{r.to_json(), cardiac_text_report(r)};
        });
}

int run_star3d_on_gpus(const CLI::App& app) {
    const distributed::Star3dRunOptions base = star3d_options(app, true);
    return run_rows_on_gpus(
        app,
        plan_rows(false, base.request.dims, distributed::pass_halo(base), distributed_args().gpus,
                  distributed::steps_per_pass(base) > 1),
        [&](const Row& row, int ranks) { return distributed::star3d_run_error(star3d_row(base, row), ranks); },
        [&](int gpus, const Row& row) {
            const auto r = distributed::run_star3d_gpus(gpus, star3d_row(base, row));
            return RowOutput{r.to_json(), text_report(r)};
        });
}
#endif

int run_on_gpus(const CLI::App& app) {
#if STENCIL_LAB_HAVE_NCCL
    const std::string backend = option_or(app, "--backend", "auto");
    if (backend == "cpu") throw UserError("--gpus needs the GPU (--backend cuda or auto)");
    if (auto e = not_decomposed(problem_of(app))) throw UserError(*e);
    return problem_of(app) == "cardiac2d" ? run_cardiac_on_gpus(app) : run_star3d_on_gpus(app);
#else
    (void)app;
    throw UserError("this build has no NCCL, so --gpus cannot run (a CUDA build with NCCL from the toolkit has it)");
#endif
}

#if STENCIL_LAB_HAVE_MPI
// ---- under mpirun ---------------------------------------------------------------------------------

// Bad input: said once, by rank 0 (every rank found the same), or by the rank it concerns.
int refuse(const distributed::MpiWorld& world, const std::string& line, bool every_rank_knows) {
    if (world.root() || !every_rank_knows) fmt::print(stderr, "stencil-lab: {}\n", line);
    return 2;
}

using RunRow = std::function<RowOutput(const distributed::MpiWorld& world, const Row& row)>;

// The link next to the measurement (MPI): a ping-pong of the row's largest halo message between
// its ranks 0 and 1, and the exchange time per step the model predicts from it; on rank 0 of a
// world of two ranks or more. The NCCL runs probe their own link (nccl_link_probe.h).
std::optional<distributed::LinkEstimate> mpi_link(const distributed::MpiWorld& world,
                                                  const distributed::DecomposedProblem& problem) {
    if (world.size() < 2) return std::nullopt;
    const analysis::DecompositionModel model = problem.model();
    const distributed::PingPong p = distributed::ping_pong(world, distributed::largest_message_bytes(model));
    if (!world.root()) return std::nullopt;
    return distributed::estimate_exchange(p, model);
}

// Runs the rows, each on the first row.ranks ranks of `world` while the others wait; after each,
// every rank learns whether it went through (a refusal inside a row is said there, by its rank 0
// or by the rank it concerns). Returns the exit code: 0 all equal to the single domain, 1 not, 2
// refused.
int run_rows(const CLI::App& app, const distributed::MpiWorld& world, const std::vector<Row>& rows, const RunRow& run) {
    distributed::ScalingSweep sweep;
    if (const auto mode = scaling_mode()) sweep.mode = *mode;
    RowOutput single;
    for (const Row& row : rows) {
        int status = 0;
        {
            const auto sub = distributed::MpiWorld::first_ranks(world, row.ranks);
            if (sub) {
                try {
                    RowOutput out = run(*sub, row);
                    if (sub->root()) {
                        if (scaling_mode())
                            sweep.rows.push_back(distributed::scaling_row(out.json));
                        else
                            single = std::move(out);
                    }
                } catch (const distributed::OtherRankFailed&) {
                    status = 2;
                } catch (const distributed::RankError& e) {
                    status = refuse(*sub, e.what(), false);
                } catch (const distributed::EveryRankError& e) {
                    status = refuse(*sub, e.what(), true);
                } catch (const UserError& e) {
                    fmt::print(stderr, "stencil-lab: rank {}: {}\n", world.rank(), e.what());
                    world.abort(1);  // mid-run: the other ranks wait on this one
                }
            }
        }
        int worst = 0;
        distributed::mpi_check(MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, world.comm()),
                               "MPI_Allreduce after a row");
        if (worst) return 2;
    }
    int code = 0;
    if (world.root()) code = scaling_mode() ? print_sweep(app, sweep) : print_run(app, single.json, single.text);
    distributed::mpi_check(MPI_Bcast(&code, 1, MPI_INT, 0, world.comm()), "MPI_Bcast of the exit code");
    return code;
}

// --backend on every rank. Whether a backend can be made may differ between ranks (hosts), so the
// ranks agree first: one that cannot makes all of them refuse alike (UserError on each).
std::unique_ptr<Backend> backend_on_every_rank(const CLI::App& app, const distributed::MpiWorld& world) {
    const std::string backend_name = option_or(app, "--backend", "auto");
    std::string why;
    std::unique_ptr<Backend> backend = make_backend(backend_name, &why);
    distributed::agree(world, backend ? std::nullopt
                                      : std::optional<std::string>(fmt::format("--backend {}: {}", backend_name, why)));
    return backend;
}

int run_star3d_under_mpi(const CLI::App& app, const distributed::MpiWorld& world) {
    const std::unique_ptr<Backend> backend = backend_on_every_rank(app, world);
    const bool gpu = backend->kind() == BackendKind::cuda;
    const distributed::Star3dRunOptions base = star3d_options(app, gpu);
    const std::vector<Row> rows = plan_rows(false, base.request.dims, distributed::pass_halo(base), world.size(),
                                            distributed::steps_per_pass(base) > 1);
    if (auto e = first_row_error(
            rows, [&](const Row& row, int ranks) { return distributed::star3d_run_error(star3d_row(base, row), ranks); },
            world.size()))
        return refuse(world, *e, true);
#if STENCIL_LAB_HAVE_NCCL
    const bool nccl = gpu;
#else
    const bool nccl = false;
#endif
    if (distributed_args().no_overlap && !nccl)
        return refuse(world, "--no-overlap applies to halos through NCCL (--backend cuda in a build with NCCL)", true);
    return run_rows(app, world, rows, [&](const distributed::MpiWorld& w, const Row& row) {
        const distributed::Star3dRunOptions o = star3d_row(base, row);
#if STENCIL_LAB_HAVE_NCCL
        distributed::Star3dRunResult r = nccl ? distributed::run_star3d_nccl(w, o)
                                              : distributed::run_star3d(w, *backend, o);
#else
        distributed::Star3dRunResult r = distributed::run_star3d(w, *backend, o);
#endif
        if (!nccl) r.link = mpi_link(w, distributed::Star3dProblem(o));  // the NCCL run has probed its own
        return RowOutput{r.to_json(), text_report(r)};
    });
}

int run_cardiac2d_under_mpi(const CLI::App& app, const distributed::MpiWorld& world) {
    const std::unique_ptr<Backend> backend = backend_on_every_rank(app, world);
    const bool gpu = backend->kind() == BackendKind::cuda;
#if !STENCIL_LAB_HAVE_NCCL
    if (gpu)
        return refuse(world, "the cardiac mesh's ghost cells between GPUs go through NCCL, which this build lacks "
                             "(--backend cpu runs it on the CPU engine)", true);
#endif
    const distributed::Cardiac2dRunOptions base = cardiac_options(app);
    if (auto e = cardiac2d::size_error(base.n)) return refuse(world, *e, true);
    if (distributed_args().no_overlap && !gpu)
        return refuse(world, "--no-overlap applies to halos through NCCL (--backend cuda in a build with NCCL)", true);
    const std::vector<Row> rows = plan_rows(true, {base.n, base.n, 1}, 1, world.size());
    const auto row_options = [&](const Row& row) { return cardiac_row(base, row); };
    if (auto e = first_row_error(
            rows, [&](const Row& row, int ranks) { return distributed::cardiac2d_run_error(row_options(row), ranks); },
            world.size()))
        return refuse(world, *e, true);
    return run_rows(app, world, rows, [&](const distributed::MpiWorld& w, const Row& row) {
        const distributed::Cardiac2dRunOptions o = row_options(row);
#if STENCIL_LAB_HAVE_NCCL
        if (gpu) {
            const distributed::Cardiac2dRunResult r = distributed::run_cardiac2d_nccl(w, o);  // its link probed
            return RowOutput{r.to_json(), cardiac_text_report(r)};
        }
#endif
        distributed::Cardiac2dRunResult r = distributed::run_cardiac2d(w, o);
        r.link = mpi_link(w, distributed::Cardiac2dProblem(o));
        return RowOutput{r.to_json(), cardiac_text_report(r)};
    });
}

int run_under_mpi(const CLI::App& app) {
    distributed::MpiWorld world;
    try {
        if (!distributed_args().out.empty() && !scaling_mode()) return refuse(world, "--out goes with --scaling strong|weak", true);
        if (auto e = not_decomposed(problem_of(app))) return refuse(world, *e, true);
        return problem_of(app) == "cardiac2d" ? run_cardiac2d_under_mpi(app, world) : run_star3d_under_mpi(app, world);
    } catch (const distributed::OtherRankFailed&) {
        return 2;
    } catch (const distributed::RankError& e) {
        return refuse(world, e.what(), false);
    } catch (const UserError& e) {
        return refuse(world, e.what(), true);
    }
}
#endif

}  // namespace

void add_distributed_run_options(CLI::App& run) {
    run.add_option("--decompose", distributed_args().decompose,
                   "split the grid over ranks, PXxPYxPZ (PXxPY for --problem cardiac2d; under mpirun -np "
                   "PX*PY*PZ, or with --gpus), or auto; --steps S iterates (default 2); the result is compared "
                   "with one domain alone. With --scaling: auto (1, 2, 4, ... ranks) or a list, 1x1x1,2x1x1,...");
    add_int_option(run, "--gpus", distributed_args().gpus, 1, 64,
                   "with --decompose: that many GPUs of this process, halos through NCCL, no MPI");
    run.add_flag("--no-overlap", distributed_args().no_overlap,
                 "with --decompose on GPUs: every face arrives before the kernel starts (default: the z faces "
                 "travel while the slab that does not read them is computed; the cardiac mesh's ghost rows "
                 "while the rows that do not read them are)");
    run.add_option("--scaling", distributed_args().scaling,
                   "with --decompose: strong (the same grid on 1, 2, 4, ... ranks: efficiency t1 / (N tN)) or weak "
                   "(--size is one rank's share: t1 / tN), in one mpirun (or on 1..N of --gpus N)");
    run.add_option("--out", distributed_args().out, "with --scaling: write DIR/scaling.json and the figure scaling.png (gnuplot)");
}

bool distributed_run_requested(const CLI::App& run) {
    return option_given(run, "--decompose") || option_given(run, "--gpus") || option_given(run, "--no-overlap") ||
           option_given(run, "--scaling") || option_given(run, "--out");
}

int run_distributed(const CLI::App& app) {
    if (!option_given(app, "--decompose"))
        throw UserError("--gpus, --no-overlap, --scaling and --out go with --decompose PXxPYxPZ (or auto)");
    if (option_given(app, "--gpus")) {
        if (!distributed_args().out.empty() && !scaling_mode()) throw UserError("--out goes with --scaling strong|weak");
        return run_on_gpus(app);
    }
#if STENCIL_LAB_HAVE_MPI
    return run_under_mpi(app);
#else
    throw UserError("this build has no MPI, so run --decompose cannot run over ranks (install openmpi-bin and "
                    "libopenmpi-dev, then configure again; --gpus N needs no MPI)");
#endif
}

}  // namespace stencil::cli
