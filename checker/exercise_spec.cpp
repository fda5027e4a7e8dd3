// exercise.toml -> Exercise. Sections: [reading] positions, keys and values; [lab problems];
// [data stencils]; [sizes, budget, limits, hints]; [read_exercise_folder].
#include "checker/exercise_spec.h"

#include <toml++/toml.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "checker/hints.h"
#include "core/error.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/versions.h"
#include "kernels/stencil_shape.h"

namespace stencil::checker {

namespace fs = std::filesystem;

namespace {

// ---- [reading] ----------------------------------------------------------------------------------
// The spec's file as errors name it, and what fails there: "FILE:LINE:COLUMN: what".
struct Spec {
    std::string file;

    [[noreturn]] void fail_at(const toml::source_region& where, const std::string& what) const {
        if (where.begin.line == 0) throw UserError(fmt::format("{}: {}", file, what));
        throw UserError(fmt::format("{}:{}:{}: {}", file, where.begin.line, where.begin.column, what));
    }
    [[noreturn]] void fail(const toml::node& n, const std::string& what) const { fail_at(n.source(), what); }

    // Every key of `t` must be one of `allowed`.
    void only_keys(const toml::table& t, const std::string& table, std::initializer_list<const char*> allowed) const {
        for (auto&& [k, v] : t) {
            const bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return k.str() == a; });
            if (ok) continue;
            std::string known;
            for (const char* a : allowed) known += (known.empty() ? "" : ", ") + std::string(a);
            fail_at(k.source(), fmt::format("unknown key '{}' in {}; it may hold: {}", k.str(), table, known));
        }
    }

    const toml::table* table(const toml::table& t, const char* key) const {
        const toml::node* n = t.get(key);
        if (!n) return nullptr;
        if (!n->is_table()) fail(*n, fmt::format("'{}' must be a table ([{}] or {} = {{ ... }})", key, key, key));
        return n->as_table();
    }

    long long integer(const toml::node& n, const std::string& key, long long lo, long long hi) const {
        if (!n.is_integer()) fail(n, fmt::format("'{}' must be a whole number", key));
        const long long v = n.as_integer()->get();
        if (v < lo || v > hi) fail(n, fmt::format("'{}' is {}; it must be from {} to {}", key, v, lo, hi));
        return v;
    }
    long long integer(const toml::table& t, const char* key, long long fallback, long long lo, long long hi) const {
        const toml::node* n = t.get(key);
        return n ? integer(*n, key, lo, hi) : fallback;
    }

    double number(const toml::node& n, const std::string& key) const {
        if (n.is_integer()) return double(n.as_integer()->get());
        if (!n.is_floating_point()) fail(n, fmt::format("'{}' must be a number", key));
        const double v = n.as_floating_point()->get();
        if (!std::isfinite(v)) fail(n, fmt::format("'{}' must be a finite number", key));
        return v;
    }
    double positive(const toml::table& t, const char* key, double fallback, double hi) const {
        const toml::node* n = t.get(key);
        if (!n) return fallback;
        const double v = number(*n, key);
        if (v <= 0 || v > hi) fail(*n, fmt::format("'{}' is {}; it must be above 0 and at most {}", key, v, hi));
        return v;
    }

    std::string text(const toml::node& n, const std::string& key) const {
        if (!n.is_string()) fail(n, fmt::format("'{}' must be a string (in quotes)", key));
        return n.as_string()->get();
    }
    std::string text(const toml::table& t, const char* key, const std::string& fallback) const {
        const toml::node* n = t.get(key);
        return n ? text(*n, key) : fallback;
    }
    const toml::node& required(const toml::table& t, const char* key, const std::string& table) const {
        const toml::node* n = t.get(key);
        if (!n) fail_at(t.source(), fmt::format("{} needs '{}'", table, key));
        return *n;
    }

    Precision precision(const toml::table& t) const {
        const toml::node* n = t.get("precision");
        if (!n) return Precision::f32;
        const auto p = parse_precision(text(*n, "precision"));
        if (!p) fail(*n, "'precision' must be \"f32\" or \"f64\"");
        return *p;
    }
};

