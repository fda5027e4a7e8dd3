// Running gnuplot on the sweep's scripts, and redrawing a sweep folder from its results.json.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "experiments/sweep_plots.h"

namespace stencil::experiments {

namespace fs = std::filesystem;

void write_text_file(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::trunc);
    if (!f || !(f << text) || !f.flush()) throw UserError("cannot write " + path);
}

std::optional<std::string> gnuplot_png_terminal(std::string* why) {
    if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
        if (why) *why = "gnuplot is not installed (apt install gnuplot-nox); plots skipped";
        return std::nullopt;
    }
    FILE* p = popen("gnuplot -e 'set terminal' 2>&1", "r");
    std::string text;
    if (p) {
        char buf[512];
        while (fgets(buf, sizeof buf, p)) text += buf;
        pclose(p);
    }
    if (text.find("pngcairo") != std::string::npos) return std::string("pngcairo");
    if (text.find(" png ") != std::string::npos || text.find("png  ") != std::string::npos)
        return std::string("png");
    if (why) *why = "this gnuplot has no PNG terminal; plots skipped";
    return std::nullopt;
}

namespace {

// The first line of gnuplot's log that says something (its error), for the one-line report.
std::string first_error_line(const fs::path& p) {
    std::ifstream f(p);
    std::string line, last;
    while (std::getline(f, line)) {
        if (line.find_first_not_of(" \t^") == std::string::npos) continue;
        last = line;
        if (line.find("rror") != std::string::npos || line.find("warning") != std::string::npos) break;
    }
    return last;
}

}  // namespace

// gnuplot on one script; the PNG and SVG count only when gnuplot succeeded and both have content
// (it can exit 0 yet leave an empty image, and fail with a half-written one). Empty: drawn.
std::string draw_gnuplot_script(const std::string& dir_name, const std::string& gp) {
    const fs::path dir(dir_name);
    const std::string stem = gp.substr(0, gp.size() - 3);
    const fs::path log = dir / (gp + ".log");
    std::error_code ec;
    for (const char* ext : {".png", ".svg"}) fs::remove(dir / (stem + ext), ec);
    const int rc = std::system(fmt::format("cd '{}' && gnuplot '{}' > '{}.log' 2>&1", dir.string(), gp, gp).c_str());
    std::string bad;
    for (const char* ext : {".png", ".svg"}) {
        const fs::path img = dir / (stem + ext);
        if (!fs::exists(img, ec) || fs::file_size(img, ec) == 0) bad = fmt::format("{}{} is missing or empty", stem, ext);
    }
    if (rc == 0 && bad.empty()) {
        fs::remove(log, ec);
        return {};
    }
    std::string why = first_error_line(log);
    if (why.empty()) why = rc != 0 ? fmt::format("gnuplot exited with {}", rc) : bad;
    for (const char* ext : {".png", ".svg"}) fs::remove(dir / (stem + ext), ec);
    return fmt::format("{} failed: {} (log: plots/{}.log)", gp, why, gp);
}

PlotOutcome write_plots(const nlohmann::json& results, const std::string& plot_dir) {
    PlotOutcome out;
    std::string why;
    const auto term = gnuplot_png_terminal(&why);
    // Without gnuplot the data and scripts still go out, so the plots can be drawn elsewhere.
    const auto scripts = write_plot_scripts(results, plot_dir, term ? *term : "pngcairo");
    for (const auto& gp : scripts) out.files.push_back(gp);
    if (!term) {
        out.note = why;
        return out;
    }
    for (const auto& gp : scripts) {
        if (auto failure = draw_gnuplot_script(plot_dir, gp); !failure.empty()) {
            out.failures.push_back(failure);
            continue;
        }
        const std::string stem = gp.substr(0, gp.size() - 3);
        out.files.push_back(stem + ".png");
        out.files.push_back(stem + ".svg");
    }
    out.note = out.failures.empty() ? fmt::format("plots written with gnuplot ({} and svg)", *term)
                                    : fmt::format("{} plot(s) failed; {}", out.failures.size(), out.failures.front());
    return out;
}

PlotOutcome replot_sweep(const std::string& dir) {
    const fs::path json_path = fs::path(dir) / "results.json";
    std::ifstream f(json_path);
    if (!f) throw UserError(fmt::format("--replot {}: no results.json there (run stencil-lab sweep --out {} first)", dir, dir));
    nlohmann::json doc;
    try {
        f >> doc;
    } catch (const nlohmann::json::exception& e) {
        throw UserError(fmt::format("--replot {}: results.json is not valid JSON: {}", dir, e.what()));
    }
    // The folder is the scripts' own: what older scripts left (figures since renamed or dropped,
    // logs) goes, so the folder holds exactly what these scripts draw.
    const fs::path plots = fs::path(dir) / "plots";
    std::error_code ec;
    if (fs::is_directory(plots, ec))
        for (const auto& e : fs::directory_iterator(plots, ec)) {
            const auto ext = e.path().extension().string();
            if (ext == ".gp" || ext == ".dat" || ext == ".png" || ext == ".svg" || ext == ".log") fs::remove(e.path(), ec);
        }
    return write_plots(doc, plots.string());
}

}  // namespace stencil::experiments
