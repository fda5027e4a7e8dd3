// The lab's kernels as PTX (lab_ptx.h).
//
// Why whole families, cached in memory and on disk. NVRTC's wall time on the 2-core CI machine
// (CUDA 13.0, compute_90, -lineinfo; fresh processes, NVRTC's start-up included):
//   one instantiation, any kernel                                  0.05 s
//   one family: every built (T, r) of one kernel in one precision
//     naive 4, tiled 20, coarsened 41-44, register-tiled 44 instantiations: 0.07, 0.22, 0.9, 0.85 s
//   all 8 families, 221 instantiations                             4.1 s (11 s one at a time)
//   the same 221 from the warm disk cache, split per entry          0.04-0.07 s
// Each program costs ~40 ms of front end and headers, each instantiation 10-20 ms more, so a family
// costs about a third of its instantiations compiled one by one, and one program for everything
// would gain nothing over the 8 families. The tests sweep every (T, r, precision) of a kernel, and
// each ctest case is its own process: the disk cache makes the compile a once-per-machine cost.
// Compiling everything at build time would save the suite only those ~4 s once, and would cost
// every build that touches kernels/ the same.
//
// Disk cache (core/disk_cache.h: location, SHA-256 names, LRU bound): one entry per family. Its
// key is everything NVRTC's output depends on: the libnvrtc and libnvrtc-builtins this process
// loads (file, size, time: a toolkit's patch release keeps the version and the file names), every
// option, the source, every header's name and text, the name expressions, and this file's own
// payload format. The entry holds the key and is used only when it is byte-equal, so a stale
// entry is a miss, never wrong PTX. Only successful compiles are stored.
#include "backends/cpu/ptx/lab_ptx.h"

#include <dlfcn.h>
#include <nvrtc.h>  // nvrtcVersion: which libnvrtc this process runs
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>

#include "backends/cpu/ptx/engine.h"  // ptx::Error
#include "core/disk_cache.h"
#include "core/error.h"

namespace stencil {
namespace lab_ptx_detail {

namespace fs = std::filesystem;

// An instantiation's (T, r, K): T = 0 for a kernel without a T parameter (naive), K the steps
// a launch fuses (1 for the kernels of one step, which have no K parameter).
using InstanceKey = std::tuple<int, int, int>;

namespace {

// Bumped whenever encode_result's layout changes (it is part of the key).
constexpr const char* kPayloadFormat = "lab_ptx family 2";

const char* real_name(Precision p) { return p == Precision::f32 ? "float" : "double"; }

// "kernels/register_tiled.cuh" -> "register_tiled"
std::string stem(KernelId k) { return fs::path(version(k).source_file).stem().string(); }

// The template arguments of every instantiation a family holds: exactly what kernels/dispatch.h
// (and, for K, backends/cuda/launch_unit.cuh) instantiates for the CUDA backend.
std::map<InstanceKey, std::string> instantiations(KernelId k, Precision p) {
    const std::string real = real_name(p);
    std::map<InstanceKey, std::string> out;
    for (int r = 1; r <= kMaxRadius; ++r) {
        if (!version(k).tile_is_template) {  // T is only the block edge: one instantiation
            out[{0, r, 1}] = "<" + real + ", " + std::to_string(r) + ">";
            continue;
        }
        for (int t : built_tiles()) {
            if (!tile_fits(k, t, r, bytes_of(p))) continue;
            const std::string tr = "<" + real + ", " + std::to_string(t) + ", " + std::to_string(r);
            if (version(k).max_fused_steps <= 1) {
                out[{t, r, 1}] = tr + ">";
                continue;
            }
            for (int K = 1; K <= version(k).max_fused_steps; ++K)
                if (!fuse_error(k, t, r, K)) out[{t, r, K}] = tr + ", " + std::to_string(K) + ">";
        }
    }
    return out;
}

std::string kernel_expression(KernelId k, const std::string& args) {
    return "stencil::" + std::string(version(k).kernel) + args;
}
// The constant array the kernel reads its weights from (WeightLayout in kernels/versions.h).
std::string coefficients_expression(KernelId k, Precision p) {
    const bool f32 = p == Precision::f32;
    if (version(k).weights == WeightLayout::dense_cube)
        return f32 ? "&stencil::c_dense_weights_f32" : "&stencil::c_dense_weights_f64";
    return f32 ? "&stencil::c_coefficients_f32" : "&stencil::c_coefficients_f64";
}

// ---- the disk cache ---------------------------------------------------------------------------

// A shared library's identity for the key: its file, size and modification time.
std::string file_identity(const fs::path& p) {
    std::error_code ec;
    const fs::path real = fs::canonical(p, ec);
    struct stat st {};
    if (ec || stat(real.c_str(), &st) != 0) return "? " + p.string();
    return real.string() + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
}

// The libnvrtc this process runs and the libnvrtc-builtins it loads beside it (NVRTC dlopens
// "libnvrtc-builtins.so.MAJOR.MINOR" when it compiles; the toolkit ships it next to libnvrtc).
// nvrtcVersion says only "13.0", and a patch release of the toolkit (same file names) may emit
// other PTX.
std::string nvrtc_libraries() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) || !info.dli_fname) return "?";
    const fs::path lib = info.dli_fname;
    const fs::path builtins = lib.parent_path() / ("libnvrtc-builtins.so." + ptx::nvrtc_version());
    return file_identity(lib) + "\n" + file_identity(builtins);
}

