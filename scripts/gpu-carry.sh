#!/usr/bin/env bash
# Packs what a GPU session needs from a build folder into .carry/<name> (git-ignored), small
# enough for the device tool's 64 MiB carry: the executables it runs, CMakeCache.txt and the ctest
# files; no objects, no static libraries, no CMakeFiles. Then: run with carry [".carry"] and
#   scripts/gpu-session.sh .carry/build-gpu.tar.xz
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-build-gpu}
DST=.carry/$(basename "$SRC")
[ -d "$SRC" ] || { echo "gpu-carry: no $SRC (cmake --preset gpu && cmake --build --preset gpu)"; exit 2; }
rm -rf "$DST"
mkdir -p "$DST"
# The executables a session runs: the CLI, the runner, the handouts' checker, and those the gpu
# ctest names; stripped (a CI build's full set is about 250 MB, past the carry's 64 MiB).
( cd "$SRC" && { printf '%s\n' ./stencil-lab ./stencil-check-runner ./stencil-handout-check ./stencil-launch-paths ./stencil-zmarch-variants
    ctest -N -V -L gpu 2>/dev/null | sed -n 's|.*Test command: \([^ ]*\).*|\1|p' | grep "^$PWD/" | sed "s|^$PWD/|./|"
    find . -path '*/CMakeFiles' -prune -o -type f \( -name 'CTestTestfile.cmake' -o -name '*_tests-*.cmake' \
      -o -name '*_include-*.cmake' -o -name CMakeCache.txt \) -print; } | sort -u ) |
  while read -r f; do
    [ -f "$SRC/$f" ] || continue
    mkdir -p "$DST/$(dirname "$f")"
    cp -p "$SRC/$f" "$DST/$f"
    if [ -x "$DST/$f" ]; then strip --strip-unneeded "$DST/$f" 2>/dev/null || true; fi
  done
# A build that links Debian's libfmt (every preset but gpu and grading) needs it there too: the
# device machine does not have it. gpu-session.sh puts lib/ on LD_LIBRARY_PATH.
find "$DST" -type f -perm -u+x -exec ldd {} + 2>/dev/null | awk '$1 ~ /^libfmt\.so/ && $3 ~ /^\// {print $3}' | sort -u |
  while read -r lib; do mkdir -p "$DST/lib" && cp -L "$lib" "$DST/lib/"; done
# Packed: the CUDA kernels' fat binaries make the executables large, and they compress well.
tar -C .carry -cJf "$DST.tar.xz" "$(basename "$DST")"
rm -rf "$DST"
du -sh "$DST.tar.xz"
echo "gpu-carry: carry [\".carry\"], then run: scripts/gpu-session.sh $DST.tar.xz"
