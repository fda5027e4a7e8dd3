// The contract checked on NVRTC's PTX (checker/ptx_vetting.h): every spelling NVRTC accepts for
// the kernel's declaration passes, other parameter types are refused with one line naming the
// expected signature (the precision for the other precision), and inline assembly is refused
// however the preprocessor built it, while CUDA's own intrinsics (inline assembly in NVRTC's PTX
// too) pass. Each source is compiled with NVRTC as the runner compiles it (the translation unit
// of checker/source.h), and vetted as the runner vets it.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include "backends/cpu/ptx/nvrtc_ptx.h"
#include "checker/contract.h"
#include "checker/exercises.h"
#include "checker/field_exercises.h"
#include "checker/ptx_vetting.h"
#include "checker/source.h"

using namespace stencil::checker;

namespace {

// The first case's arguments, as the parent writes them: star3d's (in, out, N); the other
// problems' from their own case builder.
CaseSpec first_case(const Exercise& ex) {
    if (!ex.is_star3d()) {
        int timing = -1;
        return field_case_spec(make_field_cases(ex, default_tile(ex), 1, true, false, false, false, timing).front(), 0);
    }
    CaseSpec c;
    c.buffers = {{"in", "case0.in", 27, true}, {"out", "case0.out", 27, false}};
    c.args = {{ArgKind::buffer, 0, 0}, {ArgKind::buffer, 1, 0}, {ArgKind::u32, 0, 3}};
    return c;
}

struct Vetted {
    bool compiled = false;
    std::string log;                  // NVRTC's, when it did not compile
    std::optional<std::string> refusal;
};

// `source` as the runner compiles and vets it for exercise `exercise` (no text vetting: what
// reaches the PTX is the point).
Vetted compile_and_vet(const std::string& source, const char* exercise, const std::string& display = "s.cu") {
    const Exercise& ex = *find_exercise(exercise);
    VettedSource vs;
    vs.display_name = display;
    vs.text = source;
    ptx::CompileRequest cr;
    cr.source = translation_unit(vs, ex, default_tile(ex));
    cr.name = display;
    cr.name_expressions = {kernel_contract(ex).kernel};
    cr.options = {"-w"};
    const ptx::CompileResult r = ptx::compile_to_ptx(cr);
    Vetted v;
    v.compiled = r.ok;
    v.log = r.log;
    if (!r.ok) return v;
    Request req;
    req.exercise = ex.name;
    req.precision = ex.precision;
    req.display_name = display;
    req.kernel_name = kernel_contract(ex).kernel;
    req.kernel_signature = kernel_signature(ex);
    req.cases = {first_case(ex)};
    v.refusal = vet_compiled(req, r.ptx, r.lowered_name(req.kernel_name));
    return v;
}

const char* kBody = "{\n    if (N > 2) out[N * N + N + 1] = in[N * N + N + 1];\n}\n";

}  // namespace

TEST_CASE("mangled names: a kernel's parameter types, whatever the substitutions", "[checker][vetting]") {
    struct Case {
        const char* mangled;
        const char* spelled;
    };
    const Case c = GENERATE(Case{"_Z14stencil_kernelPfS_j", "(float*, float*, unsigned int)"},
                            Case{"_Z14stencil_kernelPKfPfj", "(const float*, float*, unsigned int)"},
                            Case{"_Z14cardiac_kernelPKdPdS1_idd", "(const double*, double*, double*, int, double, double)"},
                            Case{"_Z12derivative_xPKfPfiii", "(const float*, float*, int, int, int)"},
                            Case{"_Z14stencil_kernelPVfPfj", "(volatile float*, float*, unsigned int)"},
                            Case{"_ZL14stencil_kernelPiS_m", "(int*, int*, unsigned long)"},
                            // an anonymous namespace: its prefix is the first substitution
                            Case{"_ZN42_GLOBAL__N__00000000_4_d_cu_caac3947_2118314stencil_kernelEPfS0_j",
                                 "(float*, float*, unsigned int)"},
                            Case{"_Z1kv", "()"});
    CAPTURE(c.mangled);
    const auto p = mangled_parameters(c.mangled);
    REQUIRE(p.has_value());
    std::string s = "(";
    for (size_t k = 0; k < p->size(); ++k) s += (k ? ", " : "") + (*p)[k].spelled();
    REQUIRE(s + ")" == c.spelled);
}

