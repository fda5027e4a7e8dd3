// Internal to the PTX engine's parser (parse.cpp says how it works): the tokens, the small
// parsers of numbers, types, spaces and names, and class Parser, whose members live in
//   parse.cpp               the entry, top-level directives, functions and their bodies, the end
//                           of the module (callees resolved, shared memory laid out)
//   parse_tokens.cpp        the tokenizer and the small parsers
//   parse_variables.cpp     variables and their initialisers
//   parse_operands.cpp      operands: registers, immediates, addresses, special registers
//   parse_instructions.cpp  an instruction: its opcode and dotted modifiers, guard, operands,
//                           call sites; fast_form
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>


#include "backends/cpu/ptx/ir.h"

namespace ptx::parsing {

// ---- tokens (parse_tokens.cpp) -----------------------------------------------------------------
// ---- tokens --------------------------------------------------------------------------------
struct Tok {
    enum Kind : std::uint8_t { ident, number, string, punct, newline, end };
    Kind kind = end;
    std::string text;
    int line = 0;
};

std::vector<Tok> tokenize(std::string_view s);
std::optional<std::uint64_t> parse_int(const std::string& t);
std::optional<Ty> type_of(std::string_view t);
std::optional<Sp> space_of(std::string_view t);
std::vector<std::string> split_dots(const std::string& s);
std::string demangle(const std::string& name);
inline long long align_up(long long v, long long a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// ---- the parser --------------------------------------------------------------------------------
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
    // The line's PTX and source place, and what is wrong: a ptx::Error (parse.cpp).
    [[noreturn]] void fail(int line, const std::string& what);
    void expect(const char* s) {
        const Tok& t = next();
        if (t.text != s) fail(t.line, std::string("expected '") + s + "', found '" + t.text + "'");
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

    // -- top level (parse.cpp)
    void top_level();
    void file_directive();
    void loc_directive();

    // -- variables (parse_variables.cpp)
    // [.align N] .type name[dims] [= {init}] ;  (after the space)
    void variable(Sp space, bool is_extern, bool in_function);

    // [.align N] .type, in either order; b8 when no type is given.
    Ty variable_type(int& align);

    // [n][m]...: the element count; a [] leaves the array unsized.
    long long array_count(bool& unsized);

    // = value | = {v0, v1, ...}: the values' low bytes, element by element, zero-filled to the size.
    // A value may be an address: a function's (a table of function pointers), or a variable's,
    // `generic(var)` or `var`, plus an offset.
    void read_initializer(Variable& v, Sp space, int elem);

    // An address in an initializer: a function, or generic(var) / var [+ offset] of a .global or
    // .const variable declared before.
    std::uint64_t address_value(const Tok& n, const Variable& v, Sp space);

    // A .local or a function's .param: an offset in the function's frame.
    void place_frame_variable(const Variable& v, Sp space, int line);

    // A module .global / .const at its aligned offset; .shared is laid out per entry later.
    void place_module_variable(Variable&& v, Sp space, bool is_extern, bool unsized, int line);

    // -- numbers (parse_tokens.cpp)
    // An immediate's text: an integer, a decimal float (its f64 bits) or 0f / 0d bits.
    std::uint64_t parse_imm_text(const std::string& t, int line);

    // -- functions (parse.cpp)
    // .entry name (params) [directives] { body } | ;
    // .func [(retval)] name [(params)] [.noreturn] { body } | ;
    void function(bool is_extern);

    // ( .param .type [.ptr .space] [.align N] name[dims], ... )
    void param_list(std::vector<std::pair<Param, int>>& into);

    // performance directives: .maxntid 256, 1, 1  .reqntid ...  .minnctapersm N  .noreturn; the
    // launch limits (.maxntid and .reqntid as their product: threads per block) are kept.
    void performance_directives(Function& f);

    // Params at their aligned offsets, then the return value 8-aligned after them.
    void lay_out_params(Function& f, const std::vector<std::pair<Param, int>>& formals,
                        const std::optional<Param>& retval, int line);

    // The function's index, new or that of an earlier declaration.
    int function_slot(const std::string& name);

    // Makes f the function being parsed, with a fresh register, label and symbol scope.
    void begin_definition(Function&& f, int index, const std::optional<Param>& retval);
    void resolve_labels();
    int reg_slot(const Tok& t);
    void reg_declaration();
    void body();

    // -- operands (parse_operands.cpp)
    Operand operand(const Instr& in, int ptx_line);

    // [reg + imm], [symbol + imm], [imm]
    Operand address_operand(const Instr& in);

    // {r0, r1, _, r3}: the registers go to the function's vec_regs, the operand holds where they start.
    Operand vector_operand();

    // A leading minus flips the sign bit of a float literal and negates an integer.
    Operand negated_immediate();
    Operand immediate(const Instr& in);

    // A register, a special register, '_', a branch label or a symbol's address.
    Operand named_operand(const Instr& in, int ptx_line);
    static std::uint64_t window_of(Sp s);

    // A symbol's address in its own space: module variables, the function's locals and params.
    struct SymAddr {
        Sp space;
        long long offset;
        bool frame_rel = false;
        int var = -1;          // a .shared variable (laid out per entry at the end)
        bool dyn = false;      // .extern .shared
    };
    SymAddr symbol_address(const Tok& t, const Instr&);
    static std::optional<Special> special(const std::string& s);

    // -- instructions (parse_instructions.cpp)
    void instruction();
    void call_instruction(Instr& in, int line, const std::string& opcode);
    bool decode_opcode(Instr& in, const std::string& opcode, int line);

    // -- the end of the module: callees resolved, shared memory laid out (parse.cpp)
    void finish();
    void layout_shared();
};

}  // namespace ptx::parsing
