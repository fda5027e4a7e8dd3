// The backward slice of a stored output, from a recording launch's traced block (provenance.h):
// which statements computed the stored value, which loads it depends on, and for a shared cell
// who stored it (and the slice of that store in turn), that no thread stored it before the load,
// or that a thread stored it only after. Register arithmetic is collapsed into the source lines it
// came from (the PTX's .loc); address arithmetic is not followed (a wrong index shows as the cell
// it loaded). The links are in the order a reader follows them back, each with its depth (0: the
// store of the output's thread; 1: the stores of the shared cells it read; ...). The checker words
// them (checker/explain.h) and decides which step went wrong.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/ptx/provenance.h"

namespace ptx {

class Module;

enum class LinkKind : std::uint8_t {
    stored,         // `thread` stored the output at `at`
    condition,      // the branch or guard that let that store run: its condition at `at`
    computed,       // the value was computed at `lines` (in the thread's order)
    rounded,        // the value was rounded to a narrower floating-point type at `at` (cvt)
    loaded_global,  // a load of global `where` at byte `offset`, the value `loaded`
    loaded_shared,  // a load of shared variable `where` at byte `inner`
    stored_by,      // ... the cell `other` stored at `other_at` before the load (its slice follows);
                    // `unordered`: in the same barrier interval, by another thread (a race)
    stored_after,   // ... which `other` stored at `other_at` only after the load
    never_stored,   // ... which no thread of the block stored
    skipped,        // `other`'s store at `other_at` (that would have written the cell) did not run:
                    // the condition at `at` was false (`at` empty: the thread never reached it)
    no_store,       // no thread of the block stored the output
};
const char* to_string(LinkKind k);

struct SourcePoint {
    std::string file;
    int line = 0;
    std::string instruction;
};

struct SliceLink {
    LinkKind kind = LinkKind::stored;
    int depth = 0;
    SourcePoint at;
    engine::Idx3 thread;
    engine::Space space = engine::Space::global;
    int where = -1;        // global: the buffer; shared: the variable (its name: shared_name)
    long long offset = 0;  // global: bytes into the buffer
    long long inner = 0;   // shared: bytes into the variable
    int bytes = 0;
    std::optional<std::uint64_t> loaded;
    std::optional<engine::Idx3> other;
    SourcePoint other_at;
    std::vector<int> lines;  // computed
    bool unordered = false;  // stored_by
};

struct SliceTarget {
    engine::Idx3 thread;     // of the traced block: the thread that stored the output (or should have)
    int buffer = 0;        // the output cell (offset < 0: the thread's last store into the buffer)
    long long offset = 0;
    int bytes = 4;
    int store_site = -1;   // when the thread stored nothing there: the store it would have made
    int max_depth = 2;     // shared stores followed back this many times
};

std::vector<SliceLink> backward_slice(const Module& m, const Recording& rec, const SliceTarget& target);
// A shared variable's name as the source declared it ("tile"); "shared" when none.
std::string shared_name(const Module& m, int var);
// A site's source point (a memory instruction of Module::sites).
SourcePoint site_point(const Module& m, int site);
// The sites of the module's stores to global memory (st.global, or a generic st), in code order.
std::vector<int> global_store_sites(const Module& m);

}  // namespace ptx
