#include "backends/cpu/registers_cubin.h"

#include <nvrtc.h>

#include "backends/cpu/ptx/engine.h"  // ptx::Error

namespace stencil {

namespace {
struct Program {
    nvrtcProgram p = nullptr;
    ~Program() {
        if (p) nvrtcDestroyProgram(&p);
    }
};
void need(nvrtcResult r, const char* call) {
    if (r != NVRTC_SUCCESS) throw ptx::Error(std::string("NVRTC: ") + call + " failed: " + nvrtcGetErrorString(r));
}
}  // namespace

std::string CubinResult::lowered_name(const std::string& expression) const {
    for (const auto& [e, name] : lowered)
        if (e == expression) return name;
    return {};
}

CubinResult compile_to_cubin(const ptx::CompileRequest& req, const std::string& arch) {
    std::vector<const char*> texts, names;
    for (const auto& h : req.headers) texts.push_back(h.text.c_str()), names.push_back(h.name.c_str());
    Program prog;
    need(nvrtcCreateProgram(&prog.p, req.source.c_str(), req.name.c_str(), (int)texts.size(), texts.data(),
                            names.data()),
         "nvrtcCreateProgram");
    for (const auto& e : req.name_expressions) need(nvrtcAddNameExpression(prog.p, e.c_str()), "nvrtcAddNameExpression");
    std::vector<std::string> options = {"--gpu-architecture=" + arch, "--std=c++17"};
    options.insert(options.end(), req.options.begin(), req.options.end());
    std::vector<const char*> argv;
    for (const auto& o : options) argv.push_back(o.c_str());
    const nvrtcResult res = nvrtcCompileProgram(prog.p, (int)argv.size(), argv.data());

    CubinResult out;
    std::size_t n = 0;
    if (nvrtcGetProgramLogSize(prog.p, &n) == NVRTC_SUCCESS && n > 1) {
        out.log.resize(n);
        if (nvrtcGetProgramLog(prog.p, out.log.data()) != NVRTC_SUCCESS) out.log.clear();
        while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
    }
    if (res == NVRTC_ERROR_COMPILATION || res == NVRTC_ERROR_INVALID_OPTION) return out;
    need(res, "nvrtcCompileProgram");
    need(nvrtcGetCUBINSize(prog.p, &n), "nvrtcGetCUBINSize");
    out.cubin.resize(n);
    need(nvrtcGetCUBIN(prog.p, reinterpret_cast<char*>(out.cubin.data())), "nvrtcGetCUBIN");
    for (const auto& e : req.name_expressions) {
        const char* lowered = nullptr;
        if (nvrtcGetLoweredName(prog.p, e.c_str(), &lowered) == NVRTC_SUCCESS && lowered)
            out.lowered.emplace_back(e, lowered);
    }
    out.ok = !out.cubin.empty();
    return out;
}

}  // namespace stencil
