// PTX text -> ptx::Module (ir.h): a tokenizer, then one pass over the statements that declares
// variables and functions and decodes each instruction into its fixed-size record. Labels and
// callees are resolved when the function (or module) ends. Anything this engine does not run is
// refused here, at load, with the PTX line and the source line it came from.
//
// Sections:
//   tokens          Tok, tokenize, and the small parsers of integers, types, spaces and names
//   the parser      class Parser: top-level directives (.version, .file, .loc), variables and
//                   their initialisers, functions and their parameters, register declarations,
//                   the body; operands (registers, immediates, addresses, special registers);
//                   instructions (decode_opcode: the opcode and its dotted modifiers, instruction:
//                   guard, operands, call sites); finish (labels and callees resolved) and
//                   layout_shared (each entry's shared variables laid out)
//   fast forms      fast_form: which records the executor may run inline
//   queries         find_entry, symbol_bytes, find_symbol, demangled_variable_name
#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/ptx/ir.h"

namespace ptx {

namespace {

// ---- tokens --------------------------------------------------------------------------------
struct Tok {
    enum Kind : std::uint8_t { ident, number, string, punct, newline, end };
    Kind kind = end;
    std::string text;
    int line = 0;
};

bool ident_start(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.'; }

std::vector<Tok> tokenize(std::string_view s) {
    std::vector<Tok> out;
    int line = 1;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            out.push_back({Tok::newline, "", line});
            ++line, ++i;
        } else if (std::isspace((unsigned char)c)) {
            ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] == '\n') ++line;
                ++i;
            }
            i += 2;
        } else if (c == '"') {
            size_t j = i + 1;
            while (j < s.size() && s[j] != '"') j += (s[j] == '\\') ? 2 : 1;
            out.push_back({Tok::string, std::string(s.substr(i + 1, j - i - 1)), line});
            i = j + 1;
        } else if (std::isdigit((unsigned char)c)) {
            size_t j = i;
            while (j < s.size() && (std::isalnum((unsigned char)s[j]) || s[j] == '.')) ++j;
            out.push_back({Tok::number, std::string(s.substr(i, j - i)), line});
            i = j;
        } else if (ident_start(c)) {
            size_t j = i;
            while (j < s.size() && ident_char(s[j])) ++j;
            out.push_back({Tok::ident, std::string(s.substr(i, j - i)), line});
            i = j;
        } else {
            out.push_back({Tok::punct, std::string(1, c), line});
            ++i;
        }
    }
    out.push_back({Tok::end, "", line});
    return out;
}

std::optional<std::uint64_t> parse_int(const std::string& t) {
    if (t.empty()) return std::nullopt;
    std::string s = t;
    if (s.back() == 'U' || s.back() == 'u') s.pop_back();
    char* end = nullptr;
    std::uint64_t v;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) v = std::strtoull(s.c_str() + 2, &end, 16);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) v = std::strtoull(s.c_str() + 2, &end, 2);
    else if (s.size() > 1 && s[0] == '0' && std::isdigit((unsigned char)s[1])) v = std::strtoull(s.c_str() + 1, &end, 8);
    else v = std::strtoull(s.c_str(), &end, 10);
    if (!end || *end) return std::nullopt;
    return v;
}

std::optional<Ty> type_of(std::string_view t) {
    static const std::unordered_map<std::string_view, Ty> m{
        {"pred", Ty::pred}, {"b8", Ty::b8}, {"b16", Ty::b16}, {"b32", Ty::b32}, {"b64", Ty::b64},
        {"b128", Ty::b128}, {"u8", Ty::u8}, {"u16", Ty::u16}, {"u32", Ty::u32}, {"u64", Ty::u64},
        {"s8", Ty::s8}, {"s16", Ty::s16}, {"s32", Ty::s32}, {"s64", Ty::s64}, {"f16", Ty::f16},
        {"f16x2", Ty::f16x2}, {"bf16", Ty::bf16}, {"bf16x2", Ty::bf16x2}, {"f32", Ty::f32}, {"f64", Ty::f64}};
    auto it = m.find(t);
    if (it == m.end()) return std::nullopt;
    return it->second;
}

