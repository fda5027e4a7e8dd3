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

namespace stencil::checker {
std::string_view reference_source(std::string_view name);
}

namespace stencil::checker::runner {

using json = nlohmann::json;

inline std::vector<float> read_floats(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw std::runtime_error("runner: cannot read " + path);
    const auto bytes = static_cast<size_t>(f.tellg());
    std::vector<float> v(bytes / sizeof(float));
    f.seekg(0);
    f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(float)));
    return v;
}

inline void write_floats(const std::string& path, const std::vector<float>& v) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(float)));
    if (!f) throw std::runtime_error("runner: cannot write " + path);
}

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
