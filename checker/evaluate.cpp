// The parent's judgement of one check: the test cases it writes (inputs, poison, guard zones),
// then what the runner leaves behind, the child's end first, then run by run.
//
// Sections: verdict priority; test cases (make_case, case_spec); cell classes; one run's
// assessment (guard zones, in[], the output against the reference); the child's end
// (judge_child); the cases' runs (CaseJudge: engine diagnostics, files, runs against each
// other); judge_runs.
#include "checker/evaluate.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>

#include "checker/causes.h"
#include "checker/diagnostics.h"
#include "checker/protocol.h"
#include "core/compare.h"
#include "core/parallel.h"

namespace stencil::checker {

using json = nlohmann::json;

int priority(Verdict v) {
    switch (v) {
        case Verdict::internal_error: return -1;
        case Verdict::compile_error: return 0;
        case Verdict::timeout: return 1;
        case Verdict::crash: return 2;
        case Verdict::out_of_bounds_write: return 3;
        case Verdict::input_modified: return 4;  // before race: writing in[] makes runs differ
        case Verdict::race: return 5;
        case Verdict::boundary_modified: return 6;
        case Verdict::unwritten: return 7;
        case Verdict::wrong_result: return 8;
        case Verdict::pass: return 9;
    }
    return 9;
}

namespace {

// The bit pattern of a cell, for exact comparisons (NaN payloads included).
std::uint64_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
std::uint64_t bits_of(double d) {
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}
template <class real>
real value_of(std::uint64_t b) {
    real v;
    if constexpr (sizeof(real) == 4) {
        const auto b32 = static_cast<std::uint32_t>(b);
        std::memcpy(&v, &b32, 4);
    } else {
        std::memcpy(&v, &b, 8);
    }
    return v;
}

// Significant digits that print a value of `real` exactly enough to tell two apart.
template <class real>
constexpr int kDigits = sizeof(real) == 4 ? 9 : 17;

template <class real>
TestCase make_case_as(const Exercise& ex, int n, int tile, std::uint64_t seed) {
    TestCase c;
    c.n = n;
    const long long cells = (long long)n * n * n;
    // Guard zones: at least two planes and 16 Ki cells each side, so an off-by-one-plane or a
    // small negative index lands in them (on the GPU too, where nothing else would notice).
    c.guard = std::max<long long>(16384, 2LL * n * n + 64);
    std::mt19937_64 rng(seed);
    c.poison = random_poison(ex.precision, rng);
    const std::uint64_t field_seed = rng();
    std::uniform_real_distribution<real> sentinel(100, 200);
    c.input.precision = c.output.precision = ex.precision;
    auto& input = c.input.as<real>();
    auto& output = c.output.as<real>();
    input.resize(static_cast<size_t>(cells + 2 * c.guard));
    output.resize(input.size());
    for (long long i = 0; i < c.guard; ++i) {
        input[i] = sentinel(rng);
        input[c.guard + cells + i] = sentinel(rng);
        output[i] = -sentinel(rng);
        output[c.guard + cells + i] = -sentinel(rng);
    }
    // The cells, uniform in [-1, 1), each plane from a generator of its own (seeded from the
    // case's seed and z), so that the planes are made in parallel and the result does not depend
    // on how many threads made them: a 256^3 case is 16.7 M cells.
    const real poison = value_of<real>(c.poison);
    const GridDims dims{n, n, n};
    for_each_slab(n, slab_count(n, 16), [&](int, int z0, int z1) {
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (int z = z0; z < z1; ++z) {
            std::mt19937_64 plane_rng(mix_seed(field_seed + std::uint64_t(z)));
            for (int y = 0; y < n; ++y)
                for (int x = 0; x < n; ++x) {
                    const long long k = ((long long)z * n + y) * n + x;
                    const real v = static_cast<real>(u(plane_rng));
                    input[c.guard + k] = v;
                    output[c.guard + k] = is_boundary(dims, ex.radius, x, y, z) ? v : poison;
                }
        }
    });
    c.launch = launch_for(ex, n, tile);
    return c;
}

}  // namespace

std::uint64_t random_poison(Precision p, std::mt19937_64& rng) {
    if (p == Precision::f32) {
        std::uniform_int_distribution<std::uint32_t> payload(1, 0x3ffffe);
        return ((rng() & 1) ? 0xffc00000u : 0x7fc00000u) | payload(rng);
    }
    std::uniform_int_distribution<std::uint64_t> payload(1, 0x7fffffffffffeull);
    return ((rng() & 1) ? 0xfff8000000000000ull : 0x7ff8000000000000ull) | payload(rng);
}

TestCase make_case(const Exercise& ex, int n, int tile, std::uint64_t seed) {
    return ex.precision == Precision::f64 ? make_case_as<double>(ex, n, tile, seed)
                                          : make_case_as<float>(ex, n, tile, seed);
}

CaseSpec case_spec(const TestCase& c, int index) {
    CaseSpec cs;
    cs.n = c.n;
    cs.guard = c.guard;
    const long long cells = (long long)c.n * c.n * c.n;
    cs.buffers = {{"in", fmt::format("case{}.in", index), cells, true},
                  {"out", fmt::format("case{}.out", index), cells, false}};
    cs.args = {{ArgKind::buffer, 0, 0}, {ArgKind::buffer, 1, 0}, {ArgKind::u32, 0, double(c.n)}};
    // (a launch's extents fit an int: grid sides stay below 2^31, blocks below 1024 threads)
    auto as_int = [](unsigned v) { return static_cast<int>(v); };
    cs.grid = {as_int(c.launch.grid[0]), as_int(c.launch.grid[1]), as_int(c.launch.grid[2])};
    cs.block = {as_int(c.launch.block[0]), as_int(c.launch.block[1]), as_int(c.launch.block[2])};
    // CPU runs order the blocks as they order the threads (in order, reversed, random from the
    // same seed) where the backend supports it: a race between blocks then makes runs differ.
    cs.runs = c.runs;
    cs.check_block_stride = c.check_block_stride;
    return cs;
}

namespace {

// Where a cell sits, for the student (first match wins):
//   boundary          on the fixed boundary (never written)
//   next-to-boundary  one cell in from it (its stencil reads boundary cells)
//   halo              tiled exercises: on the edge of its block's output tile, so its stencil
//                     reads the block's halo (the input tile's outer ring, loaded by threads that
//                     compute no output): a bad value here usually means a halo cell was not
//                     loaded, or was loaded from the wrong place
//   tile-edge         the naive exercise: on the edge of its thread block (no halo there: its
//                     neighbours are other blocks' cells, read from global memory)
//   tile-interior     every neighbour inside the same tile
}  // namespace

CellClass classify_cell(const Exercise& ex, int tile, int n, int x, int y, int z) {
    const int r = ex.radius;
    if (is_boundary({n, n, n}, r, x, y, z)) return CellClass::boundary;
    for (int c : {x, y, z})  // its stencil reaches a boundary cell
        if (c < 2 * r || c >= n - 2 * r) return CellClass::next_to_boundary;
    const int step = out_tile_dim(ex, tile);
    // Block b computes cells b*step .. b*step + step - 1 along each axis (step = OUT_TILE_DIM
    // for the tiled exercises, T for naive). The coarsened kernels march along z with the
    // neighbouring planes in shared memory or registers: their z edges read a halo plane too.
    for (int c : {x, y, z}) {
        const int p = c % step;
        if (p < r || p >= step - r) return tile_has_halo(ex) ? CellClass::halo : CellClass::tile_edge;
    }
    return CellClass::tile_interior;
}

namespace {

Evidence message_only(std::string message) {
    Evidence ev;
    ev.message = std::move(message);
    return ev;
}

std::string run_label(const TestCase& c, size_t r) { return checker::run_label(c.runs[r], r); }

template <class real>
bool read_run(const std::string& path, std::vector<real>& v, size_t expected) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) return false;
    if (static_cast<size_t>(f.tellg()) != expected * sizeof(real)) return false;
    v.resize(expected);
    f.seekg(0);
    f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(expected * sizeof(real)));
    return static_cast<bool>(f);
}

