#!/usr/bin/env bash
# The grading install tree on the device machine (Ubuntu 24.04, CUDA 13 driver, none of the Debian
# packages it was built with): a passing and a failing submission checked on the CPU backend and on
# the GPU, and one platform job (Gradescope's layout, the GPU's timing in the points), with no
# source or build tree used: the tree and the submissions are copied to a temporary folder first,
# and where unshare is allowed the checkout is hidden under an empty folder while they run.
#
# Here:   cmake --preset grading && cmake --build --preset grading && scripts/grading-carry.sh
# There:  scripts/gpu-install-check.sh .carry/stencil-lab-grading.tar.xz     (carry [".carry"])
# The log goes to $OUT/gpu-install-check.log (and the results files beside it).
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ARG=${1:-$REPO/.carry/stencil-lab-grading.tar.xz}
if [ -f "$ARG" ]; then  # the packed carry: unpacked outside the checkout
  UNPACKED=$(mktemp -d /tmp/stencil-grading-carry-XXXXXX)
  tar -C "$UNPACKED" -xJf "$ARG" || { echo "gpu-install-check: cannot unpack $ARG"; exit 2; }
  ARG=$UNPACKED/stencil-lab-grading
fi
CARRY=$(cd "$ARG" && pwd) || { echo "gpu-install-check: no carried tree at $ARG"; exit 2; }
OUT=${OUT:-$REPO/out}
mkdir -p "$OUT"
T=$(mktemp -d /tmp/stencil-install-check-XXXXXX)
cp -a "$CARRY/tree" "$T/stencil-lab"
cp -a "$CARRY/submissions" "$T/submissions"
cat > "$T/inside.sh" <<INNER
set -u
cd "$T"
FAILED=0
step() { printf '\n==== %s\n' "\$*"; }
fail() { echo "FAILED: \$*"; FAILED=\$((FAILED + 1)); }
[ -e "$REPO/CMakeLists.txt" ] && echo "(note: the checkout is still reachable: unshare was not allowed)"
LAB="$T/stencil-lab/bin/stencil-lab"
run() { env -i PATH=/usr/bin:/bin HOME="$T" TMPDIR="$T" \${LD_EXTRA:+LD_LIBRARY_PATH=\$LD_EXTRA} "\$LAB" "\$@"; }
step "the machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
. /etc/os-release; echo "\$PRETTY_NAME, glibc \$(ldd --version | head -1 | awk '{print \$NF}')"
step "what the binaries need"
for b in bin/stencil-lab libexec/stencil-lab/stencil-check-runner; do
  echo "\$b: \$(readelf -d "$T/stencil-lab/\$b" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  echo "  glibc \$(objdump -T "$T/stencil-lab/\$b" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
  ldd "$T/stencil-lab/\$b" | grep -E 'nvrtc|not found'
done
if ldd "\$LAB" | grep -q 'libnvrtc.so.13 => not found'; then
  LD_EXTRA=\$(dirname "\$(ls /usr/local/cuda*/lib64/libnvrtc.so.13 /usr/local/cuda*/targets/*/lib/libnvrtc.so.13 2>/dev/null | head -1)")
  echo "libnvrtc.so.13 is not on ld.so's list here: LD_LIBRARY_PATH=\$LD_EXTRA for the runs"
fi
step "stencil-lab info"
run info || fail "info"
for backend in cpu cuda; do
  step "check on \$backend: a passing submission"
  run check submissions/ok.cu --exercise naive --backend \$backend; rc=\$?
  [ \$rc -eq 0 ] || fail "ok.cu on \$backend: exit \$rc"
  step "check on \$backend: a failing submission"
  run check submissions/zeros.cu --exercise naive --backend \$backend > zeros-\$backend.txt 2>&1; rc=\$?
  head -3 zeros-\$backend.txt
  [ \$rc -eq 1 ] && grep -q wrong_result zeros-\$backend.txt || fail "zeros.cu on \$backend: exit \$rc, not wrong_result"
done
step "a Gradescope job on the GPU: the partly passing submission, then the passing one (time in the points)"
run autograder make --platform gradescope --exercise naive --backend auto --out bundle || fail "autograder make"
mkdir -p gs/source && (cd gs/source && python3 -c 'import zipfile; zipfile.ZipFile("../../bundle/autograder.zip").extractall(".")') || fail "unzip"
chmod +x gs/source/run_autograder
for sub in partial ok; do
  rm -rf gs/submission gs/results && mkdir -p gs/submission && cp submissions/\$sub.cu gs/submission/stencil.cu
  env -i PATH="$T/stencil-lab/bin:/usr/bin:/bin" HOME="$T" \${LD_EXTRA:+LD_LIBRARY_PATH=\$LD_EXTRA} STENCIL_LAB_PLATFORM_ROOT="$T/gs" gs/source/run_autograder
  cp gs/results/results.json "$T/gradescope-\$sub.json"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("score", r["score"]); [print(" ", t["name"][:60], t["score"], "/", t["max_score"]) for t in r["tests"]]; print(" leaderboard", r.get("leaderboard"))' gs/results/results.json || fail "results of \$sub"
done
echo
echo "gpu-install-check: \$FAILED step(s) failed"
exit \$FAILED
INNER
if unshare -m --propagation private true 2> /dev/null; then
  unshare -m --propagation private bash -c "mount -t tmpfs none '$REPO' && bash '$T/inside.sh'" 2>&1 | tee "$OUT/gpu-install-check.log"
else
  bash "$T/inside.sh" 2>&1 | tee "$OUT/gpu-install-check.log"
fi
rc=${PIPESTATUS[0]}
cp "$T"/gradescope-*.json "$OUT"/ 2> /dev/null
rm -rf "$T" ${UNPACKED:+"$UNPACKED"}
exit "$rc"
