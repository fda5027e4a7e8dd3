#!/usr/bin/env python3
"""The lab's peers in the same session: torch eager, torch.compile, cuDNN conv3d and a CuPy
RawKernel on the lab's own stencil, every figure as a ratio to the copy bandwidth measured in the
same process (issue 13, "Peers in the same session").

The stencil is the lab's 3D star of radius r (6r + 1 points). Weights c0..c{6r} follow the layout
of kernels/stencil_shape.h: the centre, then for d = 1..r the six neighbours x-d, x+d, y-d, y+d,
z-d, z+d. Cells within r of a face keep the input's value; every peer computes the interior only.

Run on the device (PyTorch, CuPy, Triton installed):

    python3 bench/peers.py --size 512 --radii 1,2,3,4 --lab lab.jsonl --out $OUT/h100-peers-512

writes h100-peers-512.jsonl (one object per measurement, the keys of `stencil-lab run --json`)
and h100-peers-512.md (one table of ratios to the copy). `--lab FILE` adds the lab's kernels from
the JSON lines that `stencil-lab run --json` prints. `--dry-run` needs neither a GPU nor torch:
it checks the arguments (and reads --lab) and prints the plan as JSON.

Protocol per (radius, precision): one seeded random input in [-1, 1), asymmetric random weights
rounded to the precision; the fp64 reference and the magnitude sum |w_i x_i| on the GPU; each peer
runs once on a poisoned output and is checked cell by cell against gamma * magnitude (the bound of
core/compare.h); only a peer that passes is timed: warm-up, then per rep an L2 flush (a write of
2x the L2, at least 64 MiB), a GPU spin while Python enqueues, CUDA events around one call,
min / median / max. The copy (`dst.copy_(src)`, one grid of that precision) is timed the same way
in the same process: at the start in buffers of its own, and before and after that precision's
peers; the fastest median is the ceiling every ratio divides by.
"""

import argparse
import datetime
import json
import os
import random
import struct
import sys

TOOL = "bench/peers.py"
MAX_RADIUS = 4                  # kernels/stencil_shape.h kMaxRadius
PRECISIONS = ("f32", "f64")
ELEM_BYTES = {"f32": 4, "f64": 8}
UNIT_ROUNDOFF = {"f32": 2.0 ** -24, "f64": 2.0 ** -53}
# name -> what it measures, in the table's words
PEERS = {
    "eager": "torch eager: the sliced expression, one kernel per multiply and per add",
    "compile": "torch.compile (Inductor) of the same expression",
    "cudnn": "cuDNN conv3d with the dense (2r+1)^3 weight (zeros off the axes), TF32 off",
    "cupy": "CuPy RawKernel: one thread per output, 32x4x2 blocks, weights in constant memory",
}
PEER_KERNELS = {"eager": "torch-eager", "compile": "torch-compile", "cudnn": "cudnn-conv3d", "cupy": "cupy-naive"}
PEER_LABELS = {"eager": "torch eager", "compile": "torch.compile", "cudnn": "cuDNN conv3d",
               "cupy": "CuPy RawKernel (naive)"}
CUPY_BLOCK = (32, 4, 2)         # the textbook's naive block shape
SPIN_CYCLES = 4_000_000         # about 2 ms of GPU clock before each timed call (Gpu.time)


class UsageError(Exception):
    """Bad input the user can fix: one line, exit 2."""


# ----------------------------------------------------------------------------------------------
# The stencil: layout, weights, the rounding bound (kernels/stencil_shape.h, core/compare.h)

# Direction order of the layout: XM, XP, YM, YP, ZM, ZP as (dx, dy, dz) per unit distance.
DIRECTIONS = ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))


def point_count(r):
    """6r + 1 points, and as many weights (kernels/stencil_shape.h point_count)."""
    return 1 + 6 * r


def coefficient_index(d, direction):
    return 1 + 6 * (d - 1) + direction


def star_points(r):
    """The 6r + 1 (dx, dy, dz, coefficient) of the star, centre first, in the layout's order."""
    points = [(0, 0, 0, 0)]
    for d in range(1, r + 1):
        for k, (ux, uy, uz) in enumerate(DIRECTIONS):
            points.append((ux * d, uy * d, uz * d, coefficient_index(d, k)))
    return points


