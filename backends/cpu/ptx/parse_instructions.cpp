// The parser's instructions (parser.h): an opcode and its dotted modifiers decoded into the
// fixed-size record (opcodes.def names the opcodes), the guard, the operands, a call's argument
// list; and fast_form, which records the executor may run inline.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/ptx/parser.h"

namespace ptx {

namespace parsing {

namespace {

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

}  // namespace

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
    if (in.op == Op::call) return call_instruction(in, opt.line, opcode);
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

// call[.uni] (ret), func, (args);   call[.uni] func, (args);   call func;   and an indirect call
// through a register, with its prototype: the argument list and where the return value goes.
void Parser::call_instruction(Instr& in, int line, const std::string& opcode) {
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
        if (!indirect) fail(line, "a call with a prototype to a named function");
        next();
    }
    expect(";");
    in.call_args = (int)fn_->call_lists.size();
    fn_->call_lists.push_back(std::move(cl));
    if (!indirect) pending_calls_.push_back({fn_index_, (int)fn_->code.size(), callee, line});
    fn_->code.push_back(in);
    opcode_text_[fn_index_].push_back(opcode);
}

}  // namespace parsing

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
            // the zero extension NVRTC writes for every unsigned index: the same low word
            if (in.flags == 0 && t == Ty::u64 && in.type2 == Ty::u32) return kCvtU32U64;
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

}  // namespace ptx
