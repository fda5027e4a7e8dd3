// NVRTC as the PTX engine's compiler: CUDA C++ to PTX with line info and lowered names, compile
// errors as a log naming file:line, the textbook's four kernels from the embedded headers, the version
// table's refusals, and the disk cache (reused, never trusted when corrupt or foreign).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/ptx/lab_ptx.h"
#include "backends/cpu/ptx/nvrtc_ptx.h"
#include "core/error.h"

using namespace stencil;
namespace fs = std::filesystem;

namespace {

ptx::CompileRequest small_kernel() {
    ptx::CompileRequest req;
    req.name = "scale.cu";
    req.headers = {{"lab/twice.h",
                    "#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n"}};
    req.source =
        "#include \"lab/twice.h\"\n"
        "__constant__ float c0;\n"
        "template <int N>\n"
        "__global__ void scale(float* p) {\n"
        "    p[threadIdx.x] = twice(p[threadIdx.x]) * c0 + N;\n"
        "}\n";
    req.name_expressions = {"scale<8>", "&c0"};
    req.options = {"-DUNUSED=1"};
    return req;
}

// A fresh, empty directory below the system's temporary one.
fs::path fresh_dir(const std::string& what) {
    fs::path d =
        fs::temp_directory_path() / ("stencil-lab-test-" + what + "-" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

}  // namespace

TEST_CASE("NVRTC compiles a kernel to PTX with line info and lowered names", "[nvrtc]") {
    const ptx::CompileResult r = ptx::compile_to_ptx(small_kernel());
    INFO(r.log);
    REQUIRE(r.ok);
    CHECK(r.seconds > 0);
    CHECK(r.ptx.find(".target sm_90") != std::string::npos);
    CHECK(r.ptx.find(".loc\t") != std::string::npos);
    CHECK(r.ptx.back() != '\0');
    const std::string kernel = r.lowered_name("scale<8>");
    const std::string c0 = r.lowered_name("&c0");
    CHECK(kernel == "_Z5scaleILi8EEvPf");
    CHECK(c0 == "c0");
    CHECK(r.lowered_name("scale<9>").empty());
    CHECK(r.ptx.find(".entry " + kernel + "(") != std::string::npos);
    CHECK(r.ptx.find(".const .align 4 .f32 " + c0) != std::string::npos);
    // The in-memory files are named as the request named them, whatever the working directory.
    CHECK(r.ptx.find("\t.file\t1 \"scale.cu\"") != std::string::npos);
    CHECK(r.ptx.find(" \"lab/twice.h\"") != std::string::npos);

    CHECK(ptx::fixed_options() ==
          std::vector<std::string>{"--gpu-architecture=compute_90", "-lineinfo", "--std=c++17"});
    CHECK(ptx::nvrtc_version().find('.') != std::string::npos);
}

TEST_CASE("a compile error is ok = false and a log naming file and line, never a throw",
          "[nvrtc]") {
    ptx::CompileRequest req = small_kernel();
    req.source += "\n__global__ void broken(float* p) { p[0] = undefined_name; }\n";  // line 8
    ptx::CompileResult r;
    REQUIRE_NOTHROW(r = ptx::compile_to_ptx(req));
    CHECK_FALSE(r.ok);
    CHECK(r.ptx.empty());
    CHECK(r.lowered.empty());
    CHECK(r.log.find("scale.cu(8): error") != std::string::npos);
    CHECK(r.log.find("undefined_name") != std::string::npos);
    CHECK(r.log.back() != '\n');
    CHECK(r.log.back() != '\0');

    // An error in a header names the header.
    req = small_kernel();
    req.headers[0].text = "#pragma once\n__device__ inline float twice(float x) { return x +; }\n";
    r = ptx::compile_to_ptx(req);
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("lab/twice.h(2): error") != std::string::npos);

    // A name expression that names nothing, and an option NVRTC does not know.
    req = small_kernel();
    req.name_expressions.push_back("no_such_kernel");
    CHECK_FALSE(ptx::compile_to_ptx(req).ok);
    req = small_kernel();
    req.options.push_back("--no-such-option");
    r = ptx::compile_to_ptx(req);
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("--no-such-option") != std::string::npos);
}