def round_to(value, precision):
    """What a kernel of that precision multiplies by: fp32 rounds to nearest, fp64 keeps it."""
    if precision == "f32":
        return struct.unpack("f", struct.pack("f", value))[0]
    return value


def random_weights(r, seed, precision):
    """Asymmetric weights, |c| in [0.05, 1) with random signs, as core/weights.cpp random_weights
    draws them (Python's own generator, so not the lab's values: times do not depend on them, and
    no two alike means a swapped neighbour cannot pass the check)."""
    rng = random.Random(f"peers-weights-{seed}-{r}")
    return [round_to((1 if rng.random() < 0.5 else -1) * rng.uniform(0.05, 1.0), precision)
            for _ in range(point_count(r))]


def rounding_gamma(precision, r):
    """gamma_m(precision) + gamma_m(fp64), m = 6r + 1 terms: core/compare.cpp rounding_gamma."""
    m = point_count(r)

    def gamma(u):
        return m * u / (1 - m * u)
    return gamma(UNIT_ROUNDOFF[precision]) + gamma(UNIT_ROUNDOFF["f64"])


def median(samples):
    """The median of an even count is the mean of the two middle values (core/stats.h)."""
    s = sorted(samples)
    n = len(s)
    if n == 0:
        raise ValueError("median of no samples")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def effective_bytes(grid, precision):
    """One read and one write of every cell: the traffic the lab's copy_ratio is built on."""
    nx, ny, nz = grid
    return 2 * nx * ny * nz * ELEM_BYTES[precision]


# ----------------------------------------------------------------------------------------------
# Arguments and the plan (no torch needed)

def parse_list(text, what, convert, allowed=None):
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise UsageError(f"{what}: empty list")
    out = []
    for t in items:
        try:
            v = convert(t)
        except ValueError:
            raise UsageError(f"{what}: '{t}' is not valid") from None
        if allowed is not None and v not in allowed:
            raise UsageError(f"{what}: '{t}' is not one of {', '.join(str(a) for a in allowed)}")
        if v in out:
            raise UsageError(f"{what}: '{t}' is given twice")
        out.append(v)
    return out


def parse_grid(text):
    """N (a cube) or NXxNYxNZ."""
    parts = text.lower().split("x")
    if len(parts) not in (1, 3):
        raise UsageError(f"--size: '{text}' is neither N nor NXxNYxNZ")
    try:
        sides = [int(p) for p in parts]
    except ValueError:
        raise UsageError(f"--size: '{text}' is neither N nor NXxNYxNZ") from None
    if len(sides) == 1:
        sides = sides * 3
    for s in sides:
        if not 1 <= s <= 1048576:
            raise UsageError(f"--size: each side must be in 1..1048576, got {s}")
    return tuple(sides)


def read_lab_rows(path, grid):
    """The JSON lines `stencil-lab run --json` prints: one object per line (blank lines allowed).
    Rows of another grid are refused: the table compares one grid."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise UsageError(f"--lab: cannot read {path}: {e.strerror}") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise UsageError(f"--lab {path} line {number}: not a JSON object "
                             "(expected the lines of `stencil-lab run --json`)") from None
        if not isinstance(row, dict) or "kernel" not in row or "radius" not in row or "precision" not in row:
            raise UsageError(f"--lab {path} line {number}: no kernel, radius and precision "
                             "(expected the lines of `stencil-lab run --json`)")
        if row.get("problem", "star3d") != "star3d":
            raise UsageError(f"--lab {path} line {number}: problem {row['problem']}, not star3d")
        row_grid = (row.get("nx"), row.get("ny"), row.get("nz"))
        if row_grid != tuple(grid):
            raise UsageError(f"--lab {path} line {number}: grid {'x'.join(str(v) for v in row_grid)}, "
                             f"not the peers' {'x'.join(str(v) for v in grid)}")
        rows.append(row)
    if not rows:
        raise UsageError(f"--lab {path}: no rows")
    return rows


class OneLineParser(argparse.ArgumentParser):
    """argparse's errors as our one line (it would print the whole usage first)."""

    def error(self, message):
        raise UsageError(message)


