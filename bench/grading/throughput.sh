#!/usr/bin/env bash
# Submissions per hour per core for a course's batch: `stencil-lab check --batch --jobs N` on a
# mixed folder of naive-exercise submissions from the checker's corpus (passing, wrong, racing,
# crashing, non-compiling: tests/checker/submissions/naive_*.cu, the table in
# tests/checker/checker_corpus.h), CPU backend, every file checked (--fresh), for each N given.
#
#   bench/grading/throughput.sh [STENCIL_LAB] [JOBS...] > docs/results/grading-throughput-<machine>.md
set -uo pipefail
cd "$(dirname "$0")/../.."
LAB=$(realpath "${1:-build-ci/stencil-lab}")
shift || true
JOBS=${*:-"1 $(nproc)"}
[ -x "$LAB" ] || { echo "throughput: no $LAB"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/batch"
# Every naive entry of the corpus but the endless loop (it waits out its time limit: a batch's
# outlier, measured apart by its own limit) and the printf flood.
for f in tests/checker/submissions/naive_*.cu; do
  case $(basename "$f") in naive_endless_loop.cu|naive_printf_flood.cu) continue ;; esac
  cp "$f" "$T/batch/"
done
n=$(ls "$T/batch" | wc -l)
cores=$(nproc)
echo "# Grading throughput: check --batch on a mixed folder"
echo
echo "$n naive submissions of tests/checker/submissions (every naive_*.cu but the endless loop and the printf flood:"
echo "passing, wrong, racing, crashing, out of bounds, non-compiling), \`stencil-lab check --batch DIR -e naive --backend cpu --jobs N --fresh\`,"
echo "on $(uname -n): $cores cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load average before the run $(cut -d' ' -f1 /proc/loadavg),"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null)."
echo
echo "| --jobs | wall s | s per submission | submissions per hour | per hour per core |"
echo "|---|---|---|---|---|"
for j in $JOBS; do
  t0=$(date +%s.%N)
  env HOME="$T" "$LAB" check --batch "$T/batch" -e naive --backend cpu --jobs "$j" --fresh --csv "$T/grades.csv" > "$T/out.txt" 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v n="$n" -v j="$j" -v c="$cores" 'BEGIN {
    w = b - a; used = (j < c ? j : c);
    printf "| %d | %.1f | %.2f | %.0f | %.0f |\n", j, w, w / n, n / w * 3600, n / w * 3600 / used }'
done
echo
echo "\"per core\" divides by the cores the batch used (min(--jobs, cores)). The verdicts of the last run:"
echo
echo '```'
cut -d, -f1,2 "$T/grades.csv" | tail -n +2 | tr -d '"' | sort | awk -F, '{printf "%s %s\n", $2, $1}' | sort | awk '{c[$1]++} END {for (v in c) printf "%s %d\n", v, c[v]}' | sort
echo '```'
