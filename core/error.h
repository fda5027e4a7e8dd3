// Errors the user can act on: one line, no stack, a non-zero exit from the CLI.
#pragma once
#include <stdexcept>
#include <string>

namespace stencil {

struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace stencil
