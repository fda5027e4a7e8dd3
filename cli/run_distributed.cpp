// `mpirun -np P stencil-lab run --kernel K --decompose PXxPYxPZ [--steps S] [--tile T] [--radius R]
// [--precision P] [--size N | --nx X --ny Y --nz Z] [--seed S] [--backend B] [--no-overlap] [--json]`
// `stencil-lab run ... --decompose PXxPYxPZ --gpus N` (N = PX*PY*PZ GPUs of one process, no MPI)
//
// Under mpirun the halos go through MPI on the host with any backend (the CPU backend's PTX engine
// in CI), or through NCCL between GPUs when the backend is CUDA and this build has NCCL. Each rank
// checks the whole command itself, after MPI starts and before any message: the input is the same
// on every rank, so every rank reaches the same verdict; rank 0 prints the one line and every rank
// exits 2. What may differ between ranks (its backend, its GPUs, its memory) is agreed on with one
// collective (distributed/mpi_world.h, agree). A launch that fails mid-run, when the other ranks
// already wait for it, is the only MPI_Abort.
#include "cli/run_distributed.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>

#include "analysis/decomposition.h"
#include "cli/command.h"
#include "core/backend.h"
#include "core/error.h"
#include "distributed/star3d_result.h"

#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#include "distributed/star3d_run.h"
#endif
#if STENCIL_LAB_HAVE_NCCL
#include "distributed/nccl_star3d.h"
#endif