// Map chars: '.' right, '#' boundary (unchanged), 'B' boundary changed, 'U' unwritten (poison),
// 'N' NaN/Inf, 'X' outside the bound.
struct CellState {
    char c = '.';
};

std::string slice_map(const std::vector<char>& marks, int n, int x0, int y0, int z0) {
    const int w = 24;
    const int xa = std::max(0, std::min(x0 - w / 2, n - w)), xb = std::min(n, xa + w);
    const int ya = std::max(0, std::min(y0 - w / 2, n - w)), yb = std::min(n, ya + w);
    std::string s = fmt::format("slice z={} (x {}..{} across, y {}..{} down; . right, # boundary, "
                                "B boundary changed, U unwritten, N NaN/Inf, X wrong, * first):\n",
                                z0, xa, xb - 1, ya, yb - 1);
    for (int y = ya; y < yb; ++y) {
        s += fmt::format("y={:>3} ", y);
        for (int x = xa; x < xb; ++x) {
            const size_t k = ((size_t)z0 * n + y) * n + x;
            s += (x == x0 && y == y0) ? '*' : marks[k];
        }
        s += '\n';
    }
    return s;
}

// Step 1 of a run's assessment: a guard zone changed (a store outside out[] / in[]).
template <class real>
bool guard_zone_written(const TestCase& c, const std::vector<real>& out, const std::vector<real>& in, CaseVerdict& f) {
    const int n = c.n;
    const long long cells = (long long)n * n * n, g = c.guard;
    for (const auto* buf : {&out, &in}) {
        const auto& orig = buf == &out ? c.output.as<real>() : c.input.as<real>();
        const char* name = buf == &out ? "out" : "in";
        for (long long i = 0; i < (long long)orig.size(); ++i) {
            if (i >= g && i < g + cells) continue;
            if (bits_of((*buf)[i]) == bits_of(orig[i])) continue;
            f.verdict = Verdict::out_of_bounds_write;
            const long long idx = i - g;
            f.ev.message = fmt::format(
                "{}[{}] was written: that is {} the {}^3 = {} cells of {}[] ({} {} {})", name, idx,
                idx < 0 ? "before" : "after", n, cells, name, idx < 0 ? -idx : idx - cells + 1,
                (idx < 0 ? -idx : idx - cells + 1) == 1 ? "cell" : "cells",
                idx < 0 ? "before its start" : "past its end");
            return true;
        }
    }
    return false;
}

