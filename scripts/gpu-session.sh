#!/usr/bin/env bash
# The one command of a GPU session on the device machine (Ubuntu 24.04, CUDA 13, an H100): every
# figure under docs/results/ comes out of this script, in one call.
#
# Here (no GPU):   cmake --preset gpu && cmake --build --preset gpu -j2 && scripts/gpu-carry.sh
# There:           scripts/gpu-session.sh .carry/build-gpu.tar.xz [STEPS]   (carry [".carry"])
# Back here:       tar xzf <fetched>/session.tar.gz, then scripts/results-table.py (see below)
#
# STEPS (default: all), each under its own time limit:
#   info      nvidia-smi and `stencil-lab info --json`                       -> info.json
#   ctest     ctest -L gpu (every kernel x tile x radius x precision, ...)   -> ctest.log
#             (CTEST_JOBS=N runs N at once: the corpus's CPU halves use the machine's cores;
#             CTEST_TIMEOUT=S bounds the step, 560 s by default, for a call that does more;
#             CTEST_REGEX=RE only the tests whose names match, e.g. nccl on a machine of 4 GPUs)
#   measure   the GPU's verdict of each corpus entry the table predicts      -> measure.txt
#   counters  ncu on the naive kernel at 256^3, in-process CUPTI beside it,
#             and whether the metrics the lab reads exist on this GPU         -> counters.txt
#   sanitize  compute-sanitizer memcheck / racecheck / synccheck, the textbook's kernels -> sanitizer.txt
#   run       `stencil-lab run --json`, kernels x tiles, 512^3, f32 and f64 -> run.jsonl, run.md
#   registers registers per thread, every kernel x r = 1..4 x precision     -> registers.jsonl
#   baseline  `stencil-lab baseline --size 512 --reps 30`                    -> baseline.txt/.json
#   sweep     `stencil-lab sweep --size 256`, f32 and f64                    -> sweep-256-f32/, -f64/
#   lab       the lab's kernels (`run --json`), r = 1..4, f32 and f64        -> lab-512.jsonl
#   peers     lab, then bench/peers.py on the same grids                     -> lab-512.jsonl, peers-512.*
#   steps     `run --steps 8`: temporal K = 1..4 beside one step a launch   -> steps-512.jsonl
#             (STEPS_RADII="1 2": at each of these radii; default 1)
#   limits    ncu on the kernels whose copy-ratio targets are not met (streaming r = 1..4 at its
#             default, temporal at its best T and K, r = 1) and on a plain copy kernel: DRAM bytes
#             against the minimum, DRAM and SM throughput, occupancy and its limiter, registers,
#             local memory, and every warp stall reason               -> limits-ncu.txt
#   tune      `tune` of streaming and temporal at ${SIZE}^3, r = 1, f32 and f64 -> tune-*/
#             (TUNE_RADII="1 2" at each of these radii; TUNE_TIMEOUT=S each tune, 240 s by default)
#   scaling   decomposed runs over every GPU here (NCCL), 1/2/4 GPUs        -> scaling-*/
# Everything lands in $OUT/session.tar.gz (the device returns at most 8 files) and the console
# output in $OUT/session.log. The archive is written again after every step and every run of the
# long steps, so that a call cut by its time limit still brings back what finished.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${1:-build-gpu}
if [ -f "$BUILD" ]; then  # gpu-carry.sh's packed build: unpacked beside it
  tar -C "$(dirname "$BUILD")" -xJf "$BUILD" || { echo "gpu-session: cannot unpack $BUILD"; exit 2; }
  BUILD=${BUILD%.tar.xz}
fi
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "gpu-session: no build folder ${1:-build-gpu}"; exit 2; }
STEPS=${2:-"info ctest counters sanitize run registers baseline sweep"}
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
RES=$(mktemp -d)/results
mkdir -p "$RES"
exec > >(tee "$OUT/session.log") 2>&1
LAB="$BUILD/stencil-lab"
SIZE=${SIZE:-512}
REPS=${REPS:-20}
FAILED=0

