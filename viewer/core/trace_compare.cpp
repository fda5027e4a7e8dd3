#include "viewer/core/trace_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <iterator>
#include <map>
#include <tuple>

namespace stencil::viewer {

namespace {

// What a cell holds: an input cell's index (>= 0) or one of these.
constexpr long long kFromRegister = -1;  // a value the thread had in a register: unknown
constexpr long long kNeverStored = -2;   // read from a shared cell no thread stored

// (shared array, element): arrays numbered in the order of their ids in the trace (the engine's ids
// differ between two modules: the lab's kernel has other shared variables).
using SharedKey = std::pair<int, long long>;

struct Store {
    int step = 0, interval = 0, thread = 0;
    long long holds = kFromRegister;
};

struct OutStore {
    int step = 0, interval = 0, thread = 0;
    std::vector<long long> reads;  // the cells its value was computed from, sorted, each once
    bool known() const { return std::find(reads.begin(), reads.end(), kFromRegister) == reads.end(); }
};

// A shared store: where, by whom, when, and the input cell it put there.
struct Held {
    int step = 0, interval = 0, thread = 0;
    SharedKey where;
};
using Content = std::map<long long, Held>;  // input cell -> the earliest store that holds it now

// One trace replayed in step order: what shared memory holds after each interval, every output.
struct Replay {
    std::vector<Content> content_after;  // [interval]
    std::map<long long, OutStore> out;   // output cell -> its first store
    int first_shared_store_step = 0, first_global_store_step = 0;