def parse_args(argv):
    p = OneLineParser(
        prog="peers.py", description="torch eager, torch.compile, cuDNN conv3d and a CuPy kernel on the lab's "
        "star stencils, as ratios to the copy bandwidth of the same process")
    p.add_argument("--size", default="512", help="N (an N^3 grid) or NXxNYxNZ (default 512)")
    p.add_argument("--radii", default="1,2,3,4", help="comma-separated radii in 1..4 (default 1,2,3,4)")
    p.add_argument("--precisions", default="f32,f64", help="f32, f64 or both (default f32,f64)")
    p.add_argument("--peers", default=",".join(PEERS), help=f"some of {', '.join(PEERS)} (default all)")
    p.add_argument("--reps", type=int, default=20, help="timed calls per figure, 1..10000 (default 20)")
    p.add_argument("--warmup", type=int, default=3, help="untimed calls first, 0..1000 (default 3)")
    p.add_argument("--seed", type=int, default=1, help="input and weights (default 1)")
    p.add_argument("--lab", action="append", default=[], metavar="FILE",
                   help="JSON lines of `stencil-lab run --json` to put in the table (repeatable)")
    p.add_argument("--out", metavar="PREFIX", help="write PREFIX.jsonl and PREFIX.md (the table also goes to stdout)")
    p.add_argument("--dry-run", action="store_true", help="check the arguments, print the plan as JSON, run nothing")
    p.add_argument("--fault", choices=["swap-x"], help="testing the check: the peers get c(x-1) and c(x+1) "
                   "swapped, the reference keeps them; every peer must then fail and not be timed")
    a = p.parse_args(argv)
    a.grid = parse_grid(a.size)
    a.radii = parse_list(a.radii, "--radii", int, range(1, MAX_RADIUS + 1))
    a.precisions = parse_list(a.precisions, "--precisions", str, PRECISIONS)
    a.peers = parse_list(a.peers, "--peers", str, tuple(PEERS))
    if not 1 <= a.reps <= 10000:
        raise UsageError(f"--reps must be in 1..10000, got {a.reps}")
    if not 0 <= a.warmup <= 1000:
        raise UsageError(f"--warmup must be in 0..1000, got {a.warmup}")
    smallest = min(a.grid)
    if smallest < 2 * max(a.radii) + 1:
        raise UsageError(f"--size: a side of {smallest} has no interior at r = {max(a.radii)} "
                         f"(each side needs at least 2r + 1 = {2 * max(a.radii) + 1})")
    if a.out:
        folder = os.path.dirname(os.path.abspath(a.out))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise UsageError(f"--out: {folder} is not a folder this process can write")
    a.lab_rows = [row for path in a.lab for row in read_lab_rows(path, a.grid)]
    return a


def make_plan(a):
    nx, ny, nz = a.grid
    cells = nx * ny * nz
    measurements = [{"peer": peer, "radius": r, "precision": prec}
                    for prec in a.precisions for r in a.radii for peer in a.peers]
    # Live at once, per precision at its worst (r = max): input, output, the interior result, the
    # fp64 input, reference and magnitude, and the check's fp64 temporaries (about three grids).
    peak = max(cells * (3 * ELEM_BYTES[p] + 6 * 8) for p in a.precisions)
    return {
        "tool": TOOL,
        "grid": list(a.grid),
        "cells": cells,
        "radii": a.radii,
        "precisions": a.precisions,
        "peers": a.peers,
        "copies": [{"precision": p, "bytes_moved": effective_bytes(a.grid, p)} for p in a.precisions],
        "measurements": measurements,
        "reps": a.reps,
        "warmup": a.warmup,
        "seed": str(a.seed),
        "check_gamma": {p: {str(r): rounding_gamma(p, r) for r in a.radii} for p in a.precisions},
        "device_bytes_estimate": peak,
        "fault": a.fault,
        "lab_rows": [{"kernel": row["kernel"], "tile": row.get("tile"), "radius": row["radius"],
                      "precision": row["precision"], "copy_ratio": row.get("copy_ratio")} for row in a.lab_rows],
        "outputs": {"jsonl": a.out + ".jsonl", "markdown": a.out + ".md"} if a.out else None,
    }