bool is_identifier(const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// ---- [lab problems] -----------------------------------------------------------------------------
void read_lab_problem(const Spec& spec, const toml::table& t, Exercise& ex) {
    spec.only_keys(t, "[problem]", {"name", "version", "radius", "precision", "tile"});
    const toml::node& name = spec.required(t, "name", "[problem]");
    const auto p = parse_problem(spec.text(name, "name"));
    if (!p)
        spec.fail(name, "[problem] name must be \"star3d\", \"cardiac2d\" or \"derivative\" (or write the "
                        "stencil as data: [stencil] and [kernel])");
    ex.problem = *p;
    const toml::node& version = spec.required(t, "version", "[problem]");
    ex.version = spec.text(version, "version");
    ex.precision = spec.precision(t);
    switch (ex.problem) {
        case Problem::star3d: {
            const KernelVersion* v = find_version(ex.version);
            if (!v || v->problem != Problem::star3d)
                spec.fail(version, fmt::format("'{}' is not a version of star3d (`stencil-lab versions` lists them)", ex.version));
            ex.radius = int(spec.integer(t, "radius", 1, 1, kMaxRadius));
            break;
        }
        case Problem::cardiac2d:
            if (!cardiac2d::find_version(ex.version))
                spec.fail(version, fmt::format("'{}' is not a version of cardiac2d (`stencil-lab versions`)", ex.version));
            ex.radius = int(spec.integer(t, "radius", 1, 1, 1));
            break;
        case Problem::derivative:
            if (!find_derivative_version(ex.version))
                spec.fail(version, fmt::format("'{}' is not a version of derivative (`stencil-lab versions`)", ex.version));
            ex.radius = int(spec.integer(t, "radius", 4, 4, 4));
            break;
    }
    ex.default_tile = int(spec.integer(t, "tile", 0, 1, 1024));
}

// ---- [data stencils] ----------------------------------------------------------------------------
// Points in the layout of kernels/stencil_shape.h: the centre, then for d = 1..r x-d, x+d, y-d,
// y+d (, z-d, z+d): weight c0 is the centre's, c1 x-1's, ... as in the textbook.
std::vector<std::array<int, 3>> star_points(int dims, int r) {
    std::vector<std::array<int, 3>> p{{0, 0, 0}};
    for (int d = 1; d <= r; ++d) {
        p.push_back({-d, 0, 0}), p.push_back({d, 0, 0}), p.push_back({0, -d, 0}), p.push_back({0, d, 0});
        if (dims == 3) p.push_back({0, 0, -d}), p.push_back({0, 0, d});
    }
    return p;
}

// Every point of the (2r + 1)^dims box, x fastest, then y, then z.
std::vector<std::array<int, 3>> box_points(int dims, int r) {
    std::vector<std::array<int, 3>> p;
    const int rz = dims == 3 ? r : 0;
    for (int z = -rz; z <= rz; ++z)
        for (int y = -r; y <= r; ++y)
            for (int x = -r; x <= r; ++x) p.push_back({x, y, z});
    return p;
}

DataStencil read_stencil(const Spec& spec, const toml::table& t, Exercise& ex) {
    spec.only_keys(t, "[stencil]", {"dims", "points", "radius", "weights", "precision", "boundary"});
    DataStencil s;
    s.dims = int(spec.integer(spec.required(t, "dims", "[stencil]"), "dims", 2, 3));
    const toml::node& points = spec.required(t, "points", "[stencil]");
    if (points.is_string()) {
        s.shape = points.as_string()->get();
        if (s.shape != "star" && s.shape != "box")
            spec.fail(points, "'points' must be \"star\", \"box\" or a list of offsets ([[dx, dy], ...] in 2D)");
        const toml::node* r = t.get("radius");
        if (!r) spec.fail_at(t.source(), "[stencil] with points = \"" + s.shape + "\" needs 'radius' (1 to 4)");
        s.radius = int(spec.integer(*r, "radius", 1, kMaxRadius));
        s.points = s.shape == "star" ? star_points(s.dims, s.radius) : box_points(s.dims, s.radius);
    } else if (const toml::array* list = points.as_array()) {
        s.shape = "points";
        if (t.get("radius")) spec.fail(*t.get("radius"), "'radius' follows from a list of points: leave it out");
        if (list->empty()) spec.fail(points, "'points' lists no offset");
        std::set<std::array<int, 3>> seen;
        for (const toml::node& el : *list) {
            const toml::array* o = el.as_array();
            if (!o || int(o->size()) != s.dims)
                spec.fail(el, fmt::format("each point is a list of {} whole numbers ({})", s.dims,
                                          s.dims == 2 ? "[dx, dy]" : "[dx, dy, dz]"));
            std::array<int, 3> p{0, 0, 0};
            for (int a = 0; a < s.dims; ++a) p[size_t(a)] = int(spec.integer(*o->get(size_t(a)), "an offset", -kMaxRadius, kMaxRadius));
            if (!seen.insert(p).second) spec.fail(el, "this point is listed twice");
            s.points.push_back(p);
            s.radius = std::max({s.radius, std::abs(p[0]), std::abs(p[1]), std::abs(p[2])});
        }
    } else {
        spec.fail(points, "'points' must be \"star\", \"box\" or a list of offsets");
    }
    s.boundary = int(spec.integer(t, "boundary", s.radius, s.radius, 16));
    if (const toml::node* w = t.get("weights")) {
        if (w->is_string()) {
            if (w->as_string()->get() != "random")
                spec.fail(*w, "'weights' must be \"random\" or a list of numbers, one per point");
        } else if (const toml::array* list = w->as_array()) {
            if (list->size() != s.points.size())
                spec.fail(*w, fmt::format("'weights' lists {} numbers for {} points", list->size(), s.points.size()));
            for (const toml::node& el : *list) s.weights.push_back(spec.number(el, "a weight"));
        } else {
            spec.fail(*w, "'weights' must be \"random\" or a list of numbers, one per point");
        }
    }
    ex.precision = spec.precision(t);
    ex.radius = s.radius;
    return s;
}

std::optional<ParamRole> parse_role(const std::string& s) {
    for (ParamRole r : {ParamRole::input, ParamRole::output, ParamRole::nx, ParamRole::ny, ParamRole::nz, ParamRole::n,
                        ParamRole::weights, ParamRole::int_value, ParamRole::real_value})
        if (s == to_string(r)) return r;
    return std::nullopt;
}

SpecExpr expression(const Spec& spec, const toml::node& n, const std::string& key,
                    const std::function<bool(const std::string&)>& known, const std::string& names) {
    const std::string text = spec.text(n, key);
    std::string error;
    auto e = SpecExpr::parse(text, known, error);
    if (!e) spec.fail(n, fmt::format("'{}' = \"{}\": {} (it may use {})", key, text, error, names));
    return *e;
}

// [kernel] params: each { name, role[, value][, type] }, in order; exactly one input and one output.
void read_params(const Spec& spec, const toml::table& t, const DataStencil& st, DataKernel& k, std::set<std::string>& taken) {
    const toml::node& params = spec.required(t, "params", "[kernel]");
    const toml::array* plist = params.as_array();
    if (!plist || plist->empty()) spec.fail(params, "'params' must list the parameters: [{ name = \"in\", role = \"input\" }, ...]");
    std::map<ParamRole, int> count;
    for (const toml::node& el : *plist) {
        const toml::table* p = el.as_table();
        if (!p) spec.fail(el, "each parameter is a table: { name = \"in\", role = \"input\" }");
        spec.only_keys(*p, "a parameter", {"name", "role", "value", "type"});
        DataParam dp;
        const toml::node& pn = spec.required(*p, "name", "a parameter");
        dp.name = spec.text(pn, "name");
        if (!is_identifier(dp.name)) spec.fail(pn, "a parameter's name must be a C identifier");
        if (!taken.insert(dp.name).second) spec.fail(pn, fmt::format("'{}' is already a name of the harness or a parameter", dp.name));
        const toml::node& role = spec.required(*p, "role", "a parameter");
        const auto r = parse_role(spec.text(role, "role"));
        if (!r) spec.fail(role, "'role' must be one of input, output, nx, ny, nz, n, weights, int, real");
        dp.role = *r;
        if ((dp.role == ParamRole::nz) && st.dims == 2) spec.fail(role, "a 2D stencil has no nz");
        if (dp.role == ParamRole::weights && k.weights_in_constant)
            spec.fail(role, "a parameter of role \"weights\" needs [kernel] weights = \"pointer\"");
        const bool valued = dp.role == ParamRole::int_value || dp.role == ParamRole::real_value;
        if (const toml::node* v = p->get("value")) {
            if (!valued) spec.fail(*v, "only parameters of role int or real take a 'value'");
            dp.value = dp.role == ParamRole::int_value ? double(spec.integer(*v, "value", -(1LL << 31), (1LL << 31) - 1))
                                                       : spec.number(*v, "value");
        } else if (valued) {
            spec.fail(el, "a parameter of role int or real needs the 'value' the harness passes");
        }
        if (const toml::node* ty = p->get("type")) {
            const std::string t = spec.text(*ty, "type");
            const bool integer = dp.role != ParamRole::input && dp.role != ParamRole::output &&
                                 dp.role != ParamRole::weights && dp.role != ParamRole::real_value;
            if (!integer || (t != "int" && t != "unsigned"))
                spec.fail(*ty, "'type' is for integer parameters (sizes, int): \"int\" or \"unsigned\"");
            dp.is_unsigned = t == "unsigned";
        }
        if (!valued && ++count[dp.role] > 1) spec.fail(role, fmt::format("two parameters of role {}", to_string(dp.role)));
        k.params.push_back(dp);
    }
    if (!count[ParamRole::input]) spec.fail(params, "'params' needs a parameter of role input");
    if (!count[ParamRole::output]) spec.fail(params, "'params' needs a parameter of role output");
    if (!k.weights_in_constant && !count[ParamRole::weights])
        spec.fail(params, "weights = \"pointer\" needs a parameter of role weights");

}

DataKernel read_kernel(const Spec& spec, const toml::table& t, const DataStencil& st, Exercise& ex) {
    spec.only_keys(t, "[kernel]", {"name", "params", "weights", "macros", "block", "grid", "shared", "tile", "tiles"});
    DataKernel k;
    const toml::node& name = spec.required(t, "name", "[kernel]");
    k.name = spec.text(name, "name");
    if (!is_identifier(k.name)) spec.fail(name, "the kernel's name must be a C identifier");
    if (const toml::node* w = t.get("weights")) {
        const std::string s = spec.text(*w, "weights");
        if (s != "constant" && s != "array" && s != "pointer")
            spec.fail(*w, "'weights' must be \"constant\" (__constant__ c0, c1, ...), \"array\" (__constant__ c[p]) "
                          "or \"pointer\" (a parameter of role \"weights\")");
        k.weights_in_constant = s != "pointer";
        k.weights_as_array = s == "array";
    }
    std::set<std::string> taken{k.name};
    if (k.weights_as_array) taken.insert("c");
    else if (k.weights_in_constant)
        for (size_t i = 0; i < st.points.size(); ++i) taken.insert(fmt::format("c{}", i));

    read_params(spec, t, st, k, taken);
    const std::set<std::string> tile_names{"T", "r", "b"};
    const auto tile_known = [&](const std::string& s) { return tile_names.count(s) > 0; };
    if (const toml::table* macros = spec.table(t, "macros")) {
        for (auto&& [key, v] : *macros) {
            const std::string mname(key.str());
            if (!is_identifier(mname)) spec.fail_at(key.source(), "a macro's name must be a C identifier");
            if (tile_names.count(mname) || !taken.insert(mname).second)
                spec.fail_at(key.source(), fmt::format("'{}' is already a name of the harness or a parameter", mname));
            k.macros.push_back({mname, expression(spec, v, mname, tile_known, "T, r and b")});
        }
    }
    std::set<std::string> launch_names{"T", "r", "b", "nx", "ny", "nz", "N"};
    for (const DataMacro& m : k.macros) launch_names.insert(m.name);
    std::string launch_words = "T, r, b, nx, ny, nz, N";
    for (const DataMacro& m : k.macros) launch_words += ", " + m.name;
    const auto launch_known = [&](const std::string& s) { return launch_names.count(s) > 0; };
    for (const char* key : {"block", "grid"}) {
        const toml::node& n = spec.required(t, key, "[kernel]");
        const toml::array* a = n.as_array();
        if (!a || a->size() != 3) spec.fail(n, fmt::format("'{}' must list three expressions: [\"x\", \"y\", \"z\"]", key));
        auto& out = std::string(key) == "block" ? k.block : k.grid;
        for (size_t i = 0; i < 3; ++i) out[i] = expression(spec, *a->get(i), key, launch_known, launch_words);
    }
    if (const toml::node* shared = t.get("shared")) k.shared = expression(spec, *shared, "shared", launch_known, launch_words);
    if (const toml::node* tiles = t.get("tiles")) {
        const toml::array* a = tiles->as_array();
        if (!a || a->size() != 2) spec.fail(*tiles, "'tiles' must be [smallest, largest]");
        k.tile_min = int(spec.integer(*a->get(0), "tiles", 1, 1024));
        k.tile_max = int(spec.integer(*a->get(1), "tiles", k.tile_min, 1024));
    }
    ex.default_tile = int(spec.integer(t, "tile", 0, k.tile_min, k.tile_max));
    if (!ex.default_tile) spec.fail_at(t.source(), fmt::format("[kernel] needs 'tile', the default T (from {} to {})",
                                                               k.tile_min, k.tile_max));
    return k;
}

// ---- [sizes, budget, limits, hints] -------------------------------------------------------------
DataSizes read_sizes(const Spec& spec, const toml::table* t, const DataStencil& st, int tile) {
    const int smallest = 2 * st.boundary + 1;
    DataSizes s;
    const int largest = st.dims == 2 ? 2048 : 256;
    s.visible = {smallest, smallest + 2, tile + 1, 2 * tile + 3, st.dims == 2 ? 61 : 37};
    s.large = st.dims == 2 ? 129 : 0;
    if (t) {
        spec.only_keys(*t, "[sizes]", {"visible", "hidden", "large", "count"});
        if (const toml::node* v = t->get("visible")) {
            const toml::array* a = v->as_array();
            if (!a || a->empty()) spec.fail(*v, "'visible' must list sizes: [5, 13, 31]");
            s.visible.clear();
            for (const toml::node& el : *a) s.visible.push_back(int(spec.integer(el, "a visible size", smallest, 256)));
        }
        if (const toml::table* h = spec.table(*t, "hidden")) {
            spec.only_keys(*h, "[sizes.hidden]", {"count", "min", "max"});
            s.hidden_count = int(spec.integer(*h, "count", s.hidden_count, 0, 8));
            s.hidden_min = int(spec.integer(*h, "min", std::max(s.hidden_min, smallest), smallest, 256));
            s.hidden_max = int(spec.integer(*h, "max", std::max(s.hidden_max, s.hidden_min), s.hidden_min, 256));
            if (s.hidden_max - s.hidden_min + 1 < s.hidden_count)
                spec.fail(*h, fmt::format("[sizes.hidden] draws {} sizes from {} .. {}: widen the range", s.hidden_count,
                                          s.hidden_min, s.hidden_max));
        }
        s.large = int(spec.integer(*t, "large", s.large, 0, largest));
        if (s.large && s.large < smallest) spec.fail(*t->get("large"), fmt::format("'large' must be 0 or at least {}", smallest));
        s.count = int(spec.integer(*t, "count", 0, smallest, 256));
        if (s.count && std::find(s.visible.begin(), s.visible.end(), s.count) == s.visible.end())
            spec.fail(*t->get("count"), "'count' (the size loads are counted at) must be one of the visible sizes");
    }
    s.hidden_min = std::max(s.hidden_min, smallest);
    std::sort(s.visible.begin(), s.visible.end());
    s.visible.erase(std::unique(s.visible.begin(), s.visible.end()), s.visible.end());
    if (!s.count) s.count = s.visible.back();
    return s;
}

Budget read_budget(const Spec& spec, const toml::table* t, bool data) {
    Budget b;
    b.from_solution = data;
    if (!t) return b;
    spec.only_keys(*t, "[budget]", {"factor", "loads", "from"});
    b.factor = spec.positive(*t, "factor", 1.0, 1000);
    if (const toml::node* l = t->get("loads")) {
        b.loads_per_output = spec.positive(*t, "loads", 1, 1e6);
        b.from_solution = false;
        if (t->get("factor")) spec.fail(*l, "give 'loads' (global loads per output) or 'factor', not both");
    }
    if (const toml::node* f = t->get("from")) {
        const std::string s = spec.text(*f, "from");
        if (s != "solution" && s != "version")
            spec.fail(*f, "'from' must be \"solution\" (solution.cu's count) or \"version\" (the lab version's count)");
        if (s == "version" && data) spec.fail(*f, "a stencil written as data has no lab version: from = \"solution\"");
        if (s == "solution" && b.loads_per_output) spec.fail(*f, "give 'loads' or from = \"solution\", not both");
        b.from_solution = s == "solution";
    }
    return b;
}

std::string read_text_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void read_hints(const Spec& spec, const toml::table* t, const std::string& readme_file, const std::string& readme,
                Exercise& ex) {
    if (!t) return;
    const size_t count = parse_hints(readme).size();
    for (auto&& [key, v] : *t) {
        const std::string cause(key.str());
        if (!is_hint_cause(cause))
            spec.fail_at(key.source(), fmt::format("'{}' is not a cause a hint can be about; one of: {}", cause, hint_cause_names()));
        const int n = int(spec.integer(v, cause, 1, 99));
        if (size_t(n) > count)
            spec.fail(v, fmt::format("hint {} is not in {}: its **Hints.** list has {}", n, readme_file, count));
        ex.hints[cause] = n;
    }
}

}  // namespace

