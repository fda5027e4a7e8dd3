#!/usr/bin/env bash
# Does a check fit a grading box? Each exercise's model solution (tests/checker/submissions/*_ok.cu,
# the table in tests/checker/checker_corpus.h) checked on the CPU backend inside a cgroup limited to
# 768 MB and half a core (Gradescope's default box: 0.5 vCPU, 768 MB), the runner child included,
# then a check on a box too small for it (the results file must say why). Prints a Markdown table.
#
#   scripts/box-fit.sh [STENCIL_LAB] > docs/results/box-fit.md       (root: it makes cgroups)
#   MEMORY_MB=768 CPU_PERCENT=50 SMALL_MB=48 scripts/box-fit.sh build-ci/stencil-lab
#
# Memory is the cgroup's own peak (v1 memory.max_usage_in_bytes, v2 memory.peak): every process of
# the check, page cache included (NVRTC's 110 MB library is read through it), which is what the
# box's limit counts. Time is the wall clock of `stencil-lab check`, NVRTC's compile included.
set -uo pipefail
cd "$(dirname "$0")/.."
LAB=$(realpath "${1:-build-ci/stencil-lab}")
MEMORY_MB=${MEMORY_MB:-768}
CPU_PERCENT=${CPU_PERCENT:-50}
SMALL_MB=${SMALL_MB:-48}
[ -x "$LAB" ] || { echo "box-fit: no $LAB"; exit 2; }
SUBS=tests/checker/submissions
EXERCISES="naive:naive_ok.cu tiled:tiled_ok.cu coarsened:coarsened_ok.cu register-tiled:register_tiled_ok.cu
find-the-race:tiled_ok.cu tiled-r2:tiled_r2_ok.cu register-tiled-f64:register_tiled_f64_ok.cu
cardiac-shared:cardiac_shared_ok.cu x-derivative:derivative_x_ok.cu"
T=$(mktemp -d)
CGS=()
cleanup() { for cg in "${CGS[@]}"; do rmdir "$cg" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT

# A cgroup for one run: v2 (memory.max, cpu.max) or v1 (memory and cpu controllers apart).
V2=$([ -f /sys/fs/cgroup/cgroup.controllers ] && echo 1 || echo 0)
mine() { sed -n "s/^[0-9]*:$1:\(.*\)/\1/p" /proc/self/cgroup | head -1; }
make_box() {  # NAME MEMORY_MB -> prints the folders (v2: one; v1: memory and cpu)
  local name=$1 mb=$2
  if [ "$V2" = 1 ]; then
    local d=/sys/fs/cgroup$(mine "")/$name
    mkdir -p "$d" && echo "+memory +cpu" > "$(dirname "$d")/cgroup.subtree_control" 2>/dev/null
    echo $((mb << 20)) > "$d/memory.max" && echo "$((CPU_PERCENT * 1000)) 100000" > "$d/cpu.max" || return 1
    echo "$d"
  else
    local m=/sys/fs/cgroup/memory$(mine memory)/$name c=/sys/fs/cgroup/cpu$(mine cpu)/$name
    mkdir -p "$m" "$c" || return 1
    echo $((mb << 20)) > "$m/memory.limit_in_bytes" || return 1
    echo 0 > "$m/memory.swappiness" 2>/dev/null
    echo 100000 > "$c/cpu.cfs_period_us" && echo $((CPU_PERCENT * 1000)) > "$c/cpu.cfs_quota_us" || return 1
    echo "$m $c"
  fi
}
peak_mb() {  # the box's memory peak
  local d=${1%% *}
  if [ "$V2" = 1 ]; then cat "$d/memory.peak" 2>/dev/null || echo 0; else cat "$d/memory.max_usage_in_bytes"; fi |
    awk '{printf "%.0f", $1 / 1048576}'
}
in_box() {  # FOLDERS CMD...: run CMD with this shell's child moved into the box first
  local dirs=$1; shift
  bash -c 'for d in '"$dirs"'; do echo $$ > "$d/cgroup.procs"; done; exec "$@"' box "$@"
}

echo "# Does a check fit the box? ${MEMORY_MB} MB and ${CPU_PERCENT}% of one core"
echo
echo "\`scripts/box-fit.sh $(realpath --relative-to=. "$LAB")\` on $(uname -n) ($(nproc) cores: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null); cgroup v$([ "$V2" = 1 ] && echo 2 || echo 1); load average $(cut -d' ' -f1-3 /proc/loadavg) at the start (the machine is shared: a quota is a ceiling, not a guarantee)."
echo "Each row: \`stencil-lab check SOLUTION --exercise E --backend cpu\` inside a cgroup limited to ${MEMORY_MB} MB and a CPU quota of ${CPU_PERCENT}%; peak is the cgroup's (all processes, page cache included)."
echo "Pages already cached before the run (NVRTC's 110 MB library, read by earlier runs) stay charged to whoever read them first: on a fresh box add about 110 MB."
echo
echo "| exercise | model solution | verdict | wall s | peak MB | fits (60 s, ${MEMORY_MB} MB) |"
echo "|---|---|---|---|---|---|"
i=0
for pair in $EXERCISES; do
  ex=${pair%%:*} sol=${pair##*:}
  i=$((i + 1))
  box=$(make_box "stencil-box-$$-$i" "$MEMORY_MB") || { echo "box-fit: cannot make a cgroup (root, and a writable /sys/fs/cgroup, are needed)"; exit 2; }
  for d in $box; do CGS+=("$d"); done
  t0=$(date +%s.%N)
  in_box "$box" env HOME="$T" "$LAB" check "$SUBS/$sol" --exercise "$ex" --backend cpu > "$T/out.txt" 2>&1
  t1=$(date +%s.%N)
  verdict=$(head -1 "$T/out.txt" | sed -n 's/^[^:]*: \([a-z_]*\) .*/\1/p')
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')
  peak=$(peak_mb "$box")
  fits=$(awk -v w="$wall" -v p="$peak" -v m="$MEMORY_MB" 'BEGIN{print (w <= 60 && p <= m) ? "yes" : "NO"}')
  echo "| $ex | $sol | ${verdict:-?} | $wall | $peak | $fits |"
done

# A box too small: the Gradescope bundle's run_autograder in ${SMALL_MB} MB must leave a results
# file that says why (the OOM killer ends the runner or stencil-lab itself).
mkdir -p "$T/gs/submission"
env HOME="$T" "$LAB" autograder make --stencil-lab-on-path --platform gradescope --exercise tiled --backend cpu --out "$T/bundle" > /dev/null
( cd "$T/gs" && mkdir -p source && cd source && python3 -c 'import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall(".")' "$T/bundle/autograder.zip" ) 2>/dev/null ||
  ( cd "$T/gs/source" && unzip -q "$T/bundle/autograder.zip" )
chmod +x "$T/gs/source/run_autograder"
cp "$SUBS/tiled_ok.cu" "$T/gs/submission/stencil.cu"
box=$(make_box "stencil-box-$$-small" "$SMALL_MB") && for d in $box; do CGS+=("$d"); done
in_box "$box" env HOME="$T" PATH="$(dirname "$LAB"):/usr/bin:/bin" STENCIL_LAB_PLATFORM_ROOT="$T/gs" "$T/gs/source/run_autograder" > /dev/null 2>&1
echo
echo "A box too small (${SMALL_MB} MB, the tiled model solution through the Gradescope bundle's run_autograder):"
echo "score $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["score"])' "$T/gs/results/results.json" 2>/dev/null || grep -o '"score": [0-9.]*' "$T/gs/results/results.json" | head -1), output:"
echo
echo '```'
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["output"])' "$T/gs/results/results.json" 2>/dev/null | head -4 ||
  head -c 600 "$T/gs/results/results.json"
echo '```'