std::optional<Sp> space_of(std::string_view t) {
    if (t == "global") return Sp::global;
    if (t == "shared" || t == "shared::cta") return Sp::shared;
    if (t == "local") return Sp::local;
    if (t == "const") return Sp::constant;
    if (t == "param") return Sp::param;
    return std::nullopt;
}

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == '.') {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

long long align_up(long long v, long long a) { return a <= 1 ? v : (v + a - 1) / a * a; }

std::string demangle(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : name;
}

// ---- the parser ----------------------------------------------------------------------------
struct PendingLabel {
    int function, instr, operand;
    std::string label;
    int ptx_line;
};
struct PendingCall {
    int function, instr;
    std::string callee;
    int ptx_line;
};

class Parser {
public:
    explicit Parser(std::string_view text) : toks_(tokenize(text)) { m_ = std::make_shared<Module>(); }

    std::shared_ptr<Module> run() {
        while (!at_end()) top_level();
        finish();
        return m_;
    }

private:
    std::vector<Tok> toks_;
    size_t p_ = 0;
    std::shared_ptr<Module> m_;
    SourceLoc cur_loc_{};
    // Per function being decoded
    Function* fn_ = nullptr;
    int fn_index_ = -1;
    std::unordered_map<std::string, int> regs_;       // register name -> slot
    std::unordered_map<std::string, int> labels_;     // label -> instruction index
    std::unordered_map<std::string, std::pair<Sp, long long>> local_syms_;  // local/param syms
    std::vector<std::string> call_param_names_;      // scoped .param names in order of declaration
    std::vector<PendingLabel> pending_labels_;
    std::vector<PendingCall> pending_calls_;
    std::vector<std::vector<std::string>> opcode_text_;
    // Operands that name a .shared variable: its offset is added once the entries' layouts exist.
    struct VarRef {
        int function, instr, operand, var;
    };
    std::vector<VarRef> var_refs_;

    // -- token helpers
    const Tok& peek(size_t k = 0) {
        size_t q = p_;
        for (;;) {
            while (toks_[q].kind == Tok::newline) ++q;
            if (k == 0) return toks_[q];
            --k, ++q;
        }
    }
    const Tok& next() {
        while (toks_[p_].kind == Tok::newline) ++p_;
        const Tok& t = toks_[p_];
        if (t.kind != Tok::end) ++p_;
        return t;
    }
    bool at_end() { return peek().kind == Tok::end; }
    bool accept(const char* s) {
        if (peek().text == s && peek().kind != Tok::string) {
            next();
            return true;
        }
        return false;
    }
    [[noreturn]] void fail(int line, const std::string& what) {
        std::string where = fmt::format("PTX line {}", line);
        std::string file;
        if (cur_loc_.file >= 0 && cur_loc_.file < (int)m_->files.size()) file = m_->files[cur_loc_.file];
        // NVRTC writes the .file table after the functions: look ahead for it.
        for (size_t q = 0; file.empty() && cur_loc_.file >= 0 && q + 2 < toks_.size(); ++q)
            if (toks_[q].text == ".file" && toks_[q + 1].text == std::to_string(cur_loc_.file) &&
                toks_[q + 2].kind == Tok::string)
                file = toks_[q + 2].text;
        if (!file.empty() && cur_loc_.line > 0)
            where += fmt::format(" ({}:{})", file, cur_loc_.line);
        else if (cur_loc_.line > 0)
            where += fmt::format(" (source line {})", cur_loc_.line);
        throw Error(where + ": " + what);
    }
    void expect(const char* s) {
        const Tok& t = next();
        if (t.text != s) fail(t.line, fmt::format("expected '{}', found '{}'", s, t.text));
    }
    void skip_line() {  // the rest of a directive line
        while (toks_[p_].kind != Tok::newline && toks_[p_].kind != Tok::end) ++p_;
    }
    void skip_statement() {
        while (!at_end() && peek().text != ";") next();
        accept(";");
    }
    void skip_braces() {
        expect("{");
        int depth = 1;
        while (depth > 0 && !at_end()) {
            const Tok& t = next();
            if (t.kind == Tok::punct && t.text == "{") ++depth;
            if (t.kind == Tok::punct && t.text == "}") --depth;
        }
    }

    // -- top level
    void top_level() {
        const Tok& t = peek();
        if (t.kind != Tok::ident) fail(t.line, "unexpected '" + t.text + "'");
        if (t.text == ".version" || t.text == ".target" || t.text == ".address_size") {
            next();
            skip_line();
            return;
        }
        if (t.text == ".file") return file_directive();
        if (t.text == ".section") {
            next();
            next();  // the section's name
            skip_braces();
            return;
        }
        if (t.text == ".pragma") return skip_statement();
        // linkage and declarations
        bool is_extern = false;
        while (peek().text == ".visible" || peek().text == ".extern" || peek().text == ".weak" ||
               peek().text == ".common") {
            if (peek().text == ".extern") is_extern = true;
            next();
        }
        const Tok& d = peek();
        if (d.text == ".entry" || d.text == ".func") return function(is_extern);
        if (auto sp = space_of(d.text.substr(1))) {
            next();
            return variable(*sp, is_extern, /*in_function=*/false);
        }
        fail(d.line, "unsupported directive '" + d.text + "'");
    }

    void file_directive() {
        next();
        const Tok& n = next();
        const Tok& path = next();
        auto idx = parse_int(n.text);
        if (!idx || path.kind != Tok::string) fail(n.line, "malformed .file");
        if (m_->files.size() <= *idx) m_->files.resize(*idx + 1);
        m_->files[*idx] = path.text;
        skip_line();
    }

    void loc_directive() {
        next();
        const Tok& f = next();
        const Tok& l = next();
        auto fi = parse_int(f.text);
        auto li = parse_int(l.text);
        // Line 0 is code the compiler made up: it keeps the line before it.
        if (fi && li && *li > 0) cur_loc_ = SourceLoc{(int)*fi, (int)*li};
        skip_line();
    }

    // [.align N] .type name[dims] [= {init}] ;  (after the space)
    void variable(Sp space, bool is_extern, bool in_function) {
        int align = 0;
        Variable v;
        v.space = space;
        const Ty ty = variable_type(align);
        const Tok& name = next();
        if (name.kind != Tok::ident) fail(name.line, "expected a variable name");
        v.name = name.text;
        int elem = std::max(1, bytes_of(ty == Ty::pred ? Ty::b8 : ty));
        bool unsized = false;
        const long long count = array_count(unsized);
        v.align = align > 0 ? align : elem;
        v.bytes = unsized ? 0 : count * elem;
        if (accept("=")) read_initializer(v, space, elem);
        expect(";");
        if (space == Sp::local || (space == Sp::param && in_function)) {
            place_frame_variable(v, space, name.line);
            return;
        }
        place_module_variable(std::move(v), space, is_extern, unsized, name.line);
    }

    // [.align N] .type, in either order; b8 when no type is given.
    Ty variable_type(int& align) {
        Ty ty = Ty::b8;
        for (;;) {
            const Tok& t = peek();
            if (t.text == ".align") {
                next();
                align = (int)parse_int(next().text).value_or(1);
            } else if (t.kind == Tok::ident && t.text[0] == '.' && type_of(t.text.substr(1))) {
                ty = *type_of(next().text.substr(1));
            } else if (t.kind == Tok::ident && t.text[0] == '.' && (t.text == ".v2" || t.text == ".v4")) {
                fail(t.line, "vector variables are not supported");
            } else {
                break;
            }
        }
        return ty;
    }

    // [n][m]...: the element count; a [] leaves the array unsized.
    long long array_count(bool& unsized) {
        long long count = 1;
        while (accept("[")) {
            if (accept("]")) {
                unsized = true;
                continue;
            }
            const Tok& n = next();
            auto c = parse_int(n.text);
            if (!c) fail(n.line, "array size must be a number");
            count *= (long long)*c;
            expect("]");
        }
        return count;
    }

    // = value | = {v0, v1, ...}: the values' low bytes, element by element, zero-filled to the size.
    // A value may be an address: a function's (a table of function pointers), or a variable's,
    // `generic(var)` or `var`, plus an offset.
    void read_initializer(Variable& v, Sp space, int elem) {
        std::vector<std::uint64_t> vals;
        auto value = [&](const Tok& n) -> std::uint64_t {
            if (n.kind == Tok::ident) return address_value(n, v, space);
            bool neg = false;
            std::string txt = n.text;
            if (txt == "-") {
                neg = true;
                txt = next().text;
            }
            const std::uint64_t iv = parse_imm_text(txt, n.line);
            return neg ? (std::uint64_t)(-(std::int64_t)iv) : iv;
        };
        if (accept("{")) {
            while (!accept("}")) {
                const Tok& n = next();
                if (n.text == ",") continue;
                vals.push_back(value(n));
            }
        } else {
            vals.push_back(value(next()));
        }
        v.init.assign((size_t)v.bytes, 0);
        for (size_t i = 0; i < vals.size() && (long long)((i + 1) * elem) <= v.bytes; ++i)
            std::memcpy(v.init.data() + i * elem, &vals[i], (size_t)elem);
    }

    // An address in an initializer: a function, or generic(var) / var [+ offset] of a .global or
    // .const variable declared before.
    std::uint64_t address_value(const Tok& n, const Variable& v, Sp space) {
        const std::string where = "the initializer of ." + std::string(space == Sp::constant ? "const" : "global") + " " + v.name;
        std::string name = n.text;
        bool generic = false;
        if (name == "generic" && accept("(")) {
            name = next().text;
            expect(")");
            generic = true;
        }
        std::uint64_t address = 0;
        if (auto f = m_->function_index.find(name); f != m_->function_index.end()) {
            address = function_address(f->second);
        } else if (auto it = m_->variable_index.find(name); it != m_->variable_index.end()) {
            const Variable& target = m_->variables[(size_t)it->second];
            if (target.space == Sp::global) address = ptx::buffer_address(kModuleGlobalsIndex) + (std::uint64_t)target.offset;
            else if (target.space == Sp::constant) address = (generic ? kConstWindow : 0) + (std::uint64_t)target.offset;
            else fail(n.line, where + " holds the address of " + demangle(name) + ", which is not a .global or .const variable");
        } else {
            fail(n.line, where + " names " + demangle(name) + ", which is no variable or function declared before it");
        }
        if (accept("+")) address += parse_imm_text(next().text, n.line);
        return address;
    }

    // A .local or a function's .param: an offset in the function's frame.
    void place_frame_variable(const Variable& v, Sp space, int line) {
        if (!fn_) fail(line, "a .local variable outside a function");
        if (space == Sp::local) {
            fn_->local_bytes = align_up(fn_->local_bytes, v.align);
            local_syms_[v.name] = {Sp::local, fn_->local_bytes};
            fn_->local_align = std::max(fn_->local_align, v.align);
            fn_->local_bytes += v.bytes;
        } else {
            fn_->param_bytes = (int)align_up(fn_->param_bytes, std::max(1, v.align));
            local_syms_[v.name] = {Sp::param, fn_->param_bytes};
            call_param_names_.push_back(v.name);
            fn_->param_bytes += (int)v.bytes;
        }
    }

    // A module .global / .const at its aligned offset; .shared is laid out per entry later.
    void place_module_variable(Variable&& v, Sp space, bool is_extern, bool unsized, int line) {
        if (space == Sp::shared && unsized) {
            if (!is_extern) fail(line, "an unsized .shared array that is not .extern");
            v.dynamic_shared = true;
        } else if (is_extern && space != Sp::shared) {
            fail(line, "an .extern ." + std::string(space == Sp::constant ? "const" : "global") +
                           " variable (defined in another module) cannot be linked here");
        }
        auto& layout = space == Sp::shared ? m_->shared_bytes
                       : space == Sp::constant ? m_->const_bytes
                                               : m_->global_bytes;
        if (space != Sp::shared && space != Sp::constant && space != Sp::global)
            fail(line, "unsupported module variable space");
        if (space != Sp::shared) {
            layout = align_up(layout, v.align);
            v.offset = layout;
            layout += v.bytes;
        }
        m_->variable_index[v.name] = (int)m_->variables.size();
        m_->variables.push_back(std::move(v));
    }

    std::uint64_t parse_imm_text(const std::string& t, int line) {
        if (t.size() > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F')) {
            auto v = std::strtoull(t.c_str() + 2, nullptr, 16);
            return v;  // f32 bits
        }
        if (t.size() > 2 && t[0] == '0' && (t[1] == 'd' || t[1] == 'D')) return std::strtoull(t.c_str() + 2, nullptr, 16);
        const bool hex = t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
        if (!hex && (t.find('.') != std::string::npos || t.find('e') != std::string::npos)) {
            double d = std::strtod(t.c_str(), nullptr);
            std::uint64_t b;
            std::memcpy(&b, &d, 8);
            return b;
        }
        auto v = parse_int(t);
        if (!v) fail(line, "malformed number '" + t + "'");
        return *v;
    }

    // .entry name (params) [directives] { body } | ;
    // .func [(retval)] name [(params)] [.noreturn] { body } | ;
    void function(bool is_extern) {
        const Tok& kw = next();
        Function f;
        f.is_entry = kw.text == ".entry";
        std::vector<std::pair<Param, int>> formals;  // param and alignment
        std::optional<Param> retval;
        if (!f.is_entry && peek().text == "(") {
            std::vector<std::pair<Param, int>> r;
            param_list(r);
            if (r.size() != 1) fail(kw.line, "a function with more than one return value");
            retval = r[0].first;
        }
        f.name = next().text;
        if (peek().text == "(") param_list(formals);
        performance_directives(f);
        lay_out_params(f, formals, retval, kw.line);
        const int index = function_slot(f.name);
        if (accept(";")) {  // a declaration (vprintf, or a forward declaration)
            if (!m_->functions[index].defined) {
                Function& slot = m_->functions[index];
                const std::string nm = f.name;
                slot = std::move(f);
                slot.name = nm;
            }
            (void)is_extern;
            return;
        }
        begin_definition(std::move(f), index, retval);
        expect("{");
        body();
        resolve_labels();
        fn_ = nullptr;
    }

    // ( .param .type [.ptr .space] [.align N] name[dims], ... )
    void param_list(std::vector<std::pair<Param, int>>& into) {
        expect("(");
        while (!accept(")")) {
            if (accept(",")) continue;
            const Tok& ps = next();
            if (ps.text != ".param" && ps.text != ".reg") fail(ps.line, "expected .param in a parameter list");
            int align = 0, elem = 0;
            long long count = 1;
            Param prm;
            while (peek().kind == Tok::ident && peek().text[0] == '.') {
                const Tok& t = next();
                if (t.text == ".align") align = (int)parse_int(next().text).value_or(1);
                else if (auto ty = type_of(t.text.substr(1))) elem = bytes_of(*ty);
                else if (t.text == ".ptr" || t.text == ".global" || t.text == ".shared" || t.text == ".const" || t.text == ".local") {
                } else fail(t.line, "unsupported parameter attribute " + t.text);
            }
            prm.name = next().text;
            while (accept("[")) {
                count *= (long long)parse_int(next().text).value_or(1);
                expect("]");
            }
            prm.bytes = (int)(elem * count);
            into.push_back({prm, align > 0 ? align : elem});
        }
    }

    // performance directives: .maxntid 256, 1, 1  .reqntid ...  .minnctapersm N  .noreturn; the
    // launch limits (.maxntid and .reqntid as their product: threads per block) are kept.
    void performance_directives(Function& f) {
        while (peek().kind == Tok::ident && peek().text[0] == '.') {
            const std::string d = next().text;
            long long product = 1;
            bool any = false;
            while (peek().kind == Tok::number || peek().text == ",") {
                const Tok& n = next();
                if (n.kind == Tok::number) product *= (long long)parse_int(n.text).value_or(1), any = true;
            }
            if (!any) continue;
            if (d == ".maxntid") f.maxntid = (int)std::min<long long>(product, 1 << 20);
            else if (d == ".reqntid") f.reqntid = (int)std::min<long long>(product, 1 << 20);
            else if (d == ".minnctapersm") f.minnctapersm = (int)product;
        }
    }

    // Params at their aligned offsets, then the return value 8-aligned after them.
    void lay_out_params(Function& f, const std::vector<std::pair<Param, int>>& formals,
                        const std::optional<Param>& retval, int line) {
        for (const auto& [prm, al] : formals) {
            f.param_bytes = (int)align_up(f.param_bytes, std::max(1, al));
            f.param_offsets.push_back(f.param_bytes);
            f.param_bytes += prm.bytes;
            f.params.push_back(prm);
            if (f.is_entry && prm.bytes > 8)
                fail(line, fmt::format("kernel parameter {} is {} bytes: only scalars and pointers "
                                       "(at most 8 bytes) can be passed", prm.name, prm.bytes));
        }
        if (retval) {
            f.param_bytes = (int)align_up(f.param_bytes, 8);
            f.retval_offset = f.param_bytes;
            f.retval_bytes = retval->bytes;
            f.param_bytes += retval->bytes;
        }
    }

    // The function's index, new or that of an earlier declaration.
    int function_slot(const std::string& name) {
        int index;
        if (auto it = m_->function_index.find(name); it != m_->function_index.end()) {
            index = it->second;
        } else {
            index = (int)m_->functions.size();
            m_->function_index[name] = index;
            m_->functions.emplace_back();
            opcode_text_.emplace_back();
        }
        return index;
    }

    // Makes f the function being parsed, with a fresh register, label and symbol scope.
    void begin_definition(Function&& f, int index, const std::optional<Param>& retval) {
        m_->functions[index] = std::move(f);
        fn_ = &m_->functions[index];
        fn_index_ = index;
        fn_->defined = true;
        regs_.clear();
        labels_.clear();
        local_syms_.clear();
        call_param_names_.clear();
        for (size_t i = 0; i < fn_->params.size(); ++i)
            local_syms_[fn_->params[i].name] = {Sp::param, fn_->param_offsets[i]};
        if (retval) local_syms_[retval->name] = {Sp::param, fn_->retval_offset};
    }

    void resolve_labels() {
        for (auto& pl : pending_labels_) {
            auto it = labels_.find(pl.label);
            if (it == labels_.end()) fail(pl.ptx_line, "unknown label " + pl.label);
            m_->functions[pl.function].code[pl.instr].o[pl.operand].imm = it->second;
        }
        pending_labels_.clear();
    }

    int reg_slot(const Tok& t) {
        auto it = regs_.find(t.text);
        if (it == regs_.end()) fail(t.line, "unknown register " + t.text);
        return it->second;
    }

    void reg_declaration() {
        next();  // .reg
        while (peek().kind == Tok::ident && peek().text[0] == '.' && peek().text[1] != '%') {
            const Tok& t = next();
            if (t.text == ".v2" || t.text == ".v4") fail(t.line, "vector registers are not supported");
        }
        for (;;) {
            const Tok& n = next();
            // (any identifier: CUDA 13's call sequences declare `.reg .b32 temp_param_reg;`)
            if (n.kind != Tok::ident || n.text[0] == '.') fail(n.line, "expected a register name");
            if (accept("<")) {
                auto cnt = parse_int(next().text);
                expect(">");
                for (std::uint64_t i = 0; i < cnt.value_or(0); ++i) regs_[n.text + std::to_string(i)] = fn_->slots++;
            } else {
                regs_[n.text] = fn_->slots++;
                if (n.text == "%SPL") fn_->spl_slot = regs_[n.text];
                if (n.text == "%SP") fn_->sp_slot = regs_[n.text];
            }
            if (!accept(",")) break;
        }
        expect(";");
    }

    void body() {
        int depth = 1;
        while (depth > 0) {
            const Tok& t = peek();
            if (t.kind == Tok::end) fail(t.line, "unterminated function body");
            if (t.kind == Tok::punct && t.text == "{") {
                next();
                ++depth;
                continue;
            }
            if (t.kind == Tok::punct && t.text == "}") {
                next();
                --depth;
                continue;
            }
            if (t.text == ".loc") {
                loc_directive();
                continue;
            }
            if (t.text == ".reg") {
                reg_declaration();
                continue;
            }
            if (t.text == ".pragma") {
                skip_statement();
                continue;
            }
            if (t.text == ".local" || t.text == ".shared" || t.text == ".param" || t.text == ".const" ||
                t.text == ".global") {
                next();
                variable(*space_of(t.text.substr(1)), false, true);
                continue;
            }
            if (t.kind == Tok::ident && peek(1).text == ":") {
                labels_[next().text] = (int)fn_->code.size();
                next();
                if (peek().text == ".callprototype") skip_statement();  // an indirect call's prototype
                continue;
            }
            instruction();
        }
    }

    // ---- operands
    Operand operand(const Instr& in, int ptx_line) {
        const Tok& t = peek();
        if (t.text == "[") return address_operand(in);
        if (t.text == "{") return vector_operand();
        if (t.text == "!") {
            next();
            Operand o = operand(in, ptx_line);
            o.negate = true;
            return o;
        }
        if (t.text == "-" && peek(1).kind == Tok::number) return negated_immediate();
        if (t.kind == Tok::number) return immediate(in);
        if (t.kind == Tok::ident) return named_operand(in, ptx_line);
        fail(t.line, "unexpected operand '" + t.text + "'");
    }

    // [reg + imm], [symbol + imm], [imm]
    Operand address_operand(const Instr& in) {
        Operand o;
        next();
        o.kind = Operand::kMem;
        o.space = in.space;
        o.reg = -1;
        o.imm = 0;
        bool first = true;
        while (!accept("]")) {
            bool neg = false;
            if (accept("+")) {
            }
            if (accept("-")) neg = true;
            const Tok& a = next();
            if (a.kind == Tok::number) {
                std::int64_t v = (std::int64_t)parse_imm_text(a.text, a.line);
                o.imm += neg ? -v : v;
            } else if (a.kind == Tok::ident && regs_.count(a.text)) {
                if (!first || o.reg >= 0) fail(a.line, "an address with two registers");
                o.reg = regs_[a.text];
            } else if (a.kind == Tok::ident) {
                const SymAddr addr = symbol_address(a, in);
                o.imm += addr.offset;
                o.frame_rel = addr.frame_rel;
                o.dyn_shared = addr.dyn;
                if (!addr.dyn && addr.var >= 0) var_refs_.push_back({fn_index_, (int)fn_->code.size(), in.nops, addr.var});
                if (in.space == Sp::generic) {
                    if (addr.frame_rel || addr.var >= 0 || addr.dyn)
                        fail(a.line, "a generic access to the symbol " + a.text + " (use cvta)");
                    o.imm += window_of(addr.space);
                }
            } else {
                fail(a.line, "malformed address");
            }
            first = false;
        }
        return o;
    }

    // {r0, r1, _, r3}: the registers go to the function's vec_regs, the operand holds where they start.
    Operand vector_operand() {
        Operand o;
        next();
        o.kind = Operand::kVec;
        o.reg = (int)fn_->vec_regs.size();
        int count = 0;
        while (!accept("}")) {
            if (accept(",")) continue;
            const Tok& r = next();
            if (r.text == "_") fn_->vec_regs.push_back(-1);
            else fn_->vec_regs.push_back(reg_slot(r));
            ++count;
        }
        o.reg2 = count;
        return o;
    }

    // A leading minus flips the sign bit of a float literal and negates an integer.
    Operand negated_immediate() {
        Operand o;
        next();
        const Tok& n = next();
        o.kind = Operand::kImm;
        std::uint64_t v = parse_imm_text(n.text, n.line);
        const bool is_fp_bits = n.text.size() > 1 && (n.text[1] == 'f' || n.text[1] == 'F' || n.text[1] == 'd' || n.text[1] == 'D');
        if (is_fp_bits) v ^= (n.text[1] == 'f' || n.text[1] == 'F') ? 0x80000000ull : 0x8000000000000000ull;
        else if (n.text.find('.') != std::string::npos) v ^= 0x8000000000000000ull;
        else v = (std::uint64_t)(-(std::int64_t)v);
        o.imm = (std::int64_t)v;
        return o;
    }

    Operand immediate(const Instr& in) {
        Operand o;
        const Tok& n = next();
        o.kind = Operand::kImm;
        std::uint64_t v = parse_imm_text(n.text, n.line);
        // A decimal float literal given to an f32 instruction is an f32 value.
        if (n.text.find('.') != std::string::npos && in.type == Ty::f32) {
            double d;
            std::memcpy(&d, &v, 8);
            float f = (float)d;
            std::uint32_t b;
            std::memcpy(&b, &f, 4);
            v = b;
        }
        o.imm = (std::int64_t)v;
        return o;
    }

    // A register, a special register, '_', a branch label or a symbol's address.
    Operand named_operand(const Instr& in, int ptx_line) {
        Operand o;
        const Tok& n = next();
        if (regs_.count(n.text)) {
            o.kind = Operand::kReg;
            o.reg = regs_[n.text];
            if (accept("|")) {
                o.kind = Operand::kPair;
                o.reg2 = reg_slot(next());
            }
            return o;
        }
        if (n.text[0] == '%') {
            if (auto s = special(n.text)) {
                o.kind = Operand::kSpecial;
                o.reg = (int)*s;
                return o;
            }
            fail(n.line, "unknown register " + n.text);
        }
        if (n.text == "_") {
            o.kind = Operand::kNone;
            return o;
        }
        // a function's address (a function pointer), a label (branch) or a symbol's address
        if (auto f = m_->function_index.find(n.text); f != m_->function_index.end() && in.op != Op::call) {
            o.kind = Operand::kImm;
            o.imm = (std::int64_t)function_address(f->second);
            return o;
        }
        if (in.op == Op::bra) {
            o.kind = Operand::kLabel;
            pending_labels_.push_back({fn_index_, (int)fn_->code.size(), in.nops, n.text, ptx_line});
            return o;
        }
        const SymAddr addr = symbol_address(n, in);
        o.kind = Operand::kSymAddr;
        o.space = addr.space;
        o.imm = addr.offset;
        o.frame_rel = addr.frame_rel;
        o.dyn_shared = addr.dyn;
        if (!addr.dyn && addr.var >= 0) var_refs_.push_back({fn_index_, (int)fn_->code.size(), in.nops, addr.var});
        if (accept("+")) o.imm += (std::int64_t)parse_imm_text(next().text, n.line);
        return o;
    }

    static std::uint64_t window_of(Sp s) {
        switch (s) {
            case Sp::shared: return kSharedWindow;
            case Sp::local: return kLocalWindow;
            case Sp::constant: return kConstWindow;
            case Sp::param: return kParamWindow;
            default: return 0;  // global: symbol_address gives the address itself
        }
    }

    // A symbol's address in its own space: module variables, the function's locals and params.
    struct SymAddr {
        Sp space;
        long long offset;
        bool frame_rel = false;
        int var = -1;          // a .shared variable (laid out per entry at the end)
        bool dyn = false;      // .extern .shared
    };
    SymAddr symbol_address(const Tok& t, const Instr&) {
        if (auto it = local_syms_.find(t.text); it != local_syms_.end())
            return {it->second.first, it->second.second, true};
        if (auto it = m_->variable_index.find(t.text); it != m_->variable_index.end()) {
            const Variable& v = m_->variables[it->second];
            if (v.space == Sp::shared) {
                if (std::find(fn_->shared_vars.begin(), fn_->shared_vars.end(), it->second) == fn_->shared_vars.end())
                    fn_->shared_vars.push_back(it->second);
                return {Sp::shared, 0, false, it->second, v.dynamic_shared};
            }
            // A .global variable (printf's format strings, __device__ variables) lives in the
            // module's own buffer: its address is a global address wherever it is used (mov,
            // ld.global [sym], cvta.global), as the executor's bounds check expects.
            if (v.space == Sp::global) return {v.space, (long long)(v.offset + ptx::buffer_address(kModuleGlobalsIndex))};
            return {v.space, v.offset};
        }
        fail(t.line, "unknown symbol " + t.text);
    }

    static std::optional<Special> special(const std::string& s) {
        static const std::unordered_map<std::string, Special> m{
            {"%tid.x", Special::tid_x}, {"%tid.y", Special::tid_y}, {"%tid.z", Special::tid_z},
            {"%ntid.x", Special::ntid_x}, {"%ntid.y", Special::ntid_y}, {"%ntid.z", Special::ntid_z},
            {"%ctaid.x", Special::ctaid_x}, {"%ctaid.y", Special::ctaid_y}, {"%ctaid.z", Special::ctaid_z},
            {"%nctaid.x", Special::nctaid_x}, {"%nctaid.y", Special::nctaid_y}, {"%nctaid.z", Special::nctaid_z},
            {"%laneid", Special::laneid}, {"%warpid", Special::warpid}, {"%nwarpid", Special::nwarpid},
            {"%smid", Special::smid}, {"%nsmid", Special::nsmid}, {"%gridid", Special::gridid},
            {"%lanemask_eq", Special::lanemask_eq}, {"%lanemask_lt", Special::lanemask_lt},
            {"%lanemask_le", Special::lanemask_le}, {"%lanemask_gt", Special::lanemask_gt},
            {"%lanemask_ge", Special::lanemask_ge}, {"%clock", Special::clock}, {"%clock64", Special::clock64},
            {"%globaltimer", Special::globaltimer}, {"%globaltimer_lo", Special::globaltimer_lo},
            {"%globaltimer_hi", Special::globaltimer_hi}, {"%dynamic_smem_size", Special::dynamic_smem_size},
            {"%total_smem_size", Special::total_smem_size}};
        auto it = m.find(s);
        if (it == m.end()) return std::nullopt;
        return it->second;
    }

    // ---- instructions
    void instruction();
    bool decode_opcode(Instr& in, const std::string& opcode, int line);
    void finish();
    void layout_shared();
};

// An opcode's base name (opcodes.def), or one of PTX's other spellings of the same instruction.
std::optional<Op> op_of(const std::string& base) {
    static const std::unordered_map<std::string, Op> ops = [] {
        std::unordered_map<std::string, Op> m;
        for (int k = 0; k < kOpCount; ++k) m.emplace(kOpName[k], static_cast<Op>(k));
        m.emplace("barrier", Op::bar);
        m.emplace("fence", Op::membar);
        m.emplace("prefetchu", Op::prefetch);
        return m;
    }();
    auto it = ops.find(base);
    if (it == ops.end()) return std::nullopt;
    return it->second;
}

// Rounding, comparison, sub-operation and vector modifiers, each meaningful only to some opcodes.
// Returns false for a modifier that is none of these.
bool apply_mode_modifier(Instr& in, const std::string& q) {
    static const std::unordered_map<std::string, Rnd> rnds{
        {"rn", Rnd::rn}, {"rz", Rnd::rz}, {"rm", Rnd::rm}, {"rp", Rnd::rp}, {"rni", Rnd::rni},
        {"rzi", Rnd::rzi}, {"rmi", Rnd::rmi}, {"rpi", Rnd::rpi}, {"rna", Rnd::rna}};
    if (auto r = rnds.find(q); r != rnds.end()) {
        in.rnd = r->second;
        return true;
    }
    static const std::unordered_map<std::string, Cmp> cmps{
        {"eq", Cmp::eq}, {"ne", Cmp::ne}, {"lt", Cmp::lt}, {"le", Cmp::le}, {"gt", Cmp::gt},
        {"ge", Cmp::ge}, {"lo", Cmp::lo}, {"ls", Cmp::ls}, {"hi", Cmp::hi}, {"hs", Cmp::hs},
        {"equ", Cmp::equ}, {"neu", Cmp::neu}, {"ltu", Cmp::ltu}, {"leu", Cmp::leu},
        {"gtu", Cmp::gtu}, {"geu", Cmp::geu}, {"num", Cmp::num}, {"nan", Cmp::nan}};
    if ((in.op == Op::setp || in.op == Op::set || in.op == Op::slct) && cmps.count(q)) {
        in.cmp = cmps.at(q);
        return true;
    }
    static const std::unordered_map<std::string, Sub> subs{
        {"up", Sub::up}, {"down", Sub::down}, {"bfly", Sub::bfly}, {"idx", Sub::idx},
        {"all", Sub::all}, {"any", Sub::any}, {"uni", Sub::uni}, {"ballot", Sub::ballot},
        {"add", Sub::add}, {"min", Sub::min}, {"max", Sub::max}, {"inc", Sub::inc},
        {"dec", Sub::dec}, {"and", Sub::and_}, {"or", Sub::or_}, {"xor", Sub::xor_},
        {"exch", Sub::exch}, {"cas", Sub::cas}, {"popc", Sub::popc}, {"finite", Sub::finite},
        {"infinite", Sub::infinite}, {"number", Sub::number}, {"notanumber", Sub::notanumber},
        {"normal", Sub::normal}, {"subnormal", Sub::subnormal}};
    const bool takes_sub = in.op == Op::shfl || in.op == Op::vote || in.op == Op::match ||
                           in.op == Op::atom || in.op == Op::red || in.op == Op::redux ||
                           in.op == Op::bar || in.op == Op::bar_red || in.op == Op::testp;
    if (takes_sub && subs.count(q)) {
        if (in.op == Op::bar && q == "red") return true;
        in.sub = subs.at(q);
        return true;
    }
    if ((in.op == Op::setp || in.op == Op::set) && (q == "and" || q == "or" || q == "xor")) {
        in.flags |= q == "and" ? kBoolAnd : q == "or" ? kBoolOr : kBoolXor;
        return true;
    }
    if (in.op == Op::shf && (q == "l" || q == "r")) {  // shift left / right: Sub::up / Sub::down
        in.sub = q == "l" ? Sub::up : Sub::down;
        return true;
    }
    if (in.op == Op::bar && q == "red") {
        in.op = Op::bar_red;
        return true;
    }
    if (in.op == Op::bar && q == "warp") {
        in.op = Op::bar_warp;
        return true;
    }
    if (in.op == Op::cvta && q == "to") {
        in.op = Op::cvta_to;
        return true;
    }
    if (q == "v2" || q == "v4") {
        in.vec = (std::uint8_t)(q == "v2" ? 2 : 4);
        return true;
    }
    return false;
}

// Modifiers that set a flag bit, or that change nothing the CPU engine models (flag 0).
std::optional<std::uint32_t> modifier_flag(const std::string& q) {
    static const std::unordered_map<std::string, std::uint32_t> flags{
        {"ftz", kFtz}, {"sat", kSat}, {"approx", kApprox}, {"full", kFull}, {"hi", kHi},
        {"lo", kLo}, {"wide", kWide}, {"cc", kCc}, {"NaN", kNaN}, {"shiftamt", kShiftr},
        {"wrap", kWrap}, {"clamp", kClamp}, {"volatile", kVolatile | kStrong}, {"nc", kNc},
        {"uni", kUni}, {"aligned", kAligned}, {"xorsign", kXorsign}, {"relu", kRelu},
        {"relaxed", kStrong}, {"acquire", kStrong | kSemAcquire}, {"release", kStrong | kSemRelease},
        {"acq_rel", kStrong | kSemAcquire | kSemRelease}, {"weak", 0},
        {"sync", 0}, {"cta", 0}, {"gpu", 0}, {"sys", 0}, {"gl", 0}, {"L1", 0}, {"L2", 0},
        {"ca", 0}, {"cg", 0}, {"cs", 0}, {"lu", 0}, {"cv", 0}, {"wb", 0}, {"wt", 0},
        {"sc", 0}, {"noftz", 0}, {"mmio", kStrong}, {"arrive", 0x80000000u}, {"red", 0},
        {"any", 0}, {"all", 0}, {"L1::evict_last", 0}, {"evict_last", 0}, {"evict_first", 0},
        {"evict_normal", 0}, {"evict_unchanged", 0}, {"no_allocate", 0}, {"L2::64B", 0},
        {"64B", 0}, {"128B", 0}, {"256B", 0}, {"f4e", kPrmtF4e}, {"b4e", kPrmtB4e}, {"rc8", kPrmtRc8},
        {"ecl", kPrmtEcl}, {"ecr", kPrmtEcr}, {"rc16", kPrmtRc16}};
    if (auto f = flags.find(q); f != flags.end()) return f->second;
    return std::nullopt;
}

// The opcode's dotted parts -> op, types, modifiers. Returns false for an opcode not run here.
bool Parser::decode_opcode(Instr& in, const std::string& opcode, int line) {
    const auto parts = split_dots(opcode);
    const auto op = op_of(parts[0]);
    if (!op) return false;
    in.op = *op;
    std::vector<Ty> types;
    for (size_t i = 1; i < parts.size(); ++i) {
        const std::string& q = parts[i];
        if (auto ty = type_of(q)) {
            types.push_back(*ty);
            continue;
        }
        if (auto sp = space_of(q)) {
            in.space = *sp;
            continue;
        }
        if (apply_mode_modifier(in, q)) continue;
        if (auto f = modifier_flag(q)) {
            if (*f == 0x80000000u) fail(line, "bar.arrive (a split barrier) is not supported");
            in.flags |= *f;
            continue;
        }
        if (q.rfind("L1::", 0) == 0 || q.rfind("L2::", 0) == 0) continue;
        fail(line, fmt::format("'{}': the modifier .{} is not supported", opcode, q));
    }
    if (!types.empty()) in.type = types[0];
    if (types.size() > 1) in.type2 = types[1];
    if (in.op == Op::mul || in.op == Op::mad || in.op == Op::madc) {
        if (!(in.flags & (kHi | kLo | kWide))) in.flags |= is_float(in.type) ? 0u : std::uint32_t(kLo);
    }
    if (family_of(in.op) == Family::atomic) in.flags |= kStrong;  // an atomic is a strong access
    if (family_of(in.op) == Family::fence) in.flags &= ~std::uint32_t(kStrong | kSemAcquire | kSemRelease);
    return true;
}

void Parser::instruction() {
    Instr in;
    in.loc = (int)m_->locs.size();
    m_->locs.push_back(cur_loc_);
    const Tok& first = peek();
    in.ptx_line = first.line;
    if (accept("@")) {
        bool neg = accept("!");
        const Tok& pr = next();
        in.guard = reg_slot(pr);
        in.guard_neg = neg;
    }
    const Tok& opt = next();
    if (opt.kind != Tok::ident) fail(opt.line, "expected an instruction, found '" + opt.text + "'");
    const std::string opcode = opt.text;
    if (!decode_opcode(in, opcode, opt.line))
        fail(opt.line, "the PTX instruction '" + opcode + "' is not supported by the CPU engine");
    if (in.op == Op::call) {
        // call[.uni] (ret), func, (args);   call[.uni] func, (args);   call func;
        CallList cl;
        std::string callee;
        auto sym_off = [&](const Tok& t) {
            auto it = local_syms_.find(t.text);
            if (it == local_syms_.end() || it->second.first != Sp::param) fail(t.line, "call argument " + t.text + " is not a .param");
            return (std::int32_t)it->second.second;
        };
        auto bytes_of_param = [&](const std::string& name) -> std::int32_t {
            // scoped params were declared in order; their size is the gap to the next or the end
            // (the latest declaration: every call sequence declares its own param0, retval0, ...)
            for (size_t i = call_param_names_.size(); i-- > 0;)
                if (call_param_names_[i] == name) {
                    const auto off = local_syms_[name].second;
                    const auto nxt = i + 1 < call_param_names_.size() ? local_syms_[call_param_names_[i + 1]].second : fn_->param_bytes;
                    return (std::int32_t)(nxt - off);
                }
            return 8;
        };
        if (accept("(")) {
            const Tok& r = next();
            cl.retval_offset = sym_off(r);
            cl.retval_bytes = bytes_of_param(r.text);
            expect(")");
            expect(",");
        }
        const Tok& fnt = next();
        callee = fnt.text;
        const bool indirect = regs_.count(callee) > 0;  // call through a function pointer
        if (indirect) {
            in.callee = kCalleeIndirect;
            in.o[0].kind = Operand::kReg;
            in.o[0].reg = regs_[callee];
            in.nops = 1;
        }
        if (accept(",")) {
            expect("(");
            while (!accept(")")) {
                if (accept(",")) continue;
                const Tok& a = next();
                cl.args.push_back({sym_off(a), bytes_of_param(a.text)});
            }
        }
        if (accept(",")) {  // the prototype (or a list of possible targets) of an indirect call
            if (!indirect) fail(opt.line, "a call with a prototype to a named function");
            next();
        }
        expect(";");
        in.call_args = (int)fn_->call_lists.size();
        fn_->call_lists.push_back(std::move(cl));
        if (!indirect) pending_calls_.push_back({fn_index_, (int)fn_->code.size(), callee, opt.line});
        fn_->code.push_back(in);
        opcode_text_[fn_index_].push_back(opcode);
        return;
    }
    while (peek().text != ";") {
        if (in.nops == 6) fail(opt.line, "too many operands");
        if (in.nops > 0) expect(",");
        in.o[in.nops] = operand(in, opt.line);
        ++in.nops;
    }
    expect(";");
    // Memory sites: loads, stores, atomics and barriers get a site id (traces, diagnostics).
    if (in.op == Op::ld || in.op == Op::ldu || in.op == Op::st || in.op == Op::atom || in.op == Op::red ||
        in.op == Op::bar || in.op == Op::bar_red || in.op == Op::bar_warp) {
        in.site = (int)m_->sites.size();
        m_->sites.push_back({fn_index_, (int)fn_->code.size()});
    }
    in.fast = fast_form(in);
    fn_->code.push_back(in);
    opcode_text_[fn_index_].push_back(opcode);
}

void Parser::finish() {
    for (auto& pc : pending_calls_) {
        Instr& in = m_->functions[pc.function].code[pc.instr];
        // the device runtime's functions the engine answers itself
        static const std::pair<const char*, int> builtins[] = {
            {"vprintf", kCalleeVprintf}, {"__assertfail", kCalleeAssertFail}, {"malloc", kCalleeMalloc},
            {"free", kCalleeFree}};
        int builtin = 0;
        for (const auto& [name, id] : builtins)
            if (pc.callee == name) builtin = id;
        if (builtin) {
            in.callee = builtin;
            continue;
        }
        auto it = m_->function_index.find(pc.callee);
        if (it == m_->function_index.end() || !m_->functions[it->second].defined)
            fail(pc.ptx_line, "call to " + pc.callee + ", which has no body in this module (only vprintf "
                                                       "assert's __assertfail, malloc and free among the device "
                                                       "runtime's functions are supported)");
        in.callee = it->second;
    }
    layout_shared();
    // Images of the constant and global banks (initialisers; zeros elsewhere).
    m_->const_image.assign((size_t)m_->const_bytes, 0);
    m_->global_image.assign((size_t)m_->global_bytes, 0);
    for (const auto& v : m_->variables) {
        if (v.init.empty()) continue;
        auto& img = v.space == Sp::constant ? m_->const_image : m_->global_image;
        if (v.space == Sp::constant || v.space == Sp::global)
            std::memcpy(img.data() + v.offset, v.init.data(), v.init.size());
    }
    m_->opcode_text = std::move(opcode_text_);
    for (auto& v : m_->variables) v.display = demangled_variable_name(v.name);
    for (const auto& f : m_->functions)
        if (f.is_entry && f.defined)
            m_->entry_infos.push_back({f.name, f.params, f.static_shared_bytes, f.local_bytes, (int)f.code.size(),
                                       f.maxntid, f.reqntid, f.minnctapersm});
}

// Shared memory is laid out per entry: each entry's .shared variables (its own and its callees')
// start at 0, so a module holding many kernels gives each launch exactly its kernel's bytes (the
// 48 KiB limit, the poison and the shadows are per launch). Two variables share offsets only if
// no entry reaches both. Dynamic shared memory (.extern) starts, 16-byte aligned, after the
// largest static layout of the entries reaching the function that names it.
void Parser::layout_shared() {
    const int nf = (int)m_->functions.size();
    for (int fi = 0; fi < nf; ++fi)
        for (const auto& in : m_->functions[fi].code)
            if (in.op == Op::call && in.callee >= 0) m_->functions[fi].callees.push_back(in.callee);
    // reach[e] = functions reachable from entry e (itself included)
    std::vector<std::vector<char>> reach;
    std::vector<int> entry_ids;
    for (int e = 0; e < nf; ++e) {
        if (!m_->functions[e].is_entry || !m_->functions[e].defined) continue;
        std::vector<char> seen(nf, 0);
        std::vector<int> stack{e};
        while (!stack.empty()) {
            const int f = stack.back();
            stack.pop_back();
            if (seen[f]) continue;
            seen[f] = 1;
            for (int c : m_->functions[f].callees) stack.push_back(c);
        }
        reach.push_back(std::move(seen));
        entry_ids.push_back(e);
    }
    // variables of each entry
    const int nv = (int)m_->variables.size();
    std::vector<std::vector<char>> var_entries(nv, std::vector<char>(entry_ids.size(), 0));
    for (size_t k = 0; k < entry_ids.size(); ++k)
        for (int f = 0; f < nf; ++f)
            if (reach[k][f])
                for (int v : m_->functions[f].shared_vars) var_entries[v][k] = 1;
    std::vector<int> placed;
    std::vector<long long> entry_bytes(entry_ids.size(), 0);
    for (int v = 0; v < nv; ++v) {
        Variable& var = m_->variables[v];
        if (var.space != Sp::shared || var.dynamic_shared) continue;
        long long off = 0;
        for (bool moved = true; moved;) {
            moved = false;
            off = align_up(off, var.align);
            for (int w : placed) {
                const Variable& o = m_->variables[w];
                bool common = false;
                for (size_t k = 0; k < entry_ids.size() && !common; ++k) common = var_entries[v][k] && var_entries[w][k];
                if (common && off < o.offset + o.bytes && o.offset < off + var.bytes) {
                    off = o.offset + o.bytes;
                    moved = true;
                }
            }
        }
        var.offset = off;
        placed.push_back(v);
        for (size_t k = 0; k < entry_ids.size(); ++k)
            if (var_entries[v][k]) entry_bytes[k] = std::max(entry_bytes[k], off + var.bytes);
    }
    m_->shared_bytes = 0;
    for (size_t k = 0; k < entry_ids.size(); ++k) {
        Function& e = m_->functions[entry_ids[k]];
        for (int v = 0; v < nv; ++v)
            if (var_entries[v][k] && !m_->variables[v].dynamic_shared) e.entry_shared_vars.push_back(v);
        m_->functions[entry_ids[k]].static_shared_bytes = entry_bytes[k];
        m_->shared_bytes = std::max(m_->shared_bytes, entry_bytes[k]);
    }
    for (int f = 0; f < nf; ++f) {
        long long base = 0;
        for (size_t k = 0; k < entry_ids.size(); ++k)
            if (reach[k][f]) base = std::max(base, entry_bytes[k]);
        Function& fn = m_->functions[f];
        fn.dynamic_shared_offset = align_up(base, 16);
        for (auto& in : fn.code)
            for (int k = 0; k < in.nops; ++k) {
                Operand& o = in.o[k];
                if (o.dyn_shared) o.imm += fn.dynamic_shared_offset;
            }
    }
    for (const VarRef& r : var_refs_)
        m_->functions[r.function].code[r.instr].o[r.operand].imm += m_->variables[r.var].offset;
}

}  // namespace

