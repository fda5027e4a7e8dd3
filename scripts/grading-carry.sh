#!/usr/bin/env bash
# Packs the grading install tree for the device machine: the `grading` preset's build installed
# (`cmake --install build-grading --component grading`) into .carry/stencil-lab-grading/tree, with
# the two submissions the check uses beside it, so that the device needs nothing of this checkout.
# It is packed as .carry/stencil-lab-grading.tar.xz (about 10 MB of the carry's 64 MiB; the tree
# itself is 45 MB). Then, with carry [".carry"]:
#   scripts/gpu-install-check.sh .carry/stencil-lab-grading.tar.xz
#   scripts/grading-bundle-check.sh .carry/stencil-lab-grading.tar.xz  (the Gradescope bundle's setup.sh and
#                                                                       run_autograder in /autograder)
#
#   cmake --preset grading && cmake --build --preset grading && scripts/grading-carry.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-grading}
DST=.carry/stencil-lab-grading
[ -x "$BUILD/stencil-lab" ] || { echo "grading-carry: no $BUILD/stencil-lab (cmake --preset grading && cmake --build --preset grading)"; exit 2; }
rm -rf "$DST"
mkdir -p "$DST/submissions"
cmake --install "$BUILD" --prefix "$PWD/$DST/tree" --component grading > /dev/null
strip --strip-unneeded "$DST/tree/bin/stencil-lab" "$DST/tree/libexec/stencil-lab/stencil-check-runner"
cp tests/checker/submissions/naive_ok.cu "$DST/submissions/ok.cu"
cp tests/checker/submissions/naive_zeros.cu "$DST/submissions/zeros.cu"
cp tests/checker/submissions/naive_big_n_wrong.cu "$DST/submissions/partial.cu"
cp tests/checker/submissions/naive_syntax_error.cu "$DST/submissions/broken.cu"
tar -C .carry -cJf "$DST.tar.xz" stencil-lab-grading
rm -rf "$DST"
du -sh "$DST.tar.xz"
echo "grading-carry: carry [\".carry\"], then run: scripts/gpu-install-check.sh $DST.tar.xz"
