// The corpus's GPU-limit entries hold what their comments claim, from the compiler's own answer:
// each is compiled as the runner compiles it (the translation unit of checker/source.h) to a cubin
// for sm_90 (backends/cpu/registers_cubin.h), and its registers (EIATTR_REGCOUNT) times the
// exercise's block are held against an H100 SM's register file. The entries that must fail to
// launch need more than it holds, those that must pass fit.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include "analysis/registers_check.h"
#include "backends/cpu/registers_cubin.h"
#include "checker/contract.h"
#include "checker/exercises.h"
#include "checker/source.h"

using namespace stencil::checker;

namespace {

// An H100 SM: 64 Ki 32-bit registers, given to warps in whole 256-register units (a thread's
// count rounded up to a multiple of 8).
constexpr long long kRegistersPerSm = 64 * 1024;

long long registers_for_block(int registers_per_thread, long long threads) {
    const long long per_thread = (registers_per_thread + 7) / 8 * 8;
    const long long warps = (threads + 31) / 32;
    return per_thread * 32 * warps;
}

struct Compiled {
    int registers = -1;
    long long frame_bytes = 0;
    long long block_threads = 0;
};

Compiled compile_entry(const std::string& file, const char* exercise) {
    const Exercise& ex = *find_exercise(exercise);
    std::ifstream f(std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/checker/submissions/" + file);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const VettedSource vs = vet_source(text, file, nullptr);
    REQUIRE(vs.ok);
    const int tile = default_tile(ex);
    ptx::CompileRequest req;
    req.source = translation_unit(vs, ex, tile);
    req.name = file;
    req.name_expressions = {kernel_contract(ex).kernel};
    req.options = {"-w"};
    const stencil::CubinResult c = stencil::compile_to_cubin(req);
    CAPTURE(c.log);
    REQUIRE(c.ok);
    const auto all = stencil::analysis::cubin_resources(c.cubin);
    const auto it = all.find(c.lowered_name(kernel_contract(ex).kernel));
    REQUIRE(it != all.end());
    const Launch l = launch_for(ex, 64, tile);
    return {it->second.registers, it->second.frame_bytes, (long long)l.block[0] * l.block[1] * l.block[2]};
}

}  // namespace

TEST_CASE("corpus: the register-limit entries need more registers than an SM holds, the others fit", "[exercise][limits]") {
    struct Case {
        const char* file;
        const char* exercise;
        bool fits;
    };
    const Case c = GENERATE(Case{"tiled_limit_registers.cu", "tiled", false},
                            Case{"register_tiled_f64_limit_registers.cu", "register-tiled-f64", false},
                            Case{"tiled_ok.cu", "tiled", true},
                            Case{"naive_valid_launch_bounds.cu", "naive", true},
                            Case{"tiled_valid_launch_bounds_macro.cu", "tiled", true},
                            Case{"register_tiled_valid_launch_bounds.cu", "register-tiled", true},
                            Case{"register_tiled_f64_ok.cu", "register-tiled-f64", true});
    CAPTURE(c.file);
    const Compiled k = compile_entry(c.file, c.exercise);
    CAPTURE(k.registers, k.block_threads, registers_for_block(k.registers, k.block_threads));
    REQUIRE((registers_for_block(k.registers, k.block_threads) <= kRegistersPerSm) == c.fits);
}

// The valid large frame: ptxas sizes it (the driver grows the stack for it), and it is past the
// default 1 KiB, so an engine that held static frames to that default would refuse valid CUDA.
TEST_CASE("corpus: the large local frame is sized by the compiler, past 1 KiB", "[exercise][limits]") {
    const Compiled k = compile_entry("naive_valid_big_local_frame.cu", "naive");
    REQUIRE(k.frame_bytes >= 4096);
}
