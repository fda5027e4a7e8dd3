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
// before it is called). The gate has vprintf's signature, so every call site is only renamed.
std::string gate_definition(unsigned max_calls) {
    return fmt::format(R"(
.global .align 4 .u32 {counter};
.func (.param .b32 gate_ret) {gate}(.param .b64 gate_format, .param .b64 gate_args)
{{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [gate_format];
	ld.param.u64 	%rd2, [gate_args];
	mov.b32 	%r2, -1;
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
$lab_printf_dropped:
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
