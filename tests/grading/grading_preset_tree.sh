#!/usr/bin/env bash
# The grading preset's install tree, the one `autograder make` ships (scripts/test-lab builds it
# beside the default tree): install_tree.sh on it, which makes the bundles from that tree and grades
# a good and a broken file from a simulated Gradescope root with the stencil-lab it ships.
# Where build-grading/ was never configured the test is skipped (exit 77), unless
# STENCIL_LAB_REQUIRE_GRADING_TREE=1 (scripts/test-lab, CI), where that is a failure.
# Usage: grading_preset_tree.sh SOURCE_DIR
set -euo pipefail
SRC=$(cd "$1" && pwd)
if [ ! -f "$SRC/build-grading/CMakeCache.txt" ]; then
  echo "no grading preset tree in $SRC/build-grading: cmake --preset grading && cmake --build --preset grading"
  [ "${STENCIL_LAB_REQUIRE_GRADING_TREE:-0}" = 1 ] && exit 1
  exit 77
fi
# the tree as the sources are now (nothing to do where test-lab just built it)
(cd "$SRC" && cmake --build --preset grading > /dev/null) || { echo "the grading preset does not build"; exit 1; }
exec bash "$SRC/tests/grading/install_tree.sh" "$SRC/build-grading" "$SRC"
