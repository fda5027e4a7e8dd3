// CUDA C++ to PTX with NVRTC (nvrtc_ptx.h).
#include "backends/cpu/ptx/nvrtc_ptx.h"

#include <nvrtc.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <map>

#include "backends/cpu/ptx/engine.h"  // ptx::Error

namespace ptx {

namespace {

// One nvrtcProgram, destroyed on every path (NVRTC programs are independent of each other, so
// concurrent compiles on several threads need no lock).
struct Program {
    nvrtcProgram p = nullptr;
    ~Program() {
        if (p) nvrtcDestroyProgram(&p);
    }
};

[[noreturn]] void fail(const char* call, nvrtcResult r, const std::string& log = {}) {
    std::string msg = std::string("NVRTC: ") + call + " failed: " + nvrtcGetErrorString(r);
    if (!log.empty()) msg += ": " + log;
    throw Error(msg);
}

void trim_end(std::string& s, bool newlines) {
    while (!s.empty() && (s.back() == '\0' || (newlines && (s.back() == '\n' || s.back() == '\r'))))
        s.pop_back();
}

// NVRTC names every file in `.file` as <working directory>/<name> (the directory as $PWD spells it
// when that is the working directory, else getcwd's), although the program and its headers only
// exist in memory. Writing them back as the request named them keeps the PTX the same whatever
// directory a process runs in (the lab's disk cache relies on it) and gives the engine the names
// the caller knows ("kernels/tiled.cuh", "student.cu").
std::string restore_file_names(std::string ptx, const CompileRequest& req) {
    std::vector<std::string> dirs;
    if (const char* pwd = std::getenv("PWD"); pwd && pwd[0] == '/') dirs.emplace_back(pwd);
    if (char buf[4096]; getcwd(buf, sizeof buf)) dirs.emplace_back(buf);
    std::map<std::string, std::string> absolute_to_name;
    auto add = [&](const std::string& name) {
        if (name.empty() || name[0] == '/') return;  // absolute names are written as they are
        for (const auto& d : dirs)
            absolute_to_name.emplace((d.back() == '/' ? d : d + '/') + name, name);
    };
    add(req.name);
    for (const auto& h : req.headers) add(h.name);
    if (absolute_to_name.empty()) return ptx;

    // `.file` lines look like: <tab>.file<tab>1 "/dir/kernels/tiled.cuh"
    std::string out;
    out.reserve(ptx.size());
    std::size_t pos = 0;
    while (pos < ptx.size()) {
        std::size_t end = ptx.find('\n', pos);
        end = end == std::string::npos ? ptx.size() : end + 1;
        std::string_view line(ptx.data() + pos, end - pos);
        const std::size_t q1 = line.find('"'), q2 = q1 == line.npos ? q1 : line.find('"', q1 + 1);
        if (line.starts_with("\t.file\t") && q2 != line.npos) {
            const std::string path(line.substr(q1 + 1, q2 - q1 - 1));
            if (auto it = absolute_to_name.find(path); it != absolute_to_name.end()) {
                out.append(line.substr(0, q1 + 1)).append(it->second).append(line.substr(q2));
                pos = end;
                continue;
            }
        }
        out.append(line);
        pos = end;
    }
    return out;
}

// ptxas's -v report, taken out of NVRTC's log: "ptxas info    : Function properties for NAME"
// then "ptxas         .     40 bytes stack frame, ..." gives NAME's frame; every "ptxas info" and
// report line is dropped (the log is for the student's errors).
std::string take_stack_frames(const std::string& log, std::vector<std::pair<std::string, long long>>& frames) {
    std::string kept, function;
    std::size_t pos = 0;
    while (pos < log.size()) {
        std::size_t end = log.find('\n', pos);
        if (end == std::string::npos) end = log.size();
        const std::string_view line(log.data() + pos, end - pos);
        pos = end + 1;
        const std::string_view props = "Function properties for ";
        if (line.starts_with("ptxas info")) {
            if (const auto at = line.find(props); at != line.npos) function = std::string(line.substr(at + props.size()));
            continue;
        }
        if (line.starts_with("ptxas         .")) {
            if (const auto at = line.find(" bytes stack frame"); at != line.npos && !function.empty()) {
                std::size_t b = at;
                while (b > 0 && std::isdigit((unsigned char)line[b - 1])) --b;
                frames.emplace_back(function, std::stoll(std::string(line.substr(b, at - b))));
            }
            continue;
        }
        kept.append(line).push_back('\n');
    }
    trim_end(kept, true);
    return kept;
}

}  // namespace

std::string CompileResult::lowered_name(const std::string& expression) const {
    for (const auto& [expr, name] : lowered)
        if (expr == expression) return name;
    return {};
}

std::vector<std::string> fixed_options() {
    return {"--gpu-architecture=compute_90", "-lineinfo", "--std=c++17"};
}

std::string nvrtc_version() {
    int major = 0, minor = 0;
    if (nvrtcResult r = nvrtcVersion(&major, &minor); r != NVRTC_SUCCESS) fail("nvrtcVersion", r);
    return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult compile_to_ptx(const CompileRequest& req) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<const char*> texts, names;
    for (const auto& h : req.headers) {
        texts.push_back(h.text.c_str());
        names.push_back(h.name.c_str());
    }
    Program prog;
    if (nvrtcResult r = nvrtcCreateProgram(&prog.p, req.source.c_str(), req.name.c_str(),
                                           (int)texts.size(), texts.data(), names.data());
        r != NVRTC_SUCCESS)
        fail("nvrtcCreateProgram", r);
    for (const auto& e : req.name_expressions)
        if (nvrtcResult r = nvrtcAddNameExpression(prog.p, e.c_str()); r != NVRTC_SUCCESS)
            fail("nvrtcAddNameExpression", r);

    std::vector<std::string> options = fixed_options();
    if (req.cubin) {
        options[0] = "--gpu-architecture=sm_90";
        options.push_back("--ptxas-options=-v");  // each function's stack frame, in the log
    }
    options.insert(options.end(), req.options.begin(), req.options.end());
    std::vector<const char*> argv;
    for (const auto& o : options) argv.push_back(o.c_str());
    const nvrtcResult res = nvrtcCompileProgram(prog.p, (int)argv.size(), argv.data());

    CompileResult out;
    std::size_t n = 0;
    if (nvrtcGetProgramLogSize(prog.p, &n) == NVRTC_SUCCESS && n > 0) {
        out.log.resize(n);
        if (nvrtcGetProgramLog(prog.p, out.log.data()) != NVRTC_SUCCESS) out.log.clear();
    }
    trim_end(out.log, true);
    if (req.cubin) out.log = take_stack_frames(out.log, out.stack_frames);
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    // A fault in the source, a name expression that names nothing, or an option NVRTC does not
    // know: the log says which, and the caller reports it (it is not NVRTC failing).
    if (res == NVRTC_ERROR_COMPILATION || res == NVRTC_ERROR_INVALID_OPTION) {
        out.seconds = seconds();
        return out;
    }
    if (res != NVRTC_SUCCESS) fail("nvrtcCompileProgram", res, out.log);

    if (nvrtcResult r = nvrtcGetPTXSize(prog.p, &n); r != NVRTC_SUCCESS) fail("nvrtcGetPTXSize", r);
    out.ptx.resize(n);
    if (nvrtcResult r = nvrtcGetPTX(prog.p, out.ptx.data()); r != NVRTC_SUCCESS)
        fail("nvrtcGetPTX", r);
    trim_end(out.ptx, false);  // the size counts the terminating NUL
    out.ptx = restore_file_names(std::move(out.ptx), req);
    if (req.cubin) {
        if (nvrtcResult r = nvrtcGetCUBINSize(prog.p, &n); r != NVRTC_SUCCESS) fail("nvrtcGetCUBINSize", r);
        out.cubin.resize(n);
        if (nvrtcResult r = nvrtcGetCUBIN(prog.p, reinterpret_cast<char*>(out.cubin.data())); r != NVRTC_SUCCESS)
            fail("nvrtcGetCUBIN", r);
    }

    for (const auto& e : req.name_expressions) {
        const char* lowered = nullptr;
        if (nvrtcGetLoweredName(prog.p, e.c_str(), &lowered) == NVRTC_SUCCESS && lowered &&
            out.lowered_name(e).empty())
            out.lowered.emplace_back(e, lowered);
    }
    out.ok = true;
    out.seconds = seconds();
    return out;
}

}  // namespace ptx
