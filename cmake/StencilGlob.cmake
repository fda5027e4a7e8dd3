# stencil_glob(VAR [RELATIVE DIR] PATTERN...): file(GLOB) that a test keeps honest.
#
# CONFIGURE_DEPENDS would re-glob on every build, and then `ninja -n` can list nothing but
# "Re-running CMake". So the globs run at configure time only, each is recorded in
# <build>/source_globs.txt, and the ctest `source_globs_current` (cmake/check_globs.cmake) globs
# again and fails, naming the files, when one was added or removed since: re-run cmake.
function(stencil_glob var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RELATIVE" "")
  set(relative -)
  if(arg_RELATIVE)
    set(relative ${arg_RELATIVE})
    file(GLOB_RECURSE found RELATIVE ${arg_RELATIVE} ${arg_UNPARSED_ARGUMENTS})
  else()
    file(GLOB found ${arg_UNPARSED_ARGUMENTS})
  endif()
  list(SORT found)
  set(${var} ${found} PARENT_SCOPE)
  string(REPLACE ";" "," patterns "${arg_UNPARSED_ARGUMENTS}")
  string(REPLACE ";" "," files "${found}")
  set_property(GLOBAL APPEND PROPERTY STENCIL_GLOBS "${relative}|${patterns}|${files}")
endfunction()

# Writes the recorded globs; called once, at the end of the top-level CMakeLists.txt.
function(stencil_write_globs)
  get_property(globs GLOBAL PROPERTY STENCIL_GLOBS)
  string(REPLACE ";" "\n" text "${globs}")
  file(WRITE ${PROJECT_BINARY_DIR}/source_globs.txt "${text}\n")
endfunction()
