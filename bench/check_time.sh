#!/usr/bin/env bash
# How long `stencil-lab check` of one exercise takes, and where the time goes; the target is 3 s on
# the GPU (issue 16).
#
#   bench/check_time.sh [--build DIR] [--backend cuda|cpu] [--exercise E] [--file F.cu] [--runs K]
#                       [--seed S] [--keep DIR]
#   defaults: --build build, --backend cuda, --exercise tiled, the exercise's model solution
#   (tests/checker/submissions/<exercise>_ok.cu), --runs 3, --seed 1 (the same sizes every run).
#
# How the phases are measured, without touching the checker: STENCIL_CHECK_RUNNER (checker.cpp's
# runner_path) points the parent at a wrapper that starts the real stencil-check-runner, stamps
# each of its progress lines with the wall clock ($EPOCHREALTIME) as it arrives, and keeps a copy
# of its request.json and result.json. The phases are the intervals between those stamps:
#   parent, before the runner   start-up, vetting, inputs, the CUDA probe (its own runner process)
#   runner start -> "compiling" process start, request
#   "compiling" -> first case   NVRTC (the runner's own clock, result.json compile.seconds), then on
#                               the GPU the CUDA context and the module load (cudaLibraryLoadData):
#                               the runner prints no line between these two, so they are one figure
#   each case                   its runs at one size N (copy in, launch, copy back, files)
#   "counting global loads"     CUPTI's counting launches (the submission's, then the lab kernel's)
#   "timing against"            the interleaved timing against the lab's kernel, to the runner's exit
#   parent, after the runner    the fp64 reference of every case, the judging, the report
# A progress line the runner adds later becomes a phase of its own here with no change.
#
# On the device machine (after `cmake --preset gpu && cmake --build --preset gpu -j2 &&
# scripts/gpu-carry.sh` here), one call of the device tool, carry [".carry"]:
#   bench/check_time.sh --build .carry/build-gpu --backend cuda --runs 5 | tee $OUT/check_time.txt
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=build BACKEND=cuda EXERCISE=tiled FILE= RUNS=3 SEED=1 KEEP=
usage() { echo "usage: bench/check_time.sh [--build DIR] [--backend cuda|cpu] [--exercise E] [--file F.cu] [--runs K] [--seed S] [--keep DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=${2:?}; shift 2 ;;
    --backend) BACKEND=${2:?}; shift 2 ;;
    --exercise) EXERCISE=${2:?}; shift 2 ;;
    --file) FILE=${2:?}; shift 2 ;;
    --runs) RUNS=${2:?}; shift 2 ;;
    --seed) SEED=${2:?}; shift 2 ;;
    --keep) KEEP=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
case "$BACKEND" in cuda|cpu) ;; *) echo "check_time: --backend must be cuda or cpu (got '$BACKEND')" >&2; exit 2 ;; esac
case "$RUNS" in ''|*[!0-9]*|0) echo "check_time: --runs must be a whole number from 1 (got '$RUNS')" >&2; exit 2 ;; esac
[ -n "$FILE" ] || FILE=tests/checker/submissions/${EXERCISE//-/_}_ok.cu
[ -f "$FILE" ] || { echo "check_time: no submission $FILE (give one with --file)" >&2; exit 2; }
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "check_time: no build folder" >&2; exit 2; }
LAB=$BUILD/stencil-lab RUNNER=$BUILD/stencil-check-runner
for b in "$LAB" "$RUNNER"; do [ -x "$b" ] || { echo "check_time: $b is not built" >&2; exit 2; }; done
command -v python3 >/dev/null || { echo "check_time: python3 is needed for the report" >&2; exit 2; }

WORK=$(mktemp -d /tmp/check_time.XXXXXX)
[ -n "$KEEP" ] || trap 'rm -rf "$WORK"' EXIT
# The wrapper: absolute paths only (the child may run with an empty PATH).
cat > "$WORK/runner-wrapper" <<EOF
#!/bin/bash
log="$WORK/run.\$(cat "$WORK/current")"
mkdir -p "\$log"
n=\$(ls "\$log" | grep -c '^runner[0-9]*\.log\$' || true)
t="\$log/runner\$n"
echo "start \$EPOCHREALTIME \$*" > "\$t.log"
cp -f "\${@: -1}" "\$t.request.json" 2>/dev/null || true
set -o pipefail
"$RUNNER" "\$@" 2>&1 | while IFS= read -r line; do
  echo "line \$EPOCHREALTIME \$line" >> "\$t.log"
  printf '%s\n' "\$line" >&2
done
rc=\$?
echo "end \$EPOCHREALTIME \$rc" >> "\$t.log"
cp -f result.json "\$t.result.json" 2>/dev/null || true
exit \$rc
EOF
chmod +x "$WORK/runner-wrapper"

echo "check_time: stencil-lab check $FILE --exercise $EXERCISE --backend $BACKEND --seed $SEED, $RUNS runs"
echo "  $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/  GPU: /'
for i in $(seq 1 "$RUNS"); do
  echo "$i" > "$WORK/current"
  mkdir -p "$WORK/run.$i"
  t0=$EPOCHREALTIME
  set +e
  STENCIL_CHECK_RUNNER="$WORK/runner-wrapper" "$LAB" check "$FILE" --exercise "$EXERCISE" --backend "$BACKEND" \
    --seed "$SEED" --json > "$WORK/run.$i/check.json" 2> "$WORK/run.$i/check.err"
  rc=$?
  set -e
  t1=$EPOCHREALTIME
  echo "$t0 $t1 $rc" > "$WORK/run.$i/parent"