const char* to_string(ParamRole r) {
    switch (r) {
        case ParamRole::input: return "input";
        case ParamRole::output: return "output";
        case ParamRole::nx: return "nx";
        case ParamRole::ny: return "ny";
        case ParamRole::nz: return "nz";
        case ParamRole::n: return "n";
        case ParamRole::weights: return "weights";
        case ParamRole::int_value: return "int";
        case ParamRole::real_value: return "real";
    }
    return "?";
}

// ---- [read_exercise_folder] ---------------------------------------------------------------------
Exercise read_exercise_folder(const fs::path& folder, const std::string& display) {
    const fs::path spec_path = folder / kExerciseSpecFile;
    Spec spec{display + "/" + kExerciseSpecFile};
    if (!fs::is_regular_file(spec_path))
        throw UserError(fmt::format("{}: no such file (an exercise folder holds {}, README.md and stencil.cu; "
                                    "`stencil-lab exercise new DIR --from tiled` makes one)", spec.file, kExerciseSpecFile));
    const std::string text = read_text_file(spec_path);
    toml::table root;
    try {
        root = toml::parse(text, spec.file);
    } catch (const toml::parse_error& e) {
        spec.fail_at(e.source(), std::string(e.description()));
    }
    Exercise ex;
    ex.folder = folder;
    ex.name = fs::absolute(folder).lexically_normal().filename().string();
    if (ex.name.empty()) ex.name = fs::absolute(folder).lexically_normal().parent_path().filename().string();
    ex.spec_file = spec.file;
    ex.display = display;
    spec.only_keys(root, spec.file, {"summary", "problem", "stencil", "kernel", "sizes", "budget", "limits", "hints"});
    ex.summary = spec.text(root, "summary", "");

    const toml::table* problem = spec.table(root, "problem");
    const toml::table* stencil = spec.table(root, "stencil");
    const toml::table* kernel = spec.table(root, "kernel");
    if (problem && (stencil || kernel))
        spec.fail(*root.get(stencil ? "stencil" : "kernel"),
                  "a spec names a lab problem ([problem]) or writes the stencil as data ([stencil] and [kernel]), not both");
    if (problem) {
        read_lab_problem(spec, *problem, ex);
        if (const toml::node* s = root.get("sizes"))
            spec.fail(*s, "[sizes] is for a stencil written as data; a lab problem's sizes follow from its version");
    } else if (stencil && kernel) {
        DataExercise d;
        d.stencil = read_stencil(spec, *stencil, ex);
        d.kernel = read_kernel(spec, *kernel, d.stencil, ex);
        d.sizes = read_sizes(spec, spec.table(root, "sizes"), d.stencil, ex.default_tile);
        ex.data = std::move(d);
    } else {
        spec.fail_at(root.source(), stencil ? "[stencil] needs a [kernel] table (the kernel's name, parameters and launch)"
                                  : kernel  ? "[kernel] needs a [stencil] table (the stencil's points and weights)"
                                            : "the spec needs [problem] (a problem the lab knows) or [stencil] and [kernel]");
    }
    ex.budget = read_budget(spec, spec.table(root, "budget"), ex.is_data());
    if (const toml::table* limits = spec.table(root, "limits")) {
        spec.only_keys(*limits, "[limits]", {"time"});
        ex.time_limit_s = spec.positive(*limits, "time", 0, 600);
    }
    for (const char* required : {"README.md", "stencil.cu"})
        if (!fs::is_regular_file(folder / required))
            throw UserError(fmt::format("{}/{}: no such file (an exercise folder holds {}, README.md and stencil.cu)",
                                        display, required, kExerciseSpecFile));
    const std::string readme_file = display + "/README.md";
    read_hints(spec, spec.table(root, "hints"), readme_file, read_text_file(folder / "README.md"), ex);
    return ex;
}

}  // namespace stencil::checker
