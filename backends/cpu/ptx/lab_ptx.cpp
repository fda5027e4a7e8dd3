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
// Disk cache: one file per family, named by a 64-bit FNV-1a hash of the key text (NVRTC version and
// library file, every option, source, every header's text, name expressions). It holds the key and
// is used only when it is byte-equal, so a collision or a stale entry is a miss, never wrong PTX.
// Entries are written to a temporary file and renamed (two test processes may write one entry at
// once), touched when used, and the least recently used go when the directory passes 256 MiB.
#include "backends/cpu/ptx/lab_ptx.h"

#include <dlfcn.h>
#include <nvrtc.h>  // nvrtcVersion: which libnvrtc this process runs
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "backends/cpu/ptx/engine.h"  // ptx::Error
#include "core/error.h"

namespace stencil {
namespace lab_ptx_detail {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "stencil-lab ptx cache 1\n";
constexpr std::uintmax_t kCacheBytes = 256ull << 20;
constexpr const char* kEntryExt = ".ptxc";

const char* real_name(Precision p) { return p == Precision::f32 ? "float" : "double"; }

// "kernels/register_tiled.cuh" -> "register_tiled"
std::string stem(KernelId k) { return fs::path(version(k).source_file).stem().string(); }

// The template arguments of every instantiation a family holds, keyed by (T, r) (T = 0 for the
// naive kernel): exactly what kernels/dispatch.h instantiates for the CUDA backend.
std::map<std::pair<int, int>, std::string> instantiations(KernelId k, Precision p) {
    const std::string real = real_name(p);
    const std::string pointers = ", const " + real + "*, " + real + "*>";
    std::map<std::pair<int, int>, std::string> out;
    for (int r = 1; r <= kMaxRadius; ++r) {
        if (k == KernelId::naive) {
            out[{0, r}] = "<" + real + ", " + std::to_string(r) + pointers;
            continue;
        }
        for (int t : kBuiltTiles)
            if (tile_fits(k, t, r, bytes_of(p)))
                out[{t, r}] =
                    "<" + real + ", " + std::to_string(t) + ", " + std::to_string(r) + pointers;
    }
    return out;
}

std::string kernel_expression(KernelId k, const std::string& args) {
    return "stencil::stencil_" + stem(k) + "_kernel" + args;
}
std::string coefficients_expression(Precision p) {
    return p == Precision::f32 ? "&stencil::c_coefficients_f32" : "&stencil::c_coefficients_f64";
}

// ---- the disk cache ---------------------------------------------------------------------------

// The libnvrtc this process runs: its file, size and time. nvrtcVersion says only "13.0", and a
// patch release of the toolkit (same file name) may emit other PTX.
std::string nvrtc_library() {
    Dl_info info{};
    struct stat st {};
    if (!dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) || !info.dli_fname ||
        stat(info.dli_fname, &st) != 0)
        return "?";
    return std::string(info.dli_fname) + " " + std::to_string(st.st_size) + " " +
           std::to_string(st.st_mtime);
}

// Everything the compile's output depends on, each piece length-prefixed so that no two requests
// share a key text.
std::string key_text(const ptx::CompileRequest& req) {
    static const std::string library = nvrtc_library();
    std::string key;
    auto put = [&](std::string_view tag, std::string_view text) {
        key.append(tag).append(" ").append(std::to_string(text.size())).append("\n");
        key.append(text).append("\n");
    };
    put("nvrtc", ptx::nvrtc_version());
    put("library", library);
    for (const auto& o : ptx::fixed_options()) put("option", o);
    for (const auto& o : req.options) put("option", o);
    put("name", req.name);
    put("source", req.source);
    for (const auto& h : req.headers) {
        put("header", h.name);
        put("text", h.text);
    }
    for (const auto& e : req.name_expressions) put("expression", e);
    return key;
}

std::uint64_t fnv1a(std::string_view s) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

// An entry: the magic line, then fields "<tag> <size>\n<bytes>\n": key, ptx, log, and one
// expression/lowered pair per name expression, then "end 0\n\n".
void put_field(std::string& out, std::string_view tag, std::string_view bytes) {
    out.append(tag).append(" ").append(std::to_string(bytes.size())).append("\n");
    out.append(bytes).append("\n");
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

std::optional<ptx::CompileResult> read_entry(const std::string& path, const std::string& key) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return std::nullopt;
    const std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (!std::string_view(data).starts_with(kMagic)) return std::nullopt;
    Reader r{std::string_view(data).substr(std::string_view(kMagic).size())};
    const auto k = r.get("key");
    if (!k || *k != key) return std::nullopt;
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
    if (!r.get("end") || !r.rest.empty()) return std::nullopt;  // short or trailing garbage
    return res;
}

// Oldest-used entries go until the directory holds at most kCacheBytes; temporary files a killed
// writer left behind go after an hour. Every failure is ignored: the cache is only a cache.
void prune(const fs::path& dir) {
    std::error_code ec;
    struct Entry {
        fs::path path;
        fs::file_time_type used;
        std::uintmax_t bytes;
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    const auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        std::error_code e1, e2;
        const auto used = fs::last_write_time(p, e1);
        const auto bytes = fs::file_size(p, e2);
        if (e1 || e2) continue;
        if (p.filename().string().find(".tmp.") != std::string::npos) {
            if (now - used > std::chrono::hours(1)) fs::remove(p, ec);
        } else if (p.extension() == kEntryExt) {
            entries.push_back({p, used, bytes});
            total += bytes;
        }
    }
    std::sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.used < b.used; });
    for (const auto& e : entries) {
        if (total <= kCacheBytes) break;
        if (fs::remove(e.path, ec)) total -= e.bytes;
    }
}