TEST_CASE("lab_ptx: each kernel's instantiation from the embedded headers", "[nvrtc][lab]") {
    struct Case {
        KernelId k;
        int tile, radius;
        Precision p;
        const char* entry;
    };
    const Case cases[] = {
        {KernelId::naive, 8, 2, Precision::f32,
         "_ZN7stencil20stencil_naive_kernelIfLi2EEEvPKT_PS1_iii"},
        {KernelId::tiled, 8, 1, Precision::f64,
         "_ZN7stencil20stencil_tiled_kernelIdLi8ELi1EEEvPKT_PS1_iii"},
        {KernelId::coarsened, 16, 3, Precision::f32,
         "_ZN7stencil24stencil_coarsened_kernelIfLi16ELi3EEEvPKT_PS1_iii"},
        {KernelId::register_tiled, 32, 4, Precision::f64,
         "_ZN7stencil29stencil_register_tiled_kernelIdLi32ELi4EEEvPKT_PS1_iii"},
    };
    for (const auto& c : cases) {
        const LabPtx& lp = lab_ptx(c.k, c.tile, c.radius, c.p);
        INFO(version(c.k).name);
        CHECK(lp.entry == c.entry);
        CHECK(lp.source_file == version(c.k).source_file);
        CHECK(lp.ptx.find(".entry " + lp.entry + "(") != std::string::npos);
        // Only this instantiation's entry: the family's others are left out.
        std::size_t entries = 0;
        for (std::size_t at = lp.ptx.find(".entry "); at != std::string::npos;
             at = lp.ptx.find(".entry ", at + 1))
            ++entries;
        CHECK(entries == 1);
        const std::string coeff =
            c.p == Precision::f32 ? "c_coefficients_f32E" : "c_coefficients_f64E";
        CHECK(lp.coefficients_symbol.ends_with(coeff));
        CHECK(lp.ptx.find(".const .align " + std::to_string(bytes_of(c.p)) + " .b8 " +
                          lp.coefficients_symbol) != std::string::npos);
        CHECK(lp.ptx.find("[" + lp.coefficients_symbol) !=
              std::string::npos);  // the kernel reads it
        CHECK(lp.ptx.find(std::string(" \"") + version(c.k).source_file + "\"") !=
              std::string::npos);
        CHECK(lp.ptx.find(".loc\t") != std::string::npos);
        // The same object every time.
        CHECK(&lab_ptx(c.k, c.tile, c.radius, c.p) == &lp);
    }
    // The naive kernel has no T parameter: every valid block edge is the same instantiation.
    CHECK(&lab_ptx(KernelId::naive, 4, 2, Precision::f32) ==
          &lab_ptx(KernelId::naive, 8, 2, Precision::f32));
}

TEST_CASE("lab_ptx from several threads at once: one object per instantiation", "[nvrtc][lab]") {
    std::vector<const LabPtx*> got(8);
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&, i] {
            got[i] = &lab_ptx(i % 2 ? KernelId::tiled : KernelId::naive, 6, 2, Precision::f64);
        });
    for (auto& t : threads) t.join();
    for (int i = 2; i < 8; ++i) CHECK(got[i] == got[i % 2]);
    CHECK(got[0]->entry != got[1]->entry);
}

TEST_CASE("lab_ptx refuses what the version table refuses", "[nvrtc][lab]") {
    CHECK_THROWS_AS(lab_ptx(KernelId::tiled, 11, 1, Precision::f32), UserError);      // T^3 > 1024
    CHECK_THROWS_AS(lab_ptx(KernelId::coarsened, 15, 1, Precision::f32), UserError);  // not built
    CHECK_THROWS_AS(lab_ptx(KernelId::coarsened, 32, 4, Precision::f64),
                    UserError);  // 72 KiB shared
    CHECK_THROWS_AS(lab_ptx(KernelId::register_tiled, 8, 4, Precision::f32), UserError);  // T <= 2r
    CHECK_THROWS_AS(lab_ptx(KernelId::naive, 8, 5, Precision::f32), UserError);           // r > 4
}

