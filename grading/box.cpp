#include "grading/box.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace stencil::grading {

namespace {

std::string first_line(const std::string& path) {
    std::ifstream f(path);
    std::string s;
    std::getline(f, s);
    return s;
}

// This process's cgroup folder for a controller (v1: "4:memory:/x"; v2: "0::/x").
std::string cgroup_dir(const std::string& controller) {
    std::ifstream f("/proc/self/cgroup");
    std::string line;
    while (std::getline(f, line)) {
        const auto a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        const std::string names = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        if (controller.empty()) {
            if (names.empty()) return "/sys/fs/cgroup" + path;
            continue;
        }
        std::istringstream list(names);  // "cpu,cpuacct"
        for (std::string n; std::getline(list, n, ',');)
            if (n == controller) return "/sys/fs/cgroup/" + controller + path;
    }
    return {};
}

long long number_or(const std::string& s, long long fallback) {
    try {
        size_t used = 0;
        const long long v = std::stoll(s, &used);
        return used == s.size() ? v : fallback;
    } catch (...) {
        return fallback;
    }
}

}  // namespace

std::string BoxLimits::describe() const {
    std::string m = memory_bytes > 0 ? fmt::format("{} MB", memory_bytes >> 20) : "unknown memory";
    std::string c = cpus > 0 ? fmt::format("{:g} CPU", cpus) : "unknown CPUs";
    return m + ", " + c;
}

BoxLimits read_box_limits() {
    BoxLimits b;
    const long long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    b.memory_bytes = pages > 0 && page > 0 ? pages * page : 0;
    b.cpus = std::thread::hardware_concurrency();
    // cgroup v2: memory.max and cpu.max ("max 100000" or "50000 100000") in the unified tree
    if (const std::string v2 = cgroup_dir(""); !v2.empty()) {
        const long long mem = number_or(first_line(v2 + "/memory.max"), 0);
        if (mem > 0 && (b.memory_bytes == 0 || mem < b.memory_bytes)) b.memory_bytes = mem;
        std::istringstream cpu(first_line(v2 + "/cpu.max"));
        std::string quota, period;
        cpu >> quota >> period;
        const long long q = number_or(quota, 0), p = number_or(period, 0);
        if (q > 0 && p > 0) b.cpus = std::min(b.cpus, double(q) / double(p));
    }
    // cgroup v1: memory.limit_in_bytes, cpu.cfs_quota_us / cpu.cfs_period_us
    if (const std::string m = cgroup_dir("memory"); !m.empty()) {
        const long long mem = number_or(first_line(m + "/memory.limit_in_bytes"), 0);
        if (mem > 0 && mem < (1LL << 60) && (b.memory_bytes == 0 || mem < b.memory_bytes)) b.memory_bytes = mem;
    }
    if (const std::string c = cgroup_dir("cpu"); !c.empty()) {
        const long long q = number_or(first_line(c + "/cpu.cfs_quota_us"), -1);
        const long long p = number_or(first_line(c + "/cpu.cfs_period_us"), 0);
        if (q > 0 && p > 0) b.cpus = std::min(b.cpus, double(q) / double(p));
    }
    return b;
}

}  // namespace stencil::grading
