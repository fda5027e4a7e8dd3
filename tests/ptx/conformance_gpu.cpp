// ptx-conformance-gpu: runs the PTX conformance kernels (tests/ptx/conformance/*.cu) on the GPU
// once and writes what it computed to tests/ptx/conformance_expected.json, the values the CPU
// engine's test (test_ptx_conformance.cpp) is held to.
//
// For each .cu: the `//!` spec (conformance_common.h), NVRTC with the CPU engine's options
// (--gpu-architecture=compute_90 -lineinfo --std=c++17) to PTX, the PTX loaded by the runtime's
// JIT (cudaLibraryLoadData), each kernel (cudaLibraryGetKernel) launched (cudaLaunchKernel) on
// inputs generated here (edge values first, then seeded random ones: written into the file, so the
// CPU test never regenerates them), the outputs copied back. libcuda is not linked: the static
// runtime loads the driver itself.
//
//   ptx-conformance-gpu [--src DIR] [--out FILE] [--seed N] [--only NAME,...]
//   ptx-conformance-gpu --check-against FILE [--out FILE]   run again and compare with FILE
//   ptx-conformance-gpu --compile-only [--list-opcodes] [--dump-ptx DIR]   no GPU needed
//
// Every failure (no GPU, a CUDA error, an NVRTC error, a malformed spec) is one line on stderr and
// exit status 1; a --check-against mismatch is a report and exit status 2. Each source's GPU work
// runs in a child process (with a timeout): a family that faults or hangs is named, the others are
// still written, and the file then lists it under "incomplete" (the CPU test refuses such a file).
//
// Sections: inputs; sources and NVRTC; the GPU run; JSON; --check-against; one family at a time.
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/ptx/conformance_common.h"

#ifndef STENCIL_LAB_SOURCE_DIR
#define STENCIL_LAB_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using namespace ptxconf;

namespace {

constexpr const char* kTool = "ptx-conformance-gpu";

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void ck(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess)
        throw Failure(what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// ---- inputs -------------------------------------------------------------------------------------
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {  // splitmix64
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::uint32_t u32() { return static_cast<std::uint32_t>(next() >> 32); }
    int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
    double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }
};
std::uint64_t fbits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
std::uint64_t dbits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}

// Edge values of each input kind; the first ones take part in the cross product of two operands.
const std::vector<std::uint64_t>& edges(const std::string& kind) {
    static const std::map<std::string, std::vector<std::uint64_t>> e = {
        {"u32", {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 0xfffffffe, 0x80000001, 0x1f, 0x20, 0xffff,
                 0x10000, 0x8000, 0xffff8000, 0x55555555, 0xaaaaaaaa, 3, 0x7ffffffe, 0xff, 0xdeadbeef,
                 // beyond the cross product
                 7, 0x21, 0x3f, 0x7f, 0x80, 0x100, 0x7fff, 0xffffff80, 0x12345678}},
        {"u64", {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 2, 0xfffffffffffffffeull,
                 0x8000000000000001ull, 0xffffffffull, 0x100000000ull, 0x80000000ull, 0x7fffffffull,
                 0xffffffff80000000ull, 0x3f, 0x40, 0x0123456789abcdefull, 0xfedcba9876543210ull, 3,
                 0x5555555555555555ull, 0xdeadbeefull,
                 // beyond the cross product
                 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x1ffffffffull, 0xffffffffffff8000ull,
                 0xffffffffffffff80ull, 0x41, 0x10000000000000ull}},
        {"f32", {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
                 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3f800001, 0x3f7fffff,
                 0x3f000000, 0x40000000, 0x40400000, 0xc0200000, 0x3fc00000, 0x4f000000, 0xcf000000, 0x3dcccccd,
                 // beyond the cross product
                 0x007fffff, 0x80800000, 0x7fa5a5a5, 0xbfc00000, 0x40200000, 0x4f800000, 0x5f000000, 0xdf000000,
                 0x5f800000, 0x477fe000, 0x477ff000, 0x33800000, 0x38800000, 0x4b000000, 0x4b000001, 0xcb7fffff}},
        {"f64", {0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                 0x0000000000000001ull, 0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
                 0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                 0xfff8000000000123ull, 0x7ff0000000000001ull, 0x3ff0000000000001ull, 0x3fefffffffffffffull,
                 0x3fe0000000000000ull, 0x4000000000000000ull, 0x4008000000000000ull, 0xc004000000000000ull,
                 0x41e0000000000000ull, 0xc1e0000000000000ull, 0x43e0000000000000ull, 0x3fb999999999999aull,
                 // beyond the cross product
                 0x000fffffffffffffull, 0x8010000000000000ull, 0x7ff4a5a5a5a5a5a5ull, 0x3ff8000000000000ull,
                 0x41f0000000000000ull, 0x43f0000000000000ull, 0xc3e0000000000000ull, 0x47efffffe0000000ull,
                 0x47efffff10000000ull, 0x36a0000000000000ull, 0x3810000000000000ull, 0x4330000000000000ull,
                 0x4330000000000001ull, 0x3e70000000000000ull, 0xc3dfffffffffffffull}},
        {"shift", {0, 1, 2, 7, 8, 15, 16, 17, 24, 31, 32, 33, 40, 63, 64, 65, 127, 128, 255, 256, 257,
                   0x80000000, 0xffffffff, 0x1f1f, 0x1020}},
        {"key", {0, 1, 2, 3}},
        {"lane", {0, 1, 2, 15, 16, 31, 32, 33, 40}},
        {"f32a", {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x7f7fffff,
                  0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x3f800000, 0xbf800000, 0x3f000000,
                  0x40000000, 0x40490fdb, 0xc0490fdb, 0x3fc90fdb, 0x4116cbe4, 0x42c80000, 0xc2c80000, 0x42fe0000,
                  0x42fe8000, 0x43000000, 0xc2fc0000, 0xc2fe0000, 0xc3160000, 0x0da24260, 0x7e800000, 0x01000000}},
        {"f64a", {0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x000fffffffffffffull,
                  0x0010000000000000ull, 0x8010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
                  0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x3ff0000000000000ull,
                  0xbff0000000000000ull, 0x4000000000000000ull, 0x3fe0000000000000ull, 0x400921fb54442d18ull,
                  0x3ff00000ffffffffull, 0x3fefffffffffffffull, 0x7fdfffffffffffffull, 0x0020000000000000ull}},
    };
    return e.at(kind);
}
std::size_t core_size(const std::string& kind) {
    if (kind == "u32" || kind == "u64" || kind == "f64") return 16;
    if (kind == "f32" || kind == "f64a") return 20;
    if (kind == "f32a") return 24;
    return edges(kind).size();
}

