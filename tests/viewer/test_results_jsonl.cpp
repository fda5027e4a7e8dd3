// The runs panel's loader reads JSON lines: bench/peers.py's .jsonl (peers, their copy, the lab's
// own `stencil-lab run --json` lines) lands in the runs table with each row's ratio to its copy.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "core/error.h"
#include "viewer/core/results.h"
#include "viewer/core/run_table.h"

using namespace stencil;
using namespace stencil::viewer;

namespace {
std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = std::string(STENCIL_LAB_BINARY_DIR) + "/" + name;
    std::ofstream(path) << text;
    return path;
}
}  // namespace

TEST_CASE("JSON lines load: peers, their copy and the lab's run lines, each with its ratio", "[viewer][results]") {
    // Lines with the keys bench/peers.py writes (those of RunReport::to_json), and a lab line.
    const std::string text =
        R"({"source": "copy", "kernel": "copy", "radius": 0, "precision": "f64", "nx": 512, "ny": 512, "nz": 512, "backend": "cuda", "device": "H100", "ok": true, "timed": true, "ms_min": 0.71, "ms_median": 0.72, "ms_max": 0.73, "gbps": 2990.0, "copy_gbps": 2990.0, "copy_ratio": 1.0})"
        "\n\n"
        R"({"source": "peer", "kernel": "torch-compile", "tile": 0, "radius": 1, "precision": "f64", "nx": 512, "ny": 512, "nz": 512, "backend": "cuda", "device": "H100", "ok": true, "max_rel_err": 2e-16, "timed": true, "ms_min": 0.78, "ms_median": 0.782, "ms_max": 0.79, "gbps": 2746.0, "copy_gbps": 2990.0, "copy_ratio": 0.918})"
        "\n"
        R"({"source": "peer", "kernel": "cudnn-conv3d", "tile": 0, "radius": 4, "precision": "f64", "nx": 512, "ny": 512, "nz": 512, "backend": "cuda", "ok": false, "timed": false, "bad_cells": 9, "check": "FAILED: 9 of 134217728 cells wrong"})"
        "\r\n"
        R"({"source": "lab", "kernel": "register-tiled", "tile": 32, "radius": 1, "precision": "f64", "nx": 512, "ny": 512, "nz": 512, "backend": "cuda", "ok": true, "timed": true, "ms_min": 0.98, "ms_median": 0.99, "ms_max": 1.0, "gbps": 2167.0, "copy_gbps": 3006.0, "copy_ratio": 0.721})"
        "\n";
    const std::string path = write_file("viewer-test-peers.jsonl", text);
    const ResultsFile f = load_results(path);
    REQUIRE(f.runs.size() == 4);
    const RunRecord& compiled = f.runs[1];
    const RunRecord& failed = f.runs[2];
    const RunRecord& lab = f.runs[3];
    CAPTURE(compiled.kernel, compiled.of_copy, failed.error, lab.of_copy);
    REQUIRE((compiled.kernel == "torch-compile" && compiled.of_copy == 0.918 && compiled.checked && compiled.ok &&
             compiled.dims == GridDims{512, 512, 512} && compiled.origin == path && !compiled.kernel_id()));
    REQUIRE((!failed.ok && failed.error.find("FAILED") != std::string::npos));
    REQUIRE((lab.kernel_id() == KernelId::register_tiled && lab.tile == 32 && lab.of_copy == 0.721 &&
             lab.copy_gbps == 3006.0));
    // A peer has no T: the table says so rather than "0".
    const auto cells = run_cells(compiled);
    REQUIRE((cells[1].text == "-" && cells[8].text == "0.92" && cells[9].text.rfind("pass", 0) == 0));
    REQUIRE(run_cells(failed)[9].text == "FAIL");
}

TEST_CASE("JSON lines: a line that is not an object refuses the file with its name", "[viewer][results]") {
    const std::string path = write_file("viewer-test-bad.jsonl",
                                        "{\"kernel\": \"naive\", \"radius\": 1}\nstencil-lab: no GPU\n");
    try {
        load_results(path);
        FAIL("no error");
    } catch (const UserError& e) {
        REQUIRE(std::string(e.what()).find(path + " is not valid JSON") != std::string::npos);
    }
}