std::uint8_t fast_form(const Instr& in) {
    if (in.nops < 2 || in.o[0].kind != Operand::kReg) return kFastNone;
    for (int k = 1; k < in.nops; ++k)
        if ((in.o[k].kind != Operand::kReg && in.o[k].kind != Operand::kImm) || in.o[k].negate) return kFastNone;
    const Ty t = in.type;
    const bool w32 = t == Ty::s32 || t == Ty::u32 || t == Ty::b32;
    const bool w64 = t == Ty::s64 || t == Ty::u64 || t == Ty::b64;
    const bool plain = in.flags == 0 || in.flags == kLo;
    const bool rn = in.rnd == Rnd::none || in.rnd == Rnd::rn;
    switch (in.op) {
        case Op::add:
            if (plain && w32) return kAdd32;
            if (plain && w64) return kAdd64;
            if (in.flags == 0 && rn && t == Ty::f32) return kAddF32;
            if (in.flags == 0 && rn && t == Ty::f64) return kAddF64;
            break;
        case Op::sub: if (plain && w32) return kSub32; break;
        case Op::mul:
            if (in.flags == kLo && w32) return kMulLo32;
            if (in.flags == kWide && t == Ty::s32) return kMulWideS32;
            if (in.flags == kWide && t == Ty::u32) return kMulWideU32;
            if (in.flags == 0 && rn && t == Ty::f32) return kMulF32;
            if (in.flags == 0 && rn && t == Ty::f64) return kMulF64;
            break;
        case Op::mad: if (in.flags == kLo && w32) return kMadLo32; break;
        case Op::fma:
            if (in.flags == 0 && rn && t == Ty::f32) return kFmaF32;
            if (in.flags == 0 && rn && t == Ty::f64) return kFmaF64;
            break;
        case Op::shl:
            if (t == Ty::b32) return kShl32;
            if (t == Ty::b64) return kShl64;
            break;
        case Op::and_:
            if (t == Ty::pred) return kAndPred;
            if (t == Ty::b32) return kAnd32;
            break;
        case Op::or_:
            if (t == Ty::pred) return kOrPred;
            if (t == Ty::b32) return kOr32;
            break;
        case Op::not_: if (t == Ty::pred) return kNotPred; break;
        case Op::selp: if (in.nops == 4) return kSelp; break;
        case Op::cvt:
            if (in.flags == 0 && t == Ty::s64 && in.type2 == Ty::s32) return kCvtS64S32;
            if (in.flags == 0 && t == Ty::u32 && in.type2 == Ty::u64) return kCvtU32U64;
            break;
        case Op::setp:
            if (in.flags != 0 || in.nops != 3) break;
            if (t == Ty::s32 || t == Ty::u32 || t == Ty::b32) {
                const bool u = t != Ty::s32;
                switch (in.cmp) {
                    case Cmp::eq: return kSetpEq32;
                    case Cmp::ne: return kSetpNe32;
                    case Cmp::lt: return u ? kSetpLtU32 : kSetpLtS32;
                    case Cmp::le: return u ? kSetpLeU32 : kSetpLeS32;
                    case Cmp::gt: return u ? kSetpGtU32 : kSetpGtS32;
                    case Cmp::ge: return u ? kSetpGeU32 : kSetpGeS32;
                    case Cmp::lo: return kSetpLtU32;
                    case Cmp::ls: return kSetpLeU32;
                    case Cmp::hi: return kSetpGtU32;
                    case Cmp::hs: return kSetpGeU32;
                    default: break;
                }
            }
            break;
        default: break;
    }
    return kFastNone;
}

