#!/usr/bin/env bash
# The CPU engine's check of every exercise's model solution on one core (issue 26's speed target:
# at most 3 s each, median of 3): bench/check_time.sh --backend cpu under `taskset -c 0`, one
# exercise after the other, and a Markdown table of the medians with each run's phases kept.
#
#   bench/cpu_check_speed.sh [--build DIR] [--runs K] [--out FILE.md]
#   defaults: --build build-ci, --runs 3, the table on stdout only
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=build-ci RUNS=3 OUTFILE=
usage() { echo "usage: bench/cpu_check_speed.sh [--build DIR] [--runs K] [--out FILE.md]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=${2:?}; shift 2 ;;
    --runs) RUNS=${2:?}; shift 2 ;;
    --out) OUTFILE=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
command -v taskset >/dev/null || { echo "cpu_check_speed: taskset (util-linux) is needed" >&2; exit 2; }
[ -x "$BUILD/stencil-lab" ] || { echo "cpu_check_speed: $BUILD/stencil-lab is not built" >&2; exit 2; }

# exercise -> its model solution (the corpus's *_ok.cu that the exercise's README describes)
MODELS="naive:naive_ok tiled:tiled_ok tiled-r2:tiled_r2_ok find-the-race:tiled_ok coarsened:coarsened_ok
register-tiled:register_tiled_ok register-tiled-f64:register_tiled_f64_ok cardiac-shared:cardiac_shared_ok
x-derivative:derivative_x_ok"
LOGS=$(mktemp -d /tmp/cpu_check_speed.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT

{
  echo "# The CPU engine's check of each model solution, one core"
  echo
  echo "\`bench/cpu_check_speed.sh --runs $RUNS\`: \`taskset -c 0 bench/check_time.sh --backend cpu --runs $RUNS\`"
  echo "per exercise, seed 1. $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
  echo "load before $(cut -d' ' -f1-3 /proc/loadavg). Target: at most 3 s each (issue 26)."
  echo
  echo "| exercise | model solution | verdict | median s | runs s | slowest phase (median s) | within 3 s |"
  echo "|---|---|---|---:|---|---|---|"
} > "$LOGS/table.md"

over=0
for pair in $MODELS; do
  ex=${pair%%:*} file=tests/checker/submissions/${pair##*:}.cu
  taskset -c 0 bench/check_time.sh --build "$BUILD" --backend cpu --exercise "$ex" --file "$file" --runs "$RUNS" \
    > "$LOGS/$ex.txt" 2>&1 || true
  python3 - "$LOGS/$ex.txt" "$ex" "$(basename "$file")" >> "$LOGS/table.md" <<'PY' || over=$((over + 1))
import re, sys
text, ex, model = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
total = re.search(r"^total wall clock\s+(.*)$", text, re.M)
verdicts = re.search(r"^verdicts: (.*)$", text, re.M)
if not total:
    print(f"| {ex} | {model} | no result | - | - | {text.strip().splitlines()[-1] if text.strip() else '?'} | no |")
    sys.exit(1)
vals = [float(v) for v in total.group(1).split()]
runs, med = vals[:-1], vals[-1]
slow = None
for line in text.splitlines():
    m = re.match(r"^(runner \d+: .*?|parent: .*?)\s{2,}([\d.\s-]+)$", line)
    if m and not m.group(1).strip().endswith("by its own clock"):
        v = m.group(2).split()[-1]
        if v != "-" and (slow is None or float(v) > slow[1]):
            slow = (m.group(1).strip(), float(v))
vs = sorted(set(verdicts.group(1).split(", "))) if verdicts else ["?"]
print(f"| {ex} | {model} | {'/'.join(vs)} | {med:.2f} | {' '.join(f'{r:.2f}' for r in runs)} | "
      f"{slow[0] if slow else '-'} ({slow[1]:.2f}) | {'yes' if med <= 3.0 else 'no'} |")
sys.exit(0 if med <= 3.0 and vs == ['pass'] else 1)
PY
done
echo >> "$LOGS/table.md"
echo "Over the target or not passing: $over of $(echo $MODELS | wc -w)." >> "$LOGS/table.md"
cat "$LOGS/table.md"
[ -z "$OUTFILE" ] || { cp "$LOGS/table.md" "$OUTFILE"; for f in "$LOGS"/*.txt; do
  { echo; echo "## $(basename "$f" .txt)"; echo; echo '```'; cat "$f"; echo '```'; } >> "$OUTFILE"; done; }
[ "$over" -eq 0 ]
