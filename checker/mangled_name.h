// The parameter types of a C++ function from its mangled name (the Itanium C++ ABI, which NVRTC
// uses for a kernel's PTX name): `_Z14stencil_kernelPKfPfj` is (const float*, float*, unsigned
// int), whatever the source wrote (a typedef, `__restrict__`, a top-level `const`, no name). Only
// what a kernel's parameters can be is read: builtin types, pointers and references with their
// qualifiers, class names and substitutions (S_, S0_, ...); anything else makes the name unknown.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stencil::checker {

// One parameter of a mangled C++ function name, as far as the contract needs it.
struct MangledType {
    enum class Kind { builtin, pointer, reference, named, unknown };
    Kind kind = Kind::unknown;
    std::string name;             // builtin: "float", "unsigned int", ...; named: the class's name
    bool is_const = false, is_volatile = false;
    std::vector<MangledType> pointee;  // pointer, reference: one element

    // As C++ spells it: "const float*", "unsigned int".
    std::string spelled() const;
};

// The parameter types of a mangled C++ function name (`_Z...`; nested and internal-linkage names
// too), or nullopt when the name is not one (an extern "C" kernel) or uses what this reader does
// not know (then the types are not the contract's either).
std::optional<std::vector<MangledType>> mangled_parameters(std::string_view lowered_name);

}  // namespace stencil::checker