// Step 2: in[] changed.
template <class real>
bool input_changed(const Exercise& ex, int tile, const TestCase& c, const std::vector<real>& in, CaseVerdict& f) {
    constexpr int digits = kDigits<real>;
    const auto& c_input = c.input.as<real>();
    const int n = c.n;
    const long long cells = (long long)n * n * n, g = c.guard;
    for (long long i = 0; i < cells; ++i) {
        if (bits_of(in[g + i]) == bits_of(c_input[g + i])) continue;
        f.verdict = Verdict::input_modified;
        const int x = int(i % n), y = int((i / n) % n), z = int(i / ((long long)n * n));
        f.ev.first_bad = BadCellEvidence{x, y, z, double(c_input[g + i]), double(in[g + i]), 0,
                                         classify_cell(ex, tile, n, x, y, z), "in[] changed"};
        long long changed = 0;
        for (long long k = 0; k < cells; ++k) changed += bits_of(in[g + k]) != bits_of(c_input[g + k]);
        f.ev.bad_cells = changed;
        f.ev.message = fmt::format("in[] was modified: {} cells differ after the run, first at "
                                   "(x={}, y={}, z={}): was {:.{}g}, now {:.{}g}",
                                   changed, x, y, z, double(c_input[g + i]), digits,
                                   double(in[g + i]), digits);
        return true;
    }
    return false;
}

// Step 3: the output, cell by cell, against the reference and its rounding bound.
// What one slab of z-planes holds: counts, and the first cell of each kind (boundary, unwritten,
// wrong with NaN included) in memory order.
struct OutputTally {
    long long boundary = 0, unwritten = 0, nan = 0, wrong = 0;
    long long first[3] = {-1, -1, -1};
    void merge(const OutputTally& o) {
        boundary += o.boundary;
        unwritten += o.unwritten;
        nan += o.nan;
        wrong += o.wrong;
        for (int k = 0; k < 3; ++k)
            if (first[k] < 0 || (o.first[k] >= 0 && o.first[k] < first[k])) first[k] = o.first[k];
    }
};

