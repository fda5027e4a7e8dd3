# The version string of core/version.h: the VERSION file's first line, and the git commit where the
# source is a git checkout (git is asked once, when the build is configured; a checkout with
# changes gets "+dirty"). Sets STENCIL_LAB_VERSION_STRING and STENCIL_LAB_VERSION_SOURCE (the
# generated .cpp to compile).
file(STRINGS "${PROJECT_SOURCE_DIR}/VERSION" _stencil_version LIMIT_COUNT 1)
string(STRIP "${_stencil_version}" _stencil_version)
set(STENCIL_LAB_VERSION_STRING "${_stencil_version}")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${PROJECT_SOURCE_DIR}" rev-parse --short=9 HEAD
                  OUTPUT_VARIABLE _stencil_commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _stencil_commit)
    string(APPEND STENCIL_LAB_VERSION_STRING "+g${_stencil_commit}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${PROJECT_SOURCE_DIR}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE _stencil_dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_stencil_dirty)
      string(APPEND STENCIL_LAB_VERSION_STRING ".dirty")
    endif()
  endif()
endif()
set(STENCIL_LAB_VERSION_SOURCE "${PROJECT_BINARY_DIR}/generated/core/version.cpp")
configure_file("${PROJECT_SOURCE_DIR}/core/version.cpp.in" "${STENCIL_LAB_VERSION_SOURCE}" @ONLY)
# A new VERSION reconfigures the build.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/VERSION")