std::uint64_t random_value(const std::string& kind, Rng& r) {
    const int m = r.range(0, 9);
    if (kind == "u32") {
        if (m < 5) return r.u32();
        if (m < 7) return static_cast<std::uint32_t>(r.range(-300, 300));
        if (m < 9) return static_cast<std::uint32_t>((1u << r.range(0, 31)) + r.range(-1, 1));
        return r.u32() & (r.next() & 1 ? 0xffff0000u : 0x0000ffffu);
    }
    if (kind == "u64") {
        if (m < 4) return r.next();
        if (m < 6) return static_cast<std::uint64_t>(static_cast<std::int64_t>(r.range(-300, 300)));
        if (m < 8) return (1ull << r.range(0, 63)) + static_cast<std::uint64_t>(r.range(-1, 1));
        if (m < 9) return r.u32();
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(r.u32())));
    }
    if (kind == "f32" || kind == "f32a") {
        const std::uint32_t sign = static_cast<std::uint32_t>(r.next() & 1) << 31, mant = r.u32() & 0x7fffff;
        if (kind == "f32a") {
            switch (m) {
                case 0: case 1: return fbits(static_cast<float>((r.unit() * 2 - 1) * 140.0));
                case 2: case 3: return fbits(static_cast<float>((r.unit() * 2 - 1) * 3.14159265358979));
                case 4: case 5: return static_cast<std::uint32_t>(r.range(1, 254)) << 23 | mant;  // log-uniform positive
                case 6: return sign | static_cast<std::uint32_t>(r.range(1, 254)) << 23 | mant;
                case 7: return fbits(1.0f + static_cast<float>(r.range(-64, 64)) * 0x1p-20f);
                case 8: return fbits(static_cast<float>((r.unit() * 2 - 1) * 400.0));
                default: return r.u32();
            }
        }
        if (m < 3) return r.u32();
        if (m < 7) return sign | static_cast<std::uint32_t>(127 + r.range(-12, 12)) << 23 | mant;
        if (m < 8) return fbits(static_cast<float>(r.range(-2000, 2000)) * 0.5f);
        if (m < 9) {
            static const int ex[] = {0, 1, 2, 252, 253, 254};
            return sign | static_cast<std::uint32_t>(ex[r.range(0, 5)]) << 23 | mant;
        }
        return sign | static_cast<std::uint32_t>(127 + r.range(-30, 30)) << 23 | (mant & 0x7ff000);
    }
    if (kind == "f64" || kind == "f64a") {
        const std::uint64_t sign = (r.next() & 1) << 63, mant = r.next() & 0xfffffffffffffull;
        if (kind == "f64a") {
            if (m < 5) return static_cast<std::uint64_t>(r.range(1, 2046)) << 52 | mant;  // log-uniform positive
            if (m < 7) return dbits(1.0 + r.range(-64, 64) * 0x1p-40);
            if (m < 9) return sign | static_cast<std::uint64_t>(r.range(1, 2046)) << 52 | mant;
            return r.next();
        }
        if (m < 3) return r.next();
        if (m < 7) return sign | static_cast<std::uint64_t>(1023 + r.range(-30, 30)) << 52 | mant;
        if (m < 8) return dbits(r.range(-2000, 2000) * 0.5);
        if (m < 9) {
            static const int ex[] = {0, 1, 2, 2044, 2045, 2046};
            return sign | static_cast<std::uint64_t>(ex[r.range(0, 5)]) << 52 | mant;
        }
        return sign | static_cast<std::uint64_t>(1023 + r.range(-60, 60)) << 52 | (mant & 0xffffff0000000ull);
    }
    if (kind == "shift") {
        if (m < 6) return static_cast<std::uint64_t>(r.range(0, 70));
        if (m < 9) return static_cast<std::uint64_t>(r.range(0, 255));
        return r.u32();
    }
    if (kind == "key") return static_cast<std::uint64_t>(r.range(0, 3));
    if (kind == "lane") return static_cast<std::uint64_t>(r.range(0, 40));
    throw Failure("no generator for input kind " + kind);
}