// Planes [z0, z1) of the output, row by row (a 256^3 grid is 16.7 M cells, judged three times a
// check: no division per cell), marks written for the slice map.
template <class real>
OutputTally tally_planes(int radius, double gamma, const TestCase& c, const Reference& ref,
                         const std::vector<real>& out, std::vector<char>& marks, int z0, int z1) {
    const auto& input = c.input.as<real>();
    const int n = c.n, r = radius;
    const long long g = c.guard;
    OutputTally t;
    auto note = [&t](int kind, long long i) {
        if (t.first[kind] < 0) t.first[kind] = i;
    };
    for (int z = z0; z < z1; ++z)
        for (int y = 0; y < n; ++y) {
            const bool edge_row = z < r || z >= n - r || y < r || y >= n - r;
            const long long row = ((long long)z * n + y) * n;
            for (int x = 0; x < n; ++x) {
                const long long i = row + x;
                const real got = out[g + i];
                if (edge_row || x < r || x >= n - r) {
                    const bool kept = bits_of(got) == bits_of(input[g + i]);
                    marks[i] = kept ? '#' : 'B';
                    if (!kept) ++t.boundary, note(0, i);
                    continue;
                }
                if (bits_of(got) == c.poison) {
                    marks[i] = 'U';
                    ++t.unwritten, note(1, i);
                } else if (!std::isfinite(got)) {
                    marks[i] = 'N';
                    ++t.nan, note(2, i);
                } else if (std::fabs(double(got) - ref.value[i]) > gamma * ref.magnitude[i]) {
                    marks[i] = 'X';
                    ++t.wrong, note(2, i);
                }
            }
        }
    return t;
}

// The slabs judged at once: one per core up to 16, none thinner than 8 planes.
template <class real>
OutputTally tally_output(int radius, double gamma, const TestCase& c, const Reference& ref,
                         const std::vector<real>& out, std::vector<char>& marks) {
    const int n = c.n;
    const int slabs = slab_count(n, 8);
    std::vector<OutputTally> part(static_cast<size_t>(slabs));
    for_each_slab(n, slabs, [&](int s, int z0, int z1) { part[s] = tally_planes(radius, gamma, c, ref, out, marks, z0, z1); });
    for (int s = 1; s < slabs; ++s) part[0].merge(part[s]);
    return part[0];
}

template <class real>
void assess_output(const Exercise& ex, int tile, const TestCase& c, const Reference& ref,
                   const std::vector<real>& out, CaseVerdict& f) {
    constexpr int digits = kDigits<real>;
    const auto& c_input = c.input.as<real>();
    const int n = c.n;
    const long long cells = (long long)n * n * n, g = c.guard;
    std::vector<char> marks(static_cast<size_t>(cells), '.');
    const double gamma = rounding_gamma(ex.precision, ex.radius);
    const OutputTally t = tally_output(ex.radius, gamma, c, ref, out, marks);
    int kind = t.boundary ? 0 : t.unwritten ? 1 : (t.wrong + t.nan) ? 2 : -1;
    if (kind < 0) return;
    const long long i = t.first[kind];
    const int x = int(i % n), y = int((i / n) % n), z = int(i / ((long long)n * n));
    const real got = out[g + i];
    BadCellEvidence b{x, y, z, ref.value[i], double(got), kind == 2 ? gamma * ref.magnitude[i] : 0.0,
                      classify_cell(ex, tile, n, x, y, z), ""};
    if (kind == 0) {
        f.verdict = Verdict::boundary_modified;
        b.expected = c_input[g + i];
        b.what = "a boundary cell was written (it must keep the input's value)";
        f.ev.bad_cells = t.boundary;
    } else if (kind == 1) {
        f.verdict = Verdict::unwritten;
        b.what = "never written (the poison is still there)";
        f.ev.bad_cells = t.unwritten;
    } else {
        f.verdict = Verdict::wrong_result;
        b.what = std::isfinite(got) ? "outside the rounding bound" : "NaN or Inf";
        f.ev.bad_cells = t.wrong + t.nan;
    }
    f.ev.message = fmt::format(
        "{} of {} cells {} ({} boundary changed, {} unwritten, {} NaN/Inf, {} wrong); first at "
        "(x={}, y={}, z={}), a {} cell: {}; expected {:.{}g}, got {:.{}g}",
        f.ev.bad_cells, cells, to_string(f.verdict), t.boundary, t.unwritten, t.nan, t.wrong, x, y,
        z, to_string(b.cell), b.what, b.expected, digits, double(got), digits);
    if (kind == 2 && std::isfinite(got))
        f.ev.message += fmt::format(" (|error| {:.3g} > bound {:.3g})", std::fabs(double(got) - b.expected), b.bound);
    f.ev.first_bad = b;
    f.ev.slice_map = slice_map(marks, n, x, y, z);
}