TEST_CASE("the embedded headers are the source tree's", "[nvrtc][lab]") {
    // Every header a kernel includes is embedded, with the text the build read.
    REQUIRE(lab_ptx_detail::kEmbeddedHeaderCount >= 7);
    for (int i = 0; i < lab_ptx_detail::kEmbeddedHeaderCount; ++i) {
        const auto& h = lab_ptx_detail::kEmbeddedHeaders[i];
        std::ifstream f(fs::path(STENCIL_LAB_SOURCE_DIR) / h.name, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
        INFO(h.name);
        CHECK(text == h.text);
    }
}

TEST_CASE("the disk cache is reused, and a corrupt or foreign entry is ignored", "[nvrtc][cache]") {
    using namespace lab_ptx_detail;
    const fs::path dir = fresh_dir("ptx-cache");
    const ptx::CompileRequest req =
        family_request(KernelId::naive, Precision::f32);  // the quickest
    const std::string path = cache_entry_path(req, dir.string());

    bool from_cache = true;
    const ptx::CompileResult first = cached_compile(req, dir.string(), &from_cache);
    REQUIRE(first.ok);
    CHECK_FALSE(from_cache);
    REQUIRE(fs::exists(path));
    CHECK(first.ptx.find(".entry ") != std::string::npos);

    const ptx::CompileResult second = cached_compile(req, dir.string(), &from_cache);
    CHECK(from_cache);
    CHECK(second.ok);
    CHECK(second.seconds == 0);
    CHECK(second.ptx == first.ptx);
    CHECK(second.lowered == first.lowered);

    // Cut short: ignored, compiled again and rewritten.
    const auto full = fs::file_size(path);
    fs::resize_file(path, full / 2);
    const ptx::CompileResult third = cached_compile(req, dir.string(), &from_cache);
    CHECK_FALSE(from_cache);
    CHECK(third.ok);
    CHECK(third.lowered.size() == first.lowered.size());
    CHECK(fs::file_size(path) > full / 2);
    cached_compile(req, dir.string(), &from_cache);
    CHECK(from_cache);

    // A byte flipped inside the key (as a hash collision or a stale header would look): ignored.
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        f.put('#');
    }
    cached_compile(req, dir.string(), &from_cache);
    CHECK_FALSE(from_cache);

    // Another request's entry under this request's name: its key differs, so it is not used.
    ptx::CompileRequest other = req;
    other.options.push_back("-DOTHER=1");
    cached_compile(other, dir.string(), &from_cache);
    CHECK_FALSE(from_cache);
    fs::copy_file(cache_entry_path(other, dir.string()), path,
                  fs::copy_options::overwrite_existing);
    const ptx::CompileResult fourth = cached_compile(req, dir.string(), &from_cache);
    CHECK_FALSE(from_cache);
    CHECK(fourth.ok);

    // No temporary files are left behind. (The bound and its eviction: tests/core/test_disk_cache.cpp.)
    for (const auto& e : fs::directory_iterator(dir)) CHECK(e.path().extension() == ".entry");

    // No directory: no cache, still PTX.
    cached_compile(req, "", &from_cache);
    CHECK_FALSE(from_cache);
    fs::remove_all(dir);
}

TEST_CASE("the cache key covers every part of the request", "[nvrtc][cache]") {
    // Each part changed alone gives another entry: nothing that changes NVRTC's output is left out.
    using namespace lab_ptx_detail;
    const ptx::CompileRequest req = family_request(KernelId::tiled, Precision::f32);
    REQUIRE_FALSE(req.headers.empty());
    const std::string dir = fresh_dir("cache-key").string();
    const std::string base = cache_entry_path(req, dir);
    CHECK(cache_entry_path(family_request(KernelId::tiled, Precision::f32), dir) == base);
    std::vector<std::pair<const char*, ptx::CompileRequest>> changed;
    auto with = [&](const char* what, auto change) {
        ptx::CompileRequest r = req;
        change(r);
        changed.emplace_back(what, r);
    };
    with("an option", [](auto& r) { r.options.push_back("-DX=1"); });
    with("the source", [](auto& r) { r.source += " "; });
    with("the file name", [](auto& r) { r.name = "other.cu"; });
    with("a header's text", [](auto& r) { r.headers.back().text += "\n"; });
    with("a header's name", [](auto& r) { r.headers.back().name += "x"; });
    with("a header more", [](auto& r) { r.headers.push_back({"extra.h", ""}); });
    with("a name expression", [](auto& r) { r.name_expressions.pop_back(); });
    // Two fields' bytes moved across their border: each field is length-prefixed.
    with("bytes moved between fields", [](auto& r) {
        r.name += r.source.substr(0, 1);
        r.source.erase(0, 1);
    });
    for (const auto& [what, r] : changed) {
        CAPTURE(what);
        CHECK(cache_entry_path(r, dir) != base);
    }
    fs::remove_all(dir);
}

TEST_CASE("the cache directory comes from the environment", "[nvrtc][cache]") {
    const fs::path dir = fresh_dir("cache-env");
    const char* old = std::getenv("STENCIL_LAB_CACHE_DIR");
    const std::string saved = old ? old : "";
    setenv("STENCIL_LAB_CACHE_DIR", (dir / "a" / "b").c_str(), 1);
    CHECK(lab_ptx_detail::default_cache_dir() == (dir / "a" / "b" / "ptx").string());
    CHECK(fs::is_directory(dir / "a" / "b" / "ptx"));
    setenv("STENCIL_LAB_CACHE_DIR", "/proc/no-cache-here", 1);  // cannot be written: no cache
    CHECK(lab_ptx_detail::default_cache_dir().empty());
    if (old)
        setenv("STENCIL_LAB_CACHE_DIR", saved.c_str(), 1);
    else
        unsetenv("STENCIL_LAB_CACHE_DIR");
    fs::remove_all(dir);
}
