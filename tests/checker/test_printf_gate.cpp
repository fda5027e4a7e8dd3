// The GPU runner's printf gate (checker/printf_gate.h): the rewritten PTX is valid (ptxas accepts
// it for sm_90), and its semantics, run on the PTX engine: only the first max_calls calls print,
// however the kernel reaches vprintf (printf, vprintf called by name).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/nvrtc_ptx.h"
#include "checker/printf_gate.h"

using namespace stencil::checker;

namespace {

// Every thread prints twice: once through printf, once through vprintf named directly.
const char* kPrintingKernel = R"(
extern "C" __device__ int vprintf(const char*, const char*);
extern "C" __global__ void shout(float* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("thread %u\n", i);
    unsigned args[2] = {i, 0};
    vprintf("again %u\n", reinterpret_cast<const char*>(args));
    out[i] = float(i);
}
)";

std::string compile(const char* source) {
    ptx::CompileRequest req;
    req.source = source;
    req.name = "shout.cu";
    const ptx::CompileResult c = ptx::compile_to_ptx(req);
    INFO(c.log);
    REQUIRE(c.ok);
    return c.ptx;
}

int lines(const std::string& s) {
    int n = 0;
    for (char ch : s) n += ch == '\n';
    return n;
}

}  // namespace

TEST_CASE("printf gate: only the first max_calls calls of a launch print", "[checker][printf]") {
    const std::string ptx = compile(kPrintingKernel);
    const auto gated = gate_device_printf(ptx, 5);
    REQUIRE(gated);
    // Every call now goes to the gate: vprintf is named only in its declaration and in the gate.
    CHECK(gated->find(kPrintfGateSymbol) != std::string::npos);
    const auto module = ptx::load(*gated);
    std::vector<float> out(64, -1.0f);
    ptx::Launch l;
    l.entry = "shout";
    l.grid = {2, 1, 1};
    l.block = {32, 1, 1};
    l.buffers = {{out.data(), out.size() * sizeof(float), 1, "out", false}};
    l.params = {ptx::buffer_address(0)};
    std::string printed;
    l.printf_output = &printed;
    engine::ExecOptions o;
    o.check_shared = false;
    const auto rep = ptx::run(*module, l, o);
    CAPTURE(rep.summary(), printed);
    REQUIRE(rep.clean());
    CHECK(lines(printed) == 5);
    for (int i = 0; i < 64; ++i) CHECK(out[i] == float(i));  // the kernel ran on; only printing stopped

    // Ungated, the same launch prints all 128 lines (the gate, not the engine's cap, cut them).
    const auto plain = ptx::load(ptx);
    std::string all;
    l.printf_output = &all;
    REQUIRE(ptx::run(*plain, l, o).clean());
    CHECK(lines(all) == 128);
}

TEST_CASE("printf gate: PTX without printf is left alone", "[checker][printf]") {
    const std::string ptx = compile(R"(extern "C" __global__ void quiet(float* out) { out[threadIdx.x] = 1.0f; })");
    CHECK_FALSE(gate_device_printf(ptx, 5));
}

TEST_CASE("printf gate: ptxas accepts the gated PTX for sm_90", "[checker][printf]") {
    const char* cuda = std::getenv("CUDA_HOME");
    const std::filesystem::path ptxas = std::filesystem::path(cuda && *cuda ? cuda : "/usr/local/cuda") / "bin/ptxas";
    REQUIRE(std::filesystem::exists(ptxas));  // the toolkit is a build requirement on every machine
    const auto gated = gate_device_printf(compile(kPrintingKernel), 512);
    REQUIRE(gated);
    const auto dir = std::filesystem::temp_directory_path();
    const auto in = dir / "stencil-printf-gate.ptx", out = dir / "stencil-printf-gate.cubin";
    std::ofstream(in) << *gated;
    const std::string cmd = ptxas.string() + " -arch=sm_90 " + in.string() + " -o " + out.string() + " 2>&1";
    CHECK(std::system(cmd.c_str()) == 0);
    std::filesystem::remove(in);
    std::filesystem::remove(out);
}

// CUDA's printf returns the number of arguments its format names, printed or not; past the gate's
// cap, and past the CPU engine's own cap, a kernel that tests the value sees the same.
TEST_CASE("printf past the cap returns the number of arguments, on the gate and on the engine", "[checker][printf]") {
    const std::string ptx = compile(R"(
extern "C" __global__ void count_back(int* out) {
    out[threadIdx.x] = printf("%d|%*d|%-.*f|%%|%s\n", 1, 4, 2, 3, 1.5, "x");  // 6 arguments
    out[32 + threadIdx.x] = printf("no arguments, 100%% sure\n");
}
)");
    auto run = [](const std::string& text, size_t cap, std::string& printed) {
        const auto module = ptx::load(text);
        std::vector<int> out(64, -7);
        ptx::Launch l;
        l.entry = "count_back";
        l.grid = {1, 1, 1};
        l.block = {32, 1, 1};
        l.buffers = {{out.data(), out.size() * sizeof(int), 1, "out", false}};
        l.params = {ptx::buffer_address(0)};
        l.printf_output = &printed;
        if (cap) l.printf_cap = cap;
        engine::ExecOptions o;
        o.check_shared = false;
        const auto rep = ptx::run(*module, l, o);
        CAPTURE(rep.summary(), printed);
        REQUIRE(rep.clean());
        return out;
    };
    std::vector<int> expected(64, 6);
    std::fill(expected.begin() + 32, expected.end(), 0);
    const auto gated = gate_device_printf(ptx, 5);
    REQUIRE(gated);
    std::string through_gate, capped;
    CHECK(run(*gated, 0, through_gate) == expected);
    CHECK(lines(through_gate) == 5);  // (the gate let 5 calls print)
    CHECK(run(ptx, 64, capped) == expected);
    CHECK(capped.size() < 64 + 40);  // (the engine kept 64 bytes and its line saying so)
}