// Length-prefixed fields: "<tag> <size>\n<bytes>\n". Used for the key text (no two requests share
// one) and for the payload.
void put_field(std::string& out, std::string_view tag, std::string_view bytes) {
    out.append(tag).append(" ").append(std::to_string(bytes.size())).append("\n");
    out.append(bytes).append("\n");
}

// Everything the compile's output depends on.
std::string key_text(const ptx::CompileRequest& req) {
    static const std::string libraries = nvrtc_libraries();
    std::string key;
    put_field(key, "format", kPayloadFormat);
    put_field(key, "nvrtc", ptx::nvrtc_version());
    put_field(key, "libraries", libraries);
    for (const auto& o : ptx::fixed_options()) put_field(key, "option", o);
    for (const auto& o : req.options) put_field(key, "option", o);
    put_field(key, "name", req.name);
    put_field(key, "source", req.source);
    for (const auto& h : req.headers) {
        put_field(key, "header", h.name);
        put_field(key, "text", h.text);
    }
    for (const auto& e : req.name_expressions) put_field(key, "expression", e);
    return key;
}

struct Reader {
    std::string_view rest;
    // The next field if its tag is `tag` and it is complete.
    std::optional<std::string_view> get(std::string_view tag) {
        const std::size_t nl = rest.find('\n');
        if (nl == rest.npos || !rest.starts_with(tag) || nl <= tag.size() + 1 ||
            rest[tag.size()] != ' ')
            return std::nullopt;
        std::size_t size = 0;
        for (char c : rest.substr(tag.size() + 1, nl - tag.size() - 1)) {
            if (c < '0' || c > '9' || size > rest.size()) return std::nullopt;
            size = size * 10 + std::size_t(c - '0');
        }
        if (size > rest.size() - nl - 1 || rest.size() - nl - 1 - size < 1 ||
            rest[nl + 1 + size] != '\n')
            return std::nullopt;
        std::string_view bytes = rest.substr(nl + 1, size);
        rest.remove_prefix(nl + 2 + size);
        return bytes;
    }
};

// A successful compile as a payload: ptx, log, then one expression/lowered pair per name
// expression, then "end".
std::string encode_result(const ptx::CompileResult& res) {
    std::string data;
    put_field(data, "ptx", res.ptx);
    put_field(data, "log", res.log);
    for (const auto& [e, lowered] : res.lowered) {
        put_field(data, "expression", e);
        put_field(data, "lowered", lowered);
    }
    put_field(data, "end", "");
    return data;
}

std::optional<ptx::CompileResult> decode_result(std::string_view payload) {
    Reader r{payload};
    const auto text = r.get("ptx");
    const auto log = r.get("log");
    if (!text || !log) return std::nullopt;
    ptx::CompileResult res;
    res.ok = true;
    res.ptx = *text;
    res.log = *log;
    while (auto e = r.get("expression")) {
        const auto lowered = r.get("lowered");
        if (!lowered) return std::nullopt;
        res.lowered.emplace_back(std::string(*e), std::string(*lowered));
    }
    if (!r.get("end") || !r.rest.empty()) return std::nullopt;
    return res;
}

}  // namespace

std::string cache_entry_path(const ptx::CompileRequest& req, const std::string& dir) {
    return DiskCache(dir, cache_max_bytes()).entry_path(key_text(req));
}

ptx::CompileResult cached_compile(const ptx::CompileRequest& req, const std::string& dir,
                                  bool* from_cache) {
    if (from_cache) *from_cache = false;
    const DiskCache cache(dir, cache_max_bytes());
    if (!cache.enabled()) return ptx::compile_to_ptx(req);
    const std::string key = key_text(req);
    if (const auto payload = cache.get(key))
        if (auto hit = decode_result(*payload)) {
            if (from_cache) *from_cache = true;
            return *hit;
        }
    ptx::CompileResult res = ptx::compile_to_ptx(req);
    if (res.ok) cache.put(key, encode_result(res));
    return res;
}

std::string default_cache_dir() {
    const DiskCache cache = DiskCache::for_kind("ptx");
    // Once per process: the cache being off (or a malformed bound) is worth a line, not a failure.
    static std::once_flag said;
    if (!cache.note().empty())
        std::call_once(said, [&] { std::fprintf(stderr, "stencil-lab: note: %s\n", cache.note().c_str()); });
    return cache.enabled() ? cache.dir().string() : "";
}

