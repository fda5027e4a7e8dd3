// Internal to stencil-check-runner: the helpers its CPU and CUDA halves share. The halves live
// in separate files because backends/cpu/simt.h (CUDA's names for the CPU) and the CUDA runtime's
// headers cannot meet in one translation unit.
#pragma once
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace stencil::checker::runner {

using json = nlohmann::json;

// Cells of the exercise's precision (float or double), as the parent wrote them.
template <class real>
std::vector<real> read_cells(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw std::runtime_error("runner: cannot read " + path);
    const auto bytes = static_cast<size_t>(f.tellg());
    std::vector<real> v(bytes / sizeof(real));
    f.seekg(0);
    f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(real)));
    return v;
}

template <class real>
void write_cells(const std::string& path, const std::vector<real>& v) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(real)));
    if (!f) throw std::runtime_error("runner: cannot write " + path);
}

// The request's precision: "f64" runs double cells and weights, anything else float.
inline bool is_f64(const json& req) { return req.value("precision", std::string("f32")) == "f64"; }

inline void progress(const std::string& s) {
    std::fprintf(stderr, "stencil-check-runner: %s\n", s.c_str());
    std::fflush(stderr);
}

inline std::string run_file(int c, int r, const char* ext) {
    return "case" + std::to_string(c) + ".run" + std::to_string(r) + "." + ext;
}

inline void write_result(const json& result) {
    std::ofstream f("result.json.tmp", std::ios::trunc);
    f << result.dump(1);
    f.close();
    std::rename("result.json.tmp", "result.json");
}


int run_cpu(const json& req);   // runner_cpu.cpp
int run_cuda(const json& req);  // runner_cuda.cpp
int probe_cuda();               // 0 when a device is usable

}  // namespace stencil::checker::runner