    const Content& content(int interval) const {
        static const Content none;
        if (content_after.empty()) return none;
        return content_after[(size_t)std::clamp<int>(interval, 0, (int)content_after.size() - 1)];
    }
};

// What shared memory holds, by input cell (cells of unknown value are left out: never compared).
Content content_of(const std::map<SharedKey, Store>& now) {
    Content c;
    for (const auto& [key, st] : now) {
        if (st.holds < 0) continue;
        const Held h{st.step, st.interval, st.thread, key};
        auto [it, fresh] = c.try_emplace(st.holds, h);
        if (!fresh && h.step < it->second.step) it->second = h;
    }
    return c;
}

Replay replay(const StepperTrace& t) {
    Replay r;
    std::map<SharedKey, Store> now;
    struct Thread {
        int interval = -1;
        const engine::Access* prev = nullptr;
        long long held = kFromRegister;  // what its last load read
        std::vector<long long> reads;
    };
    std::map<int, Thread> th;
    std::map<int, int> array_of;  // the engine's shared array id -> its rank among the trace's ids
    for (const auto& a : t.acc)
        if (a.space == engine::Space::shared) array_of.emplace(a.buffer, 0);
    int rank = 0;
    for (auto& [id, r] : array_of) r = rank++;
    int step = 0;
    for (size_t i = 0; i < t.acc.size(); ++i) {
        while (step + 1 < (int)t.steps.size() && (int)i >= t.steps[(size_t)step].end) ++step;
        const engine::Access& a = t.acc[i];
        while ((int)r.content_after.size() < a.interval) r.content_after.push_back(content_of(now));
        Thread& me = th[a.thread];
        if (me.interval != a.interval) me.prev = nullptr, me.interval = a.interval;
        const long long cell = a.offset / std::max<int>(1, a.size);
        const bool load = a.op == engine::Op::load;
        if (a.space == engine::Space::global && load) {
            me.held = cell;
            me.reads.push_back(cell);
        } else if (a.space == engine::Space::shared && load) {
            const auto it = now.find({array_of[a.buffer], cell});
            me.held = it == now.end() ? kNeverStored : it->second.holds;
            me.reads.push_back(me.held);
        } else if (a.space == engine::Space::shared) {
            // The stepper's rule (stepper.cpp): right after a load, the value loaded; a block that
            // keeps loads in registers may store an older one, so then nothing is trusted.
            const bool after_load = me.prev && me.prev->op == engine::Op::load &&
                                    !(t.register_planes && me.prev->space == engine::Space::global);
            now[{array_of[a.buffer], cell}] = Store{step, a.interval, a.thread, after_load ? me.held : kFromRegister};
            if (!r.first_shared_store_step) r.first_shared_store_step = step;
        } else {
            // A set: the compiler may load a cell once for two uses (a repeated neighbour).
            std::sort(me.reads.begin(), me.reads.end());
            me.reads.erase(std::unique(me.reads.begin(), me.reads.end()), me.reads.end());
            r.out.try_emplace(cell, OutStore{step, a.interval, a.thread, std::move(me.reads)});
            me.reads.clear();
            if (!r.first_global_store_step) r.first_global_store_step = step;
        }
        me.prev = &a;
    }
    while ((int)r.content_after.size() < std::max(1, t.intervals)) r.content_after.push_back(content_of(now));
    return r;
}

std::string triple(int x, int y, int z) { return fmt::format("({}, {}, {})", x, y, z); }

std::string grid_cell(long long c, GridDims d) {
    return triple(int(c % d.nx), int((c / d.nx) % d.ny), int(c / ((long long)d.nx * d.ny)));
}

std::string holds_text(long long v, GridDims d) {
    if (v == kFromRegister) return "a value from a register";
    if (v == kNeverStored) return "a shared cell no thread stored";
    return "in" + grid_cell(v, d);
}

// A shared cell in the trace's kernel's own terms: its array (when there are several) and the
// element as [plane][y][x] of the table's plane shape.
std::string shared_name(const SharedKey& k, const StepperTrace& t) {
    const std::string array = k.first == 0 ? "" : fmt::format(" of shared array #{}", k.first);
    if (t.shared_nx <= 0 || t.shared_ny <= 0) return fmt::format("shared cell [{}]{}", k.second, array);
    const long long plane = (long long)t.shared_nx * t.shared_ny;
    return fmt::format("shared cell [{}][{}][{}]{}", k.second / plane, (k.second % plane) / t.shared_nx,
                       k.second % t.shared_nx, array);
}

std::string place(const SourcePos& p) { return p.known() ? fmt::format("{}:{}", p.file, p.line) : "(no line)"; }

// One side's part in an input cell's place in shared memory: its store that holds it at the end of
// `interval`, or in a later interval, or never.
CompareSide shared_side(const StepperTrace& t, const Replay& r, long long input, int interval) {
    CompareSide s;
    s.step = r.first_shared_store_step;
    for (int k = interval; k < (int)r.content_after.size() && !s.stores; ++k)
        if (auto it = r.content(k).find(input); it != r.content(k).end()) {
            s.stores = true;
            s.interval = it->second.interval, s.step = it->second.step, s.thread = it->second.thread;
        }
    for (int k = interval - 1; k >= 0 && !s.stores && s.held_until < 0; --k)  // held before, overwritten since
        if (auto it = r.content(k).find(input); it != r.content(k).end()) {
            s.held_until = k;
            s.interval = it->second.interval, s.step = it->second.step, s.thread = it->second.thread;
        }
    s.holds = holds_text(input, t.cfg.dims);
    s.where = step_source(t, s.step);
    return s;
}

CompareSide out_side(const StepperTrace& t, const Replay& r, long long cell) {
    CompareSide s;
    if (auto it = r.out.find(cell); it != r.out.end()) {
        s.stores = true;
        s.interval = it->second.interval, s.step = it->second.step, s.thread = it->second.thread;
    } else {
        s.step = r.first_global_store_step;
    }
    s.where = step_source(t, s.step);
    return s;
}

// What the other side does with the cell: "stores it only in barrier interval 1, at f:12", or
// "never stores it (its store to shared memory at f:10 did not write it)".
std::string when(const CompareSide& s, bool shared) {
    if (s.stores) return fmt::format("stores it only in barrier interval {}, at {}", s.interval, place(s.where));
    if (s.held_until >= 0)
        return fmt::format("no longer holds it (stored in barrier interval {} at {}, overwritten after interval {})",
                           s.interval, place(s.where), s.held_until);
    return fmt::format("never stores it (its store to {} memory at {} did not write it)", shared ? "shared" : "global",
                       place(s.where));
}

// A difference found at the end of an interval, ordered by the lab's step, then the student's.
struct Candidate {
    int lab_step = INT_MAX, student_step = INT_MAX;
    TraceDifference d;
};

void consider(std::vector<Candidate>& c, TraceDifference d) {
    const int ls = d.lab.stores ? d.lab.step : INT_MAX, ss = d.student.stores ? d.student.step : INT_MAX;
    c.push_back({ls, ss, std::move(d)});
}

// Shared memory compared by what it holds, not where: the two kernels may lay their tiles out
// differently (the lab's coarsened kernel keeps one 3D array, the textbook three 2D ones).
void shared_differences(const StepperTrace& st, const Replay& sr, const StepperTrace& lt, const Replay& lr,
                        int k, std::vector<Candidate>& out) {
    const Content &s = sr.content(k), &l = lr.content(k);
    std::vector<long long> cells;
    for (const auto& [c, h] : l)
        if (!s.count(c)) cells.push_back(c);
    for (const auto& [c, h] : s)
        if (!l.count(c)) cells.push_back(c);
    for (long long c : cells) {
        const bool in_l = l.count(c) > 0;
        TraceDifference d;
        d.found = true, d.interval = k, d.shared = true;
        d.student = shared_side(st, sr, c, k), d.lab = shared_side(lt, lr, c, k);
        d.cell = in_l ? shared_name(l.at(c).where, lt) : shared_name(s.at(c).where, st);
        if (in_l)
            d.what = fmt::format("the lab's kernel stores {} into {} in barrier interval {} at {}; yours {}", d.lab.holds,
                                 d.cell, d.lab.interval, place(d.lab.where), when(d.student, true));
        else
            d.what = fmt::format("yours stores {} into {} in barrier interval {} at {}; the lab's kernel {}", d.student.holds,
                                 d.cell, d.student.interval, place(d.student.where), when(d.lab, true));
        consider(out, std::move(d));
    }
}

// A cell of `a` not in `b` (sorted sets), or nullopt.
std::optional<long long> one_not_in(const std::vector<long long>& a, const std::vector<long long>& b) {
    std::vector<long long> d;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d));
    if (d.empty()) return std::nullopt;
    return d.front();
}

