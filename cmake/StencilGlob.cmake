# stencil_glob(VAR [RECURSE] [RELATIVE DIR] PATTERN...): file(GLOB) (GLOB_RECURSE with RECURSE) that a
# test keeps honest.
#
# CONFIGURE_DEPENDS would re-glob on every build, and then `ninja -n` can list nothing but
# "Re-running CMake". So the globs run at configure time only, each is recorded in
# <build>/source_globs.txt, and the ctest `source_globs_current` (cmake/check_globs.cmake) globs
# again and fails, naming the files, when one was added or removed since: re-run cmake.
function(stencil_glob var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "RECURSE" "RELATIVE" "")
  set(mode GLOB)
  if(arg_RECURSE)
    set(mode GLOB_RECURSE)
  endif()
  set(relative -)
  set(relative_args)
  if(arg_RELATIVE)
    set(relative ${arg_RELATIVE})
    set(relative_args RELATIVE ${arg_RELATIVE})
  endif()
  file(${mode} found ${relative_args} ${arg_UNPARSED_ARGUMENTS})
  list(SORT found)
  set(${var} ${found} PARENT_SCOPE)
  string(REPLACE ";" "," patterns "${arg_UNPARSED_ARGUMENTS}")
  string(REPLACE ";" "," files "${found}")
  set_property(GLOBAL APPEND PROPERTY STENCIL_GLOBS "${mode}|${relative}|${patterns}|${files}")
endfunction()

# Writes the recorded globs; called once, at the end of the top-level CMakeLists.txt.
function(stencil_write_globs)
  get_property(globs GLOBAL PROPERTY STENCIL_GLOBS)
  string(REPLACE ";" "\n" text "${globs}")
  file(WRITE ${PROJECT_BINARY_DIR}/source_globs.txt "${text}\n")
endfunction()