template <class real>
CaseVerdict assess_run(const Exercise& ex, int tile, const TestCase& c, const Reference& ref,
                   const std::vector<real>& out, const std::vector<real>& in) {
    CaseVerdict f;
    f.ev.n = c.n;
    f.ev.tile = tile;
    if (guard_zone_written(c, out, in, f) || input_changed(ex, tile, c, in, f)) return f;
    assess_output(ex, tile, c, ref, out, f);
    return f;
}

std::string tail_lines(const std::string& s, int lines) {
    size_t pos = s.size();
    int seen = 0;
    while (pos > 0) {
        const size_t p = s.rfind('\n', pos - 1);
        if (p == std::string::npos) {
            pos = 0;
            break;
        }
        if (p + 1 < s.size() && ++seen > lines) {
            pos = p + 1;
            break;
        }
        pos = p;
    }
    return s.substr(pos);
}

std::string last_progress(const std::string& out) {
    const std::string key = "stencil-check-runner: case ";
    const size_t p = out.rfind(key);
    if (p == std::string::npos) return "";
    const size_t e = out.find('\n', p);
    return out.substr(p + key.size() - 5, e == std::string::npos ? std::string::npos : e - p - key.size() + 5);
}

// The crash's one line: the forbidden system call (the CPU runner's second wall: its exit code),
// the signal or exit code, or the result that does not parse.
std::string crash_message(const ChildResult& child, const ResultFile& result, const std::string& during) {
    const std::string at = during.empty() ? "" : " during " + during;
    if (child.started && child.signal == 0 && child.exit_code == kForbiddenCallExit)
        return fmt::format("the runner made a forbidden system call{} and was stopped by its seccomp "
                           "filter (checker/sandbox.h; the call is named in the output below)", at);
    if (child.ok() && result.status == ResultFile::Status::missing)
        return fmt::format("{} (no result.json){}", kMalformedResult, at);
    if (child.ok()) return fmt::format("{} ({}){}", kMalformedResult, result.problem, at);
    return fmt::format("the run ended abnormally ({}){}", child.describe(), at);
}

}  // namespace

std::optional<Judgement> judge_child(const ChildResult& child, const ResultFile& result) {
    const bool exited = child.started && !child.timed_out && child.signal == 0;
    Judgement j;
    Evidence& ev = j.evidence;
    ev.run = last_progress(child.output);
    ev.child_output = tail_lines(child.output, 12);
    // The checker's own failure first: nothing of the submission was judged.
    if ((exited && (child.exit_code == kProtocolMismatchExit || child.exit_code == kBadRequestExit)) ||
        result.status == ResultFile::Status::wrong_version) {
        j.verdict = Verdict::internal_error;
        ev.message = result.status == ResultFile::Status::wrong_version
                         ? "the checker's runner answered in another protocol: " + result.problem
                     : child.exit_code == kProtocolMismatchExit
                         ? fmt::format("the checker's runner speaks another protocol than this stencil-lab "
                                       "(schema version {}): stencil-lab and stencil-check-runner come from "
                                       "different builds", kSchemaVersion)
                         : "the checker's runner could not read its request (a bug of the checker, not "
                           "of the submission)";
        return j;
    }
    // (The runner's own clock ends the runs at the time limit; the parent's wall clock backs it.)
    if (child.timed_out || (exited && child.exit_code == kRunTimeLimitExit)) {
        j.verdict = Verdict::timeout;
        ev.message = fmt::format("the kernel's runs did not finish within the time limit (an endless "
                                 "loop, or a barrier some threads never reach){}",
                                 ev.run.empty() ? "" : "; running: " + ev.run);
        return j;
    }
    if (!child.ok() || !result.ok()) {
        j.verdict = Verdict::crash;
        ev.message = crash_message(child, result, ev.run);
        return j;
    }
    return std::nullopt;
}

