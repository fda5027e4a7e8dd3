#include "core/engine_trace_text.h"

#include <sstream>
#include <stdexcept>

namespace engine {

namespace {
constexpr const char* kHeader = "stencil-lab trace 1";
}

std::string trace_to_text(const ExecReport& rep) {
    std::ostringstream o;
    o << kHeader << '\n';
    o << "grid " << rep.grid.x << ' ' << rep.grid.y << ' ' << rep.grid.z << " block " << rep.block.x << ' '
      << rep.block.y << ' ' << rep.block.z << '\n';
    for (size_t s = 0; s < rep.sites.size(); ++s) {
        const ExecReport::SiteSource src = s < rep.site_source.size() ? rep.site_source[s] : ExecReport::SiteSource{};
        o << "site " << src.line << ' ' << (src.instruction.empty() ? "?" : src.instruction) << ' ' << src.file
          << '\n';
    }
    for (const Access& a : rep.trace)
        o << "a " << a.block << ' ' << a.thread << ' ' << a.interval << ' ' << a.site << ' ' << a.occurrence << ' '
          << a.seq << ' ' << (int)a.space << ' ' << (int)a.op << ' ' << (int)a.size << ' ' << a.buffer << ' '
          << a.offset << '\n';
    o << "end\n";
    return o.str();
}

ExecReport trace_from_text(std::string_view text) {
    ExecReport rep;
    std::istringstream in{std::string(text)};
    std::string line;
    int number = 0;
    auto fail = [&](const char* why) {
        throw std::runtime_error("trace line " + std::to_string(number) + ": " + why + ": " + line.substr(0, 80));
    };
    bool ended = false;
    while (std::getline(in, line)) {
        ++number;
        if (number == 1) {
            if (line != kHeader) fail("not a stencil-lab trace");
            continue;
        }
        std::istringstream f(line);
        std::string tag;
        f >> tag;
        if (tag == "grid") {
            std::string b;
            if (!(f >> rep.grid.x >> rep.grid.y >> rep.grid.z >> b >> rep.block.x >> rep.block.y >> rep.block.z))
                fail("bad launch shape");
        } else if (tag == "site") {
            ExecReport::SiteSource s;
            if (!(f >> s.line >> s.instruction)) fail("bad site");
            std::getline(f >> std::ws, s.file);
            rep.sites.push_back(rep.sites.size());
            rep.site_source.push_back(std::move(s));
        } else if (tag == "a") {
            Access a;
            int space = 0, op = 0, size = 0;
            if (!(f >> a.block >> a.thread >> a.interval >> a.site >> a.occurrence >> a.seq >> space >> op >> size >>
                  a.buffer >> a.offset))
                fail("bad access");
            if (space < 0 || space > 1 || op < 0 || op > 2 || size <= 0 || size > 16 || a.site < 0 ||
                a.site >= (int)rep.sites.size())
                fail("access out of range");
            a.space = (Space)space;
            a.op = (Op)op;
            a.size = (std::uint8_t)size;
            rep.trace.push_back(a);
        } else if (tag == "end") {
            ended = true;
            break;
        } else {
            fail("unknown record");
        }
    }
    if (number == 0) throw std::runtime_error("trace: empty");
    if (!ended) throw std::runtime_error("trace: cut short (no end line): the run stopped while writing it");
    return rep;
}

}  // namespace engine
