// PTX text -> ptx::Module (ir.h): a tokenizer, then one pass over the statements that declares
// variables and functions and decodes each instruction into its fixed-size record. Labels and
// callees are resolved when the function (or module) ends. Anything this engine does not run is
// refused here, at load, with the PTX line and the source line it came from.
//
// The parser's files (parser.h): this one holds the entry, the top-level directives (.version,
// .file, .loc), functions with their parameters, register declarations and bodies, and the end of
// the module: finish (labels and callees resolved) and layout_shared (each entry's shared
// variables laid out). The tokens, variables, operands and instructions have files of their own.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/ptx/parser.h"

namespace ptx {

namespace parsing {

void Parser::fail(int line, const std::string& what) {
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

// ---- top level -------------------------------------------------------------------------------
void Parser::top_level() {
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

void Parser::file_directive() {
    next();
    const Tok& n = next();
    const Tok& path = next();
    auto idx = parse_int(n.text);
    if (!idx || path.kind != Tok::string) fail(n.line, "malformed .file");
    if (m_->files.size() <= *idx) m_->files.resize(*idx + 1);
    m_->files[*idx] = path.text;
    skip_line();
}

void Parser::loc_directive() {
    next();
    const Tok& f = next();
    const Tok& l = next();
    auto fi = parse_int(f.text);
    auto li = parse_int(l.text);
    // Line 0 is code the compiler made up: it keeps the line before it.
    if (fi && li && *li > 0) cur_loc_ = SourceLoc{(int)*fi, (int)*li};
    skip_line();
}

// ---- functions ---------------------------------------------------------------------------------
// .entry name (params) [directives] { body } | ;
// .func [(retval)] name [(params)] [.noreturn] { body } | ;
void Parser::function(bool is_extern) {
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
void Parser::param_list(std::vector<std::pair<Param, int>>& into) {
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
void Parser::performance_directives(Function& f) {
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
void Parser::lay_out_params(Function& f, const std::vector<std::pair<Param, int>>& formals,
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
int Parser::function_slot(const std::string& name) {
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
void Parser::begin_definition(Function&& f, int index, const std::optional<Param>& retval) {
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

void Parser::resolve_labels() {
    for (auto& pl : pending_labels_) {
        auto it = labels_.find(pl.label);
        if (it == labels_.end()) fail(pl.ptx_line, "unknown label " + pl.label);
        m_->functions[pl.function].code[pl.instr].o[pl.operand].imm = it->second;
    }
    pending_labels_.clear();
}

int Parser::reg_slot(const Tok& t) {
    auto it = regs_.find(t.text);
    if (it == regs_.end()) fail(t.line, "unknown register " + t.text);
    return it->second;
}

void Parser::reg_declaration() {
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

void Parser::body() {
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

// ---- the end of the module ---------------------------------------------------------------------
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

}  // namespace parsing

std::shared_ptr<const Module> load(std::string_view ptx_text) { return parsing::Parser(ptx_text).run(); }

}  // namespace ptx