ptx::CompileRequest family_request(KernelId k, Precision p) {
    ptx::CompileRequest req;
    req.name = "lab_" + stem(k) + ".cu";
    req.source = std::string("#include \"") + version(k).source_file + "\"\n";
    for (int i = 0; i < kEmbeddedHeaderCount; ++i)
        req.headers.push_back({kEmbeddedHeaders[i].name, kEmbeddedHeaders[i].text});
    for (const auto& [tr, args] : instantiations(k, p))
        req.name_expressions.push_back(kernel_expression(k, args));
    req.name_expressions.push_back(coefficients_expression(k, p));
    // Only the embedded headers, never a file that happens to sit in the working directory.
    req.options = {"--no-source-include"};
    return req;
}

std::string only_entry(const std::string& ptx, const std::string& entry) {
    // NVRTC writes each kernel as "[.weak|.visible ].entry NAME(" ... "}" at column 0. Between
    // them, after the header, it writes comments about every entry ("// .weak NAME", "// ...
    // has been demoted"): they go too, so that the module reads as if compiled alone.
    std::string out;
    out.reserve(ptx.size());
    bool found = false, keeping = false, skipping = false, after_header = false;
    std::size_t pos = 0;
    while (pos < ptx.size()) {
        std::size_t end = ptx.find('\n', pos);
        end = end == std::string::npos ? ptx.size() : end + 1;
        const std::string_view line(ptx.data() + pos, end - pos);
        pos = end;
        if (keeping || skipping) {  // inside a definition: up to its closing brace
            if (keeping) out.append(line);
            if (line.starts_with("}")) keeping = skipping = false;
            continue;
        }
        if (line.starts_with(".version")) after_header = true;
        const std::size_t text = line.find_first_not_of(" \t");
        if (after_header && text != line.npos && line.substr(text).starts_with("//")) continue;
        if (line[0] != '\t' && line[0] != '/') {
            if (const std::size_t e = line.find(".entry "); e != line.npos) {
                std::string_view name = line.substr(e + 7);
                name = name.substr(0, name.find_first_of("( \t\n"));
                found |= keeping = name == entry;
                skipping = !keeping;
                if (skipping) continue;
            }
        }
        out.append(line);
    }
    return found ? out : ptx;
}

}  // namespace lab_ptx_detail

namespace {

// One (kernel, precision) family: compiled once (its own lock, so that two families compile at
// once on two threads), then one LabPtx per instantiation asked for.
struct Family {
    std::mutex m;
    bool compiled = false;
    ptx::CompileResult result;
    double seconds = 0;  // for the first LabPtx made from it; 0 from the disk
    std::map<lab_ptx_detail::InstanceKey, std::unique_ptr<LabPtx>> made;
};

}  // namespace

const LabPtx& lab_ptx(KernelId k, int tile, int radius, Precision p, int fused) {
    using namespace lab_ptx_detail;
    if (auto err = tile_error(k, tile, radius, p)) throw UserError(*err);
    if (auto err = fuse_error(k, tile, radius, fused)) throw UserError(*err);

    static std::mutex families_m;
    static std::map<std::pair<KernelId, Precision>, std::unique_ptr<Family>> families;
    Family* fam;
    {
        std::lock_guard lock(families_m);
        auto& f = families[{k, p}];
        if (!f) f = std::make_unique<Family>();
        fam = f.get();
    }

    std::lock_guard lock(fam->m);
    if (!fam->compiled) {
        static const std::string dir = default_cache_dir();
        const ptx::CompileRequest req = family_request(k, p);
        bool from_cache = false;
        fam->result = cached_compile(req, dir, &from_cache);
        if (!fam->result.ok)
            throw ptx::Error(std::string("NVRTC could not compile the lab's ") +
                             version(k).source_file + " (" + std::string(to_string(p)) +
                             "): " + fam->result.log);
        fam->seconds = from_cache ? 0 : fam->result.seconds;
        fam->compiled = true;
    }
    const InstanceKey key{version(k).tile_is_template ? tile : 0, radius, fused};
    auto& made = fam->made[key];
    if (!made) {
        auto out = std::make_unique<LabPtx>();
        out->entry = fam->result.lowered_name(kernel_expression(k, instantiations(k, p).at(key)));
        out->coefficients_symbol = fam->result.lowered_name(coefficients_expression(k, p));
        if (out->entry.empty() || out->coefficients_symbol.empty())
            throw ptx::Error(std::string("NVRTC gave no lowered name for an instantiation of ") +
                             version(k).source_file);
        out->ptx = only_entry(fam->result.ptx, out->entry);
        out->source_file = version(k).source_file;
        out->compile_seconds = std::exchange(fam->seconds, 0.0);
        made = std::move(out);
    }
    return *made;
}

}  // namespace stencil
