// Runs a derivative kernel on the CPU engine the way the CLI does (input rounded to the precision,
// output poisoned with NaN), for the tests of this area. Values come back widened to double.
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/derivative_cpu.h"

namespace derivative_test {

struct Output {
    std::vector<double> in, out;  // the input as the kernel saw it, and its output
    engine::ExecReport report;
};

template <class real>
Output run_cpu_as(const stencil::DerivativeRequest& req, const std::vector<double>& field,
                  const engine::ExecOptions& opt = {}) {
    std::vector<real> in(field.begin(), field.end());
    std::vector<real> out(in.size(), std::numeric_limits<real>::quiet_NaN());
    Output o;
    o.report = stencil::run_derivative_cpu(req, in.data(), out.data(), opt);
    o.in.assign(in.begin(), in.end());
    o.out.assign(out.begin(), out.end());
    return o;
}

inline Output run_cpu(const stencil::DerivativeRequest& req, const std::vector<double>& field,
                      const engine::ExecOptions& opt = {}) {
    return req.precision == stencil::Precision::f32 ? run_cpu_as<float>(req, field, opt)
                                                    : run_cpu_as<double>(req, field, opt);
}

// Uniform values in [-1, 1) from a simple generator (the reference check wants values with no
// structure a wrong offset could hide behind).
inline std::vector<double> random_values(long long n, unsigned seed) {
    std::vector<double> v(static_cast<std::size_t>(n));
    unsigned long long s = 0x9E3779B97F4A7C15ull * (seed + 1);
    for (double& x : v) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x = double(s >> 11) * 0x1p-52 - 1.0;
    }
    return v;
}

}  // namespace derivative_test
