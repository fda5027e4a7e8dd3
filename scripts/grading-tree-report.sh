#!/usr/bin/env bash
# What a grading install tree needs from the box it runs on: `cmake --install BUILD --component
# grading` into a temporary prefix, then per binary its size, the shared libraries it names
# (readelf -d NEEDED), its RUNPATH and the newest glibc symbol version it uses (objdump -T).
# Prints Markdown: scripts/grading-tree-report.sh build-grading > docs/results/grading-install.md
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-grading}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cmake --install "$BUILD" --prefix "$T/tree" --component grading > /dev/null
preset=$(sed -n 's/^STENCIL_LAB_STATIC_THIRD_PARTY:BOOL=//p' "$BUILD/CMakeCache.txt")
echo "# The grading install tree: what it needs from the box"
echo
echo "\`scripts/grading-tree-report.sh $BUILD\` ($(basename "$BUILD"), STENCIL_LAB_STATIC_THIRD_PARTY=${preset:-OFF}), built on"
echo "$(. /etc/os-release; echo "$PRETTY_NAME") with $(ldd --version | head -1 | sed 's/^ldd //'), $(c++ --version | head -1),"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD)."
echo
echo "| file | size | NEEDED (readelf -d) | RUNPATH | newest GLIBC_ | newest GLIBCXX_ |"
echo "|---|---|---|---|---|---|"
for b in bin/stencil-lab libexec/stencil-lab/stencil-check-runner; do
  f=$T/tree/$b
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//')
  runpath=$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  glibc=$(objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  glibcxx=$(objdump -T "$f" | { grep -o 'GLIBCXX_[0-9.]*' || true; } | sort -uV | tail -1)
  echo "| $b | $(du -h "$f" | cut -f1) | $needed | \`$runpath\` | $glibc | ${glibcxx:-none (static)} |"
done
echo
echo "The whole tree: $(du -sh "$T/tree" | cut -f1) ($(find "$T/tree" -type f | wc -l) files; share/stencil-lab $(du -sh "$T/tree/share/stencil-lab" | cut -f1))."
echo "Outside glibc and GCC's runtime (libstdc++, libgcc_s: GLIBCXX_3.4.29 is GCC 11's, Ubuntu 22.04 has GCC 12's),"
echo "\`libnvrtc.so.13\` is the one library the box must have: the CUDA 13 toolkit's, or NVIDIA's \`cuda-nvrtc-13-0\`"
echo "package (the bundles' setup.sh and Dockerfile install it). libseccomp and zlib are linked in; the CUDA runtime is linked"
echo "in and libcuda is loaded only where there is a GPU (the CUDA backend's probe), so the binaries start where no"
echo "driver exists. libstdc++ and libgcc stay shared: linked statically from GCC 12 (this preset's first form) they"
echo "needed GLIBC_2.36 (arc4random) and GLIBC_2.35 (_dl_find_object), more than Ubuntu 22.04's 2.35."
