#!/usr/bin/env bash
# The grading install tree on its own (issue 27): `cmake --install BUILD --component grading` into a
# temporary prefix, the tree moved elsewhere, then used with a clean environment while neither the
# source nor the build tree can be reached (a private mount namespace puts empty folders over both;
# where unshare is not allowed, the tree is only moved, and the test says so):
#   a passing and a failing submission checked on the CPU backend, bundles made from the tree (the
#   skeleton comes from its share/, the install tree travels in the zip; a tree of the default
#   preset, which needs libfmt and MPI, is refused by `make`, exit 2), a lab's parameters; from the
#   grading preset's tree, the Gradescope bundle's run_autograder in a simulated /autograder grading
#   a good and a broken file with the stencil-lab it ships.
# Also: no libcuda among the binaries' needs, a RUNPATH relative to them, and what they need from
# glibc (printed: docs/results/grading-install.md records the grading preset's).
# Usage: install_tree.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cmake --install "$BUILD" --prefix "$T/prefix" --component grading > "$T/install.log"
mkdir -p "$T/box"
cp -a "$T/prefix" "$T/box/stencil-lab"
rm -rf "$T/prefix"
TREE=$T/box/stencil-lab
for f in bin/stencil-lab libexec/stencil-lab/stencil-check-runner share/stencil-lab/exercises/naive/stencil.cu \
         share/stencil-lab/exercises/naive/README.md share/stencil-lab/labs/lab2-tiling.md \
         share/stencil-lab/results/h100-sweep-256-f32/results.json; do
  [ -e "$TREE/$f" ] || { echo "install tree: $f is missing"; exit 1; }
done
for b in bin/stencil-lab libexec/stencil-lab/stencil-check-runner; do
  needed=$(readelf -d "$TREE/$b" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  echo "$b needs: $needed"
  case " $needed " in *" libcuda.so"*) echo "install tree: $b links libcuda (it must start without a driver)"; exit 1 ;; esac
  readelf -d "$TREE/$b" | grep -E 'RUNPATH|RPATH' | grep -q 'ORIGIN' || { echo "install tree: $b has no \$ORIGIN RUNPATH"; exit 1; }
  echo "$b needs glibc $(objdump -T "$TREE/$b" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
done

# The grading preset links its third-party libraries in: only its tree is one `make` ships.
STATIC=$(sed -n 's/^STENCIL_LAB_STATIC_THIRD_PARTY:BOOL=//p' "$BUILD/CMakeCache.txt")
cp "$SRC/tests/checker/submissions/naive_ok.cu" "$T/box/ok.cu"
cp "$SRC/tests/checker/submissions/naive_zeros.cu" "$T/box/zeros.cu"
cat > "$T/box/inside.sh" <<INNER
set -u
cd "$T/box"
run() { env -i PATH=/usr/bin:/bin HOME="$T/box" TMPDIR="$T/box" "$TREE/bin/stencil-lab" "\$@"; }
fail() { echo "install tree: \$*"; exit 1; }
[ -e "$SRC/CMakeLists.txt" ] && echo "(the source tree is still reachable here)"
run check ok.cu --exercise naive --backend cpu > ok.txt 2>&1 || { cat ok.txt; fail "naive_ok did not pass"; }
run check zeros.cu --exercise naive --backend cpu > zeros.txt 2>&1
rc=\$?
[ \$rc -eq 1 ] && grep -q wrong_result zeros.txt || { cat zeros.txt; fail "naive_zeros: exit \$rc, not wrong_result"; }
if [ "$STATIC" = ON ]; then
  run autograder make --platform gradescope --exercise naive --out gs > make.txt 2>&1 || { cat make.txt; fail "autograder make"; }
  run autograder make --platform classroom --exercise naive --out cls > make.txt 2>&1 || { cat make.txt; fail "autograder make classroom"; }
  [ -x cls/.stencil-lab/stencil-lab/bin/stencil-lab ] || fail "the classroom bundle has no install tree"
  # the Gradescope bundle graded from a simulated /autograder with the tree it ships (no stencil-lab
  # on PATH): a good file gets every point, a broken one none of the correctness points
  python3 -c 'import os, sys, zipfile
for i in zipfile.ZipFile(sys.argv[1]).infolist():
    path = zipfile.ZipFile(sys.argv[1]).extract(i, sys.argv[2]); mode = (i.external_attr >> 16) & 0o777
    if mode: os.chmod(path, mode)' gs/autograder.zip gsroot/source || fail "cannot unzip the Gradescope bundle"
  for f in ok zeros; do
    rm -rf gsroot/submission gsroot/results && mkdir -p gsroot/submission gsroot/results && cp \$f.cu gsroot/submission/
    env -i PATH=/usr/bin:/bin HOME="$T/box" TMPDIR="$T/box" STENCIL_LAB_PLATFORM_ROOT="$T/box/gsroot" \
      bash gsroot/source/run_autograder > gs-\$f.txt 2>&1 || { cat gs-\$f.txt; fail "run_autograder on \$f.cu"; }
    score=\$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["score"])' gsroot/results/results.json) ||
      { cat gs-\$f.txt; fail "no results.json for \$f.cu"; }
    echo "install tree: the Gradescope bundle graded \$f.cu: \$score of 100"
    case \$f:\$score in ok:100|ok:100.0|zeros:0|zeros:0.0) ;; *) cat gsroot/results/results.json; fail "\$f.cu scored \$score" ;; esac
  done
else
  # a tree that needs the build machine's shared libraries (libfmt, MPI) is refused, naming one
  run autograder make --platform gradescope --exercise naive --out gs > make.txt 2>&1
  rc=\$?
  [ \$rc -eq 2 ] && grep -q 'cannot run on gradescope: bin/stencil-lab needs lib' make.txt && [ ! -e gs ] ||
    { cat make.txt; fail "autograder make from the default preset's tree: exit \$rc, not refused"; }
  echo "install tree: make refused this (default preset) tree: \$(sed 's/.*: bin/bin/; s/ (only.*//' make.txt)"
  run autograder make --stencil-lab-on-path --platform classroom --exercise naive --out cls > make.txt 2>&1 ||
    { cat make.txt; fail "autograder make classroom --stencil-lab-on-path"; }
fi
[ -s cls/stencil.cu ] || fail "the classroom bundle has no skeleton (share/stencil-lab not found)"
run lab params 2 > params.txt 2>&1 || { cat params.txt; fail "lab params"; }
head -n 2 ok.txt
echo "install tree: checked with no source or build tree"
INNER
if unshare -m --propagation private true 2> /dev/null; then
  # the build first: it may lie inside the source tree, which hides it once covered
  hide="mount -t tmpfs none '$BUILD' && mount -t tmpfs none '$SRC'"
  unshare -m --propagation private bash -c "$hide && bash '$T/box/inside.sh'"
else
  echo "install tree: unshare is not allowed here: the tree was moved, the source and build trees stay visible"
  bash "$T/box/inside.sh"
fi
