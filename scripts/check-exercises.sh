#!/usr/bin/env bash
# Grades the corpus's model solution of every exercise (and two wrong ones) with the checker, on
# the backend given (cuda on the device machine: loads per output from the GPU's counters, time
# against the lab's kernel), and prints each report with its exit code: the record kept in
# docs/results/h100-check-exercises.txt.
#   scripts/check-exercises.sh BUILD_DIR [cuda|cpu]
set -uo pipefail
cd "$(dirname "$0")/.."
B=${1:?usage: scripts/check-exercises.sh BUILD_DIR [cuda|cpu]}
BACKEND=${2:-cuda}
export STENCIL_LAB_ROOT=$PWD
S=tests/checker/submissions
date -u
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for p in naive:naive_ok tiled:tiled_ok coarsened:coarsened_ok register-tiled:register_tiled_ok \
         tiled-r2:tiled_r2_ok tiled-r2:tiled_r2_ok:6 register-tiled-f64:register_tiled_f64_ok \
         register-tiled-f64:register_tiled_f64_float_sum tiled-r2:tiled_r2_as_r1; do
  IFS=: read -r e f t <<<"$p"
  args=("$S/$f.cu" --exercise "$e" --backend "$BACKEND")
  [ -n "${t:-}" ] && args+=(--tile "$t")
  echo
  echo "\$ stencil-lab check ${args[*]}"
  out=$("$B/stencil-lab" check "${args[@]}" 2>&1)
  rc=$?
  # the passing sizes and the slice maps are left out: one line per failing size stays
  grep -v '^  \[ok\]\|^y=\|^slice' <<<"$out" | head -8
  echo "exit code $rc"
done
