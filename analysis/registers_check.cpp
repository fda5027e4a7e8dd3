#include "analysis/registers_check.h"

#include <fmt/format.h>

namespace stencil::analysis {

RegisterCheck check_registers(const RegisterAnswer& model, int compiler_registers) {
    RegisterCheck c;
    c.stencil = model.stencil;
    c.model = model.queue_registers;
    c.compiler = compiler_registers;
    c.overhead = compiler_registers - model.queue_registers;
    c.ok = c.overhead >= 0 && c.overhead <= kRegisterOverheadMax;
    return c;
}

std::string RegisterCheck::summary() const {
    return fmt::format("{}: model {} queued values, compiler {} registers per thread (overhead {}, allowed 0..{}){}",
                       stencil, model, compiler, overhead, kRegisterOverheadMax, ok ? "" : ": OUTSIDE the tolerance");
}

}  // namespace stencil::analysis