TEST_CASE("mangled names: what is not one is not read", "[checker][vetting]") {
    const char* name = GENERATE("stencil_kernel", "_Z", "_Z14stencil_kernel", "_Z14stencil_kernelPfS5_j",
                                "_Z14stencil_kernelIfEvPT_S1_j", "_Z99x");
    CAPTURE(name);
    REQUIRE_FALSE(mangled_parameters(name).has_value());
}

TEST_CASE("the PTX entry's parameters: their types in order", "[checker][vetting]") {
    const std::string ptx = ".visible .entry k(\n\t.param .u64 .ptr .global .align 4 k_param_0,\n"
                            "\t.param .u32 k_param_1,\n\t.param .align 8 .b8 k_param_2[16],\n\t.param .f64 k_param_3\n)\n{\n";
    REQUIRE(entry_param_types(ptx, "k") == std::vector<std::string>{"u64", "u32", "b8", "f64"});
    REQUIRE(entry_param_types(ptx, "other").empty());
}

// Every spelling NVRTC accepts for the contract's declaration.
TEST_CASE("vetting on the PTX: every spelling of the contract's kernel passes", "[checker][vetting]") {
    struct Case {
        const char* exercise;
        std::string source;
    };
    const Case c = GENERATE(
        Case{"naive", std::string("__global__ void stencil_kernel(float* in, float* out, unsigned int N) ") + kBody},
        // where the CUDA Programming Guide writes __launch_bounds__, and before void
        Case{"naive", std::string("__global__ void __launch_bounds__(512) stencil_kernel(float* in, float* out, unsigned int N) ") + kBody},
        Case{"naive", std::string("__global__ __launch_bounds__(512, 1) void stencil_kernel(float* in, float* out, unsigned N) ") + kBody},
        Case{"naive", std::string("void __global__ stencil_kernel(float* in, float* out, unsigned int N) ") + kBody},
        // an unnamed parameter (the body does not use it)
        Case{"naive", "__global__ void stencil_kernel(float* in, float* out, unsigned int /*N*/) { out[0] = in[0]; }\n"},
        Case{"naive", std::string("__global__ void stencil_kernel(const float* __restrict__ in, float* __restrict__ const out, "
                                  "const unsigned int N) ") + kBody},
        Case{"naive", std::string("typedef float real;\nusing count = unsigned;\n__global__ void stencil_kernel(const real* in, "
                                  "real* out, count N) ") + kBody},
        Case{"naive", std::string("__global__ void stencil_kernel(float in[], float out[], unsigned int N = 0) ") + kBody},
        Case{"naive", std::string("__global__ auto stencil_kernel(float* in, float* out, unsigned int N) -> void ") + kBody},
        Case{"naive", std::string("static __global__ void (stencil_kernel)(float* in, float* out, unsigned int N) ") + kBody},
        // extern "C": the PTX gives the parameters' widths only, which fit
        Case{"naive", std::string("extern \"C\" __global__ void stencil_kernel(float* in, float* out, unsigned int N) ") + kBody},
        Case{"register-tiled-f64", std::string("__global__ void stencil_kernel(const double* in, double* out, unsigned int N) ") + kBody},
        Case{"cardiac-shared", "__global__ void cardiac_kernel(const double* E_prev, double* E, double* R, const int n,\n"
                               "                               double alpha, double dt) { if (n < 0) E[0] = R[0] = E_prev[0] * alpha * dt; }\n"},
        Case{"x-derivative", "__global__ void derivative_x(const float* __restrict__ f, float* __restrict__ df, int mx, int my, int mz)"
                             " { if (mx < 0) df[my + mz] = f[0]; }\n"});
    CAPTURE(c.exercise, c.source);
    const Vetted v = compile_and_vet(c.source, c.exercise);
    CAPTURE(v.log, v.refusal.value_or(""));
    REQUIRE(v.compiled);
    REQUIRE_FALSE(v.refusal.has_value());
}

