// stencil-handout-check: runs every stencil-lab command of the handouts as handout_commands.h reads
// them (the ctest `handout_commands`), each file's commands in a folder of their own where the
// repository's folders are linked, the build's stencil-lab first on PATH. Checks each exit against
// its text and each recipe's numbers against the labs' key; prints one line per command.
//
//   stencil-handout-check --source REPO --build BUILD --work DIR [--gpu] [FILE.md ...]
//     --gpu: on a GPU machine, the commands as written (the GPU-only ones too, no grid shrunk)
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "handout_commands.h"
#include "labs/grading/questions.h"

namespace fs = std::filesystem;
using stencil::handouts::HandoutCommand;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// A single-quoted shell word.
std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

struct Ran {
    int code = -1;
    std::string out, err;
};

// `command` by sh in `dir`, at most `seconds`.
Ran run_in(const fs::path& dir, const std::string& command, int seconds) {
    const fs::path o = dir / ".out", e = dir / ".err";
    const std::string sh = "cd " + quoted(dir.string()) + " && timeout " + std::to_string(seconds) + " sh -c " +
                           quoted(command) + " >" + quoted(o.string()) + " 2>" + quoted(e.string()) + " </dev/null";
    const int st = std::system(sh.c_str());
    Ran r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    r.out = slurp(o);
    r.err = slurp(e);
    return r;
}

std::string last_line(const std::string& s) {
    std::string t = s;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    const size_t nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

// The handouts: README.md, labs/*.md, exercises/README.md and exercises/*/README.md.
std::vector<std::string> handout_files(const fs::path& src) {
    std::vector<std::string> f = {"README.md"};
    std::vector<std::string> more;
    for (const auto& e : fs::directory_iterator(src / "labs"))
        if (e.path().extension() == ".md") more.push_back("labs/" + e.path().filename().string());
    if (fs::exists(src / "exercises/README.md")) more.push_back("exercises/README.md");
    for (const auto& e : fs::directory_iterator(src / "exercises"))
        if (e.is_directory() && fs::exists(e.path() / "README.md"))
            more.push_back("exercises/" + e.path().filename().string() + "/README.md");
    std::sort(more.begin(), more.end());
    f.insert(f.end(), more.begin(), more.end());
    return f;
}

// The recipe's numbers against the key: one line per id, false when any differs.
bool check_recipe(const std::vector<std::string>& ids, const std::string& printed, const std::string& where) {
    const auto got = stencil::handouts::numbers_in(printed);
    bool ok = got.size() == ids.size();
    if (!ok)
        std::printf("FAIL %s: the recipe printed %zu numbers for %zu answers (%s)\n", where.c_str(), got.size(),
                    ids.size(), last_line(printed).c_str());
    for (size_t i = 0; i < ids.size() && i < got.size(); ++i) {
        const auto* q = stencil::labs::find_question(ids[i]);
        if (!q) {
            std::printf("FAIL %s: no question %s\n", where.c_str(), ids[i].c_str());
            ok = false;
            continue;
        }
        const nlohmann::json key = *q->compute(nullptr, stencil::labs::default_params(q->lab)).value;  // the handouts print the default values
        if (!key.is_number()) {
            std::printf("FAIL %s: %s's key is not a number here (%s)\n", where.c_str(), ids[i].c_str(), key.dump().c_str());
            ok = false;
            continue;
        }
        const double k = key.get<double>(), tol = std::max(q->absolute, q->relative * std::abs(k));
        const bool right = std::abs(got[i] - k) <= tol || (tol == 0 && got[i] == k);
        std::printf("%s %s: %s printed %.6g, the key %.6g\n", right ? "ok  " : "FAIL", where.c_str(), ids[i].c_str(),
                    got[i], k);
        ok = ok && right;
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    fs::path src, build, work;
    std::vector<std::string> only;
    bool gpu = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--source" || a == "--build" || a == "--work") && i + 1 < argc)
            (a == "--source" ? src : a == "--build" ? build : work) = argv[++i];
        else if (a == "--gpu") gpu = true;
        else only.push_back(a);
    }
    if (src.empty() || build.empty() || work.empty()) {
        std::fprintf(stderr, "usage: stencil-handout-check --source REPO --build BUILD --work DIR [--gpu] [FILE.md ...]\n");
        return 2;
    }
    build = fs::absolute(build);  // the commands run in other folders
    src = fs::absolute(src);
    const std::string path = build.string() + ":" + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", path.c_str(), 1);
    setenv("STENCIL_LAB_PROGRESS", "0", 1);
    int ran = 0, skipped = 0, failed = 0;
    std::map<std::string, int> skip_reasons;
    for (const auto& file : only.empty() ? handout_files(src) : only) {
        const auto commands = stencil::handouts::handout_commands(file, slurp(src / file), gpu);
        // A folder of its own, with the repository's folders the commands name.
        fs::path dir = work / file;
        dir.replace_extension();
        fs::remove_all(dir);
        fs::create_directories(dir);
        // `sweep --replot docs/...` rewrites a committed folder's figures: such a file gets a copy of
        // docs/, never the repository's own.
        bool writes_docs = false;
        for (const auto& c : commands) writes_docs = writes_docs || c.run.find("--replot docs/") != std::string::npos;
        for (const char* d : {"exercises", "labs", "docs", "kernels", "bench", "README.md"}) {
            if (!fs::exists(src / d)) continue;
            if (writes_docs && std::string(d) == "docs") fs::copy(src / d, dir / d, fs::copy_options::recursive);
            else fs::create_directory_symlink(src / d, dir / d);
        }
        std::map<int, std::string> printed;  // per block: what its stencil-lab commands printed
        std::map<int, std::vector<std::string>> recipes;
        for (const auto& c : commands) {
            const std::string where = file + ":" + std::to_string(c.line);
            if (!c.skip.empty()) {
                std::printf("skip %s: %s (%s)\n", where.c_str(), c.text.c_str(), c.skip.c_str());
                ++skipped;
                ++skip_reasons[c.skip.substr(0, std::min(c.skip.find(':'), c.skip.find(" (")))];
                continue;
            }
            const Ran r = run_in(dir, c.run, 600);
            if (!c.stencil_lab) {  // a line run with the commands (a heredoc): it must work
                if (r.code != 0) {
                    std::printf("FAIL %s: %s exits %d: %s\n", where.c_str(), c.text.c_str(), r.code, last_line(r.err).c_str());
                    ++failed;
                }
                continue;
            }
            ++ran;
            const bool ok = r.code == c.expect_exit;
            std::printf("%s %s: %s -> exit %d%s%s\n", ok ? "ok  " : "FAIL", where.c_str(), c.run.c_str(), r.code,
                        ok ? "" : c.inline_span ? " (the prose names a command or option that does not exist)"
                                                : (" (the text says " + std::to_string(c.expect_exit) + ")").c_str(),
                        ok ? "" : (": " + last_line(r.err.empty() ? r.out : r.err)).c_str());
            if (!ok) ++failed;
            if (!c.answers.empty()) {
                printed[c.block] += r.out;
                recipes[c.block] = c.answers;
            }
        }
        for (const auto& [b, ids] : recipes)
            if (!check_recipe(ids, printed[b], file + " recipe " + std::to_string(b))) ++failed;
    }
    std::string reasons;
    for (const auto& [r, n] : skip_reasons) reasons += (reasons.empty() ? "" : ", ") + std::to_string(n) + " " + r;
    std::printf("handout commands: %d run, %d failed, %d not run (%s)\n", ran, failed, skipped, reasons.c_str());
    return failed == 0 ? 0 : 1;
}
