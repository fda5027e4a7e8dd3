// The parser's operands (parser.h): registers and register pairs, immediates, addresses
// ([reg + imm], [symbol + imm]), vectors of registers, labels, symbols' addresses and the special
// registers.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "backends/cpu/ptx/parser.h"

namespace ptx::parsing {

Operand Parser::operand(const Instr& in, int ptx_line) {
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
Operand Parser::address_operand(const Instr& in) {
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
Operand Parser::vector_operand() {
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
Operand Parser::negated_immediate() {
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

Operand Parser::immediate(const Instr& in) {
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
Operand Parser::named_operand(const Instr& in, int ptx_line) {
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

std::uint64_t Parser::window_of(Sp s) {
    switch (s) {
        case Sp::shared: return kSharedWindow;
        case Sp::local: return kLocalWindow;
        case Sp::constant: return kConstWindow;
        case Sp::param: return kParamWindow;
        default: return 0;  // global: symbol_address gives the address itself
    }
}

Parser::SymAddr Parser::symbol_address(const Tok& t, const Instr&) {
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

std::optional<Special> Parser::special(const std::string& s) {
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

}  // namespace ptx::parsing
