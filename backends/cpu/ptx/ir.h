// Internal to the PTX engine: the decoded form of a module. The parser (parse.cpp) builds it once;
// the executor (launch.cpp, interpret.cpp, ...) only reads it. An instruction is a fixed-size record with its operands
// already resolved: registers to frame slots, symbols to state-space addresses, labels to
// instruction indices, so that executing one is a switch and a few array reads.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cpu/ptx/engine.h"

namespace ptx {

// Element types. The order matters: is_signed/is_float/bytes_of below.
enum class Ty : std::uint8_t {
    none, pred,
    b8, b16, b32, b64, b128,
    u8, u16, u32, u64,
    s8, s16, s32, s64,
    f16, f16x2, bf16, bf16x2, f32, f64,
};
inline int bytes_of(Ty t) {
    switch (t) {
        case Ty::b8: case Ty::u8: case Ty::s8: return 1;
        case Ty::b16: case Ty::u16: case Ty::s16: case Ty::f16: case Ty::bf16: return 2;
        case Ty::b32: case Ty::u32: case Ty::s32: case Ty::f32: case Ty::f16x2: case Ty::bf16x2: return 4;
        case Ty::b64: case Ty::u64: case Ty::s64: case Ty::f64: return 8;
        case Ty::b128: return 16;
        default: return 0;
    }
}
inline bool is_signed(Ty t) { return t == Ty::s8 || t == Ty::s16 || t == Ty::s32 || t == Ty::s64; }
inline bool is_float(Ty t) { return t == Ty::f16 || t == Ty::bf16 || t == Ty::f32 || t == Ty::f64; }

// State spaces. In a generic address the space is the top byte (global buffers sit below 2^56).
enum class Sp : std::uint8_t { generic, global, shared, local, constant, param };
inline constexpr std::uint64_t kSpaceShift = 56;
inline constexpr std::uint64_t kSharedWindow = std::uint64_t(1) << kSpaceShift;
inline constexpr std::uint64_t kLocalWindow = std::uint64_t(2) << kSpaceShift;
inline constexpr std::uint64_t kConstWindow = std::uint64_t(3) << kSpaceShift;
inline constexpr std::uint64_t kParamWindow = std::uint64_t(4) << kSpaceShift;
inline constexpr std::uint64_t kWindowMask = (std::uint64_t(1) << kSpaceShift) - 1;
// The module's own .global variables (printf's format strings, a student's __device__ arrays)
// live in one engine-owned buffer just below the shared window.
inline constexpr int kModuleGlobalsIndex = 0xFFFF - 1;
// Function addresses (function pointers, indirect calls' targets) have a window of their own.
inline constexpr std::uint64_t kCodeWindow = std::uint64_t(5) << kSpaceShift;
inline constexpr std::uint64_t function_address(int index) { return kCodeWindow + std::uint64_t(index + 1) * 16; }

// Instr::callee for the calls the engine answers itself, and for a call through a pointer.
inline constexpr int kCalleeVprintf = -2;
inline constexpr int kCalleeAssertFail = -3;
inline constexpr int kCalleeMalloc = -4;
inline constexpr int kCalleeFree = -5;
inline constexpr int kCalleeIndirect = -6;  // the target is the value of operand 0

// The opcodes, their families and names: one table, opcodes.def.
enum class Family : std::uint8_t {
    move, address, load, store, prefetch, alu, atomic, branch, call, ret, exit, trap, barrier, warp, fence,
    yield, nop,
};
enum class Op : std::uint16_t {
#define PTX_OP(id, name, family) id,
#include "backends/cpu/ptx/opcodes.def"
#undef PTX_OP
};
inline constexpr Family kOpFamily[] = {
#define PTX_OP(id, name, family) Family::family,
#include "backends/cpu/ptx/opcodes.def"
#undef PTX_OP
};
inline constexpr const char* kOpName[] = {
#define PTX_OP(id, name, family) name,
#include "backends/cpu/ptx/opcodes.def"
#undef PTX_OP
};
inline constexpr int kOpCount = int(sizeof(kOpName) / sizeof(kOpName[0]));
inline Family family_of(Op op) { return kOpFamily[static_cast<int>(op)]; }
inline const char* name_of(Op op) { return kOpName[static_cast<int>(op)]; }

// Rounding: rn (default) rz rm rp for floats; rni rzi rmi rpi (to integral) for cvt.
enum class Rnd : std::uint8_t { none, rn, rz, rm, rp, rni, rzi, rmi, rpi, rna };
enum class Cmp : std::uint8_t {
    eq, ne, lt, le, gt, ge, lo, ls, hi, hs,
    equ, neu, ltu, leu, gtu, geu, num, nan,
};

// Modifier bits (Instr::flags).
enum : std::uint32_t {
    kFtz = 1u << 0, kSat = 1u << 1, kApprox = 1u << 2, kFull = 1u << 3,
    kHi = 1u << 4, kLo = 1u << 5, kWide = 1u << 6, kCc = 1u << 7,
    kNaN = 1u << 8, kShiftr = 1u << 9, kWrap = 1u << 10, kClamp = 1u << 11,
    kVolatile = 1u << 12, kNc = 1u << 13, kUni = 1u << 14, kAligned = 1u << 15,
    kBoolAnd = 1u << 16, kBoolOr = 1u << 17, kBoolXor = 1u << 18,  // setp/set's combining op
    kXorsign = 1u << 19, kRelu = 1u << 20,
    kPrmtF4e = 1u << 21, kPrmtB4e = 1u << 22, kPrmtRc8 = 1u << 23, kPrmtEcl = 1u << 24, kPrmtEcr = 1u << 25,
    kPrmtRc16 = 1u << 26,
    // Memory semantics (the PTX memory model): .acquire / .release (.acq_rel sets both), and
    // "strong" for an access that may synchronise (.relaxed, .acquire, .release, .volatile; every
    // atomic). A plain ld / st is weak.
    kSemAcquire = 1u << 27, kSemRelease = 1u << 28, kStrong = 1u << 29,
};

// Sub-operations: shfl up/down/bfly/idx, vote all/any/uni/ballot, match any/all, atom/red/redux
// op, bar.red popc/and/or, testp class, bfind shiftamt.
enum class Sub : std::uint8_t {
    none,
    up, down, bfly, idx,
    all, any, uni, ballot,
    add, min, max, inc, dec, and_, or_, xor_, exch, cas,
    popc,
    finite, infinite, number, notanumber, normal, subnormal,
};

// 16 bytes: the executor reads several of these per instruction.
struct Operand {
    enum Kind : std::uint8_t { kNone, kReg, kImm, kSpecial, kMem, kLabel, kVec, kPair, kSymAddr };
    std::int64_t imm = 0;   // imm: bits; mem: byte offset (plus the symbol's address); label: target
    std::int32_t reg = -1;  // reg / mem base (-1: absolute) / vec first index in Function::vec_regs
                            // / pair: first register / special: Special id
    std::int16_t reg2 = -1; // pair: the second register; vec: count
    Kind kind = kNone;
    Sp space : 3 = Sp::generic;  // mem: the instruction's space; sym_addr: the symbol's space
    bool negate : 1 = false;     // !%p
    bool dyn_shared : 1 = false; // the address of .extern .shared memory: rebased at the module's end
    bool frame_rel : 1 = false;  // a .local / .param symbol of the function: relative to the frame
};

enum class Special : std::uint8_t {
    tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z,
    nctaid_x, nctaid_y, nctaid_z, laneid, warpid, nwarpid, smid, nsmid, gridid,
    lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge,
    clock, clock64, globaltimer, globaltimer_lo, globaltimer_hi,
    dynamic_smem_size, total_smem_size,
};

struct Instr {
    Op op = Op::nop;
    std::uint8_t fast = 0;      // a Fast form (below) for the executor's hot path; 0: none
    Ty type = Ty::none;   // the instruction's (first) type
    Ty type2 = Ty::none;  // cvt/set/slct: the source type; setp/selp: unused
    Sp space = Sp::generic;
    Rnd rnd = Rnd::none;
    Cmp cmp = Cmp::eq;
    Sub sub = Sub::none;
    std::uint8_t vec = 1;       // ld/st .v2 .v4
    std::uint8_t nops = 0;
    bool guard_neg = false;
    std::int32_t guard = -1;    // predicate register slot, -1: always
    std::uint32_t flags = 0;
    Operand o[6];
    std::int32_t site = -1;     // memory instructions: index into Module::sites
    std::int32_t loc = -1;      // index into Module::locs
    std::int32_t ptx_line = 0;  // line in the PTX text
    std::int32_t callee = -1;   // call: function index, or one of the kCallee values above
    std::int32_t call_args = -1;  // call: index into Function::call_lists
};

// The forms that dominate NVRTC's output for stencil kernels, with register or immediate
// sources only: the executor runs them inline instead of through alu().
enum Fast : std::uint8_t {
    kFastNone, kAdd32, kAdd64, kSub32, kMulLo32, kMadLo32, kMulWideS32, kMulWideU32, kShl32, kShl64,
    kSetpEq32, kSetpNe32, kSetpLtS32, kSetpLeS32, kSetpGtS32, kSetpGeS32, kSetpLtU32, kSetpLeU32,
    kSetpGtU32, kSetpGeU32, kAndPred, kOrPred, kNotPred, kFmaF32, kFmaF64, kMulF32, kMulF64, kAddF32,
    kAddF64, kCvtS64S32, kCvtU32U64, kSelp, kAnd32, kOr32,
};
std::uint8_t fast_form(const Instr& in);

struct SourceLoc {
    int file = -1;  // index into Module::files
    int line = 0;
};

// A call site's parameter symbols in the caller's param space: (offset, bytes) of each.
struct CallList {
    std::int32_t retval_offset = -1, retval_bytes = 0;
    std::vector<std::pair<std::int32_t, std::int32_t>> args;
};

struct Function {
    std::string name;
    bool is_entry = false;
    bool defined = false;
    std::vector<Instr> code;
    std::vector<std::int32_t> vec_regs;   // registers of vector operands
    std::vector<CallList> call_lists;
    int slots = 0;               // register slots of a frame
    long long local_bytes = 0;   // the frame's local depot(s)
    int local_align = 8;
    // Param space of a frame: formal params (and the return value) first, then the scoped
    // params of call sites.
    std::vector<Param> params;
    std::vector<std::int32_t> param_offsets;
    std::int32_t retval_offset = -1, retval_bytes = 0;
    std::int32_t param_bytes = 0;
    std::int32_t spl_slot = -1;  // %SPL / %SP registers, set at frame entry
    std::int32_t sp_slot = -1;
    long long static_shared_bytes = 0;  // entries: the .shared variables they reach, laid out
    long long dynamic_shared_offset = 0; // where .extern .shared starts for this function
    std::vector<int> shared_vars;        // .shared variables this function names
    std::vector<int> entry_shared_vars;  // entries: the .shared variables they reach (their layout)
    std::vector<int> callees;
    // entries: .maxntid / .reqntid (their product: threads per block), .minnctapersm; 0 if absent
    int maxntid = 0, reqntid = 0, minnctapersm = 0;
};

struct Variable {
    std::string name;
    Sp space = Sp::global;
    long long offset = 0;  // in its space's layout
    long long bytes = 0;
    int align = 1;
    std::vector<unsigned char> init;  // empty: zeros
    bool dynamic_shared = false;      // .extern .shared x[]
    std::string display;              // as the source declared it ("inCurr_s")
};

struct MemSite {
    int function = 0;
    int instr = 0;
};

std::string demangled_variable_name(const std::string& mangled);  // "inCurr_s"

class Module;
// The defined function at a function address, or -1.
int function_at(const Module& m, std::uint64_t address);

class Module {
public:
    std::vector<Function> functions;
    std::unordered_map<std::string, int> function_index;
    std::vector<Variable> variables;
    std::unordered_map<std::string, int> variable_index;
    std::vector<std::string> files;           // by .file number (index = number)
    std::vector<SourceLoc> locs;
    std::vector<MemSite> sites;               // memory and barrier instructions, module-wide
    long long shared_bytes = 0;               // the largest entry's static shared bytes
    long long const_bytes = 0;
    long long global_bytes = 0;               // module .global variables
    std::vector<unsigned char> const_image, global_image;
    int vprintf_index = -1;

    std::vector<EntryInfo> entry_infos;       // the defined entries, for entries() / find_entry()
    std::vector<std::vector<std::string>> opcode_text;  // [function][instr] as written
};

}  // namespace ptx