# ----------------------------------------------------------------------------------------------
# The table (plain Python: the CI test renders it from records)

def lab_label(row, name_chunk=False):
    """'lab register-tiled T=32'; a run on a block of its own shape (`run --block`) names the block;
    with name_chunk, a z-marching row names its z-chunk ('lab streaming T=4 z-chunk 8')."""
    tile, block = row.get("tile"), row.get("user_block")
    if isinstance(block, list) and len(block) == 3:
        return f"lab {row['kernel']} block {'x'.join(str(b) for b in block)}"
    label = f"lab {row['kernel']}" + (f" T={tile}" if tile else "")
    return label + (f" z-chunk {row['z_chunk']}" if name_chunk and row.get("z_chunk") else "")


def chunked_lab_runs(records):
    """The (kernel, tile) the lab ran at more than one z-chunk (`run --z-chunk`): their rows name
    the chunk, so that the runs do not share a row."""
    chunks = {}
    for r in records:
        if r.get("source") == "lab" and r.get("z_chunk"):
            chunks.setdefault((r["kernel"], r.get("tile")), set()).add(r["z_chunk"])
    return {key for key, seen in chunks.items() if len(seen) > 1}


def ratio_cell(row):
    """'0.85 (0.84-0.86)': the median's ratio, then the ratios at the slowest and fastest call;
    'failed' / 'error' when the row has no time."""
    if not row.get("ok", False):
        return "failed check" if "bad_cells" in row and row.get("bad_cells") else "error"
    if not row.get("timed", False) or not row.get("copy_ratio"):
        return "untimed"
    ratio = row["copy_ratio"]
    lo = ratio * row["ms_median"] / row["ms_max"] if row.get("ms_max") else None
    hi = ratio * row["ms_median"] / row["ms_min"] if row.get("ms_min") else None
    if lo is None or hi is None:
        return f"{ratio:.2f}"
    return f"{ratio:.2f} ({lo:.2f}-{hi:.2f})"


