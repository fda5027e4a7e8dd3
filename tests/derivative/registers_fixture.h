// The registers check's kernels (fixtures/register_queues.cuh) compiled by NVRTC to an sm_90 cubin,
// shared by the CI test (tests/derivative/test_registers_check.cpp) and the GPU test
// (tests/gpu/test_derivative_cuda.cpp), with the model's answer each kernel is held against.
#pragma once
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/model.h"
#include "backends/cpu/registers_cubin.h"

namespace registers_fixture {

struct Case {
    std::string expression;  // NVRTC name expression
    stencil::analysis::RegisterAnswer model;
};

inline std::vector<Case> cases() {
    using namespace stencil::analysis;
    return {{"regcheck::star_queue<1>", registers_star(1)},
            {"regcheck::star_queue<2>", registers_nine_point()},
            {"&regcheck::box_queue", registers_box27()}};
}

inline std::string fixture_source() {
    const std::string path = std::string(STENCIL_LAB_SOURCE_DIR "/tests/derivative/fixtures/register_queues.cuh");
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read " + path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// `extra`: more NVRTC options ("--maxrregcount=24").
inline ptx::CompileRequest request(const std::vector<std::string>& extra = {}) {
    ptx::CompileRequest req;
    req.name = "register_queues.cu";
    req.source = fixture_source();
    for (const auto& c : cases()) req.name_expressions.push_back(c.expression);
    req.options = {"--no-source-include"};
    req.options.insert(req.options.end(), extra.begin(), extra.end());
    return req;
}

// Compiled once per process, as ptxas chooses.
inline const stencil::CubinResult& cubin() {
    static const stencil::CubinResult r = stencil::compile_to_cubin(request(), "sm_90");
    return r;
}

}  // namespace registers_fixture