done

python3 - "$WORK" "$RUNS" "$BACKEND" <<'PY'
import json, os, re, statistics, sys

work, runs, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3]
TARGET = 3.0


def runner_logs(d):
    out = []
    for name in sorted(os.listdir(d)):
        m = re.fullmatch(r"runner(\d+)\.log", name)
        if m:
            out.append((int(m.group(1)), os.path.join(d, name)))
    return [p for _, p in sorted(out)]


def phases_of_runner(log, result_path, tag):
    """[(label, seconds)] for one runner process, from its stamped lines."""
    events = []  # (time, text)
    start = end = None
    args = ""
    for raw in open(log, encoding="utf-8", errors="replace"):
        kind, _, rest = raw.rstrip("\n").partition(" ")
        stamp, _, text = rest.partition(" ")
        if kind == "start":
            start, args = float(stamp), text
        elif kind == "end":
            end = float(stamp)
        elif kind == "line" and text.startswith("stencil-check-runner: "):
            events.append((float(stamp), text[len("stencil-check-runner: "):]))
    if start is None or end is None:
        return [(f"{tag}: runner (incomplete log)", 0.0)], None
    nvrtc = None
    try:
        res = json.load(open(result_path))
        nvrtc = (res.get("compile") or {}).get("seconds")
    except (OSError, ValueError):
        pass
    if "probe" in args:
        return [(f"{tag}: CUDA probe (a runner process: cudaGetDeviceCount)", end - start)], None
    # Consecutive lines of one case make one phase.
    marks = []  # (time, label)
    for t, text in events:
        m = re.match(r"case (\d+) N=(\d+)", text)
        if m:
            label = f"size N={m.group(2)} (case {m.group(1)}): its runs"
        elif text.startswith("compiling"):
            label = "compile: NVRTC" + (" + CUDA context + module load" if backend == "cuda" else " + PTX parse")
        elif text.startswith("counting global loads"):
            label = "CUPTI: counting launches (submission, lab kernel)"
        elif text.startswith("timing against"):
            label = "timing against the lab's kernel"
        else:
            label = text
        if not marks or marks[-1][1] != label:
            marks.append((t, label))
    phases = [(f"{tag}: runner start (process, request)", (marks[0][0] if marks else end) - start)]
    for k, (t, label) in enumerate(marks):
        nxt = marks[k + 1][0] if k + 1 < len(marks) else end
        phases.append((f"{tag}: {label}", nxt - t))
        if label.startswith("compile") and nvrtc is not None:
            phases.append((f"{tag}:   of which NVRTC by its own clock", nvrtc))
    return phases, nvrtc


table = {}   # label -> [seconds per run]
order = []
totals, verdicts = [], []
for i in range(1, runs + 1):
    d = os.path.join(work, f"run.{i}")
    t0, t1, rc = open(os.path.join(d, "parent")).read().split()
    t0, t1 = float(t0), float(t1)
    try:
        verdict = json.load(open(os.path.join(d, "check.json"))).get("verdict", "?")
    except (OSError, ValueError):
        verdict = "no JSON (exit %s): %s" % (rc, open(os.path.join(d, "check.err")).read().strip()[:200])
    verdicts.append(verdict)
    totals.append(t1 - t0)
    phases = []
    logs = runner_logs(d)
    first = last = None
    for n, log in enumerate(logs):
        lines = open(log).read().split("\n")
        s = float(lines[0].split()[1])
        e = [float(l.split()[1]) for l in lines if l.startswith("end ")]
        e = e[0] if e else s
        if first is None:
            phases.append(("parent: start, vetting, inputs (before the first runner)", s - t0))
        elif last is not None:
            phases.append((f"parent: between runners ({n})", s - last))
        first = first or s
        last = e
        ph, _ = phases_of_runner(log, log.replace(".log", ".result.json"), f"runner {n}")
        phases += ph
    if last is not None:
        phases.append(("parent: fp64 reference, judging, report (after the last runner)", t1 - last))
    for label, sec in phases:
        if label not in table:
            table[label] = [None] * runs
            order.append(label)
        table[label][i - 1] = sec

print()
w = max(len(l) for l in order + ["total wall clock"]) + 2
head = "".join(f"{'run ' + str(i):>9}" for i in range(1, runs + 1))
print(f"{'phase':<{w}}{head}{'median':>9}")
fmt = lambda v: f"{v:9.3f}" if v is not None else f"{'-':>9}"
for label in order:
    vals = table[label]
    present = [v for v in vals if v is not None]
    print(f"{label:<{w}}" + "".join(fmt(v) for v in vals) + fmt(statistics.median(present) if present else None))
print(f"{'total wall clock':<{w}}" + "".join(fmt(v) for v in totals) + fmt(statistics.median(totals)))
med = statistics.median(totals)
print()
print(f"verdicts: {', '.join(verdicts)}")
print(f"median {med:.2f} s: {med / TARGET:.2f} x the {TARGET:.0f} s target ({'within' if med <= TARGET else 'over'})"
      + ("" if backend == "cuda" else "; the target is for --backend cuda, this is the CPU backend"))
PY