namespace stencil::cli {

namespace {

struct DistributedArgs {
    std::string decompose;
    int gpus = 0;
    bool no_overlap = false;
};
DistributedArgs& args() {
    static DistributedArgs a;  // bound to the run command's options for the process
    return a;
}

bool given(const CLI::App& app, const char* name) {
    const CLI::Option* o = app.get_option_no_throw(name);
    return o && o->count() > 0;
}
template <class T>
T value_of(const CLI::App& app, const char* name, T fallback) {
    return given(app, name) ? app.get_option(name)->as<T>() : fallback;
}

// The CPU backend interprets every thread and the single domain is computed too: a small default.
constexpr int kGpuDefaultSize = 256, kCpuDefaultSize = 32;
constexpr int kDefaultSteps = 2;

// The run's options from the parsed command; throws UserError for anything wrong with them.
distributed::Star3dRunOptions star3d_options(const CLI::App& app, bool gpu) {
    for (const char* name :
         {"--reps", "--warmup", "--no-time", "--counters", "--check-races", "--convergence", "--block"})
        if (given(app, name)) throw UserError(fmt::format("{} does not apply to run --decompose", name));
    const std::string problem = value_of<std::string>(app, "--problem", "star3d");
    if (problem != "star3d") throw UserError(fmt::format("run --decompose covers --problem star3d, not {}", problem));

    distributed::Star3dRunOptions o;
    o.decomposition = analysis::parse_decomposition(args().decompose, 3);
    const std::string kernel = value_of<std::string>(app, "--kernel", "");
    const KernelVersion* v = find_version(kernel);
    if (!v) throw UserError(fmt::format("unknown kernel '{}' (choose {})", kernel, version_names()));
    const std::string precision = value_of<std::string>(app, "--precision", "f32");
    const auto p = parse_precision(precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", precision));
    LaunchRequest& req = o.request;
    req.kernel = v->id;
    req.tile = value_of<int>(app, "--tile", v->default_tile);
    req.radius = value_of<int>(app, "--radius", 1);
    req.precision = *p;
    const int n = value_of<int>(app, "--size", gpu ? kGpuDefaultSize : kCpuDefaultSize);
    req.dims = {value_of<int>(app, "--nx", n), value_of<int>(app, "--ny", n), value_of<int>(app, "--nz", n)};
    o.steps = value_of<int>(app, "--steps", kDefaultSteps);
    o.overlap = !args().no_overlap;
    if (given(app, "--seed") && !parse_seed(app.get_option("--seed")->as<std::string>(), o.seed))
        throw UserError("--seed must be a whole number 0 .. 2^64 - 1 (decimal or 0x hex)");
    return o;
}

std::string text_report(const distributed::Star3dRunResult& r) {
    const auto& q = r.options.request;
    std::string s = fmt::format("{} {}x{}x{} r={} {} T={}, {} steps, --decompose {} on {} {} ({} backend, halos "
                                "through {}{})\n",
                                version(q.kernel).name, q.dims.nx, q.dims.ny, q.dims.nz, q.radius,
                                to_string(q.precision), q.tile, r.options.steps, r.options.decomposition.text(),
                                r.ranks, r.ranks == 1 ? "rank" : "ranks", r.backend, r.halo_exchange,
                                r.halo_exchange == "nccl" ? (r.options.overlap ? ", overlapped" : ", no overlap") : "");
    s += fmt::format("  check     {}: gathered result vs one domain alone: {} cells differ, max |diff| {}\n",
                     r.ok ? "ok" : "FAILED", r.differing_cells, r.max_abs_diff);
    s += fmt::format("  time      {:.4g} s per step, one domain alone {:.4g} s per step\n", r.seconds_per_step,
                     r.single_domain_seconds_per_step);
    s += fmt::format("  halos     {} bytes per step in all ({} by the model)\n", r.halo_bytes_total,
                     r.model_halo_bytes_total);
    return s;
}

int report(const CLI::App& app, const distributed::Star3dRunResult& r) {
    std::cout << (given(app, "--json") ? r.to_json().dump() + "\n" : text_report(r));
    std::cout.flush();
    if (!r.ok)
        fmt::print(stderr, "stencil-lab: run --decompose differs from the single domain in {} cells\n",
                   r.differing_cells);
    return r.ok ? 0 : 1;
}

// --gpus N: one process, no MPI.
int run_on_gpus(const CLI::App& app) {
#if STENCIL_LAB_HAVE_NCCL
    const std::string backend = value_of<std::string>(app, "--backend", "auto");
    if (backend == "cpu") throw UserError("--gpus needs the GPU (--backend cuda or auto)");
    return report(app, distributed::run_star3d_gpus(args().gpus, star3d_options(app, true)));
#else
    (void)app;
    throw UserError("this build has no NCCL, so --gpus cannot run (a CUDA build with NCCL from the toolkit has it)");
#endif
}

#if STENCIL_LAB_HAVE_MPI
// Bad input: said once, by rank 0 (every rank found the same), or by the rank it concerns.
int refuse(const distributed::MpiWorld& world, const std::string& line, bool every_rank_knows) {
    if (world.root() || !every_rank_knows) fmt::print(stderr, "stencil-lab: {}\n", line);
    return 2;
}

int run_under_mpi(const CLI::App& app) {
    distributed::MpiWorld world;
    try {
        const std::string backend_name = value_of<std::string>(app, "--backend", "auto");
        std::string why;
        const std::unique_ptr<Backend> backend = make_backend(backend_name, &why);
        // Whether a backend can be made may differ between ranks (hosts); the options cannot.
        distributed::agree(world, backend ? std::nullopt
                                          : std::optional<std::string>(fmt::format("--backend {}: {}", backend_name, why)));
        const bool gpu = backend->kind() == BackendKind::cuda;
        const distributed::Star3dRunOptions o = star3d_options(app, gpu);
        if (auto e = distributed::star3d_run_error(o, world.size())) return refuse(world, *e, true);
#if STENCIL_LAB_HAVE_NCCL
        const bool nccl = gpu;
#else
        const bool nccl = false;
#endif
        if (args().no_overlap && !nccl)
            return refuse(world, "--no-overlap applies to halos through NCCL (--backend cuda in a build with NCCL)",
                          true);
        distributed::Star3dRunResult r;
        try {
#if STENCIL_LAB_HAVE_NCCL
            r = nccl ? distributed::run_star3d_nccl(world, o) : distributed::run_star3d(world, *backend, o);
#else
            r = distributed::run_star3d(world, *backend, o);
#endif
        } catch (const distributed::OtherRankFailed&) {
            return 2;
        } catch (const distributed::RankError& e) {
            return refuse(world, e.what(), false);
        } catch (const distributed::EveryRankError& e) {
            return refuse(world, e.what(), true);
        } catch (const UserError& e) {
            fmt::print(stderr, "stencil-lab: rank {}: {}\n", world.rank(), e.what());
            world.abort(1);  // mid-run: the other ranks wait on this one
        }
        if (world.root()) return report(app, r);
        return r.ok ? 0 : 1;
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
    run.add_option("--decompose", args().decompose,
                   "split the grid over ranks, PXxPYxPZ (under mpirun -np PX*PY*PZ, or with --gpus); --steps S "
                   "iterates (default 2); the result is compared with one domain alone");
    add_int_option(run, "--gpus", args().gpus, 1, 64,
                   "with --decompose: that many GPUs of this process, halos through NCCL, no MPI");
    run.add_flag("--no-overlap", args().no_overlap,
                 "with --decompose on GPUs: every face arrives before the kernel starts (default: the z faces "
                 "travel while the slab that does not read them is computed)");
}

bool distributed_run_requested(const CLI::App& run) {
    return given(run, "--decompose") || given(run, "--gpus") || given(run, "--no-overlap");
}

int run_distributed(const CLI::App& app) {
    if (!given(app, "--decompose")) throw UserError("--gpus and --no-overlap go with --decompose PXxPYxPZ");
    if (given(app, "--gpus")) return run_on_gpus(app);
#if STENCIL_LAB_HAVE_MPI
    return run_under_mpi(app);
#else
    throw UserError("this build has no MPI, so run --decompose cannot run over ranks (install openmpi-bin and "
                    "libopenmpi-dev, then configure again; --gpus N needs no MPI)");
#endif
}

}  // namespace stencil::cli
