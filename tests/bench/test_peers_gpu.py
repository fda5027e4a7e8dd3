#!/usr/bin/env python3
"""bench/peers.py on the device (ctest label gpu): every peer at r = 1 on a small non-cubic grid,
fp32 and fp64, checked and timed; then the same with the x-neighbour weights swapped for the peers
(--fault swap-x), which every peer must fail, untimed. Exits 77 (ctest: skipped) where torch or a
GPU is missing."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("STENCIL_LAB_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
SCRIPT = os.path.join(SOURCE_DIR, "bench", "peers.py")
PEERS = ("eager", "compile", "cudnn", "cupy")


def run_peers(out, *extra):
    args = [sys.executable, SCRIPT, "--size", "70x45x33", "--radii", "1", "--reps", "3", "--warmup", "1",
            "--out", out, *extra]
    return subprocess.run(args, capture_output=True, text=True, timeout=540)


def read_rows(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


class PeersOnTheDevice(unittest.TestCase):
    def test_every_peer_passes_its_check_and_is_timed(self):
        with tempfile.TemporaryDirectory() as d:
            res = run_peers(os.path.join(d, "peers"))
            self.assertEqual(res.returncode, 0, res.stderr[-3000:])
            rows = read_rows(os.path.join(d, "peers.jsonl"))
            with open(os.path.join(d, "peers.md")) as f:
                table = f.read()
        copies = [r for r in rows if r["source"] == "copy"]
        self.assertEqual(sorted(r["precision"] for r in copies), ["f32", "f64"])
        self.assertTrue(all(r["copy_gbps"] > 0 for r in copies))
        measured = [r for r in rows if r["source"] == "peer"]
        self.assertEqual(sorted((r["peer"], r["precision"]) for r in measured),
                         sorted((p, prec) for p in PEERS for prec in ("f32", "f64")))
        for r in measured:
            with self.subTest(peer=r["peer"], precision=r["precision"]):
                self.assertTrue(r["ok"], r.get("check"))
                self.assertEqual(r["bad_cells"], 0)
                self.assertTrue(r["timed"])
                self.assertEqual(len(r["samples_ms"]), 3)
                self.assertLessEqual(r["ms_min"], r["ms_median"])
                self.assertLessEqual(r["ms_median"], r["ms_max"])
                copy = next(c for c in copies if c["precision"] == r["precision"])
                self.assertAlmostEqual(r["copy_ratio"], r["gbps"] / copy["copy_gbps"], places=9)
        self.assertIn("| torch.compile | ", table)

    def test_a_wrong_peer_fails_its_check_and_is_not_timed(self):
        with tempfile.TemporaryDirectory() as d:
            res = run_peers(os.path.join(d, "fault"), "--precisions", "f32", "--fault", "swap-x")
            self.assertEqual(res.returncode, 1, res.stderr[-3000:])
            rows = [r for r in read_rows(os.path.join(d, "fault.jsonl")) if r["source"] == "peer"]
        self.assertEqual(sorted(r["peer"] for r in rows), sorted(PEERS))
        for r in rows:
            with self.subTest(peer=r["peer"]):
                self.assertFalse(r["ok"])
                self.assertGreater(r["bad_cells"], 0)
                self.assertFalse(r["timed"])
                self.assertNotIn("ms_median", r)


if __name__ == "__main__":
    try:
        import torch
        if not torch.cuda.is_available():
            print("skipped: torch sees no CUDA device")
            sys.exit(77)
    except ImportError:
        print("skipped: torch is not importable")
        sys.exit(77)
    unittest.main()
