// Step beside the lab: a student's kernel and the lab's kernel of the same exercise, each traced on
// the same block of the same grid (viewer/core/stepper.h), compared barrier interval by barrier
// interval until the first shared cell or global store that differs.
//
// The trace has addresses, not values, so what a cell holds is followed as the stepper follows it
// (stepper.cpp, shared_dz_of): a shared store right after a global load holds that input cell,
// right after a shared load what that cell held, otherwise a value from a register (unknown, never
// called a difference). A global store is computed from what its thread read since its previous
// global store (input cells, directly or through shared memory). At the end of each interval the
// two kernels differ where one holds an input cell in shared memory and the other does not (shared
// memory compared by what it holds: the two may lay their tiles out differently), or where an
// output is stored by one and not yet by the other, or is computed from other cells. Of those, the
// first in the lab's step order (then the student's) is reported, with the statement of each side;
// intervals are compared by number, so two kernels with different barrier counts say so.
//
//   TraceDifference d = first_difference(student_trace, lab_trace);
//   if (d.found) ... d.what, d.student.where (file:line), d.lab.where, d.student.step (to step to)
#pragma once
#include <string>

#include "viewer/core/stepper.h"

namespace stencil::viewer {

struct CompareSide {
    bool stores = false;  // it stores the cell: by the end of the interval compared, or later
    int interval = -1;    // the interval it stores it in (-1: never)
    int held_until = -1;  // shared: it held the cell until this interval, then overwrote it
    int step = 0;         // its step that stores the cell; when it never does, its first store of
                          // the same kind (the statement that would have): what the stepper shows
    int thread = -1;
    SourcePos where;      // that step's file:line
    std::string holds;    // "in(3, 4, 5)", "a value from a register", "a cell no thread stored"
};

struct TraceDifference {
    bool found = false;
    std::string error;    // why the two could not be compared (a trace failed, another block)
    int interval = -1;    // the barrier interval at whose end they first differ
    bool shared = false;  // a shared cell (else a global store)
    std::string cell;     // "shared cell [0][0][0]", "out(6, 6, 6)"
    std::string what;     // one sentence for the student, naming both lines
    CompareSide student, lab;
};

TraceDifference first_difference(const StepperTrace& student, const StepperTrace& lab);

// The lab's kernel of a student's trace's exercise, on the same block and grid (kernel_file and
// exercise cleared: cfg is already the exercise's row, T, r and precision: student_trace.h).
StepperConfig lab_config_of(const StepperConfig& student);

}  // namespace stencil::viewer
