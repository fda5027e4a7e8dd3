// The commands of the handouts (labs/*.md, exercises/*/README.md, README.md), read as the
// `handout_commands` test runs them. The rules, also written in labs/README.md:
//   - A command is a line of a fenced shell block (``` with no language, sh, bash or console;
//     lines ending in '\' continue) with the word `stencil-lab` (or `build/stencil-lab`, the
//     README's spelling; a loop or a pipe around it is part of the line), or an inline
//     `stencil-lab ...` span of the prose. A heredoc of a block (an answers file) runs with it.
//   - It must exit 0, unless its comment starts with "exit N": then N. A span of the prose is held
//     to its words: it runs with --help, and every option it names must exist (exit 0).
//   - CI has no GPU: run, sweep and tune run on the CPU engine with every grid side above 32 made
//     32, and a sweep or tune without --size gets --size 16 (a GPU's 256^3 sweep takes the
//     engine many minutes). `model` computes only: its sizes stay.
//   - Not run, with the reason said: GPU-only commands (baseline, --counters, --gpus, --backend
//     cuda, or a comment that starts with "GPU:"), mpirun (the `mpi` tests run those), and
//     synopses (FILE, DIR, N, [optional], a | b).
//   - A block with a comment line "# answers: ID ..." is a recipe: the numbers its commands print,
//     in order, are those questions' answers, and each must equal the key (labs/grading).
//   - On a GPU machine (`on_gpu`) the commands run as written: no grid shrinks, the GPU-only ones
//     run too; mpirun and synopses stay out.
#pragma once
#include <string>
#include <vector>

namespace stencil::handouts {

struct HandoutCommand {
    std::string file;        // as given to handout_commands ("labs/lab2-tiling.md")
    int line = 0;            // 1-based, its first line
    std::string text;        // as written (continuations joined), without its comment
    std::string comment;     // after its '#', trimmed ("" when none)
    bool stencil_lab = false;  // a stencil-lab command (else a heredoc, run with it, or not run)
    bool inline_span = false;  // from the prose (held to its words only)
    int block = -1;          // its fenced block in the file (-1: the prose)
    std::string run;         // what CI runs (the rules applied); "" when skipped
    std::string skip;        // why it is not run ("" when it is)
    int expect_exit = 0;     // "exit N" at the start of its comment, else 0
    std::vector<std::string> answers;  // its block's "# answers:" ids (a recipe), in order
};

// Every command of one Markdown file, in the order written.
std::vector<HandoutCommand> handout_commands(const std::string& file, const std::string& markdown,
                                             bool on_gpu = false);

// The CPU rule on one stencil-lab command line: the line to run, or "" and *skip_why for one CI
// cannot run (a GPU-only command, mpirun, a synopsis). `on_gpu`: the line as written, only mpirun
// and synopses left out.
std::string for_the_cpu(const std::string& command, std::string* skip_why, bool on_gpu = false);

// The numbers of a text, in order ("1.371, 2.0e-3" -> 1.371, 0.002); parts of words are not
// numbers ("f32", "l2.opb-t4").
std::vector<double> numbers_in(const std::string& text);

}  // namespace stencil::handouts
