// The causes' names (causes.h) and the default cause of a verdict.
#include "checker/causes.h"

#include <array>

namespace stencil::checker {

namespace {

constexpr std::array kAll = {
    Cause::weight_pairing,   Cause::index_axis,        Cause::index_offset,     Cause::neighbour_missing,
    Cause::not_a_sum,        Cause::value_arithmetic,  Cause::precision_lost,   Cause::halo_index,
    Cause::halo_load_skipped, Cause::unstored_read,    Cause::barrier_missing,  Cause::barrier_divergent,
    Cause::race_shared,      Cause::race_global,       Cause::boundary_written, Cause::cell_unwritten,
    Cause::input_written,    Cause::out_of_bounds_load, Cause::out_of_bounds_store, Cause::timeout,
    Cause::wrong_value,
};

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

}  // namespace

std::string_view cause_name(Cause c) {
    switch (c) {
        case Cause::weight_pairing: return "weight_pairing";
        case Cause::index_axis: return "index_axis";
        case Cause::index_offset: return "index_offset";
        case Cause::neighbour_missing: return "neighbour_missing";
        case Cause::not_a_sum: return "not_a_sum";
        case Cause::value_arithmetic: return "value_arithmetic";
        case Cause::precision_lost: return "precision_lost";
        case Cause::halo_index: return "halo_index";
        case Cause::halo_load_skipped: return "halo_load_skipped";
        case Cause::unstored_read: return "unstored_read";
        case Cause::barrier_missing: return "barrier_missing";
        case Cause::barrier_divergent: return "barrier_divergent";
        case Cause::race_shared: return "race_shared";
        case Cause::race_global: return "race_global";
        case Cause::boundary_written: return "boundary_written";
        case Cause::cell_unwritten: return "cell_unwritten";
        case Cause::input_written: return "input_written";
        case Cause::out_of_bounds_load: return "out_of_bounds_load";
        case Cause::out_of_bounds_store: return "out_of_bounds_store";
        case Cause::timeout: return "timeout";
        case Cause::wrong_value: return "wrong_value";
    }
    return "wrong_value";
}

std::string_view cause_words(Cause c) {
    switch (c) {
        case Cause::weight_pairing: return "a weight multiplies another neighbour than its own";
        case Cause::index_axis: return "an index taken from the wrong axis";
        case Cause::index_offset: return "every term read around another cell than the output's";
        case Cause::neighbour_missing: return "a neighbour never read, read twice, or a cell outside the stencil read";
        case Cause::not_a_sum: return "the output is not a sum of weights times cells";
        case Cause::value_arithmetic: return "the right terms, but their arithmetic differs";
        case Cause::precision_lost: return "a value rounded to float in an fp64 exercise";
        case Cause::halo_index: return "a tile cell copied from the wrong global cell";
        case Cause::halo_load_skipped: return "a tile cell's load was skipped (its condition was false)";
        case Cause::unstored_read: return "an output reads a shared cell no thread stored";
        case Cause::barrier_missing: return "a shared cell read before its store, with no barrier between";
        case Cause::barrier_divergent: return "a barrier that some threads of the block never reach";
        case Cause::race_shared: return "two accesses to a shared cell, one a store, in no fixed order";
        case Cause::race_global: return "two accesses to a global cell, one a store, in no fixed order";
        case Cause::boundary_written: return "a cell that must keep its value was written";
        case Cause::cell_unwritten: return "an output cell no thread stored";
        case Cause::input_written: return "a store to the read-only input";
        case Cause::out_of_bounds_load: return "a load outside its array";
        case Cause::out_of_bounds_store: return "a store outside its array";
        case Cause::timeout: return "the kernel did not finish in its time";
        case Cause::wrong_value: return "a wrong value whose cause the checker did not find";
    }
    return "a wrong value whose cause the checker did not find";
}

std::optional<Cause> parse_cause(std::string_view name) {
    for (Cause c : kAll)
        if (cause_name(c) == name) return c;
    return std::nullopt;
}

std::span<const Cause> all_causes() { return kAll; }

std::optional<Cause> default_cause(Verdict v, const Evidence& ev) {
    const std::string& m = ev.message;
    const bool unstored = contains(m, "shared memory that no thread") || contains(m, "never stored") ||
                          contains(m, "no thread had stored");
    if (unstored && (v == Verdict::race || v == Verdict::wrong_result || v == Verdict::unwritten))
        return Cause::unstored_read;
    switch (v) {
        case Verdict::race: {
            // the engine's synchronization errors (diagnostics.cpp's words) are barrier misuse
            if (contains(m, "__syncthreads()") && (contains(m, "exited") || contains(m, "returned") ||
                                                    contains(m, "diverg") || contains(m, "different")))
                return Cause::barrier_divergent;
            for (const SourceRef& s : ev.sources)
                if (contains(s.instruction, ".global") || contains(s.instruction, "atom")) return Cause::race_global;
            if (contains(m, "global-memory race")) return Cause::race_global;
            if (contains(m, "shared-memory race")) return Cause::barrier_missing;
            return Cause::race_shared;
        }
        case Verdict::crash:
            if (contains(m, "out-of-bounds load") || contains(m, "out-of-bounds read")) return Cause::out_of_bounds_load;
            return std::nullopt;
        case Verdict::out_of_bounds_write: return Cause::out_of_bounds_store;
        case Verdict::input_modified: return Cause::input_written;
        case Verdict::boundary_modified: return Cause::boundary_written;
        case Verdict::unwritten: return Cause::cell_unwritten;
        case Verdict::wrong_result: return Cause::wrong_value;
        case Verdict::timeout: return Cause::timeout;
        default: return std::nullopt;
    }
}

}  // namespace stencil::checker