// The product a*b of the case as the float type, nudged by a few ulps and negated: c for fma's
// cancellation.
void near_cancel(const std::string& kind, std::vector<std::uint64_t>& c, Rng& r) {
    const int nudge = r.range(-3, 3);
    if (kind == "f32") {
        const float p = as_f32(c[0]) * as_f32(c[1]);
        if (!std::isfinite(p)) return;
        c[2] = (fbits(-p) + static_cast<std::uint64_t>(static_cast<std::int64_t>(nudge))) & 0xffffffffull;
    } else {
        const double p = as_f64(c[0]) * as_f64(c[1]);
        if (!std::isfinite(p)) return;
        c[2] = dbits(-p) + static_cast<std::uint64_t>(static_cast<std::int64_t>(nudge));
    }
}

struct Geometry {
    int grid[3], block[3];
    long long n;
};

// The cases (one vector of input words per thread) and the launch geometry of a kernel.
std::vector<std::vector<std::uint64_t>> make_cases(const KernelSpec& k, std::uint64_t seed, Geometry& g) {
    Rng r{seed ^ fnv1a64(k.name)};
    const std::size_t A = k.kinds.size();
    std::vector<std::vector<std::uint64_t>> cases;
    if (A == 1) {
        for (auto e : edges(k.kinds[0])) cases.push_back({e});
    } else if (A >= 2) {
        const auto& e0 = edges(k.kinds[0]);
        const auto& e1 = edges(k.kinds[1]);
        const std::size_t c0 = std::min(core_size(k.kinds[0]), e0.size()), c1 = std::min(core_size(k.kinds[1]), e1.size());
        auto rest = [&](std::vector<std::uint64_t> c) {
            for (std::size_t j = 2; j < A; ++j) {
                const auto& ej = edges(k.kinds[j]);
                c.push_back(ej[(cases.size() * 7 + j * 3) % ej.size()]);
            }
            cases.push_back(std::move(c));
        };
        for (std::size_t a = 0; a < c0; ++a)
            for (std::size_t b = 0; b < c1; ++b) rest({e0[a], e1[b]});
        for (std::size_t a = c0; a < e0.size(); ++a)
            for (std::size_t b = 0; b < std::min<std::size_t>(4, c1); ++b) rest({e0[a], e1[b]});
        for (std::size_t b = c1; b < e1.size(); ++b)
            for (std::size_t a = 0; a < std::min<std::size_t>(4, c0); ++a) rest({e0[a], e1[b]});
    }
    const bool fma_like = A == 3 && k.kinds[0] == k.kinds[1] && k.kinds[1] == k.kinds[2] &&
                          (k.kinds[0] == "f32" || k.kinds[0] == "f64");
    auto random_case = [&] {
        std::vector<std::uint64_t> c;
        for (const auto& kind : k.kinds) c.push_back(random_value(kind, r));
        if (fma_like && r.range(0, 3) == 0) near_cancel(k.kinds[0], c, r);
        return c;
    };
    for (int j = 0; j < k.random; ++j) cases.push_back(random_case());

    const long long tpb = static_cast<long long>(k.block[0]) * k.block[1] * k.block[2];
    std::copy(k.block, k.block + 3, g.block);
    if (k.grid[0] > 0) {
        std::copy(k.grid, k.grid + 3, g.grid);
        g.n = tpb * k.grid[0] * k.grid[1] * k.grid[2];
    } else {
        long long n = k.cases > 0 ? k.cases : static_cast<long long>(cases.size());
        if (k.cases == 0) n = (n + tpb - 1) / tpb * tpb;  // no partial blocks
        g.n = n;
        g.grid[0] = static_cast<int>((n + tpb - 1) / tpb);
        g.grid[1] = g.grid[2] = 1;
    }
    while (static_cast<long long>(cases.size()) < g.n) cases.push_back(random_case());
    cases.resize(static_cast<std::size_t>(g.n));
    return cases;
}

// ---- sources and NVRTC ----------------------------------------------------------------------------
struct Source {
    std::string file;  // "int_arith.cu"
    std::string text;
    std::vector<KernelSpec> specs;
    std::string ptx;
};

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw Failure("cannot read " + p.string());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string nvrtc_version_text() {
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
    return std::to_string(major) + "." + std::to_string(minor);
}