TEST_CASE("vetting on the PTX: other parameter types are refused with one line", "[checker][vetting]") {
    struct Case {
        const char* exercise;
        std::string declaration;
        const char* says;
    };
    const Case c = GENERATE(
        Case{"naive", "__global__ void stencil_kernel(int* in, int* out, unsigned int N)",
             "s.cu:1: wrong signature: the kernel must be declared as `__global__ void stencil_kernel(float* in, float* out, "
             "unsigned int N)` (`const` on a pointer it only reads is fine; yours takes (int*, int*, unsigned int))"},
        Case{"naive", "__global__ void stencil_kernel(float* in, double* out, unsigned int N)", "wrong signature"},
        Case{"naive", "__global__ void stencil_kernel(float* in, float* out, int N)", "wrong signature"},
        Case{"naive", "__global__ void stencil_kernel(float* in, float* out, unsigned long N)", "yours takes (float*, float*, unsigned long)"},
        Case{"naive", "__global__ void stencil_kernel(float* in, float* out, unsigned int N, int extra)", "wrong signature"},
        Case{"naive", "__global__ void stencil_kernel(volatile float* in, float* out, unsigned int N)", "wrong signature"},
        // `out` is written: it cannot be const
        Case{"naive", "__global__ void stencil_kernel(float* in, const float* out, unsigned int N)", "wrong signature"},
        Case{"naive", "__global__ void stencil_kernel(double* in, double* out, unsigned int N)",
             "s.cu:1: wrong precision: the naive exercise is single precision; the kernel must be declared as "
             "`__global__ void stencil_kernel(float* in, float* out, unsigned int N)`"},
        Case{"register-tiled-f64", "__global__ void __launch_bounds__(1024) stencil_kernel(float* in, float* out, unsigned int N)",
             "wrong precision: the register-tiled-f64 exercise is double precision; the kernel must be declared as "
             "`__global__ void stencil_kernel(double* in, double* out, unsigned int N)`"},
        // extern "C": the widths tell a double scalar or a missing parameter
        Case{"naive", "extern \"C\" __global__ void stencil_kernel(float* in, float* out, double N)",
             "yours takes (.u64, .u64, .f64) in the PTX"});
    CAPTURE(c.declaration);
    const Vetted v = compile_and_vet(c.declaration + " { }\n", c.exercise);
    CAPTURE(v.log);
    REQUIRE(v.compiled);
    REQUIRE(v.refusal.has_value());
    CAPTURE(*v.refusal);
    CHECK(v.refusal->find(c.says) != std::string::npos);
    CHECK(v.refusal->find('\n') == std::string::npos);
}

TEST_CASE("vetting on the PTX: the other problems' signatures, and the precision", "[checker][vetting]") {
    const Vetted cardiac_f32 = compile_and_vet(
        "__global__ void cardiac_kernel(const float* E_prev, float* E, float* R, int n, float alpha, float dt) { }\n",
        "cardiac-shared");
    REQUIRE(cardiac_f32.refusal.has_value());
    CHECK(cardiac_f32.refusal->find("wrong precision: the cardiac-shared exercise is double precision") != std::string::npos);
    const Vetted swapped = compile_and_vet(
        "__global__ void cardiac_kernel(const double* E_prev, double* E, double* R, double alpha, int n, double dt) { }\n",
        "cardiac-shared");
    REQUIRE(swapped.refusal.has_value());
    CHECK(swapped.refusal->find("wrong signature: the kernel must be declared as `__global__ void cardiac_kernel(const double* "
                                "E_prev, double* E, double* R, int n, double alpha, double dt)`") != std::string::npos);
}

TEST_CASE("vetting on the PTX: the refusal names the kernel's line", "[checker][vetting]") {
    const Vetted v = compile_and_vet("// a comment\n\n__device__ float twice(float x) { return 2 * x; }\n"
                                     "__global__ void\nstencil_kernel(int* in, int* out, unsigned int N) { }\n",
                                     "naive", "mine.cu");
    REQUIRE(v.refusal.has_value());
    CHECK(v.refusal->rfind("mine.cu:5: wrong signature", 0) == 0);
}

