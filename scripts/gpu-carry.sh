#!/usr/bin/env bash
# Packs what a GPU session needs from a build folder into .carry/<name> (git-ignored), small
# enough for the device tool's 64 MiB carry: the executables, CMakeCache.txt and the ctest files;
# no objects, no static libraries, no CMakeFiles. Then: run with carry [".carry"] and
#   scripts/gpu-session.sh .carry/build-gpu
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-build-gpu}
DST=.carry/$(basename "$SRC")
[ -d "$SRC" ] || { echo "gpu-carry: no $SRC (cmake --preset gpu && cmake --build --preset gpu)"; exit 2; }
rm -rf "$DST"
mkdir -p "$DST"
( cd "$SRC" && find . -path '*/CMakeFiles' -prune -o -type f \
    \( -perm -u+x -o -name 'CTestTestfile.cmake' -o -name '*_tests-*.cmake' -o -name '*_include-*.cmake' \
       -o -name CMakeCache.txt \) -print ) |
  while read -r f; do
    case "$f" in *.a|*.o|*.so) continue ;; esac
    mkdir -p "$DST/$(dirname "$f")"
    cp -p "$SRC/$f" "$DST/$f"
  done
# A build that links Debian's libfmt (every preset but gpu and grading) needs it there too: the
# device machine does not have it. gpu-session.sh puts lib/ on LD_LIBRARY_PATH.
find "$DST" -type f -perm -u+x -exec ldd {} + 2>/dev/null | awk '$1 ~ /^libfmt\.so/ && $3 ~ /^\// {print $3}' | sort -u |
  while read -r lib; do mkdir -p "$DST/lib" && cp -L "$lib" "$DST/lib/"; done
du -sh "$DST"
echo "gpu-carry: carry [\".carry\"], then run: scripts/gpu-session.sh $DST"