std::shared_ptr<const Module> load(std::string_view ptx_text) { return Parser(ptx_text).run(); }

std::vector<EntryInfo> entries(const Module& m) { return m.entry_infos; }

const EntryInfo* find_entry(const Module& m, std::string_view name) {
    for (const auto& e : m.entry_infos)
        if (e.name == name) return &e;
    return nullptr;
}

std::vector<std::string> source_files(const Module& m) { return m.files; }

long long symbol_bytes(const Module& m, std::string_view symbol) {
    auto it = m.variable_index.find(std::string(symbol));
    return it == m.variable_index.end() ? -1 : m.variables[it->second].bytes;
}

std::string find_symbol(const Module& m, std::string_view suffix) {
    std::string found;
    int hits = 0;
    for (const auto& v : m.variables) {
        const std::string d = demangle(v.name);
        const std::string tail = "::" + std::string(suffix);
        if (v.name == suffix || d == suffix || (d.size() > tail.size() && d.compare(d.size() - tail.size(), tail.size(), tail) == 0)) {
            found = v.name;
            ++hits;
        }
    }
    return hits == 1 ? found : std::string();
}

int function_at(const Module& m, std::uint64_t address) {
    if ((address >> kSpaceShift) != (kCodeWindow >> kSpaceShift) || address % 16 != 0) return -1;
    const std::uint64_t k = (address - kCodeWindow) / 16;
    if (k == 0 || k > m.functions.size()) return -1;
    const Function& f = m.functions[(size_t)(k - 1)];
    return f.defined && !f.is_entry ? int(k - 1) : -1;
}

std::string demangled_variable_name(const std::string& mangled) {
    std::string d = demangle(mangled);
    const auto pos = d.rfind("::");
    return pos == std::string::npos ? d : d.substr(pos + 2);
}


}  // namespace ptx