// Why two runs of one case may differ, from what the runs reported (the CPU engine says what it
// read that a GPU leaves unspecified; a GPU says nothing, and the words cover both): the runs of
// this case are result.runs[first, last], every earlier run may have left __device__ state.
std::string why_runs_differ(const Result& result, size_t first, size_t last) {
    std::vector<std::string> causes;
    std::vector<std::string> state;
    for (size_t k = 0; k < last && k < result.runs.size(); ++k)
        for (const std::string& v : result.runs[k].state_changed)
            if (std::find(state.begin(), state.end(), v) == state.end()) state.push_back(v);
    long long clocks = 0, approximate = 0, unwritten = 0, refused = 0;
    for (size_t k = first; k <= last && k < result.runs.size(); ++k) {
        clocks += result.runs[k].clock_reads;
        approximate += result.runs[k].approximate_results;
        unwritten += result.runs[k].uninitialized_shared_reads;
        refused += result.runs[k].mallocs_refused;
    }
    if (!state.empty()) {
        std::string names;
        for (const auto& v : state) names += (names.empty() ? "" : ", ") + v;
        causes.push_back(fmt::format("it keeps state between launches in __device__ variables ({}): a GPU keeps "
                                     "them too, so each launch starts from what the one before left (reset them, "
                                     "or do not rely on them)", names));
    }
    if (unwritten)
        causes.push_back("it reads shared memory that no thread of the block stored (a tile cell never loaded?): "
                         "a GPU leaves whatever was there before");
    if (refused)
        causes.push_back("its output depends on whether device malloc succeeds: on a GPU every resident thread "
                         "shares the heap, so some calls get a null pointer, differently from run to run");
    if (clocks) causes.push_back("it reads the clock (clock64(), %globaltimer), whose values differ from run to run");
    if (approximate)
        causes.push_back("it uses approximate instructions (__expf, __fdividef, __sinf, rsqrtf, ...), whose results "
                         "a GPU gives only within an error bound");
    if (causes.empty())
        return "The result depends on the order threads or blocks run in (a missing __syncthreads()? atomics whose "
               "order changes a sum?)";
    std::string text = "The result depends on something a GPU does not fix: ";
    for (size_t k = 0; k < causes.size(); ++k) text += (k ? "; " : "") + causes[k];
    return text;
}

std::string state_note(const Result& result, size_t before) {
    std::string names;
    for (size_t k = 0; k < before && k < result.runs.size(); ++k)
        for (const std::string& v : result.runs[k].state_changed)
            if (names.find(v) == std::string::npos) names += (names.empty() ? "" : ", ") + v;
    if (names.empty()) return {};
    return fmt::format(" (earlier launches changed the __device__ variables {}: a GPU keeps them from one launch to "
                       "the next, and so does this check)", names);
}

// Runs that differ for one reason only: an output read shared cells no thread stored (the engine
// counted such reads, and found no race, clock, approximate result, refused malloc or state kept
// between launches).
Verdict runs_differ_verdict(const Result& result, size_t first, size_t last) {
    long long unstored = 0;
    for (size_t k = 0; k <= last && k < result.runs.size(); ++k) {
        const RunOutcome& r = result.runs[k];
        if (!r.state_changed.empty()) return Verdict::race;
        if (k < first) continue;
        if (r.clock_reads || r.approximate_results || r.mallocs_refused) return Verdict::race;
        for (const EngineDiagnostic& d : r.diagnostics)
            if (d.kind == DiagnosticKind::race) return Verdict::race;
        unstored += r.uninitialized_shared_reads;
    }
    return unstored > 0 ? Verdict::wrong_result : Verdict::race;
}

