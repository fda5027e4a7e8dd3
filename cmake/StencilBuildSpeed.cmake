# What the build spends its minutes on, decided in one place (docs/DESIGN.md, "Build").
#
# stencil_compile_for_build_time(TARGET...): Release builds of these targets at -O1 instead of -O3.
# For code whose speed nobody waits on: it parses options, lays out windows, reads and writes JSON,
# orchestrates a run; the hot loops it calls (the PTX engine, the CPU reference, the models, the
# kernels) live in libraries that keep -O3. Most of a file's compile time at -O3 goes to optimising
# the header libraries' inline code it instantiates (json, fmt, the standard library), again in every
# file, and -O1 spends much less on it (docs/results/build-time-2core.md has the figures).
function(stencil_compile_for_build_time)
  foreach(target ${ARGN})
    if(TARGET ${target})
      target_compile_options(${target} PRIVATE $<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CXX>>:-O1>)
    endif()
  endforeach()
endfunction()

# Unity builds: each target's C++ files compiled eight to a translation unit (CMake's batches), so
# the headers every file includes are parsed, and their inline code optimised, once a batch instead
# of once a file, which saves more than -O1 does, and adds to it. The price: names with internal
# linkage (an anonymous namespace, `static`) share a batch, so two files of one target may not give
# two such things the same name; the compiler says "redefinition of" when they do, and the fix is a
# name that says what the thing is. Off (-DSTENCIL_LAB_UNITY_BUILD=OFF) for a file-by-file build,
# e.g. to check that every file includes what it uses. CUDA files are not batched (CMake 3.25).
option(STENCIL_LAB_UNITY_BUILD "Compile each target's C++ files in batches (unity build): each header parsed once a batch, not once a file" ON)
set(CMAKE_UNITY_BUILD ${STENCIL_LAB_UNITY_BUILD})
