// Runs a command line (the stencil-lab binary, under mpirun or alone) for the tests of
// tests/distributed/mpi and tests/distributed/gpu: exit code, stdout, stderr apart.
#pragma once
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace stencil::test {

struct Outcome {
    int rc = -1;
    std::string out, err;
};

inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

// The binary under test; STENCIL_LAB_BINARY_DIR in the environment says where a build that was
// moved to another machine now is (as tests/cli/run_cli.h reads it).
inline std::string stencil_lab_exe() {
    const char* moved = std::getenv("STENCIL_LAB_BINARY_DIR");
    return moved ? std::string(moved) + "/stencil-lab" : std::string(STENCIL_LAB_EXE);
}

inline Outcome run_command(const std::string& command) {
    char err_path[] = "/tmp/stencil-distributed-test-XXXXXX";
    const int fd = mkstemp(err_path);
    REQUIRE(fd >= 0);
    close(fd);
    Outcome o;
    FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
    REQUIRE(pipe);
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) o.out.append(buffer, n);
    const int status = pclose(pipe);
    o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream err(err_path);
    o.err.assign(std::istreambuf_iterator<char>(err), {});
    std::remove(err_path);
    return o;
}

// mpirun for the tests: CI may run as root, which OpenMPI refuses unless told; containers often
// forbid the cross-memory attach of its shared-memory transport, so plain copies are asked for.
// Each test process's mpirun keeps its session files under a folder of its own: two mpiruns that
// start at once (ctest -j) both create OpenMPI's shared default folder, and one of them fails.
inline std::string mpirun_prefix(const char* mpiexec, int ranks) {
    const std::string session = "/tmp/stencil-lab-ompi-" + std::to_string(getpid());
    return "mkdir -p " + session + " && OMPI_MCA_orte_tmpdir_base=" + session +
           " OMPI_MCA_btl_vader_single_copy_mechanism=none " + mpiexec + " --oversubscribe" +
           (getuid() == 0 ? " --allow-run-as-root" : "") + " -np " + std::to_string(ranks) + " ";
}

// Refused under mpirun: exit 2, nothing on stdout, and exactly one line of ours on stderr, naming
// `why` (mpirun adds its own notice; every rank refusing alike still prints one line).
inline void require_one_refusal(const Outcome& o, const std::string& why) {
    CAPTURE(o.out, o.err);
    REQUIRE(o.rc == 2);
    REQUIRE(lines_of(o.out).empty());
    int ours = 0;
    for (const std::string& line : lines_of(o.err))
        if (line.rfind("stencil-lab: ", 0) == 0) {
            ++ours;
            REQUIRE(line.find(why) != std::string::npos);
        }
    REQUIRE(ours == 1);
}

}  // namespace stencil::test