namespace {

// Runs of one case must agree bit for bit: a difference is a race (or other nondeterminism) even
// when each output alone happens to be right.
template <class real>
std::optional<Evidence> runs_differ(const Exercise& ex, int tile, const TestCase& tc, const Evidence& base,
                                    const std::vector<real>& first_out, const std::string& first_label,
                                    const std::vector<real>& out, const std::string& causes) {
    constexpr int digits = kDigits<real>;
    const int n = tc.n;
    const long long cells = (long long)n * n * n;
    for (long long i = 0; i < (long long)first_out.size(); ++i) {
        if (bits_of(first_out[i]) == bits_of(out[i])) continue;
        const long long k = i - tc.guard;
        Evidence ev = base;
        long long diff = 0;
        for (long long m = i; m < (long long)first_out.size(); ++m) diff += bits_of(first_out[m]) != bits_of(out[m]);
        ev.bad_cells = diff;
        if (k >= 0 && k < cells) {
            const int x = int(k % n), y = int((k / n) % n), z = int(k / ((long long)n * n));
            ev.first_bad = BadCellEvidence{x, y, z, double(first_out[i]), double(out[i]), 0,
                                           classify_cell(ex, tile, n, x, y, z), "differs between runs"};
            ev.message = fmt::format(
                "N={}: the output differs between the {} and the {} ({} cells), first at (x={}, y={}, "
                "z={}): {:.{}g} vs {:.{}g}. {}",
                n, first_label, base.run, diff, x, y, z, double(first_out[i]), digits, double(out[i]), digits,
                causes);
        } else {
            ev.message = fmt::format("N={}: the output differs between the {} and the {}", n, first_label, base.run);
        }
        return ev;
    }
    return std::nullopt;
}

template <class real>
struct CaseJudge {
    const Exercise& ex;
    int tile;
    const StencilWeights& weights;
    const Result& result;
    const std::string& dir;
    const SharedArrays& arrays;
    const CaseReferences* refs;
    Judgement& j;
    Findings findings{j};

    // The runs of case `c`, starting at result.runs[ri]; returns the index after them.
    size_t judge(size_t c, const TestCase& tc, size_t ri) {
        const int n = tc.n;
        std::optional<Reference> own;
        if (!refs) own = case_reference(ex, weights, tc);
        const Reference& ref = refs ? (*refs)[c].get() : *own;
        std::vector<real> first_out;
        std::string first_label;
        bool failed_after_state = false;  // a run wrong on its own, after launches that changed state
        CaseLine line;
        for (size_t r = 0; r < tc.runs.size(); ++r, ++ri) {
            const std::string label = run_label(tc, r);
            if (ri >= result.runs.size()) {
                // After a timeout the runner stops (the verdict is decided); otherwise a run is
                // missing for no reason the runner gave.
                if (result.stopped && j.verdict == Verdict::timeout) {
                    line.line = "not run: a run reached its instruction budget";
                } else {
                    findings.consider(Verdict::crash, message_only(fmt::format("the runner stopped before N={} {}", n, label)));
                    line.line = "the runner stopped before this run";
                }
                line.verdict = Verdict::crash;
                break;
            }
            const RunOutcome& run = result.runs[ri];
            Evidence base;
            base.n = n;
            base.tile = tile;
            base.run = label;
            if (run.launch_error) {  // a CUDA launch error: the runner stopped here
                base.message = fmt::format("N={} {}: {} (rerun with --sanitize for the line that faulted)",
                                           n, label, *run.launch_error);
                findings.consider(Verdict::crash, base);
                line.verdict = Verdict::crash;
                line.line = base.message;
                ri += tc.runs.size() - r;
                break;
            }
            if (engine_diagnostics(run, base, n, line)) continue;  // the outputs tell nothing
            std::vector<real> out, in;
            if (!read_run(fmt::format("{}/case{}.run{}.out", dir, c, r), out, tc.output.size()) ||
                !read_run(fmt::format("{}/case{}.run{}.in", dir, c, r), in, tc.input.size())) {
                findings.consider(Verdict::crash, message_only(fmt::format("the runner's output for N={} is missing", n)));
                continue;
            }
            CaseVerdict f = assess_run(ex, tile, tc, ref, out, in);
            f.ev.run = label;
            if (f.verdict != Verdict::pass) {
                const std::string note = state_note(result, ri);
                failed_after_state = failed_after_state || !note.empty();
                f.ev.message = fmt::format("N={} {}: {}{}", n, label, f.ev.message, note);
                line.note(f.verdict, f.ev.message);
                findings.consider(f.verdict, f.ev);
            }
            if (r == 0) {
                first_out = std::move(out);
                first_label = label;
            } else if (!first_out.empty() && !failed_after_state) {
                // A run already wrong on its own after state kept between launches carries the
                // verdict a GPU gives (its next launch starts from the same state); the runs'
                // difference is not a second, scheduling, finding.
                if (auto ev = runs_differ(ex, tile, tc, base, first_out, first_label, out,
                                          why_runs_differ(result, ri - r, ri))) {
                    const Verdict v = runs_differ_verdict(result, ri - r, ri);
                    if (v == Verdict::wrong_result) ev->cause = std::string(cause_name(Cause::unstored_read));
                    line.note(v, ev->message);
                    findings.consider(v, std::move(*ev));
                }
            }
        }
        std::string runs_desc;
        for (size_t r = 0; r < tc.runs.size(); ++r) runs_desc += (r ? ", " : "") + run_label(tc, r);
        j.tests.push_back({fmt::format("N={} ({}^3 cells; {})", n, n, runs_desc), line.verdict == Verdict::pass, line.line, n});
        findings.end_case(n);
        return ri;
    }