std::string compile(const Source& s) {
    nvrtcProgram prog;
    nvrtcResult res = nvrtcCreateProgram(&prog, s.text.c_str(), s.file.c_str(), 0, nullptr, nullptr);
    if (res != NVRTC_SUCCESS) throw Failure("NVRTC cannot create a program for " + s.file + ": " + nvrtcGetErrorString(res));
    std::vector<const char*> opts;
    for (const auto& o : nvrtc_options()) opts.push_back(o.c_str());
    res = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
    std::size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    if (log_size) nvrtcGetProgramLog(prog, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    if (res != NVRTC_SUCCESS) {
        nvrtcDestroyProgram(&prog);
        std::replace(log.begin(), log.end(), '\n', ' ');
        throw Failure("NVRTC: " + s.file + " does not compile: " + log);
    }
    std::size_t n = 0;
    nvrtcGetPTXSize(prog, &n);
    std::string ptx(n, '\0');
    nvrtcGetPTX(prog, ptx.data());
    nvrtcDestroyProgram(&prog);
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    return ptx;
}

// Distinct instructions of a PTX text: the opcode with its modifiers ("add.rz.ftz.f32"), without
// operands, guards, labels and directives.
std::set<std::string> opcodes(const std::string& ptx) {
    std::set<std::string> out;
    std::istringstream is(ptx);
    std::string line;
    while (std::getline(is, line)) {
        const auto c = line.find("//");
        if (c != std::string::npos) line.resize(c);
        std::istringstream ls(line);
        std::string t;
        if (!(ls >> t)) continue;
        if (t.back() == ':') {  // a label (or "prototype_N :")
            if (!(ls >> t)) continue;
        }
        if (t == ":" && !(ls >> t)) continue;
        if (t[0] == '@') {  // a guard predicate
            if (!(ls >> t)) continue;
        }
        if (t[0] == '.' || t[0] == '{' || t[0] == '}' || t[0] == ')' || t[0] == '(' || t[0] == '$' ||
            t[0] == '%' || !std::isalpha(static_cast<unsigned char>(t[0])))
            continue;
        while (!t.empty() && (t.back() == ';' || t.back() == ',')) t.pop_back();
        // Continuation lines of a call's operand list ("_Z3fibj,", "param0") are not opcodes.
        if (t.find('.') == std::string::npos && t != "ret" && t != "exit" && t != "trap" && t != "brkpt" &&
            t != "call" && t != "bra" && t != "nanosleep" && t != "activemask")
            continue;
        out.insert(t);
    }
    return out;
}

// ---- the GPU run ----------------------------------------------------------------------------------
struct DeviceMemory {
    void* p = nullptr;
    ~DeviceMemory() {
        if (p) cudaFree(p);
    }
};

// Redirects fd 1 to a temporary file while alive (device printf goes to the process's stdout).
struct CaptureStdout {
    int saved = -1;
    FILE* tmp = nullptr;
    CaptureStdout() {
        std::fflush(nullptr);
        tmp = std::tmpfile();
        if (!tmp) throw Failure("cannot create a temporary file for the kernel's printf output");
        saved = dup(1);
        if (saved < 0 || dup2(fileno(tmp), 1) < 0) throw Failure("cannot redirect stdout for the kernel's printf output");
    }
    std::string finish() {
        std::fflush(nullptr);
        dup2(saved, 1);
        close(saved);
        saved = -1;
        std::string text;
        std::rewind(tmp);
        char buf[4096];
        std::size_t got;
        while ((got = std::fread(buf, 1, sizeof buf, tmp)) > 0) text.append(buf, got);
        std::fclose(tmp);
        tmp = nullptr;
        return text;
    }
    ~CaptureStdout() {
        if (saved >= 0) {
            std::fflush(nullptr);
            dup2(saved, 1);
            close(saved);
        }
        if (tmp) std::fclose(tmp);
    }
};

constexpr std::size_t kGuardWords = 64;

struct KernelResult {
    const Source* src = nullptr;
    const KernelSpec* spec = nullptr;
    Geometry g{};
    std::vector<std::vector<std::uint64_t>> cases;
    std::vector<std::uint64_t> out;  // n*K + extra words
    std::string printed;
    std::vector<std::pair<std::string, double>> approx_max;  // column -> max error / bound (GPU)
};

void run_on_gpu(cudaLibrary_t lib, KernelResult& kr) {
    const KernelSpec& k = *kr.spec;
    const std::string where = " (" + k.name + ")";
    cudaKernel_t kern = nullptr;
    ck(cudaLibraryGetKernel(&kern, lib, k.name.c_str()), "cudaLibraryGetKernel" + where);
    const std::size_t n = static_cast<std::size_t>(kr.g.n), A = k.kinds.size(), K = k.columns.size();
    std::vector<std::uint64_t> in(std::max<std::size_t>(1, n * A), 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t a = 0; a < A; ++a) in[i * A + a] = kr.cases[i][a];
    const std::size_t out_words = n * K + k.extra_words();
    std::vector<std::uint64_t> out(out_words + kGuardWords, kPoison);
    std::size_t at = n * K;
    for (const auto& e : k.extras)
        for (auto w : e.init) out[at++] = w;
    DeviceMemory d_in, d_out;
    ck(cudaMalloc(&d_in.p, in.size() * 8), "cudaMalloc (in)" + where);
    ck(cudaMalloc(&d_out.p, out.size() * 8), "cudaMalloc (out)" + where);
    ck(cudaMemcpy(d_in.p, in.data(), in.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy (in)" + where);
    ck(cudaMemcpy(d_out.p, out.data(), out.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy (out)" + where);
    int n_param = static_cast<int>(n);
    void* args[] = {&d_in.p, &d_out.p, &n_param};
    const dim3 grid(kr.g.grid[0], kr.g.grid[1], kr.g.grid[2]), block(kr.g.block[0], kr.g.block[1], kr.g.block[2]);
    if (k.prints) {
        CaptureStdout cap;
        ck(cudaLaunchKernel(reinterpret_cast<const void*>(kern), grid, block, args, 0, nullptr), "cudaLaunchKernel" + where);
        ck(cudaDeviceSynchronize(), "the kernel" + where);
        kr.printed = cap.finish();
        if (kr.printed.empty()) throw Failure(k.name + " printed nothing that could be captured from stdout");
    } else {
        ck(cudaLaunchKernel(reinterpret_cast<const void*>(kern), grid, block, args, 0, nullptr), "cudaLaunchKernel" + where);
        ck(cudaDeviceSynchronize(), "the kernel" + where);
    }
    ck(cudaMemcpy(out.data(), d_out.p, out.size() * 8, cudaMemcpyDeviceToHost), "cudaMemcpy (out back)" + where);
    for (std::size_t j = out_words; j < out.size(); ++j)
        if (out[j] != kPoison) throw Failure(k.name + " wrote past its outputs (word " + std::to_string(j) + "): its #define K or extra words are wrong");
    // Every column must have been written by some thread (a K smaller than the columns leaves a
    // column all poison).
    for (std::size_t c = 0; c < K; ++c) {
        bool written = false;
        for (std::size_t i = 0; i < n && !written; ++i) written = out[i * K + c] != kPoison;
        if (!written && n > 0) throw Failure(k.name + ": column " + k.columns[c].name + " was never written");
    }
    out.resize(out_words);
    kr.out = std::move(out);
    // The approximate columns against their rules: the GPU itself must meet them.
    for (std::size_t c = 0; c < K; ++c) {
        const auto& col = k.columns[c];
        if (col.rule != "approx") continue;
        double worst = 0;
        for (std::size_t i = 0; i < n; ++i) {
            long double ref = 0;
            if (approx_case(*col.approx, kr.cases[i].data(), static_cast<int>(A), &ref) != ApproxCase::in_domain) continue;
            worst = std::max(worst, approx_error_ratio(*col.approx, kr.out[i * K + c], ref));
        }
        kr.approx_max.emplace_back(col.name, worst);
        if (worst > 1.0)
            std::fprintf(stderr, "%s: warning: the GPU exceeds the rule of %s (%s): %.3g x the bound; widen it in conformance_common.h\n",
                         kTool, col.name.c_str(), col.approx->bound.c_str(), worst);
    }
}

// ---- JSON ----------------------------------------------------------------------------------------
json approx_json(const ApproxRule& r) {
    json j;
    j["fn"] = r.fn;
    j["type"] = r.type;
    j["args"] = r.args;
    j["abs_err"] = r.abs_err;
    j["rel_err"] = r.rel_err;
    j["ulps"] = r.ulps;
    json d;
    d["x"] = {r.x_lo, r.x_hi};
    d["abs_x"] = {r.ax_lo, r.ax_hi};
    d["abs_y"] = {r.ay_lo, r.ay_hi};
    d["result_normal"] = r.result_normal;
    j["domain"] = d;
    j["bound"] = r.bound;
    j["source"] = r.source;
    return j;
}

json kernel_json(const KernelResult& kr) {
    const KernelSpec& k = *kr.spec;
    const std::size_t n = static_cast<std::size_t>(kr.g.n), A = k.kinds.size(), K = k.columns.size();
    json j;
    j["name"] = k.name;
    j["source"] = kr.src->file;
    j["source_fnv1a64"] = hex16(fnv1a64(kr.src->text));
    j["ptx_fnv1a64"] = hex16(fnv1a64(kr.src->ptx));
    j["grid"] = {kr.g.grid[0], kr.g.grid[1], kr.g.grid[2]};
    j["block"] = {kr.g.block[0], kr.g.block[1], kr.g.block[2]};
    j["n"] = n;
    j["input_kinds"] = k.kinds;
    j["outputs_per_thread"] = K;
    json cols = json::array();
    for (const auto& c : k.columns) {
        json cj;
        cj["name"] = c.name;
        cj["type"] = c.type;
        cj["rule"] = c.rule;
        if (c.approx) {
            cj["approx"] = approx_json(*c.approx);
            for (const auto& [name, worst] : kr.approx_max)
                if (name == c.name) cj["gpu_max_error_over_bound"] = worst;
        }
        cols.push_back(cj);
    }
    j["columns"] = cols;
    json extras = json::array();
    for (const auto& e : k.extras) {
        json ej;
        ej["name"] = e.name;
        ej["type"] = e.type;
        ej["init"] = join_words(e.init.data(), e.init.size());
        extras.push_back(ej);
    }
    j["extra"] = extras;
    json inputs = json::array(), outputs = json::array();
    for (std::size_t i = 0; i < n; ++i) {
        inputs.push_back(join_words(kr.cases[i].data(), A));
        outputs.push_back(join_words(&kr.out[i * K], K));
    }
    j["inputs"] = inputs;
    j["outputs"] = outputs;
    j["extra_outputs"] = join_words(kr.out.data() + n * K, kr.out.size() - n * K);
    if (k.prints) j["printf"] = kr.printed;
    return j;
}

// Pretty JSON with one case per line: objects open up, arrays of scalars stay on one line when
// short, arrays of long strings put one per line, small objects in arrays stay on one line.
void dump(std::ostream& os, const json& j, int indent) {
    const std::string pad(static_cast<std::size_t>(indent), ' '), pad2(static_cast<std::size_t>(indent + 2), ' ');
    if (j.is_object()) {
        if (j.empty()) { os << "{}"; return; }
        os << "{\n";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) os << ",\n";
            first = false;
            os << pad2 << json(it.key()).dump() << ": ";
            dump(os, it.value(), indent + 2);
        }
        os << "\n" << pad << "}";
        return;
    }
    if (j.is_array()) {
        if (j.empty()) { os << "[]"; return; }
        const std::string flat = j.dump();
        bool scalars = true;
        for (const auto& e : j) scalars = scalars && !e.is_structured();
        if (scalars && flat.size() <= 100) { os << flat; return; }
        os << "[\n";
        bool first = true;
        for (const auto& e : j) {
            if (!first) os << ",\n";
            first = false;
            os << pad2;
            if (e.is_object() && e.dump().size() > 400) dump(os, e, indent + 2);
            else os << e.dump();
        }
        os << "\n" << pad << "]";
        return;
    }
    os << j.dump();
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char b[32];
    std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return b;
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// ---- --check-against ---------------------------------------------------------------------------------
// Compares a fresh run with a committed file, word by word, by the fresh file's column rules.
// Returns the number of differences; prints a report.
long long check_against(const json& committed, const json& fresh) {
    long long bad = 0;
    std::map<std::string, const json*> by_name;
    for (const auto& kj : committed.at("kernels")) by_name[kj.at("name").get<std::string>()] = &kj;
    if (committed.contains("incomplete")) {
        std::printf("the committed file is incomplete: %s\n", committed.at("incomplete").dump().c_str());
        ++bad;
    }
    for (const auto& fk : fresh.at("kernels")) {
        const std::string name = fk.at("name").get<std::string>();
        const auto it = by_name.find(name);
        if (it == by_name.end()) {
            std::printf("%s: not in the committed file (regenerate it)\n", name.c_str());
            ++bad;
            continue;
        }
        const json& ck_ = *it->second;
        if (ck_.at("source_fnv1a64") != fk.at("source_fnv1a64"))
            std::printf("%s: note: %s changed since the committed file was written\n", name.c_str(),
                        fk.at("source").get<std::string>().c_str());
        const std::size_t n = fk.at("n").get<std::size_t>(), A = fk.at("input_kinds").size(),
                          K = fk.at("outputs_per_thread").get<std::size_t>();
        if (ck_.at("n").get<std::size_t>() != n || ck_.at("outputs_per_thread").get<std::size_t>() != K ||
            ck_.at("inputs") != fk.at("inputs")) {
            std::printf("%s: other cases or columns than the committed file: regenerate it\n", name.c_str());
            ++bad;
            continue;
        }
        std::deque<ApproxRule> rules;
        const std::vector<ColumnInfo> cols = columns_from_json(fk, rules);
        long long kbad = 0;
        std::vector<std::uint64_t> in, want, got;
        for (std::size_t i = 0; i < n; ++i) {
            parse_words(fk.at("inputs")[i].get<std::string>(), in);
            parse_words(ck_.at("outputs")[i].get<std::string>(), want);
            parse_words(fk.at("outputs")[i].get<std::string>(), got);
            for (std::size_t c = 0; c < K && c < want.size() && c < got.size(); ++c) {
                const Verdict v = check_value(cols[c], want[c], got[c], in.data(), static_cast<int>(A));
                if (!v.ok && ++kbad <= 10)
                    std::printf("%s: thread %zu [%s] %s: committed %s, now %s (%s)\n", name.c_str(), i,
                                join_words(in.data(), in.size()).c_str(), cols[c].name.c_str(), hex(want[c]).c_str(),
                                hex(got[c]).c_str(), v.why.c_str());
            }
        }
        if (ck_.at("extra_outputs") != fk.at("extra_outputs")) {
            std::printf("%s: the extra words differ: committed [%s], now [%s]\n", name.c_str(),
                        ck_.at("extra_outputs").get<std::string>().c_str(), fk.at("extra_outputs").get<std::string>().c_str());
            ++kbad;
        }
        if (fk.contains("printf") && ck_.value("printf", std::string()) != fk.at("printf").get<std::string>()) {
            std::printf("%s: the printf text differs\n--- committed\n%s--- now\n%s---\n", name.c_str(),
                        ck_.value("printf", std::string()).c_str(), fk.at("printf").get<std::string>().c_str());
            ++kbad;
        }
        std::printf("%s: %s (%zu threads x %zu columns)\n", name.c_str(), kbad ? "DIFFERS" : "same", n, K);
        bad += kbad;
    }
    return bad;
}

// ---- one family at a time ----------------------------------------------------------------------
// Each family runs in this process (a forked child of a process linked with the static CUDA
// runtime failed cudaGetDeviceCount with cudaErrorInitializationError on the H100 machine,
// 2026-11-23). A family that throws is named and the others are still written; one that never
// ends is stopped by an alarm after the timeout, which ends the whole run with a message.
struct ChildResult {
    bool ok = false;
    std::string error;  // one line, when not ok
    json value;         // what the family computed
};

std::string g_running;  // for the alarm's message
extern "C" void on_alarm(int) {
    const std::string m = "ptx-conformance-gpu: " + g_running + ": timed out (a kernel that never ends?)\n";
    (void)!write(2, m.data(), m.size());
    _exit(1);
}

template <class Work>
ChildResult in_child(const std::string& what, unsigned timeout_s, Work work) {
    ChildResult r;
    g_running = what;
    std::signal(SIGALRM, on_alarm);
    alarm(timeout_s);
    try {
        r.value = work();
        r.ok = true;
    } catch (const std::exception& e) {
        r.error = what + ": " + e.what();
    }
    alarm(0);
    return r;
}

json device_info() {
    int count = 0;
    ck(cudaGetDeviceCount(&count), "no usable CUDA device (cudaGetDeviceCount)");
    if (count == 0) throw Failure("no CUDA device");
    cudaDeviceProp prop{};
    ck(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int driver = 0, runtime = 0;
    ck(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    ck(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    if (prop.major < 9)
        throw Failure(std::string("the device is ") + prop.name + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
                      "); the conformance PTX targets compute_90: run this on an sm_90 or newer GPU");
    json dev;
    dev["name"] = prop.name;
    dev["compute_capability"] = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    dev["multiprocessors"] = prop.multiProcessorCount;
    dev["driver_version"] = version_text(driver);
    dev["runtime_version"] = version_text(runtime);
    return dev;
}

// The kernels of one source on the GPU: their JSON objects.
json run_family(const Source& s, const std::set<std::string>& only, std::uint64_t seed) {
    ck(cudaSetDevice(0), "cudaSetDevice");
    // calls.cu recurses up to 64 calls deep: more than the default 1 KiB of stack per thread.
    ck(cudaDeviceSetLimit(cudaLimitStackSize, 8192), "cudaDeviceSetLimit (stack size)");
    cudaLibrary_t lib = nullptr;
    ck(cudaLibraryLoadData(&lib, s.ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
       "cudaLibraryLoadData (the driver's JIT of the PTX of " + s.file + ")");
    json ks = json::array();
    for (const auto& k : s.specs) {
        if (!only.empty() && !only.count(k.name)) continue;
        KernelResult kr;
        kr.src = &s;
        kr.spec = &k;
        kr.cases = make_cases(k, seed, kr.g);
        run_on_gpu(lib, kr);
        std::fprintf(stderr, "%s: %-13s %5lld threads x %3zu columns%s\n", kTool, k.name.c_str(), kr.g.n,
                     k.columns.size(), k.prints ? " + printf text" : "");
        ks.push_back(kernel_json(kr));
    }
    ck(cudaLibraryUnload(lib), "cudaLibraryUnload");
    return ks;
}

struct Options {
    fs::path src = fs::path(STENCIL_LAB_SOURCE_DIR) / "tests/ptx/conformance";
    fs::path out = fs::path(STENCIL_LAB_SOURCE_DIR) / "tests/ptx/conformance_expected.json";
    bool out_given = false;
    fs::path check;
    fs::path dump_ptx;
    bool compile_only = false, list_opcodes = false;
    std::uint64_t seed = 20260101;
    unsigned timeout_s = 300;
    std::set<std::string> only;
};

void usage() {
    std::printf(
        "usage: %s [--src DIR] [--out FILE] [--seed N] [--only NAME,...] [--timeout SECONDS]\n"
        "       %s --check-against FILE [--out FILE]\n"
        "       %s --compile-only [--list-opcodes] [--dump-ptx DIR]\n"
        "Runs tests/ptx/conformance/*.cu on the GPU and writes the expected values the CPU PTX engine\n"
        "is tested against (default --out: the committed tests/ptx/conformance_expected.json).\n"
        "Exit status: 0 done, 1 a failure (a family that failed is named on stderr and listed as\n"
        "\"incomplete\" in the file, which the CPU test then refuses), 2 --check-against differences.\n",
        kTool, kTool, kTool);
}

// Long because it is the tool's main: its options, then the sources compiled, run and written in
// order.
int run(int argc, char** argv) {
    Options o;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        auto value = [&]() -> std::string {
            if (a + 1 >= argc) throw Failure(arg + " needs a value");
            return argv[++a];
        };
        if (arg == "--src") o.src = value();
        else if (arg == "--out") { o.out = value(); o.out_given = true; }
        else if (arg == "--check-against") o.check = value();
        else if (arg == "--compile-only") o.compile_only = true;
        else if (arg == "--list-opcodes") o.list_opcodes = true;
        else if (arg == "--dump-ptx") o.dump_ptx = value();
        else if (arg == "--seed") o.seed = std::stoull(value());
        else if (arg == "--timeout") o.timeout_s = static_cast<unsigned>(std::stoul(value()));
        else if (arg == "--only") { for (const auto& s : split(value(), ',')) o.only.insert(s); }
        else if (arg == "-h" || arg == "--help") { usage(); return 0; }
        else throw Failure("unknown argument " + arg + " (--help)");
    }
    if (!o.check.empty() && !o.out_given) o.out = fs::temp_directory_path() / "ptx_conformance_check.json";
    if (!o.check.empty() && !fs::exists(o.check))
        throw Failure(o.check.string() + " does not exist: generate it first (" + kTool + " with no arguments)");

    // The sources and their specs, in file name order.
    std::vector<Source> sources;
    if (!fs::is_directory(o.src)) throw Failure("no conformance sources at " + o.src.string());
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(o.src))
        if (e.path().extension() == ".cu") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw Failure("no .cu files in " + o.src.string());
    std::set<std::string> names;
    for (const auto& f : files) {
        Source s;
        s.file = f.filename().string();
        s.text = read_file(f);
        std::string err;
        s.specs = parse_specs(s.text, s.file, &err);
        if (s.specs.empty()) throw Failure(err);
        for (const auto& k : s.specs)
            if (!names.insert(k.name).second) throw Failure("kernel " + k.name + " is defined twice");
        s.ptx = compile(s);
        if (!o.dump_ptx.empty()) {
            fs::create_directories(o.dump_ptx);
            std::ofstream(o.dump_ptx / (s.file + ".ptx")) << s.ptx;
        }
        sources.push_back(std::move(s));
    }
    for (const auto& name : o.only)
        if (!names.count(name)) throw Failure("--only: no kernel " + name);

    if (o.compile_only) {
        std::set<std::string> all;
        for (const auto& s : sources) {
            for (const auto& k : s.specs) {
                Geometry g{};
                make_cases(k, o.seed, g);
                std::printf("%-15s %-13s %5lld threads x %3zu columns%s\n", s.file.c_str(), k.name.c_str(), g.n,
                            k.columns.size(), k.extras.empty() ? "" : " + extra words");
            }
            const auto ops = opcodes(s.ptx);
            all.insert(ops.begin(), ops.end());
        }
        std::printf("NVRTC %s: every source compiles (%zu distinct instructions)\n", nvrtc_version_text().c_str(), all.size());
        if (o.list_opcodes)
            for (const auto& op : all) std::printf("%s\n", op.c_str());
        return 0;
    }

    // The device (in a child too: the parent stays free of CUDA).
    const ChildResult dev = in_child("the device", 120, [] { return device_info(); });
    if (!dev.ok) throw Failure(dev.error);
    std::fprintf(stderr, "%s: %s (sm_%s), driver %s, runtime %s, NVRTC %s\n", kTool,
                 dev.value.at("name").get<std::string>().c_str(), dev.value.at("compute_capability").get<std::string>().c_str(),
                 dev.value.at("driver_version").get<std::string>().c_str(),
                 dev.value.at("runtime_version").get<std::string>().c_str(), nvrtc_version_text().c_str());

    json kernels = json::array();
    std::vector<std::string> failures;
    for (const auto& s : sources) {
        bool wanted = o.only.empty();
        for (const auto& k : s.specs) wanted = wanted || o.only.count(k.name);
        if (!wanted) continue;
        const ChildResult r = in_child(s.file, o.timeout_s, [&] { return run_family(s, o.only, o.seed); });
        if (!r.ok) {
            std::fprintf(stderr, "%s: %s\n", kTool, r.error.c_str());
            failures.push_back(r.error);
            continue;
        }
        for (const auto& kj : r.value) kernels.push_back(kj);
    }

    json doc;
    doc["format"] = kFormat;
    doc["generated_by"] = std::string(kTool) + " (tests/ptx/conformance_gpu.cpp)";
    doc["date_utc"] = utc_now();
    doc["device"] = dev.value;
    json nv;
    nv["version"] = nvrtc_version_text();
    nv["options"] = nvrtc_options();
    doc["nvrtc"] = nv;
    doc["seed"] = o.seed;
    doc["poison"] = hex16(kPoison);
    doc["abi"] = "extern \"C\" __global__ void NAME(const unsigned long long* in, unsigned long long* out, int n): "
                 "thread i reads in[i*A ...], writes out[i*K ...]; out starts as the poison, then the extra words' "
                 "init after the n*K per-thread words";
    if (!failures.empty()) doc["incomplete"] = failures;
    doc["kernels"] = kernels;

    if (o.out.has_parent_path()) fs::create_directories(o.out.parent_path());
    const fs::path tmp = o.out.string() + ".tmp";
    {
        std::ofstream f(tmp);
        if (!f) throw Failure("cannot write " + tmp.string());
        dump(f, doc, 0);
        f << "\n";
        if (!f) throw Failure("cannot write " + tmp.string());
    }
    fs::rename(tmp, o.out);
    std::fprintf(stderr, "%s: wrote %s (%zu kernels%s)\n", kTool, o.out.string().c_str(), kernels.size(),
                 failures.empty() ? "" : ", INCOMPLETE: the families above failed");
    if (!failures.empty()) return 1;

    if (!o.check.empty()) {
        const json committed = json::parse(read_file(o.check));
        const long long bad = check_against(committed, doc);
        if (bad) {
            std::printf("%lld differences against %s\n", bad, o.check.string().c_str());
            return 2;
        }
        std::printf("every kernel matches %s\n", o.check.string().c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: %s\n", kTool, e.what());
        return 1;
    } catch (...) {
        std::fprintf(stderr, "%s: unknown failure\n", kTool);
        return 1;
    }
}
