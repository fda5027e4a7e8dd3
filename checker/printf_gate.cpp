#include "checker/printf_gate.h"

#include <fmt/format.h>

#include <regex>

namespace stencil::checker {

namespace {

// NVRTC declares the syscall once, before its first use:
//   .extern .func  (.param .b32 func_retval0) vprintf
//   ( .param .b64 vprintf_param_0, .param .b64 vprintf_param_1 ) ;
const std::regex& vprintf_declaration() {
    static const std::regex re(
        R"(\.extern\s+\.func\s*\(\s*\.param\s+\.b32\s+[\w$%]+\s*\)\s*vprintf\s*\(\s*\.param\s+\.b64\s+[\w$%]+\s*,)"
        R"(\s*\.param\s+\.b64\s+[\w$%]+\s*\)\s*;)");
    return re;
}

// The counter and the gate, placed right after the declaration (PTX wants a function declared
// before it is called). The gate has vprintf's signature, so every call site is only renamed. A
// call past the cap returns what CUDA's printf returns, the number of arguments its format names
// (each conversion, and each `*` width or precision; `%%` none), as the CPU engine's printf
// does: only the output is cut, never what a kernel that tests the return value sees.
std::string gate_definition(unsigned max_calls) {
    return fmt::format(R"(
.global .align 4 .u32 {counter};
.func (.param .b32 gate_ret) {gate}(.param .b64 gate_format, .param .b64 gate_args)
{{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [gate_format];
	ld.param.u64 	%rd2, [gate_args];
	atom.global.add.u32 	%r1, [{counter}], 1;
	setp.ge.u32 	%p1, %r1, {max};
	@%p1 bra 	$lab_printf_dropped;
	{{
	.param .b64 param0;
	st.param.b64 	[param0], %rd1;
	.param .b64 param1;
	st.param.b64 	[param1], %rd2;
	.param .b32 retval0;
	call (retval0), vprintf, (param0, param1);
	ld.param.b32 	%r2, [retval0];
	}}
	bra.uni 	$lab_printf_return;
$lab_printf_dropped:
	mov.b32 	%r2, -1;
	setp.eq.u64 	%p2, %rd1, 0;
	@%p2 bra 	$lab_printf_return;
	mov.b32 	%r2, 0;
	mov.b64 	%rd3, %rd1;
$lab_printf_scan:
	ld.u8 	%r3, [%rd3];
	setp.eq.u32 	%p2, %r3, 0;
	@%p2 bra 	$lab_printf_return;
	add.s64 	%rd3, %rd3, 1;
	setp.ne.u32 	%p2, %r3, 37;
	@%p2 bra 	$lab_printf_scan;
	ld.u8 	%r3, [%rd3];
	setp.eq.u32 	%p2, %r3, 0;
	@%p2 bra 	$lab_printf_return;
	setp.eq.u32 	%p2, %r3, 37;
	@%p2 bra 	$lab_printf_percent;
	add.s32 	%r2, %r2, 1;
$lab_printf_flags:
	setp.eq.u32 	%p2, %r3, 42;
	@%p2 add.s32 	%r2, %r2, 1;
	sub.s32 	%r4, %r3, 48;
	setp.lt.u32 	%p3, %r4, 10;
	or.pred 	%p3, %p3, %p2;
	setp.eq.u32 	%p4, %r3, 45;
	or.pred 	%p3, %p3, %p4;
	setp.eq.u32 	%p4, %r3, 43;
	or.pred 	%p3, %p3, %p4;
	setp.eq.u32 	%p4, %r3, 32;
	or.pred 	%p3, %p3, %p4;
	setp.eq.u32 	%p4, %r3, 35;
	or.pred 	%p3, %p3, %p4;
	setp.eq.u32 	%p4, %r3, 46;
	or.pred 	%p3, %p3, %p4;
	@!%p3 bra 	$lab_printf_scan;
	add.s64 	%rd3, %rd3, 1;
	ld.u8 	%r3, [%rd3];
	bra.uni 	$lab_printf_flags;
$lab_printf_percent:
	add.s64 	%rd3, %rd3, 1;
	bra.uni 	$lab_printf_scan;
$lab_printf_return:
	st.param.b32 	[gate_ret], %r2;
	ret;
}}
)",
                       fmt::arg("counter", kPrintfCounterSymbol), fmt::arg("gate", kPrintfGateSymbol),
                       fmt::arg("max", max_calls));
}

}  // namespace

std::optional<std::string> gate_device_printf(const std::string& ptx, unsigned max_calls) {
    std::smatch m;
    if (!std::regex_search(ptx, m, vprintf_declaration())) return std::nullopt;
    const size_t after = static_cast<size_t>(m.position(0) + m.length(0));
    // Every later mention of the name is a call (or inline PTX naming it): all go to the gate.
    static const std::regex name(R"((^|[^\w$%])vprintf(?![\w$%]))");
    const std::string rest = std::regex_replace(ptx.substr(after), name, std::string("$1") + kPrintfGateSymbol);
    return ptx.substr(0, after) + gate_definition(max_calls) + rest;
}

}  // namespace stencil::checker