    // The CPU engine's diagnostics of one run; true when the engine abandoned it.
    bool engine_diagnostics(const RunOutcome& run, const Evidence& base, int n, CaseLine& line) {
        return take_engine_diagnostics(run, base, fmt::format("N={} {}", n, base.run),
                                       DiagnosisContext{.ex = ex, .tile = tile, .n = n, .arrays = arrays}, findings, line);
    }
};

}  // namespace

bool take_engine_diagnostics(const RunOutcome& run, const Evidence& base, const std::string& where,
                             const DiagnosisContext& ctx, Findings& findings, CaseLine& line) {
    bool fatal = false;
    for (const EngineDiagnostic& d : run.diagnostics) {
        Evidence prefixed = base;
        prefixed.message = where + ": ";
        Diagnosis g = diagnose(d, prefixed, ctx);
        fatal = fatal || g.fatal;
        if (g.verdict == Verdict::pass) continue;
        line.note(g.verdict, g.evidence.message);
        findings.consider(g.verdict, std::move(g.evidence));
    }
    if (run.uninitialized_shared_reads > 0 && findings.j.warnings.empty())
        findings.j.warnings.push_back(fmt::format(
            "{}: {} loads of shared cells no thread had stored (harmless if no output uses them, as in the "
            "textbook's coarsened kernel; the poison would show otherwise)", where, run.uninitialized_shared_reads));
    return fatal;
}


void printf_warning(const Result& result, std::vector<std::string>& warnings) {
    for (const RunOutcome& r : result.runs)
        if (r.printf_truncated) {
            warnings.push_back(fmt::format(
                "device printf: case {} run {} printed past the cap ({} bytes kept, at most {} KiB per run); "
                "the rest was dropped", r.case_index, r.run, r.printf_bytes, kPrintfCapBytes / 1024));
            return;
        }
}

Reference case_reference(const Exercise& ex, const StencilWeights& weights, const TestCase& c) {
    auto as = [&](auto zero) {
        using real = decltype(zero);
        const long long cells = (long long)c.n * c.n * c.n;
        const auto& input = c.input.as<real>();
        Field<real> field({c.n, c.n, c.n});
        std::copy(input.begin() + c.guard, input.begin() + c.guard + cells, field.data.begin());
        return reference_stencil(field, weights.rounded_to(ex.precision));
    };
    return ex.precision == Precision::f64 ? as(0.0) : as(0.0f);
}

CaseReferences start_case_references(const Exercise& ex, const StencilWeights& weights,
                                     const std::vector<TestCase>& cases) {
    CaseReferences refs;
    for (const TestCase& c : cases)
        refs.push_back(std::async(std::launch::async, [&ex, weights, &c] { return case_reference(ex, weights, c); }).share());
    return refs;
}

Judgement judge_runs(const Exercise& ex, int tile, const StencilWeights& weights,
                     const std::vector<TestCase>& cases, const ResultFile& result,
                     const ChildResult& child, const std::string& dir, const SharedArrays& arrays,
                     const CaseReferences* refs) {
    if (auto j = judge_child(child, result)) return *j;
    Judgement j;
    size_t ri = 0;
    auto judge_all = [&](auto judge) {
        for (size_t c = 0; c < cases.size(); ++c)
            if (!cases[c].runs.empty()) ri = judge.judge(c, cases[c], ri);
    };
    if (ex.precision == Precision::f64)
        judge_all(CaseJudge<double>{ex, tile, weights, result.result, dir, arrays, refs, j});
    else
        judge_all(CaseJudge<float>{ex, tile, weights, result.result, dir, arrays, refs, j});
    printf_warning(result.result, j.warnings);
    return j;
}

}  // namespace stencil::checker
