#!/usr/bin/env python3
"""bench/peers.py without a GPU: its plan (--dry-run), its refusals, its reading of
`stencil-lab run --json` lines (--lab) and the table it renders. Registered per class in
tests/CMakeLists.txt (`python3 -m unittest test_peers.<Class>`); runs without torch."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("STENCIL_LAB_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
SCRIPT = os.path.join(SOURCE_DIR, "bench", "peers.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
import peers  # noqa: E402  (the script is import-safe: no torch at import time)


def run_script(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=60)


def lab_line(kernel="register-tiled", tile=32, radius=1, precision="f32", n=64, ratio=0.55, ok=True):
    """A line as `stencil-lab run --json` prints it (core/run.cpp RunReport::to_json keys)."""
    row = {"kernel": kernel, "tile": tile, "radius": radius, "precision": precision, "nx": n, "ny": n, "nz": n,
           "backend": "cuda", "device": "NVIDIA H100 80GB HBM3", "seed": "1", "ok": ok, "timed": ok,
           "bad_cells": 0 if ok else 7}
    if ok:
        row.update(ms_min=0.9, ms_median=1.0, ms_max=1.2, gbps=ratio * 3000, copy_gbps=3000.0, copy_ratio=ratio)
    return json.dumps(row)


class PlanTests(unittest.TestCase):
    def plan(self, *args):
        res = run_script("--dry-run", *args)
        self.assertEqual(res.returncode, 0, res.stderr)
        return json.loads(res.stdout)["plan"]

    def test_defaults_cover_every_peer_radius_and_precision(self):
        p = self.plan()
        self.assertEqual(p["grid"], [512, 512, 512])
        self.assertEqual(len(p["measurements"]), 4 * 4 * 2)
        self.assertEqual({m["peer"] for m in p["measurements"]}, {"eager", "compile", "cudnn", "cupy"})
        self.assertEqual([c["bytes_moved"] for c in p["copies"]], [2 * 512 ** 3 * 4, 2 * 512 ** 3 * 8])
        self.assertIsNone(p["outputs"])

    def test_a_chosen_plan_is_the_one_printed(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "h100-peers-512")
            p = self.plan("--size", "40x33x21", "--radii", "2,4", "--precisions", "f64", "--peers", "cupy,compile",
                          "--reps", "7", "--warmup", "0", "--seed", "9", "--out", out)
        self.assertEqual(p["grid"], [40, 33, 21])
        self.assertEqual(p["cells"], 40 * 33 * 21)
        self.assertEqual(p["measurements"], [{"peer": peer, "radius": r, "precision": "f64"}
                                             for r in (2, 4) for peer in ("cupy", "compile")])
        self.assertEqual((p["reps"], p["warmup"], p["seed"]), (7, 0, "9"))
        self.assertEqual(p["outputs"], {"jsonl": out + ".jsonl", "markdown": out + ".md"})
        # The lab's bound (core/compare.cpp): gamma_m(fp64) + gamma_m(fp64), m = 6r + 1.
        m, u = 25, 2.0 ** -53
        self.assertAlmostEqual(p["check_gamma"]["f64"]["4"], 2 * m * u / (1 - m * u), delta=1e-30)

    def test_lab_rows_are_read_into_the_plan(self):
        with tempfile.TemporaryDirectory() as d:
            lab = os.path.join(d, "lab.jsonl")
            with open(lab, "w") as f:
                f.write(lab_line(radius=1) + "\n\n" + lab_line(kernel="streaming", tile=16, radius=4,
                                                               precision="f64", ratio=0.46) + "\n")
            p = self.plan("--size", "64", "--lab", lab)
        self.assertEqual([(r["kernel"], r["tile"], r["radius"], r["precision"]) for r in p["lab_rows"]],
                         [("register-tiled", 32, 1, "f32"), ("streaming", 16, 4, "f64")])
        self.assertEqual(p["lab_rows"][1]["copy_ratio"], 0.46)


class RefusalTests(unittest.TestCase):
    def refused(self, *args, says):
        res = run_script("--dry-run", *args)
        self.assertEqual(res.returncode, 2, res.stdout)
        lines = res.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, res.stderr)
        self.assertIn(says, lines[0])

    def test_bad_arguments_get_one_line_and_exit_2(self):
        self.refused("--radii", "5", says="--radii: '5' is not one of 1, 2, 3, 4")
        self.refused("--radii", "1,1", says="given twice")
        self.refused("--precisions", "f16", says="--precisions: 'f16'")
        self.refused("--peers", "numpy", says="--peers: 'numpy'")
        self.refused("--size", "8", "--radii", "4", says="no interior at r = 4")
        self.refused("--size", "64x64", says="neither N nor NXxNYxNZ")
        self.refused("--size", "0", says="1..1048576")
        self.refused("--reps", "0", says="--reps must be in 1..10000")
        self.refused("--warmup", "-1", says="--warmup must be in 0..1000")
        self.refused("--out", "/nonexistent-folder/x", says="--out")
        self.refused("--no-such-flag", says="unrecognized arguments")

    def test_lab_files_that_are_not_run_json_are_refused(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.jsonl")
            with open(bad, "w") as f:
                f.write(lab_line() + "\nstencil-lab: no GPU\n")
            self.refused("--size", "64", "--lab", bad, says="line 2: not a JSON object")
            other = os.path.join(d, "other.jsonl")
            with open(other, "w") as f:
                f.write(lab_line(n=256) + "\n")
            self.refused("--size", "64", "--lab", other, says="grid 256x256x256, not the peers' 64x64x64")
            self.refused("--lab", os.path.join(d, "missing.jsonl"), says="cannot read")

    def test_without_torch_a_real_run_says_so(self):
        try:
            import torch  # noqa: F401
            self.skipTest("torch is importable here")
        except ImportError:
            pass
        res = run_script("--size", "16", "--radii", "1")
        self.assertEqual(res.returncode, 2)
        self.assertIn("torch is not importable", res.stderr)


class LabLineTests(unittest.TestCase):
    """Lines the lab's own binary printed (STENCIL_LAB_BIN, set by ctest where stencil-lab is built),
    not lines written by hand: the format --lab reads is the one `run --json` writes."""

    def test_run_json_of_the_cpu_backend_is_read(self):
        exe = os.environ.get("STENCIL_LAB_BIN")
        if not exe or not os.path.exists(exe):
            self.skipTest("stencil-lab is not built (STENCIL_LAB_BIN)")
        with tempfile.TemporaryDirectory() as d:
            lab = os.path.join(d, "lab.jsonl")
            with open(lab, "w") as f:
                for kernel, tile, radius, precision in (("naive", 4, 1, "f32"), ("register-tiled", 8, 2, "f64")):
                    res = subprocess.run([exe, "run", "--backend", "cpu", "--kernel", kernel, "--tile", str(tile),
                                          "--radius", str(radius), "--precision", precision, "--size", "12",
                                          "--reps", "1", "--warmup", "0", "--json"],
                                         capture_output=True, text=True, timeout=240)
                    self.assertEqual(res.returncode, 0, res.stderr)
                    f.write(res.stdout)
            res = run_script("--dry-run", "--size", "12", "--radii", "1,2", "--lab", lab)
            self.assertEqual(res.returncode, 0, res.stderr)
            rows = json.loads(res.stdout)["plan"]["lab_rows"]
            self.assertEqual([(r["kernel"], r["tile"], r["radius"], r["precision"]) for r in rows],
                             [("naive", 4, 1, "f32"), ("register-tiled", 8, 2, "f64")])
            with open(lab) as f:
                records = [peers.lab_record(json.loads(line)) for line in f if line.strip()]
            table = peers.render_table(records, {"grid": (12, 12, 12)})
            self.assertIn("| lab naive T=4 |", table)
            self.assertIn("| lab register-tiled T=8 |", table)


class StencilTests(unittest.TestCase):
    def test_points_follow_the_lab_layout(self):
        pts = peers.star_points(2)
        self.assertEqual(len(pts), 13)
        self.assertEqual(pts[0], (0, 0, 0, 0))
        # r = 1 is the textbook's c1..c6: x-1, x+1, y-1, y+1, z-1, z+1 (kernels/stencil_shape.h).
        self.assertEqual(pts[1:7], [(-1, 0, 0, 1), (1, 0, 0, 2), (0, -1, 0, 3), (0, 1, 0, 4), (0, 0, -1, 5),
                                    (0, 0, 1, 6)])
        self.assertEqual(pts[8], (2, 0, 0, 8))
        self.assertEqual(sorted(p[3] for p in pts), list(range(13)))

    def test_weights_are_asymmetric_and_rounded_to_the_precision(self):
        w32 = peers.random_weights(4, 1, "f32")
        self.assertEqual(len(w32), 25)
        self.assertEqual(len(set(abs(v) for v in w32)), 25)
        self.assertTrue(all(0.05 <= abs(v) < 1 for v in w32))
        self.assertTrue(all(peers.round_to(v, "f32") == v for v in w32))
        w64 = peers.random_weights(4, 1, "f64")
        self.assertTrue(any(peers.round_to(v, "f32") != v for v in w64))
        self.assertEqual(w64, peers.random_weights(4, 1, "f64"))
        self.assertNotEqual(w64, peers.random_weights(4, 2, "f64"))

    def test_median_of_an_even_count_is_the_mean_of_the_middle_two(self):
        self.assertEqual(peers.median([4.0, 1.0, 3.0, 2.0]), 2.5)
        self.assertEqual(peers.median([5.0, 1.0, 3.0]), 3.0)


class TableTests(unittest.TestCase):
    def records(self):
        common = {"nx": 64, "ny": 64, "nz": 64}
        copy = dict(common, source="copy", kernel="copy", radius=0, precision="f32", ok=True, timed=True,
                    gbps=2900.0, copy_gbps=2900.0, copy_ratio=1.0, ms_min=1, ms_median=1, ms_max=1)
        compiled = dict(common, source="peer", peer="compile", kernel="torch-compile", radius=1, precision="f32",
                        ok=True, timed=True, ms_min=0.8, ms_median=1.0, ms_max=1.25, copy_ratio=0.85)
        failed = dict(common, source="peer", peer="cudnn", kernel="cudnn-conv3d", radius=1, precision="f32",
                      ok=False, timed=False, bad_cells=12)
        broken = dict(common, source="peer", peer="cupy", kernel="cupy-naive", radius=4, precision="f64",
                      ok=False, timed=False, error="RuntimeError: cupy is not importable")
        lab = peers.lab_record(json.loads(lab_line(radius=1, ratio=0.55)))
        textbook_block = json.loads(lab_line(kernel="naive", tile=8, radius=1, ratio=0.66))
        textbook_block.update(user_block=[32, 4, 2], block=[32, 4, 2])
        return [copy, compiled, failed, broken, lab, peers.lab_record(textbook_block)]

    def test_ratios_failures_and_the_lab_share_one_table(self):
        table = peers.render_table(self.records(), {"grid": (64, 64, 64), "device": "H100"})
        lines = table.splitlines()
        self.assertIn("| implementation | f32 r=1 | f64 r=4 |", lines)
        # median 0.85; at the slowest call (1.25 ms) 0.68, at the fastest (0.8 ms) 1.06
        self.assertIn("| torch.compile | 0.85 (0.68-1.06) | - |", lines)
        self.assertIn("| cuDNN conv3d | failed check | - |", lines)
        self.assertIn("| CuPy RawKernel (naive) | - | error |", lines)
        self.assertIn("| lab register-tiled T=32 | 0.55 (0.46-0.61) | - |", lines)
        self.assertIn("| lab naive block 32x4x2 | 0.66 (0.55-0.73) | - |", lines)
        self.assertIn("f32 2900.0 GB/s", table)
        self.assertIn("copy_ratio", table)          # the caption says where the lab's ratio comes from
        self.assertFalse(any(line.startswith("| copy") for line in lines))

    def test_a_kernel_run_at_two_z_chunks_gets_a_row_for_each(self):
        rows = []
        for chunk, ratio in ((16, 0.91), (8, 0.92)):
            row = json.loads(lab_line(kernel="streaming", tile=4, radius=1, ratio=ratio))
            row["z_chunk"] = chunk
            rows.append(peers.lab_record(row))
        once = json.loads(lab_line(kernel="streaming", tile=8, radius=1, ratio=0.90))
        once["z_chunk"] = 16
        rows.append(peers.lab_record(once))
        lines = peers.render_table(rows, {"grid": (64, 64, 64)}).splitlines()
        self.assertIn("| lab streaming T=4 z-chunk 16 | 0.91 (0.76-1.01) |", lines)
        self.assertIn("| lab streaming T=4 z-chunk 8 | 0.92 (0.77-1.02) |", lines)
        self.assertIn("| lab streaming T=8 | 0.90 (0.75-1.00) |", lines)  # one chunk: no name


if __name__ == "__main__":
    unittest.main()