def render_table(records, meta):
    """One Markdown table: a row per implementation, a column per (precision, radius)."""
    columns = sorted({(r["precision"], r["radius"]) for r in records if r.get("source") != "copy"},
                     key=lambda c: (PRECISIONS.index(c[0]), c[1]))
    rows = {}      # label -> {(precision, radius): cell}
    order = []
    chunked = chunked_lab_runs(records)
    for r in records:
        if r.get("source") == "copy":
            continue
        if r.get("source") == "lab":
            label = lab_label(r, (r["kernel"], r.get("tile")) in chunked)
        else:
            label = PEER_LABELS.get(r.get("peer"), r["kernel"])
        if label not in rows:
            rows[label] = {}
            order.append(label)
        rows[label][(r["precision"], r["radius"])] = ratio_cell(r)
    copies = [r for r in records if r.get("source") == "copy"]
    lines = [f"# Peers of the lab's star stencils, {'x'.join(str(v) for v in meta['grid'])}"
             + (f", {meta['device']}" if meta.get("device") else ""), ""]
    caption = (
        "Every figure is a ratio to the device-to-device copy of one grid of the same precision: effective "
        "bandwidth (one read + one write of every cell / median time) over the copy's. Peer rows: the copy "
        "(torch `copy_`, a cudaMemcpyAsync) was timed in the same process as the peers (at the start, and "
        "before and after each precision's peers; the fastest median is the ceiling): "
        + ", ".join(f"{c['precision']} {c['copy_gbps']:.1f} GB/s" for c in copies)
        + ". Lab rows: their `copy_ratio` from `stencil-lab run --json`, which is already the ratio to the "
        "cudaMemcpy copy measured in the lab's own process (that copy's GB/s is in each row of the JSONL). "
        "In brackets: the ratios at the slowest and the fastest call. Every peer was checked against an fp64 "
        "reference (gamma_{6r+1} x sum |w_i x_i| per cell) before it was timed; a peer that failed shows "
        "'failed check' and has no time. Timing: CUDA events, warm-up, the L2 flushed before every call.")
    if meta.get("when"):
        caption += f" Measured {meta['when']}"
        caption += f" ({meta['versions']})." if meta.get("versions") else "."
    lines += [caption, ""]
    header = "| implementation | " + " | ".join(f"{p} r={r}" for p, r in columns) + " |"
    lines += [header, "|---|" + "---|" * len(columns)]
    for label in order:
        cells = [rows[label].get(c, "-") for c in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def lab_record(row):
    r = dict(row)
    r["source"] = "lab"
    r.setdefault("timed", False)
    return r


# ----------------------------------------------------------------------------------------------
# On the GPU: input, reference, check, timing (torch imported here, not at the top)

def import_torch():
    try:
        import torch
    except ImportError as e:
        raise UsageError(f"torch is not importable ({e}); run this on the device, or use --dry-run") from None
    if not torch.cuda.is_available():
        raise UsageError("no CUDA device visible to torch; run this on the device, or use --dry-run")
    return torch


def shifted(x, r, dx, dy, dz):
    """The interior view of x moved by (dx, dy, dz); x is (nz, ny, nx), x fastest."""
    nz, ny, nx = x.shape
    return x[r + dz:nz - r + dz, r + dy:ny - r + dy, r + dx:nx - r + dx]


def star_interior(x, w, r):
    """The sliced expression: the stencil on every interior cell, as one would write it in torch."""
    acc = w[0] * shifted(x, r, 0, 0, 0)
    for dx, dy, dz, c in star_points(r)[1:]:
        acc = acc + w[c] * shifted(x, r, dx, dy, dz)
    return acc


class Gpu:
    """The session's device state: the L2 flush buffer and the timing loop."""

    def __init__(self, torch):
        self.torch = torch
        props = torch.cuda.get_device_properties(0)
        l2 = getattr(props, "L2_cache_size", 0) or 0
        self.device_name = props.name
        self.flush_buffer = torch.empty(max(2 * l2, 64 << 20), dtype=torch.uint8, device="cuda")
        self.flush_value = 0
        self.spin = getattr(torch.cuda, "_sleep", lambda cycles: None)

    def flush_l2(self):
        self.flush_value = (self.flush_value + 1) & 0xFF  # a different byte each time: no write is elided
        self.flush_buffer.fill_(self.flush_value)

    def time(self, call, warmup, reps):
        torch = self.torch
        for _ in range(warmup):
            call()
        events = []
        for _ in range(reps):
            self.flush_l2()
            # A Python call takes microseconds to milliseconds to enqueue its kernels (Dynamo's
            # guards, a busy CPU); the GPU spins meanwhile, so the start event does not fire
            # before the work is queued and the time is the GPU's alone. The spin touches no memory.
            self.spin(SPIN_CYCLES)
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            stop.record()
            events.append((start, stop))
        torch.cuda.synchronize()
        return [s.elapsed_time(e) for s, e in events]


def reference(torch, x, w, r):
    """fp64 interior values and magnitudes sum |w_i x_i|, with the stencil's weights."""
    x64 = x.double()
    value = torch.zeros_like(shifted(x64, r, 0, 0, 0))
    magnitude = torch.zeros_like(value)
    for dx, dy, dz, c in star_points(r):
        term = w[c] * shifted(x64, r, dx, dy, dz)
        value += term
        magnitude += term.abs()
    return value, magnitude


def check(torch, x, got, ref, r, precision):
    """got: the full output; the interior within gamma * magnitude, the boundary equal to x."""
    value, magnitude = ref
    gamma = rounding_gamma(precision, r)
    err = (shifted(got, r, 0, 0, 0).double() - value).abs()
    bad = ~(err <= gamma * magnitude)          # NaN compares false: bad
    frame = got.clone()
    shifted(frame, r, 0, 0, 0).copy_(shifted(x, r, 0, 0, 0))
    boundary_changed = int((frame != x).sum())
    interior_bad = int(bad.sum())
    finite = torch.isfinite(err)
    nan_cells = int((~finite).sum())
    rel = torch.where(magnitude > 0, err / magnitude, torch.zeros_like(err))
    max_rel = float(rel[finite].max()) if finite.any() else float("inf")
    max_abs = float(err[finite].max()) if finite.any() else float("inf")
    result = {"ok": interior_bad == 0 and boundary_changed == 0, "bad_cells": interior_bad + boundary_changed,
              "nan_cells": nan_cells, "boundary_changed": boundary_changed, "max_rel_err": max_rel,
              "max_abs_err": max_abs, "error_bound_gamma": gamma}
    if interior_bad:
        nz, ny, nx = bad.shape
        flat = int(torch.nonzero(bad.reshape(-1))[0])
        z, y, xx = flat // (ny * nx), flat // nx % ny, flat % nx
        result["first_bad"] = {"x": xx + r, "y": y + r, "z": z + r, "expected": float(value[z, y, xx]),
                               "got": float(got[z + r, y + r, xx + r]),
                               "bound": float(gamma * magnitude[z, y, xx]), "kind": "interior"}
    if result["ok"]:
        result["check"] = f"ok: {got.numel()} cells match (max err/magnitude {max_rel:.3g}, bound {gamma:.3g})"
    else:
        result["check"] = (f"FAILED: {result['bad_cells']} of {got.numel()} cells wrong"
                           f" ({boundary_changed} boundary cells changed, {nan_cells} NaN/Inf)")
    return result


# ----------------------------------------------------------------------------------------------
# The peers: build(x, out, w, r) -> (call, collect); call() is what is timed, collect() returns the
# full output for the check (the interior a torch peer returned, framed by the input, untimed).

def interior_peer(torch, x, out, r, compute):
    holder = {}

    def call():
        holder["interior"] = compute()

    def collect():
        shifted(out, r, 0, 0, 0).copy_(holder["interior"])
        return out
    return call, collect


def build_eager(torch, x, out, w, r):
    return interior_peer(torch, x, out, r, lambda: star_interior(x, w, r))


def build_compile(torch, x, out, w, r):
    # A fresh Dynamo cache per configuration: the weights are constants of the graph, and past the
    # recompile limit Dynamo would silently run eager. fullgraph: a graph break is an error.
    torch._dynamo.reset()
    weights = tuple(w)
    compiled = torch.compile(lambda t: star_interior(t, weights, r), fullgraph=True, dynamic=False)
    return interior_peer(torch, x, out, r, lambda: compiled(x))


def build_cudnn(torch, x, out, w, r):
    edge = 2 * r + 1
    dense = torch.zeros((1, 1, edge, edge, edge), dtype=x.dtype, device=x.device)
    for dx, dy, dz, c in star_points(r):
        dense[0, 0, dz + r, dy + r, dx + r] = w[c]   # conv3d is a correlation: no flip
    x5 = x.view(1, 1, *x.shape)
    conv3d = torch.nn.functional.conv3d
    return interior_peer(torch, x, out, r, lambda: conv3d(x5, dense)[0, 0])


# R and real come from the two lines build_cupy puts first.
CUPY_SOURCE = r"""
// The star's 6r + 1 weights in the lab's layout (kernels/stencil_shape.h), exact hex literals.
__constant__ real c[1 + 6 * R] = { WEIGHTS };

// The textbook's naive kernel: one thread per output, every neighbour straight from global memory.
extern "C" __global__ void star_naive(const real* __restrict__ in, real* __restrict__ out,
                                      int nx, int ny, int nz) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < R || y < R || z < R || x >= nx - R || y >= ny - R || z >= nz - R) return;
    const long long plane = (long long)nx * ny;
    const long long i = z * plane + (long long)y * nx + x;
    real acc = c[0] * in[i];
#pragma unroll
    for (int d = 1; d <= R; ++d) {
        const int k = 1 + 6 * (d - 1);
        acc += c[k + 0] * in[i - d] + c[k + 1] * in[i + d]
             + c[k + 2] * in[i - d * nx] + c[k + 3] * in[i + d * nx]
             + c[k + 4] * in[i - d * plane] + c[k + 5] * in[i + d * plane];
    }
    out[i] = acc;
}
"""


def build_cupy(torch, x, out, w, r):
    try:
        import cupy
    except ImportError as e:
        raise RuntimeError(f"cupy is not importable: {e}") from None
    real = "float" if x.dtype == torch.float32 else "double"
    literal = (lambda v: v.hex() + "f") if real == "float" else float.hex
    weights = ", ".join(literal(v) for v in w)
    source = f"#define R {r}\ntypedef {real} real;\n" + CUPY_SOURCE.replace("WEIGHTS", weights)
    kernel = cupy.RawModule(code=source, options=("-std=c++17",)).get_function("star_naive")
    nz, ny, nx = x.shape
    grid = tuple((n + b - 1) // b for n, b in zip((nx, ny, nz), CUPY_BLOCK))
    cx, cout = cupy.from_dlpack(x), cupy.from_dlpack(out)
    # torch's stream, so the events that time the launch are on the stream that runs it
    current = torch.cuda.current_stream()
    stream = (cupy.cuda.Stream.from_external(current) if hasattr(cupy.cuda.Stream, "from_external")
              else cupy.cuda.ExternalStream(current.cuda_stream))

    def call():
        with stream:
            kernel(grid, CUPY_BLOCK, (cx, cout, cupy.int32(nx), cupy.int32(ny), cupy.int32(nz)))

    return call, lambda: out


BUILDERS = {"eager": build_eager, "compile": build_compile, "cudnn": build_cudnn, "cupy": build_cupy}


# ----------------------------------------------------------------------------------------------
# The session

def versions(torch):
    v = {"torch": torch.__version__, "cuda": torch.version.cuda,
         "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None}
    for name in ("cupy", "triton"):
        try:
            v[name] = __import__(name).__version__
        except ImportError:
            v[name] = None
    return v


def poisoned_output(torch, x, r):
    out = x.clone()
    shifted(out, r, 0, 0, 0).fill_(float("nan"))
    return out


def timing_fields(samples, grid, precision, copy_gbps):
    ms_median = median(samples)
    bytes_moved = effective_bytes(grid, precision)
    gbps = bytes_moved / (ms_median * 1e6)
    return {"timed": True, "ms_min": min(samples), "ms_median": ms_median, "ms_max": max(samples),
            "samples_ms": samples, "bytes": bytes_moved, "gbps": gbps, "copy_gbps": copy_gbps,
            "copy_ratio": gbps / copy_gbps}


def time_copy(gpu, x, a):
    """The device-to-device copy of one grid of x's precision (torch's copy_ of contiguous tensors
    of one dtype is a cudaMemcpyAsync, the lab's copy)."""
    dst = gpu.torch.empty_like(x)
    samples = gpu.time(lambda: dst.copy_(x), a.warmup, a.reps)
    del dst
    return samples


def time_fresh_copy(torch, gpu, a, precision):
    """The copy in buffers of its own, before any peer has run."""
    nx, ny, nz = a.grid
    src = torch.ones((nz, ny, nx), dtype=torch.float32 if precision == "f32" else torch.float64, device="cuda")
    samples = time_copy(gpu, src, a)
    del src
    torch.cuda.empty_cache()
    return samples


def run_peer(torch, gpu, a, peer, x, w, r, ref, row):
    """Build, run once on a poisoned output, check; time only what passed. Returns the samples
    (None when not timed); the check's fields, or the error, go into row."""
    out = poisoned_output(torch, x, r)
    try:
        call, collect = BUILDERS[peer](torch, x, out, w, r)
        call()
        torch.cuda.synchronize()
        row.update(check(torch, x, collect(), ref, r, precision_of(torch, x)))
        return gpu.time(call, a.warmup, a.reps) if row["ok"] else None
    except Exception as e:  # one peer's failure (a missing package, a compile error) is its row's
        first_line = str(e).splitlines()[0] if str(e) else ""
        row.update(ok=False, error=f"{type(e).__name__}: {first_line}", check=f"error: {first_line}")
        return None


def precision_of(torch, x):
    return "f32" if x.dtype == torch.float32 else "f64"


def measure(a, emit):
    torch = import_torch()
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    gpu = Gpu(torch)
    info = versions(torch)
    nx, ny, nz = a.grid
    common = {"tool": TOOL, "nx": nx, "ny": ny, "nz": nz, "backend": "cuda", "device": gpu.device_name,
              "seed": str(a.seed), "warmup": a.warmup, "reps": a.reps, "versions": info}
    copy_start = {p: time_fresh_copy(torch, gpu, a, p) for p in a.precisions}
    for precision in a.precisions:
        dtype = torch.float32 if precision == "f32" else torch.float64
        gen = torch.Generator(device="cuda").manual_seed(a.seed)
        x = (torch.rand((nz, ny, nx), dtype=torch.float64, device="cuda", generator=gen) * 2 - 1).to(dtype)
        copy_before = time_copy(gpu, x, a)
        rows = []   # (row, samples): ratios wait for the copy after the peers
        for r in a.radii:
            w = random_weights(r, a.seed, precision)
            ref = reference(torch, x, w, r)
            peer_w = list(w)
            if a.fault == "swap-x":
                peer_w[1], peer_w[2] = peer_w[2], peer_w[1]
            for peer in a.peers:
                row = dict(common, source="peer", kernel=PEER_KERNELS[peer], peer=peer, radius=r,
                           precision=precision, tile=0, timed=False)
                if peer == "cupy":
                    row["block"] = list(CUPY_BLOCK)
                rows.append((row, run_peer(torch, gpu, a, peer, x, peer_w, r, ref, row)))
                print(f"peers: {row['kernel']} r={r} {precision}: {row['check']}", file=sys.stderr)
                torch.cuda.empty_cache()
            del ref
        copy_after = time_copy(gpu, x, a)
        # The fastest of the session's copies of this precision is the ceiling (at the start in
        # fresh buffers, before and after the peers): a copy that happened to run slow must not
        # flatter the peers. Every median is kept in the copy row.
        medians = {"start": median(copy_start[precision]), "before": median(copy_before),
                   "after": median(copy_after)}
        fastest = min(medians, key=medians.get)
        copy_samples = {"start": copy_start[precision], "before": copy_before, "after": copy_after}[fastest]
        copy_gbps = effective_bytes(a.grid, precision) / (medians[fastest] * 1e6)
        emit(dict(common, source="copy", kernel="copy", peer="torch copy_", radius=0, precision=precision, ok=True,
                  check="a copy", copy_ms_medians=medians, copy_used=fastest,
                  **timing_fields(copy_samples, a.grid, precision, copy_gbps)))
        for row, samples in rows:
            if samples:
                row.update(timing_fields(samples, a.grid, precision, copy_gbps))
            emit(row)
        del x
        torch.cuda.empty_cache()
    return gpu.device_name, info


def main(argv=None):
    try:
        a = parse_args(sys.argv[1:] if argv is None else argv)
        if a.dry_run:
            print(json.dumps({"plan": make_plan(a)}, indent=2))
            return 0
        records = []
        jsonl = open(a.out + ".jsonl", "w", encoding="utf-8") if a.out else None

        def emit(row):
            records.append(row)
            if jsonl:
                jsonl.write(json.dumps(row) + "\n")
                jsonl.flush()
            status = ratio_cell(row) if row.get("source") != "copy" else f"{row['gbps']:.1f} GB/s"
            print(f"peers: {row['kernel']} r={row['radius']} {row['precision']}: {status}"
                  + (f" [{row['error']}]" if row.get("error") else ""), file=sys.stderr)

        device, info = measure(a, emit)
        for row in a.lab_rows:
            emit(lab_record(row))
        if jsonl:
            jsonl.close()
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        meta = {"grid": a.grid, "device": device, "when": when,
                "versions": ", ".join(f"{k} {v}" for k, v in info.items() if v)}
        table = render_table(records, meta)
        if a.out:
            with open(a.out + ".md", "w", encoding="utf-8") as f:
                f.write(table)
        print(table)
        return 0 if all(r.get("ok") for r in records if r.get("source") == "peer") else 1
    except UsageError as e:
        print(f"peers.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
