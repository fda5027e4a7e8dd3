#include "viewer/core/ptx_listing.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <tuple>

namespace stencil::viewer {

namespace {

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return {};
    const size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

// A line without its comment ("// ..."), trimmed.
std::string code_of(const std::string& line) {
    const size_t c = line.find("//");
    return trimmed(c == std::string::npos ? line : line.substr(0, c));
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// The opcode of a statement: its first word after a predicate guard ("@%p1 bra $L__BB0_2;" -> "bra").
std::string opcode_of(const std::string& statement) {
    std::istringstream in(statement);
    std::string w;
    in >> w;
    if (!w.empty() && w[0] == '@') in >> w;
    while (!w.empty() && (w.back() == ';' || w.back() == ',')) w.pop_back();
    return w;
}

// Floating-point operations of one execution: an fma (or PTX's mad on floats) is two, an add, a
// sub or a mul one; conversions, comparisons, min / max and moves none.
int flops_of(const std::string& op) {
    const bool fp = op.find(".f32") != std::string::npos || op.find(".f64") != std::string::npos;
    if (!fp) return 0;
    if (starts_with(op, "fma.") || starts_with(op, "mad.")) return 2;
    if (starts_with(op, "add.") || starts_with(op, "sub.") || starts_with(op, "mul.")) return 1;
    return 0;
}

// .file N "name" anywhere in the module.
std::map<int, std::string> file_table(const std::vector<std::string>& lines) {
    std::map<int, std::string> files;
    for (const auto& raw : lines) {
        const std::string c = code_of(raw);
        if (!starts_with(c, ".file")) continue;
        std::istringstream in(c.substr(5));
        int n = 0;
        if (!(in >> n)) continue;
        const size_t q0 = c.find('"'), q1 = c.find('"', q0 + 1);
        if (q0 != std::string::npos && q1 != std::string::npos) files[n] = c.substr(q0 + 1, q1 - q0 - 1);
    }
    return files;
}

}  // namespace

PtxListing ptx_listing(const std::string& ptx, const std::string& entry) {
    PtxListing l;
    l.entry = entry;
    std::vector<std::string> raw;
    {
        std::istringstream in(ptx);
        for (std::string s; std::getline(in, s);) raw.push_back(s);
    }
    const auto files = file_table(raw);
    size_t at = 0;
    while (at < raw.size() && !(raw[at].find(".entry") != std::string::npos && raw[at].find(entry) != std::string::npos))
        ++at;
    if (at == raw.size()) {
        l.error = "the PTX has no entry " + entry;
        return l;
    }
    while (at < raw.size() && code_of(raw[at]) != "{") ++at;  // past the parameter list
    int depth = 0, instruction = 0;
    std::string file;
    int line = 0;
    bool next_starts = true;
    std::string pending;  // a statement spread over lines (a call's operands)
    for (; at < raw.size(); ++at) {
        const std::string c = code_of(raw[at]);
        for (char ch : c) depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
        PtxLine p;
        p.text = trimmed(raw[at]);
        if (starts_with(c, ".loc")) {  // not shown: the highlight links the lines
            // An inlined function's code ("inlined_at F L C") belongs to the line that calls it.
            const size_t inl = c.find("inlined_at");
            std::istringstream in(inl == std::string::npos ? c.substr(4) : c.substr(inl + 10));
            int f = 0, n = 0;
            if (in >> f >> n) {
                const auto it = files.find(f);
                file = it == files.end() ? "" : it->second;
                line = n;
            }
            continue;
        } else if (!c.empty() && c.back() == ':') {
            next_starts = true;
            p.block_start = true;
        } else if (!pending.empty() || (!c.empty() && c[0] != '.' && c != "{" && c != "}" && c[0] != '{' && c[0] != '}')) {
            pending += (pending.empty() ? "" : " ") + c;
            if (!pending.empty() && pending.back() == ';') {
                p.instruction = instruction++;
                p.opcode = opcode_of(pending);
                p.flops = flops_of(p.opcode);
                p.block_start = next_starts;
                next_starts = starts_with(p.opcode, "bra") || starts_with(p.opcode, "ret") || starts_with(p.opcode, "exit");
                pending.clear();
            }
        }
        p.file = file;
        p.line = line;
        l.lines.push_back(std::move(p));
        if (depth == 0) break;  // the entry's closing brace
    }
    if (l.lines.empty()) l.error = "the entry " + entry + " has no body";
    return l;
}

std::vector<int> ptx_lines_of(const PtxListing& l, const std::string& file, int line) {
    std::vector<int> out;
    for (int i = 0; i < (int)l.lines.size(); ++i)
        if (l.lines[i].instruction >= 0 && l.lines[i].line == line && l.lines[i].file == file) out.push_back(i);
    return out;
}

std::vector<int> site_lines(const PtxListing& l, const std::vector<std::uintptr_t>& sites,
                            const std::vector<engine::ExecReport::SiteSource>& sources) {
    std::vector<int> by_instruction;
    for (int i = 0; i < (int)l.lines.size(); ++i)
        if (l.lines[i].instruction >= 0) by_instruction.push_back(i);
    std::vector<int> out(sites.size(), -1);
    for (size_t s = 0; s < sites.size(); ++s) {
        if (sites[s] >= by_instruction.size()) return {};
        const int at = by_instruction[sites[s]];
        if (s < sources.size() && !sources[s].instruction.empty() && sources[s].instruction != l.lines[at].opcode)
            return {};  // not the engine's numbering: better nothing than a wrong line
        out[s] = at;
    }
    return out;
}

std::map<int, LineCounts> counts_by_line(const PtxListing& l, const std::vector<int>& site_line,
                                         const std::vector<engine::Access>& acc,
                                         const std::vector<engine::ExecReport::SiteSource>& sources,
                                         const std::string& file) {
    std::map<int, LineCounts> out;
    // Accesses by their site's source line.
    for (const auto& a : acc) {
        if (a.site < 0 || a.site >= (int)sources.size() || sources[a.site].file != file) continue;
        LineCounts& c = out[sources[a.site].line];
        const bool load = a.op == engine::Op::load;
        if (a.space == engine::Space::global) (load ? c.global_loads : c.global_stores) += 1;
        else (load ? c.shared_loads : c.shared_stores) += 1;
    }
    // How often each straight-line run executed: the most (thread, interval, occurrence) executions of
    // any of its traced instructions (a predicated load runs for fewer threads than its run).
    std::map<int, std::set<std::tuple<int, int, int>>> runs_of_site;
    for (const auto& a : acc) runs_of_site[a.site].insert({a.thread, a.interval, a.occurrence});
    std::vector<int> run_of_line(l.lines.size(), -1);
    int run = -1;
    for (size_t i = 0; i < l.lines.size(); ++i) {
        if (l.lines[i].block_start) ++run;
        run_of_line[i] = std::max(run, 0);
    }
    std::map<int, long long> executions;  // per run
    if (!site_line.empty())
        for (const auto& [site, set] : runs_of_site)
            if (site >= 0 && site < (int)site_line.size() && site_line[site] >= 0) {
                long long& e = executions[run_of_line[site_line[site]]];
                e = std::max(e, (long long)set.size());
            }
    for (size_t i = 0; i < l.lines.size(); ++i) {
        const PtxLine& p = l.lines[i];
        if (p.flops == 0 || p.file != file || p.line <= 0) continue;
        LineCounts& c = out[p.line];
        const auto e = executions.find(run_of_line[i]);
        if (site_line.empty() || e == executions.end()) {
            c.flops_known = false;
            continue;
        }
        c.flops += double(p.flops) * double(e->second);
    }
    return out;
}

}  // namespace stencil::viewer