void write_entry(const std::string& path, const std::string& key, const ptx::CompileResult& res) {
    std::string data = kMagic;
    put_field(data, "key", key);
    put_field(data, "ptx", res.ptx);
    put_field(data, "log", res.log);
    for (const auto& [e, lowered] : res.lowered) {
        put_field(data, "expression", e);
        put_field(data, "lowered", lowered);
    }
    put_field(data, "end", "");

    static std::atomic<int> counter{0};
    const std::string tmp =
        path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
    std::error_code ec;
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(data.data(), (std::streamsize)data.size());
        f.close();
        if (!f) {
            fs::remove(tmp, ec);
            return;
        }
    }
    fs::rename(tmp, path, ec);  // atomic: a reader sees the old entry or the new one, never half
    if (ec) {
        fs::remove(tmp, ec);
        return;
    }
    prune(fs::path(path).parent_path());
}

}  // namespace

std::string cache_entry_path(const ptx::CompileRequest& req, const std::string& dir) {
    char name[32];
    std::snprintf(name, sizeof name, "%016llx", (unsigned long long)fnv1a(key_text(req)));
    return (fs::path(dir) / (name + std::string(kEntryExt))).string();
}

ptx::CompileResult cached_compile(const ptx::CompileRequest& req, const std::string& dir,
                                  bool* from_cache) {
    if (from_cache) *from_cache = false;
    if (dir.empty()) return ptx::compile_to_ptx(req);
    const std::string key = key_text(req);
    const std::string path = cache_entry_path(req, dir);
    if (auto hit = read_entry(path, key)) {
        std::error_code ec;
        fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // recently used
        if (from_cache) *from_cache = true;
        return *hit;
    }
    ptx::CompileResult res = ptx::compile_to_ptx(req);
    if (res.ok) write_entry(path, key, res);
    return res;
}

std::string default_cache_dir() {
    std::vector<fs::path> candidates;
    if (const char* d = std::getenv("STENCIL_LAB_CACHE_DIR"); d && *d) {
        candidates.emplace_back(d);  // set: the only place (an unwritable one turns the cache off)
    } else {
        // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
        if (const char* x = std::getenv("XDG_CACHE_HOME"); x && x[0] == '/')
            candidates.push_back(fs::path(x) / "stencil-lab" / "ptx");
        if (const char* h = std::getenv("HOME"); h && h[0] == '/')
            candidates.push_back(fs::path(h) / ".cache" / "stencil-lab" / "ptx");
    }
    for (const auto& c : candidates) {
        std::error_code ec;
        fs::create_directories(c, ec);
        if (!ec && access(c.c_str(), W_OK | X_OK) == 0) return c.string();
    }
    return "";
}

ptx::CompileRequest family_request(KernelId k, Precision p) {
    ptx::CompileRequest req;
    req.name = "lab_" + stem(k) + ".cu";
    req.source = std::string("#include \"") + version(k).source_file + "\"\n";
    for (int i = 0; i < kEmbeddedHeaderCount; ++i)
        req.headers.push_back({kEmbeddedHeaders[i].name, kEmbeddedHeaders[i].text});
    for (const auto& [tr, args] : instantiations(k, p))
        req.name_expressions.push_back(kernel_expression(k, args));
    req.name_expressions.push_back(coefficients_expression(p));
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
    std::map<std::pair<int, int>, std::unique_ptr<LabPtx>> made;
};

}  // namespace

const LabPtx& lab_ptx(KernelId k, int tile, int radius, Precision p) {
    using namespace lab_ptx_detail;
    if (auto err = tile_error(k, tile, radius, p)) throw UserError(*err);

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
    const std::pair<int, int> key{k == KernelId::naive ? 0 : tile, radius};
    auto& made = fam->made[key];
    if (!made) {
        auto out = std::make_unique<LabPtx>();
        out->entry = fam->result.lowered_name(kernel_expression(k, instantiations(k, p).at(key)));
        out->coefficients_symbol = fam->result.lowered_name(coefficients_expression(p));
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
