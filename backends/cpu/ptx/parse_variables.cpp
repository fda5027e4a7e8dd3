// The parser's variables (parser.h): a declaration's type, alignment and array size, its
// initialiser (values, or the addresses of functions and variables), and its place: a frame's
// .local or .param, or the module's .global / .const (.shared is laid out per entry at the end).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/ptx/parser.h"

namespace ptx::parsing {

// [.align N] .type name[dims] [= {init}] ;  (after the space)
void Parser::variable(Sp space, bool is_extern, bool in_function) {
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
Ty Parser::variable_type(int& align) {
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
long long Parser::array_count(bool& unsized) {
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
void Parser::read_initializer(Variable& v, Sp space, int elem) {
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
std::uint64_t Parser::address_value(const Tok& n, const Variable& v, Sp space) {
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
void Parser::place_frame_variable(const Variable& v, Sp space, int line) {
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
void Parser::place_module_variable(Variable&& v, Sp space, bool is_extern, bool unsized, int line) {
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

}  // namespace ptx::parsing
