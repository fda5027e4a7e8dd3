// The GPU these tests run on. They run only where one is (ctest -L gpu on the device machine);
// anywhere else every test fails at once with the reason, instead of crashing or passing vacuously.
#pragma once
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "core/backend.h"

namespace stencil::test {

inline Backend& gpu() {
    static std::string why;
    static std::unique_ptr<Backend> backend = make_cuda_backend(&why);
    if (!backend) FAIL("tests/gpu need a usable CUDA GPU, and here: " << why);
    return *backend;
}

}  // namespace stencil::test
