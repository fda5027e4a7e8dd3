#!/usr/bin/env bash
# The one command of a GPU session on the device machine (Ubuntu 24.04, CUDA 13, an H100).
#
# Here (no GPU):   cmake --preset gpu && cmake --build --preset gpu -j2 && scripts/gpu-carry.sh
# There:           scripts/gpu-session.sh .carry/build-gpu     (carry [".carry"]; results in $OUT)
# Back here:       scripts/results-table.py <fetched>/results.jsonl --info <fetched>/info.json \
#                      --md docs/results/<device>-512.md
#
# It runs, each step under its own time limit, about 5 minutes in all:
#   1. nvidia-smi and `stencil-lab info --json`                     -> info.json
#   2. ctest -L gpu (every kernel x tile x radius x precision)       -> ctest.log
#   3. a hardware-counter probe: ncu on the naive kernel at 256^3    -> ncu.txt
#   4. `stencil-lab run --json` over kernels x tiles, 512^3, fp32 and fp64 -> results.jsonl
#   5. scripts/results-table.py                                      -> results.md
# and the whole console output                                       -> session.log
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${1:-build-gpu}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "gpu-session: no build folder ${1:-build-gpu}"; exit 2; }
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
exec > >(tee "$OUT/session.log") 2>&1
LAB="$BUILD/stencil-lab"
SIZE=${SIZE:-512}
REPS=${REPS:-20}

step() { printf '\n==== %s  (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "machine"
date -u +%Y-%m-%dT%H:%M:%SZ
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv || true
[ -x "$LAB" ] || { echo "gpu-session: $LAB is missing: build with the gpu preset first"; exit 2; }

# The build keeps the absolute paths of the machine it was configured on (ctest files, the tests'
# STENCIL_LAB_SOURCE_DIR / _BINARY_DIR). When the tree or the build (a .carry/ copy made by
# scripts/gpu-carry.sh) lands elsewhere, point the old paths here.
HOME_DIR=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
CACHE_DIR=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
if [ -n "$HOME_DIR" ] && [ "$HOME_DIR" != "$ROOT" ] && [ ! -e "$HOME_DIR" ]; then
  mkdir -p "$(dirname "$HOME_DIR")" && ln -s "$ROOT" "$HOME_DIR" &&
    echo "gpu-session: linked $HOME_DIR -> $ROOT (the build's source path)"
fi
if [ -n "$CACHE_DIR" ] && [ ! -e "$CACHE_DIR/CMakeCache.txt" ]; then
  mkdir -p "$(dirname "$CACHE_DIR")" && ln -sfn "$BUILD" "$CACHE_DIR" &&
    echo "gpu-session: linked $CACHE_DIR -> $BUILD (the build's own path)"
fi
export STENCIL_LAB_BINARY_DIR="$BUILD"

step "stencil-lab info"
timeout 60 "$LAB" info --json | tee "$OUT/info.json"
timeout 60 "$LAB" info

step "ctest -L gpu"
( cd "$BUILD" && timeout 300 ctest -L gpu --output-on-failure --timeout 240 ) > "$OUT/ctest.log" 2>&1
CTEST_RC=$?
tail -n 25 "$OUT/ctest.log"
echo "ctest exit: $CTEST_RC"

step "hardware counters (ncu; CUPTI is what it is built on)"
{
  command -v ncu && ncu --version | tail -1
  timeout 120 ncu --clock-control none --target-processes all \
    --kernel-name regex:stencil_naive_kernel --launch-count 1 \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum \
    "$LAB" run --kernel naive --tile 8 --size 256 --reps 1 --warmup 0 --backend cuda
  echo "ncu exit: $?"
  echo "---- in-process CUPTI (stencil-lab run --counters)"
  for p in f32 f64; do
    timeout 120 "$LAB" run --kernel naive --tile 8 --size 256 --precision $p --reps 3 --backend cuda --counters
    echo "stencil-lab counters exit: $?"
  done
} > "$OUT/ncu.txt" 2>&1
grep -E "ncu exit|counters|dram__|lts__|l1tex__|sass|ERR|rror" "$OUT/ncu.txt" | head -30

step "stencil-lab run --json at ${SIZE}^3 (kernel x tile x precision)"
: > "$OUT/results.jsonl"
CONFIGS="naive:8 tiled:4 tiled:6 tiled:8 tiled:10 coarsened:16 coarsened:32 register-tiled:16 register-tiled:32"
FAILED=0
for p in f32 f64; do
  for kt in $CONFIGS; do
    k=${kt%%:*}; t=${kt##*:}
    line=$(timeout 120 "$LAB" run --json --backend cuda --kernel "$k" --tile "$t" --precision "$p" \
             --size "$SIZE" --reps "$REPS" --warmup 3 2>"$OUT/.err")
    rc=$?
    if [ -n "$line" ]; then echo "$line" >> "$OUT/results.jsonl"; fi
    if [ $rc -ne 0 ]; then FAILED=$((FAILED + 1)); echo "FAILED ($rc): $k T=$t $p: $(cat "$OUT/.err")"; fi
    printf '%-15s T=%-3s %s  %s\n' "$k" "$t" "$p" \
      "$(echo "$line" | python3 -c 'import sys,json; j=json.loads(sys.stdin.read() or "{}"); print("ok" if j.get("ok") else "NOT OK", "%.4f ms" % j.get("ms_median",0), "%.0f GB/s" % j.get("gbps",0), "copy %.2f" % j.get("copy_ratio",0))' 2>/dev/null)"
  done
done
rm -f "$OUT/.err"

step "results table"
python3 scripts/results-table.py "$OUT/results.jsonl" --info "$OUT/info.json" --md "$OUT/results.md" \
  && cat "$OUT/results.md"

step "summary"
echo "ctest -L gpu exit $CTEST_RC; runs failed: $FAILED; files in $OUT:"
ls -la "$OUT"
[ $CTEST_RC -eq 0 ] && [ $FAILED -eq 0 ]
