#include "checker/contract.h"

#include <fmt/format.h>

#include <algorithm>

#include "checker/data_exercise.h"
#include "core/derivative.h"
#include "kernels/cardiac2d/model_constants.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/versions.h"

namespace stencil::checker {

namespace {

const char* type_name(ParamType t, const std::string& element) {
    switch (t) {
        case ParamType::pointer: return element == "double" ? "double*" : "float*";
        case ParamType::int32: return "int";
        case ParamType::uint32: return "unsigned int";
        case ParamType::real: return element == "double" ? "double" : "float";
    }
    return "?";
}

KernelContract star3d_contract(const Exercise& ex, const std::string& element) {
    KernelContract k{"stencil_kernel",
                     {{"in", ParamType::pointer, false}, {"out", ParamType::pointer, true}, {"N", ParamType::uint32, false}},
                     element, {"IN_TILE_DIM", "OUT_TILE_DIM"}, ""};
    for (int i = 0; i < weight_count(ex); ++i) k.harness_names.push_back(fmt::format("c{}", i));
    k.harness_words = "the weights c0, c1, ..., IN_TILE_DIM and OUT_TILE_DIM";
    k.spell_const = false;
    return k;
}

KernelContract cardiac_contract(const std::string& element) {
    return {"cardiac_kernel",
            {{"E_prev", ParamType::pointer, false},
             {"E", ParamType::pointer, true},
             {"R", ParamType::pointer, true},
             {"n", ParamType::int32, false},
             {"alpha", ParamType::real, false},
             {"dt", ParamType::real, false}},
            element,
            {"TILE_X", "TILE_Y", "cardiac_pde", "cardiac_ode"},
            "the macros TILE_X, TILE_Y and the functions cardiac_pde, cardiac_ode"};
}

KernelContract derivative_contract(const std::string& element) {
    return {"derivative_x",
            {{"f", ParamType::pointer, false},
             {"df", ParamType::pointer, true},
             {"mx", ParamType::int32, false},
             {"my", ParamType::int32, false},
             {"mz", ParamType::int32, false}},
            element,
            {"MX", "sPencils", "c_ax", "c_bx", "c_cx", "c_dx"},
            "the macros MX, sPencils and the weights c_ax, c_bx, c_cx, c_dx"};
}

// A stencil written as data: the spec's parameters in its order, its macros and weights.
KernelContract data_contract(const Exercise& ex, const std::string& element) {
    const DataKernel& dk = ex.data->kernel;
    KernelContract k{dk.name, {}, element, {}, ""};
    for (const DataParam& p : dk.params) {
        ParamContract c{p.name, p.is_unsigned ? ParamType::uint32 : ParamType::int32, false};
        switch (p.role) {
            case ParamRole::input:
            case ParamRole::weights: c.type = ParamType::pointer; break;
            case ParamRole::output: c.type = ParamType::pointer, c.written = true; break;
            case ParamRole::real_value: c.type = ParamType::real; break;
            default: break;
        }
        k.params.push_back(c);
    }
    std::string macros;
    for (const DataMacro& m : dk.macros) {
        k.harness_names.push_back(m.name);
        macros += (macros.empty() ? "" : ", ") + m.name;
    }
    const size_t points = ex.data->stencil.points.size();
    if (dk.weights_as_array) k.harness_names.push_back("c");
    else if (dk.weights_in_constant)
        for (size_t i = 0; i < points; ++i) k.harness_names.push_back(data_weight_name(i));
    k.dynamic_shared = dk.shared.has_value();
    k.harness_words = dk.weights_as_array      ? fmt::format("the weights c[0..{}]", points - 1)
                      : dk.weights_in_constant ? fmt::format("the weights c0..c{}", points - 1)
                                               : std::string();
    if (!macros.empty()) k.harness_words += (k.harness_words.empty() ? "the macros " : " and the macros ") + macros;
    if (k.harness_words.empty()) k.harness_words = "nothing";
    return k;
}

// A constant of `real` as C++ source: every digit it has, the float suffix where it is a float.
std::string literal(double v, Precision p) {
    if (p == Precision::f32) return fmt::format("{:.9g}f", double(float(v)));
    return fmt::format("{:.17g}", v);
}

// kernels/cardiac2d/aliev_panfilov.cuh's two pieces, for the exercise's precision: the PDE in the
// slides' order, then the ODE on the new E (the constants rounded to `real`, as the lab's kernels
// round them).
std::string cardiac_helpers(const Exercise& ex) {
    using AP = cardiac2d::AlievPanfilov;
    const std::string t = element_type(ex);
    const auto L = [&](double v) { return literal(v, ex.precision); };
    return fmt::format(
        "__device__ __forceinline__ {0} cardiac_pde({0} center, {0} east, {0} west, {0} south, {0} north, {0} alpha) {{\n"
        "    return center + alpha * (east + west - {1} * center + south + north);\n}}\n"
        "__device__ __forceinline__ void cardiac_ode({0}& e, {0}& r, {0} dt) {{\n"
        "    e = e - dt * ({2} * e * (e - {3}) * (e - {4}) + e * r);\n"
        "    r = r + dt * ({5} + {6} * r / (e + {7})) * (-r - {2} * e * (e - {8} - {4}));\n}}\n",
        t, L(4), L(AP::kk), L(AP::a), L(1), L(AP::epsilon), L(AP::M1), L(AP::M2), L(AP::b));
}

}  // namespace

std::string KernelContract::signature() const {
    std::string s = "__global__ void " + kernel + "(";
    for (size_t i = 0; i < params.size(); ++i) {
        const ParamContract& p = params[i];
        s += (i ? ", " : "") + std::string(p.type == ParamType::pointer && !p.written && spell_const ? "const " : "") +
             type_name(p.type, element) + " " + p.name;
    }
    return s + ")";
}

bool KernelContract::defines(const std::string& name) const {
    return name == kernel || std::find(harness_names.begin(), harness_names.end(), name) != harness_names.end();
}

KernelContract kernel_contract(const Exercise& ex) {
    const std::string element = element_type(ex);
    if (ex.is_data()) return data_contract(ex, element);
    switch (ex.problem) {
        case Problem::star3d: return star3d_contract(ex, element);
        case Problem::cardiac2d: return cardiac_contract(element);
        case Problem::derivative: return derivative_contract(element);
    }
    return star3d_contract(ex, element);
}

std::string kernel_signature(const Exercise& ex) { return kernel_contract(ex).signature(); }

std::string harness_declarations(const Exercise& ex, int tile) {
    const std::string t = element_type(ex);
    if (ex.is_data()) {
        std::string s;
        for (const auto& [name, value] : data_macros(ex, tile)) s += fmt::format("#define {} {}\n", name, value);
        if (ex.data->kernel.weights_as_array) {
            s += fmt::format("__constant__ {} c[{}];\n", t, ex.data->stencil.points.size());
        } else if (ex.data->kernel.weights_in_constant) {
            s += fmt::format("__constant__ {} c0", t);
            for (size_t i = 1; i < ex.data->stencil.points.size(); ++i) s += ", " + data_weight_name(i);
            s += ";\n";
        }
        return s;
    }
    switch (ex.problem) {
        case Problem::star3d: {
            std::string s = fmt::format("#define IN_TILE_DIM {}\n#define OUT_TILE_DIM (IN_TILE_DIM - {})\n", tile, 2 * ex.radius);
            s += fmt::format("__constant__ {} c0", t);
            for (int i = 1; i < weight_count(ex); ++i) s += fmt::format(", c{}", i);
            return s + ";\n";
        }
        case Problem::cardiac2d: {
            const auto& v = *cardiac2d::find_version(ex.version);
            return fmt::format("#define TILE_X {}\n#define TILE_Y {}\n", v.tile_x, v.tile_y) + cardiac_helpers(ex);
        }
        case Problem::derivative:
            return fmt::format("#define MX {}\n#define sPencils {}\n__constant__ {} c_ax, c_bx, c_cx, c_dx;\n",
                               kDerivativeExerciseMX, sPencils, t);
    }
    return {};
}

std::vector<ConstantSpec> harness_constants(const Exercise& ex, const std::vector<double>& star_weights) {
    std::vector<ConstantSpec> k;
    if (ex.is_data()) {
        if (ex.data->kernel.weights_as_array) k.push_back({"c", star_weights});
        else if (ex.data->kernel.weights_in_constant)
            for (size_t i = 0; i < star_weights.size(); ++i) k.push_back({data_weight_name(i), {star_weights[i]}});
        return k;
    }
    switch (ex.problem) {
        case Problem::star3d:
            for (size_t i = 0; i < star_weights.size(); ++i) k.push_back({fmt::format("c{}", i), {star_weights[i]}});
            break;
        case Problem::cardiac2d: break;
        case Problem::derivative: {
            // The x weights depend on the spacing along x only: 1 / MX for every case.
            const auto c = rounded_coefficients({kDerivativeExerciseMX, sPencils, 1}, ex.precision);
            const char* names[] = {"c_ax", "c_bx", "c_cx", "c_dx"};
            for (int i = 0; i < 4; ++i) k.push_back({names[i], {c[i]}});
            break;
        }
    }
    return k;
}

}  // namespace stencil::checker