# What has finished, into $OUT/session.tar.gz (written aside first: a cut call leaves the last
# whole archive).
pack() {
  ( cd "$(dirname "$RES")" && tar czf "$OUT/.session.tar.gz" results && mv "$OUT/.session.tar.gz" "$OUT/session.tar.gz" )
}
step() { pack; printf '\n==== %s  (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
fail() { FAILED=$((FAILED + 1)); echo "FAILED: $*"; }

step "machine"
date -u +%Y-%m-%dT%H:%M:%SZ | tee "$RES/date.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv | tee "$RES/nvidia-smi.txt"
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
# Libraries gpu-carry.sh carried with the build (Debian's libfmt for a build that links it).
[ -d "$BUILD/lib" ] && export LD_LIBRARY_PATH="$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

if want info; then
  step "stencil-lab info"
  timeout 60 "$LAB" info --json > "$RES/info.json" || fail "info"
  timeout 60 "$LAB" info
fi

if want ctest; then
  step "ctest -L gpu"
  ( cd "$BUILD" && timeout "${CTEST_TIMEOUT:-560}" ctest -L gpu ${CTEST_REGEX:+-R "$CTEST_REGEX"} -j "${CTEST_JOBS:-1}" --output-on-failure \
      --timeout 500 ) > "$RES/ctest.log" 2>&1 || fail "ctest -L gpu"
  tail -n 8 "$RES/ctest.log"
fi

if want measure; then
  step "the GPU's verdict of each predicted corpus entry"
  ( cd "$BUILD" && timeout 500 tests/stencil_tests_gpu "[measure]" ) > "$RES/measure.txt" 2>&1 || fail "measure"
  grep -c "as predicted" "$RES/measure.txt" | sed 's/^/as predicted: /'
  grep "DIFFERS" "$RES/measure.txt"
fi

if want counters; then
  step "hardware counters: ncu, then the lab's in-process CUPTI on the same kernel"
  METRICS=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_global_op_st.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
  {
    command -v ncu && ncu --version | tail -1
    echo "---- ncu"
    timeout 120 ncu --clock-control none --kernel-name regex:stencil_naive_kernel --launch-count 1 \
      --metrics "$METRICS" "$LAB" run --kernel naive --tile 8 --size 256 --reps 1 --warmup 0 --backend cuda
    echo "ncu exit: $?"
    echo "---- in-process CUPTI (stencil-lab run --counters)"
    for p in f32 f64; do
      timeout 120 "$LAB" run --kernel naive --tile 8 --size 256 --precision $p --reps 3 --backend cuda --counters
      echo "stencil-lab counters exit: $?"
    done
  } > "$RES/counters.txt" 2>&1
  grep -E "exit|sectors per|dram__|sass_data_bytes|requested|ERR|rror" "$RES/counters.txt" | head -30
fi

if want sanitize; then
  step "compute-sanitizer on every kernel at 67^3 (a multiple of no tile)"
  {
    for tool in memcheck racecheck synccheck initcheck; do
      for kt in naive:8 tiled:8 coarsened:16 register-tiled:16; do
        k=${kt%%:*}; t=${kt##*:}
        echo "---- $tool $k T=$t"
        timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 \
          "$LAB" run --kernel "$k" --tile "$t" --size 67 --no-time --backend cuda | tail -n 3
        echo "exit: ${PIPESTATUS[0]}"
      done
    done
  } > "$RES/sanitizer.txt" 2>&1
  grep -cE "^exit: 0$" "$RES/sanitizer.txt" | sed 's/^/sanitizer runs with exit 0: /'
  grep -E "^exit: [^0]" -B4 "$RES/sanitizer.txt" && fail "compute-sanitizer"
fi

if want run; then
  step "stencil-lab run --json at ${SIZE}^3 (kernel x tile x precision)"
  : > "$RES/run.jsonl"
  CONFIGS="naive:8 tiled:4 tiled:6 tiled:8 tiled:10 coarsened:16 coarsened:32 register-tiled:16 register-tiled:32"
  for p in f32 f64; do
    for kt in $CONFIGS; do
      k=${kt%%:*}; t=${kt##*:}
      line=$(timeout 120 "$LAB" run --json --backend cuda --kernel "$k" --tile "$t" --precision "$p" \
               --size "$SIZE" --reps "$REPS" --warmup 3 2>"$RES/.err")
      rc=$?
      [ -n "$line" ] && echo "$line" >> "$RES/run.jsonl"
      [ $rc -ne 0 ] && fail "run $k T=$t $p: $(cat "$RES/.err")"
    done
  done
  rm -f "$RES/.err"
  python3 scripts/results-table.py "$RES/run.jsonl" --info "$RES/info.json" --md "$RES/run.md" && cat "$RES/run.md"
fi

if want registers; then
  step "registers per thread (cudaFuncGetAttributes), every kernel x r = 1..4 x precision"
  : > "$RES/registers.jsonl"
  for p in f32 f64; do
    for r in 1 2 3 4; do
      for kt in naive:8 tiled:10 coarsened:16 register-tiled:16; do
        k=${kt%%:*}; t=${kt##*:}
        timeout 60 "$LAB" run --json --no-time --backend cuda --kernel "$k" --tile "$t" --radius "$r" \
          --precision "$p" --size 64 >> "$RES/registers.jsonl" || fail "registers $k r=$r $p"
      done
    done
  done
  python3 -c '
import json,sys
for l in open(sys.argv[1]):
    j=json.loads(l); print("%-15s T=%-3d r=%d %s registers %d" % (j["kernel"], j["tile"], j["radius"], j["precision"], j["registers"]))' "$RES/registers.jsonl"
fi

if want baseline; then
  step "stencil-lab baseline --size 512 --reps 30 (textbook listings vs lab kernels)"
  timeout 240 "$LAB" baseline --size 512 --reps 30 --json-file "$RES/baseline.json" | tee "$RES/baseline.txt" || fail "baseline"
fi

if want sweep; then
  for p in f32 f64; do
    step "stencil-lab sweep --size 256 --precision $p"
    timeout 240 "$LAB" sweep --backend cuda --size 256 --precision $p --out "$RES/sweep-256-$p" 2>&1 | tail -n 12 || fail "sweep $p"
  done
fi

if want lab || want peers; then
  # The lab's kernels by `stencil-lab run --json` at 512^3, r = 1..4, f32 and f64: the lab's rows of
  # the peers table (`lab` alone: to compare two builds in one session, each on the same machine).
  step "the lab's kernels at ${SIZE}^3, r = 1..4, f32 and f64"
  : > "$RES/lab-$SIZE.jsonl"
  for p in f32 f64; do
    for r in 1 2 3 4; do
      # kernel:tile-or-block[:z-chunk]; streaming's default (T = 4, z-chunk 8: what `tune` picked at
      # r = 1, h100-tune-streaming-512*.json) beside its former one (T = 8, z-chunk 16)
      for ktz in naive:8 naive:32x4x2 register-tiled:32 streaming:4 streaming:8:16; do
        IFS=: read -r k t z <<< "$ktz"
        case $t in *x*) shape="--block $t" ;; *) shape="--tile $t" ;; esac
        timeout 120 "$LAB" run --json --backend cuda --kernel "$k" $shape ${z:+--z-chunk "$z"} --radius "$r" \
          --precision "$p" --size "$SIZE" --reps 10 >> "$RES/lab-$SIZE.jsonl" || fail "run $k $t $z r=$r $p"
        pack
      done
    done
  done
fi

if want peers; then
  # Issue 13's comparison in one session: the lab's kernels (above), then the peers (bench/peers.py:
  # torch eager, torch.compile, cuDNN, CuPy) on the same grids, every figure a ratio to the copy
  # measured in its own process.
  step "the peers at ${SIZE}^3, r = 1..4, f32 and f64"
  timeout 500 python3 bench/peers.py --size "$SIZE" --radii 1,2,3,4 --reps 10 --lab "$RES/lab-$SIZE.jsonl" \
    --out "$RES/peers-$SIZE" || fail "peers"
  [ -f "$RES/peers-$SIZE.md" ] && cat "$RES/peers-$SIZE.md"
fi

if want steps; then
  # Issue 13's temporal target: 8 time steps at 512^3, temporal at T = 48 fusing K = 1..4 steps a
  # pass, T = 32 and 64 (the default, K = 3) beside, and versions that launch once a step; rates
  # count one read and one write per cell update (copy_ratio).
  step "run --steps 8 at ${SIZE}^3: temporal K = 1..4 and one step a launch, r = ${STEPS_RADII:-1}"
  : > "$RES/steps-$SIZE.jsonl"
  for r in ${STEPS_RADII:-1}; do
    for p in f32 f64; do
      for ktf in temporal:48:1 temporal:48:2 temporal:48:3 temporal:48:4 temporal:32:4 temporal:64:3 temporal:64:4 \
        streaming:4: naive:8: register-tiled:32:; do
        IFS=: read -r k t f <<< "$ktf"
        timeout 120 "$LAB" run --json --backend cuda --kernel "$k" --tile "$t" ${f:+--fuse "$f"} --steps 8 \
          --radius "$r" --precision "$p" --size "$SIZE" --reps 10 >> "$RES/steps-$SIZE.jsonl" ||
          fail "steps $k T=$t K=$f r=$r $p"
        pack
      done
    done
  done
  python3 -c '
import json,sys
for l in open(sys.argv[1]):
    j=json.loads(l); print("%-15s T=%-3d K=%d r=%d %s copy-equivalent %.3f" % (j["kernel"], j["tile"], j["fused_steps"], j["radius"], j["precision"], j["copy_ratio"]))' "$RES/steps-$SIZE.jsonl"
fi

if want tune; then
  # The tiles, z-chunks and (temporal) fused steps that `tune` picks at the size the copy-ratio
  # targets are set at, per precision: each precision may want its own default.
  step "tune streaming and temporal at ${SIZE}^3, r = ${TUNE_RADII:-1}"
  for r in ${TUNE_RADII:-1}; do
    for p in f32 f64; do
      for k in streaming temporal; do
        timeout "${TUNE_TIMEOUT:-240}" "$LAB" tune --backend cuda --kernel "$k" --radius "$r" --precision "$p" --size "$SIZE" --reps 10 \
          --no-cache --out "$RES/tune-$k-r$r-$p" > "$RES/tune-$k-r$r-$p.txt" 2>&1 || fail "tune $k r=$r $p"
        tail -n 4 "$RES/tune-$k-r$r-$p.txt"
        pack
      done
    done
  done
fi

if want limits; then
  # Issue 48's question where a copy-ratio target is not met: what limits the kernel. One launch of
  # each (ncu flushes the caches before it, as the lab's timing does), at the configurations the
  # results tables report: streaming's default, temporal's best of the steps table, and the bench's
  # plain copy kernel (what any kernel gets of cudaMemcpy) when the design benches were built.
  step "ncu: what limits the kernels below their copy-ratio targets, ${SIZE}^3"
  BASE=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
  STALLS='regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$'
  profile() {  # profile LABEL KERNEL-REGEX COMMAND...
    local label=$1 kre=$2; shift 2
    echo "==== $label"
    timeout 150 ncu --clock-control none --kernel-name "regex:$kre" --launch-count 1 --metrics "$BASE,$STALLS" "$@" 2>&1 |
      grep -vE "^==PROF==|^==WARNING==|Warning: Data collection"
    echo "ncu exit: ${PIPESTATUS[0]}"
  }
  {
    command -v ncu && ncu --version | tail -1
    nvidia-smi --query-gpu=name,clocks.max.memory,clocks.max.sm --format=csv
    if [ -x "$BUILD/stencil-zmarch-variants" ]; then
      profile "copy kernel (bench/zmarch copy_kernel, f32, 16-byte vectors)" "^copy_kernel$" "$BUILD/stencil-zmarch-variants" "$SIZE"
    fi
    for p in f32 f64; do
      for r in 1 2 3 4; do
        profile "streaming r=$r $p (default T and z-chunk)" stencil_streaming_kernel \
          "$LAB" run --backend cuda --kernel streaming --radius "$r" --precision "$p" --size "$SIZE" --reps 1 --warmup 0
      done
    done
    for ptf in f32:48:4 f64:64:4; do
      IFS=: read -r p t f <<< "$ptf"
      profile "temporal r=1 $p T=$t K=$f" temporal \
        "$LAB" run --backend cuda --kernel temporal --tile "$t" --fuse "$f" --steps 8 --precision "$p" --size "$SIZE" --reps 1 --warmup 0
    done
  } > "$RES/limits-ncu.txt" 2>&1
  pack
  grep -E "^====|ncu exit|dram__bytes|dram__throughput|sm__warps_active|launch__registers|long_scoreboard|barrier" "$RES/limits-ncu.txt" | head -120
fi

if want scaling; then
  # Issue 31's decomposed runs over NCCL on every GPU of the machine (1, 2, 4): the fastest single-step
  # kernel (streaming) and temporal blocking (K fused steps a pass, halos r K wide) at 1024^3 cut along
  # z, weak scaling at 512^3 a GPU, and the cardiac mesh at 8192^2. Each row: time per step, the
  # exchange alone beside the link model's prediction, the check against one domain.
  G=$(nvidia-smi -L | wc -l)
  NCCL_DIR=$(python3 -c 'import nvidia.nccl,os; print(os.path.join(list(nvidia.nccl.__path__)[0],"lib"))' 2>/dev/null) &&
    export LD_LIBRARY_PATH="$NCCL_DIR:$LD_LIBRARY_PATH"
  Z="1x1x1"; C="1x1"
  [ "$G" -ge 2 ] && Z="$Z,1x1x2" && C="$C,1x2"
  # The cardiac mesh in strips: every ghost face a row, all of them overlapped (2x2's columns are not).
  [ "$G" -ge 4 ] && Z="$Z,1x1x4" && C="$C,1x4"
  step "scaling over $G GPU(s): star3d $Z, cardiac2d $C"
  # SCALING_ROWS: rows "kernel mode size [flags]" separated by ';' (unset: the five below; empty: none),
  # SCALING_CARDIAC=0 leaves the cardiac sweep out: a session may split them over two calls, and
  # CARDIAC_SPLITS="1x1,1x2,2x2;1x1,1x2,1x4" makes one cardiac sweep per list (default: $C).
  ROWS=${SCALING_ROWS-"streaming strong 1024;temporal strong 1024 --fuse 3;register-tiled strong 1024;streaming weak 512;temporal weak 512 --fuse 3"}
  IFS=';' read -ra ROW_LIST <<< "$ROWS"
  for row in "${ROW_LIST[@]}"; do
    read -r k mode n extra <<< "$row"
    timeout 400 "$LAB" run --backend cuda --kernel "$k" $extra --size "$n" --steps 24 --decompose "$Z" \
      --scaling "$mode" --gpus "$G" --out "$RES/scaling-$k-$mode-$n" || fail "scaling $row"
    pack
  done
  if [ "${SCALING_CARDIAC:-1}" = 1 ]; then
    IFS=';' read -ra SPLITS <<< "${CARDIAC_SPLITS:-$C}"
    for splits in "${SPLITS[@]}"; do
      out="$RES/scaling-cardiac2d-strong-8192"
      [ -n "${CARDIAC_SPLITS:-}" ] && out="$out-${splits##*,}"
      timeout 400 "$LAB" run --backend cuda --problem cardiac2d --kernel shared --size 8192 --steps 50 \
        --decompose "$splits" --scaling strong --gpus "$G" --out "$out" || fail "scaling cardiac2d $splits"
      pack
    done
  fi
fi

step "summary"  # packs the last time
ls -la "$OUT"
echo "gpu-session: $FAILED step(s) failed"
[ $FAILED -eq 0 ]
