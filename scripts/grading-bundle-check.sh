#!/usr/bin/env bash
# The Gradescope bundle where it is uploaded (issue 46): a fresh folder laid out as /autograder, the
# bundle made by the grading preset's install tree, its setup.sh run as root (as Gradescope runs it
# while building the image), then its run_autograder on a good, a partly right (nested, another
# name) and two broken files (wrong everywhere; does not compile), the partly right one graded
# twice (the results must be byte-identical but execution_time). For the device machine (Ubuntu
# 24.04, root, CUDA 13, none of our Debian packages) and a Debian 12 chroot.
#
# Here:   cmake --preset grading && cmake --build --preset grading && scripts/grading-carry.sh
# There:  scripts/grading-bundle-check.sh .carry/stencil-lab-grading.tar.xz   (carry [".carry"])
# As root, with no /autograder yet, the bundle runs in /autograder itself (removed at the end);
# otherwise in a temporary folder given as STENCIL_LAB_PLATFORM_ROOT. Logs and results files go to
# $OUT (default ./out): grading-bundle-check.log and gradescope-*.json. Exit 0 when all held.
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ARG=${1:-$REPO/.carry/stencil-lab-grading.tar.xz}
OUT=${OUT:-$REPO/out}
mkdir -p "$OUT"
LOG=$OUT/grading-bundle-check.log
T=$(mktemp -d /tmp/stencil-bundle-check-XXXXXX)
if [ -f "$ARG" ]; then
  tar -C "$T" -xJf "$ARG" || { echo "grading-bundle-check: cannot unpack $ARG"; exit 2; }
  CARRY=$T/stencil-lab-grading
else
  CARRY=$(cd "$ARG" && pwd) || { echo "grading-bundle-check: no carried tree at $ARG"; exit 2; }
fi
[ -x "$CARRY/tree/bin/stencil-lab" ] || { echo "grading-bundle-check: no tree/bin/stencil-lab in $CARRY"; exit 2; }
if [ "$(id -u)" = 0 ] && [ ! -e /autograder ]; then
  ROOT=/autograder
  # setup.sh links /usr/local/bin/stencil-lab into /autograder: that link goes with it
  trap 'rm -rf /autograder "$T"; [ "$(readlink /usr/local/bin/stencil-lab)" = /autograder/source/stencil-lab/bin/stencil-lab ] && rm -f /usr/local/bin/stencil-lab' EXIT
else
  ROOT=$T/autograder
  export STENCIL_LAB_PLATFORM_ROOT=$ROOT
  trap 'rm -rf "$T"' EXIT
fi

exec > >(tee "$LOG") 2>&1
FAILED=0
step() { printf '\n==== %s\n' "$*"; }
fail() { echo "FAILED: $*"; FAILED=$((FAILED + 1)); }
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$2"; }

step "the machine"
. /etc/os-release && echo "$PRETTY_NAME, glibc $(ldd --version | head -1 | awk '{print $NF}'), $(uname -m), uid $(id -u)"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "stencil-lab on PATH before setup: $(command -v stencil-lab || echo none)"
echo "the platform root: $ROOT"

# The instructor's make, on this machine: the carried tree with NVRTC found for it alone (setup.sh
# must make it loadable for the bundle by itself).
NVRTC_DIR=$(dirname "$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libnvrtc.so.13 /usr/local/cuda*/lib64/libnvrtc.so.13 2> /dev/null | head -n 1)")
make_lab() { LD_LIBRARY_PATH=$NVRTC_DIR "$CARRY/tree/bin/stencil-lab" "$@"; }
step "autograder make (the carried install tree: $(make_lab --version); NVRTC for it from $NVRTC_DIR)"
make_lab autograder make --platform gradescope --exercise naive --backend auto \
  --secret-file "$T/course.secret" --out "$T/bundle" || fail "autograder make"
ls -l "$T/bundle"

step "the bundle laid out as Gradescope lays it out"
mkdir -p "$ROOT/source" "$ROOT/submission" "$ROOT/results"
if command -v unzip > /dev/null; then
  (cd "$ROOT/source" && unzip -q "$T/bundle/autograder.zip") || fail "unzip"
else
  (cd "$ROOT/source" && python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(".")' "$T/bundle/autograder.zip") || fail "unzip"
  chmod +x "$ROOT/source/setup.sh" "$ROOT/source/run_autograder" "$ROOT/source/stencil-lab/bin/stencil-lab" \
    "$ROOT/source/stencil-lab/libexec/stencil-lab/stencil-check-runner"  # zipfile drops the modes
fi
cp "$ROOT/source/run_autograder" "$ROOT/run_autograder"
du -sh "$ROOT/source"

step "setup.sh (as root, as the image build runs it)"
t0=$(date +%s)
bash "$ROOT/source/setup.sh" || fail "setup.sh: exit $?"
echo "setup.sh took $(( $(date +%s) - t0 )) s; stencil-lab on PATH now: $(command -v stencil-lab || echo none)"

# grade NAME FILE PATH-UNDER-SUBMISSION: one run_autograder, its results kept as gradescope-NAME.json
grade() {
  rm -rf "$ROOT/submission" "$ROOT/results"
  mkdir -p "$(dirname "$ROOT/submission/$3")" "$ROOT/results"
  cp "$2" "$ROOT/submission/$3"
  step "run_autograder: $1 ($3)"
  t0=$(date +%s.%N)
  (cd "$ROOT" && ./run_autograder) || fail "$1: run_autograder exit $?"
  echo "wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b - a}') s"
  cp "$ROOT/results/results.json" "$OUT/gradescope-$1.json" || { fail "$1: no results.json"; return; }
  json "'score %g of %g (sum of max_score), %d tests, graded by %s' % (r['score'], sum(t['max_score'] for t in r['tests']), len(r['tests']), r.get('extra_data', {}).get('graded_by', {}).get('stencil_lab_version', 'no stencil-lab'))" \
    "$OUT/gradescope-$1.json"
}
score() { json "r['score']" "$OUT/gradescope-$1.json"; }
S=$CARRY/submissions
grade good "$S/ok.cu" stencil.cu
# all 100 on the CPU; on a GPU the time item may fall a point short of the lab's own kernel
awk -v p="$(score good)" 'BEGIN{exit !(p >= 95)}' || fail "good: score $(score good), not 95 or more"
grade partial "$S/partial.cu" src/kernels/my_stencil.cu
cp "$OUT/gradescope-partial.json" "$T/partial-first.json"
p=$(score partial)
awk -v p="$p" 'BEGIN{exit !(p > 0 && p < 100)}' || fail "partial: score $p, not between 0 and 100"
grade zeros "$S/zeros.cu" stencil.cu
[ "$(score zeros)" = 0 ] || [ "$(score zeros)" = 0.0 ] || fail "zeros: score $(score zeros), not 0"
grade broken "$S/broken.cu" stencil.cu
[ "$(score broken)" = 0 ] || [ "$(score broken)" = 0.0 ] || fail "broken: score $(score broken), not 0"
grade partial-again "$S/partial.cu" src/kernels/my_stencil.cu
step "the regrade of the partly right file"
python3 - "$T/partial-first.json" "$OUT/gradescope-partial-again.json" << 'PY' || fail "the regrade differs"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for r in (a, b): r.pop("execution_time", None)
same = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
print("byte-identical but execution_time:", "yes" if same else "NO")
sys.exit(0 if same else 1)
PY
for f in good partial zeros broken; do
  echo "$f: score $(score $f)"
done
step "summary"
echo "$FAILED failed"
exit $((FAILED > 0))
