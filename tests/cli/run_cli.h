// Runs the built `stencil-lab` as a subprocess for the CLI tests: exit code, stdout, stderr.
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cli_test {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out, err;
    double seconds = 0;  // wall-clock time of the whole run
    // The lines of stderr that are not empty.
    int err_lines() const {
        std::istringstream is(err);
        std::string l;
        int n = 0;
        while (std::getline(is, l))
            if (!l.empty()) ++n;
        return n;
    }
    std::string first_err_line() const { return err.substr(0, err.find('\n')); }
};

inline std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

inline const fs::path& binary() {
    // The environment may say where the build is when it was moved (a build carried to another
    // machine keeps this machine's absolute path in STENCIL_LAB_BINARY_DIR).
    static const fs::path p = fs::path(std::getenv("STENCIL_LAB_BINARY_DIR") ? std::getenv("STENCIL_LAB_BINARY_DIR")
                                                                             : STENCIL_LAB_BINARY_DIR) /
                              "stencil-lab";
    return p;
}

// Runs `stencil-lab ARGS` (simple words, no quoting needed) with stdout and stderr captured.
inline Result run(const std::string& args) {
    if (!fs::exists(binary())) FAIL("stencil-lab is not built at " << binary().string());
    static int counter = 0;  // one folder per call (and per process)
    const fs::path dir = fs::temp_directory_path() /
                         ("stencil_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir);
    const std::string cmd = binary().string() + " " + args + " >" + (dir / "out").string() + " 2>" +
                            (dir / "err").string();
    const auto t0 = std::chrono::steady_clock::now();
    const int status = std::system(cmd.c_str());
    Result r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r.out = slurp(dir / "out");
    r.err = slurp(dir / "err");
    fs::remove_all(dir);
    return r;
}

inline bool has_gpu() {
    static const bool gpu = [] {
        const Result r = run("info --json --copy-mib 16");
        return r.code == 0 && nlohmann::json::parse(r.out)["cuda"]["available"].get<bool>();
    }();
    return gpu;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace cli_test