void output_differences(const StepperTrace& st, const Replay& sr, const StepperTrace& lt, const Replay& lr, int k,
                        std::vector<Candidate>& out) {
    const GridDims g = lt.cfg.dims;
    std::vector<long long> cells;
    for (const auto& [c, v] : sr.out) cells.push_back(c);
    for (const auto& [c, v] : lr.out)
        if (!sr.out.count(c)) cells.push_back(c);
    for (long long c : cells) {
        const auto si = sr.out.find(c), li = lr.out.find(c);
        const bool in_s = si != sr.out.end() && si->second.interval <= k;
        const bool in_l = li != lr.out.end() && li->second.interval <= k;
        if (!in_s && !in_l) continue;
        TraceDifference d;
        d.found = true, d.interval = k, d.cell = "out" + grid_cell(c, g);
        d.student = out_side(st, sr, c), d.lab = out_side(lt, lr, c);
        if (in_s && in_l) {
            const OutStore &a = si->second, &b = li->second;
            // Compared once, at the interval where both have stored it; unknown values are not compared.
            if (std::max(a.interval, b.interval) != k || !a.known() || !b.known() || a.reads == b.reads) continue;
            const auto extra = one_not_in(a.reads, b.reads), lacking = one_not_in(b.reads, a.reads);
            d.student.holds = extra ? holds_text(*extra, g) : "";
            d.lab.holds = lacking ? holds_text(*lacking, g) : "";
            const std::string yours = fmt::format("{} is computed from other cells: yours ({})", d.cell, place(d.student.where));
            const std::string labs = fmt::format("the lab's kernel ({})", place(d.lab.where));
            if (extra && lacking)
                d.what = fmt::format("{} reads {} where {} reads {}", yours, d.student.holds, labs, d.lab.holds);
            else if (lacking)
                d.what = fmt::format("{} never reads {}, which {} reads", yours, d.lab.holds, labs);
            else
                d.what = fmt::format("{} also reads {}, which {} does not", yours, d.student.holds, labs);
        } else if (in_l) {
            d.what = fmt::format("the lab's kernel stores {} in barrier interval {} at {}; yours {}", d.cell,
                                 d.lab.interval, place(d.lab.where), when(d.student, false));
        } else {
            d.what = fmt::format("yours stores {} in barrier interval {} at {}; the lab's kernel {}", d.cell,
                                 d.student.interval, place(d.student.where), when(d.lab, false));
        }
        consider(out, std::move(d));
    }
}

}  // namespace

StepperConfig lab_config_of(const StepperConfig& student) {
    StepperConfig c = student;
    c.kernel_file.clear();
    c.exercise.clear();
    return c;
}

TraceDifference first_difference(const StepperTrace& student, const StepperTrace& lab) {
    TraceDifference none;
    if (!student.ok()) none.error = "your kernel's trace failed: " + student.error;
    else if (!lab.ok()) none.error = "the lab kernel's trace failed: " + lab.error;
    else if (!(student.cfg.dims == lab.cfg.dims) || !(student.cfg.block == lab.cfg.block))
        none.error = "the two traces are of different grids or blocks";
    if (!none.error.empty()) return none;
    const Replay sr = replay(student), lr = replay(lab);
    const int intervals = std::max({student.intervals, lab.intervals, 1});
    for (int k = 0; k < intervals; ++k) {
        std::vector<Candidate> c;
        shared_differences(student, sr, lab, lr, k, c);
        output_differences(student, sr, lab, lr, k, c);
        if (c.empty()) continue;
        const auto first = std::min_element(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) {
            return std::tie(a.lab_step, a.student_step) < std::tie(b.lab_step, b.student_step);
        });
        TraceDifference d = first->d;
        // Intervals are compared by number: with another count of barriers they are not the same
        // stretch of the kernel, and the count is the likelier difference.
        if (student.intervals != lab.intervals)
            d.what += fmt::format(" (yours runs {} barrier interval{}, the lab's kernel {}: a __syncthreads() missing "
                                  "or extra makes the intervals compared different stretches of the two kernels)",
                                  student.intervals, student.intervals == 1 ? "" : "s", lab.intervals);
        return d;
    }
    none.what = fmt::format("no difference: at the end of each of the {} barrier interval{} both kernels hold the same "
                            "input cells in shared memory and have stored the same outputs from the same cells",
                            intervals, intervals == 1 ? "" : "s");
    return none;
}

}  // namespace stencil::viewer