// CUDA's intrinsics are inline assembly in NVRTC's PTX, under the student's line: they pass. The
// fixture calls every intrinsic NVRTC writes so (a CUDA release that writes others fails here).
TEST_CASE("vetting on the PTX: every CUDA intrinsic written as inline assembly passes", "[checker][vetting]") {
    std::ifstream f(std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/checker/fixtures/intrinsics_asm.cu");
    const std::string source((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    REQUIRE(source.find("__vimax3_s32") != std::string::npos);
    const Vetted v = compile_and_vet(source, "naive");
    CAPTURE(v.log, v.refusal.value_or(""));
    REQUIRE(v.compiled);
    REQUIRE_FALSE(v.refusal.has_value());
}

TEST_CASE("vetting on the PTX: CUDA's intrinsics in a kernel pass", "[checker][vetting]") {
    const std::string body = GENERATE(
        std::string("long long t = clock64(); unsigned c = clock(); out[1] = float(t - c > 0);"),
        std::string("out[1] = __ldg(&in[1]) + __ldcg(&in[2]) + __ldcs(&in[0]) + __ldlu(&in[0]) + __ldcv(&in[0]) + __ldca(&in[0]);"),
        std::string("__stcg(&out[1], in[0]); __stwb(&out[1], in[0]); __stcs(&out[1], in[0]); __stwt(&out[1], in[0]);"),
        std::string("out[1] = float(__activemask()); __nanosleep(100);"),
        // an asm statement that spells an intrinsic exactly is that intrinsic
        std::string("long long t; asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(t)); out[1] = float(t);"));
    CAPTURE(body);
    const Vetted v = compile_and_vet("__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n    " + body +
                                         "\n}\n",
                                     "naive");
    CAPTURE(v.log, v.refusal.value_or(""));
    REQUIRE(v.compiled);
    REQUIRE_FALSE(v.refusal.has_value());
}

TEST_CASE("vetting on the PTX: inline assembly is refused however it is spelled, naming the line", "[checker][vetting]") {
    struct Case {
        std::string source;
        const char* says;
    };
    const std::string head = "__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n";
    const Case c = GENERATE_COPY(
        // token pasting builds `asm`: %smid is no value CUDA C++ gives
        Case{"#define CAT(a, b) a##b\n" + head + "    unsigned s;\n    CAT(a, sm)(\"mov.u32 %0, %%smid;\" : \"=r\"(s));\n"
             "    out[1] = float(s);\n}\n",
             "s.cu:4: inline assembly is not allowed (`mov.u32 %r1, %smid;`): %smid is not a value CUDA C++ gives a kernel"},
        Case{"#define CAT(a, b) a##b\n" + head + "    unsigned long long t;\n    CAT(as, m) volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
             "    out[1] = float(t);\n}\n",
             "s.cu:4: inline assembly is not allowed (`mov.u64 %rd1, %globaltimer;`)"},
        // an instruction no intrinsic writes, inside a helper the kernel calls
        Case{"#define A a##sm\n__device__ float twice(float x) {\n    float y;\n    A(\"add.rn.f32 %0, %1, %1;\" : \"=f\"(y) : \"f\"(x));\n"
             "    return y;\n}\n" + head + "    out[1] = twice(in[0]);\n}\n",
             "s.cu:4: inline assembly is not allowed (`add.rn.f32 %f"},
        Case{"#define A a##sm\n" + head + "    A volatile(\"membar.sys;\");\n    out[1] = in[0];\n}\n",
             "`membar.sys` is not an instruction CUDA's intrinsics write"},
        Case{"#define A a##sm\n" + head + "    A volatile(\"{ .reg .u32 t; mov.u32 t, %%envreg3; }\");\n    out[1] = in[0];\n}\n",
             "%envreg3 is not a value CUDA C++ gives a kernel"});
    CAPTURE(c.source);
    const Vetted v = compile_and_vet(c.source, "naive");
    CAPTURE(v.log);
    REQUIRE(v.compiled);
    REQUIRE(v.refusal.has_value());
    CAPTURE(*v.refusal);
    CHECK(v.refusal->find(c.says) != std::string::npos);
    CHECK(v.refusal->find('\n') == std::string::npos);
}

TEST_CASE("vetting on the PTX: a signature's fit is decided by the types, not by words", "[checker][vetting]") {
    const CaseSpec c = first_case(*find_exercise("naive"));
    const auto f = [&](const char* mangled, stencil::Precision p) { return signature_fit(*mangled_parameters(mangled), c, p); };
    using stencil::Precision;
    CHECK(f("_Z14stencil_kernelPKfPfj", Precision::f32) == SignatureFit::fits);
    CHECK(f("_Z14stencil_kernelPKfPfj", Precision::f64) == SignatureFit::other_precision);
    CHECK(f("_Z14stencil_kernelPdS_j", Precision::f64) == SignatureFit::fits);
    CHECK(f("_Z14stencil_kernelPfPdj", Precision::f32) == SignatureFit::wrong);
    CHECK(f("_Z14stencil_kernelPfPKfj", Precision::f32) == SignatureFit::wrong);
}
