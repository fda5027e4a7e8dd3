"""scripts/check-source-limits on its fixtures (fixtures/): the long functions it must report
and those it must not, a long file, the default limits, and its usage errors.

    python3 -m unittest -v test_check_source_limits     (from tests/scripts)
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check-source-limits")
FUNCTIONS = os.path.join("fixtures", "functions.cpp")
TWELVE = os.path.join("fixtures", "twelve_lines.py")


def check(*args, cwd=HERE):
    r = subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout.splitlines(), r.stderr.splitlines()


def function_line(path, line, name, length, limit):
    return (f"{path}:{line}: function {name} is {length} lines (over {limit}): "
            f"split it, or say why above it ('// Long because ...')")


class FunctionTests(unittest.TestCase):
    def test_reports_exactly_the_long_functions_without_a_marker(self):
        rc, out, err = check("--max-function-lines", "8", FUNCTIONS)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out, [
            function_line(FUNCTIONS, 14, "long_plain", 10, 8),      # a doc comment that says "long"
            function_line(FUNCTIONS, 40, "long_detached", 10, 8),   # the marker a blank line above
            function_line(FUNCTIONS, 65, "long_literals", 10, 8),   # braces in literals skipped
            function_line(FUNCTIONS, 84, "long_member", 10, 8),     # inside a class
            function_line(FUNCTIONS, 115, "long_default", 10, 8),   # `= {}` in its parameters
            function_line(FUNCTIONS, 133, "Gadget::Gadget", 10, 8), # brace initialisers
        ])
        self.assertEqual(err, [])

    def test_finds_every_function_with_its_length(self):
        rc, out, _ = check("--list-functions", FUNCTIONS)
        self.assertEqual(rc, 0)
        found = [line.split(": ", 1)[1] for line in out]
        self.assertEqual(found, ["short_one 3", "long_plain 10", "long_marked 10", "long_detached 10",
                                 "long_template 10", "long_literals 10", "Widget 4", "long_member 10",
                                 "long_default 10", "Gadget::Gadget 10"])
        # a template's first line is its template line, where the marker goes above
        self.assertIn(f"{FUNCTIONS}:52: long_template 10", out)

    def test_at_the_limit_passes(self):
        rc, out, _ = check("--max-function-lines", "10", FUNCTIONS)
        self.assertEqual((rc, out), (0, []))

    def test_default_limit_is_80_lines(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "k.cu")
            for lines, expected in ((78, 0), (79, 1)):  # with its braces' lines: 80, then 81
                with open(path, "w") as f:
                    f.write("__global__ void k(float* out) {\n" + "    out[0] += 1;\n" * lines + "}\n")
                rc, out, _ = check(path)
                self.assertEqual(rc, expected, out)
            self.assertEqual(out, [function_line(path, 1, "k", 81, 80)])


class FileTests(unittest.TestCase):
    def test_long_file(self):
        rc, out, _ = check("--max-file-lines", "10", TWELVE)
        self.assertEqual(rc, 1)
        self.assertEqual(out, [f"{TWELVE}:1: file is 12 lines (over 10): split it into files with one job each"])
        self.assertEqual(check("--max-file-lines", "12", TWELVE)[:2], (0, []))

    def test_default_limit_is_1000_lines(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "table.h")
            for lines, expected in ((1000, 0), (1001, 1)):
                with open(path, "w") as f:
                    f.write("int x;\n" * lines)
                rc, out, _ = check(path)
                self.assertEqual(rc, expected, out)

    def test_repository_mode_lists_tracked_and_new_files(self):
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(["git", "init", "-q", d], check=True)
            os.makedirs(os.path.join(d, "docs", "results"))
            for name in ("docs/results/table.py", "big.py", "notes.txt"):
                with open(os.path.join(d, name), "w") as f:
                    f.write("x = 1\n" * 11)
            rc, out, _ = check("--root", d, "--max-file-lines", "10")
            self.assertEqual(rc, 1)
            self.assertEqual(out, ["big.py:1: file is 11 lines (over 10): split it into files with one job each"])


class UsageTests(unittest.TestCase):
    def assert_usage_error(self, *args, says):
        rc, out, err = check(*args)
        self.assertEqual(rc, 2)
        self.assertEqual(out, [])
        self.assertEqual(len(err), 1, err)
        self.assertIn(says, err[0])

    def test_unknown_option(self):
        self.assert_usage_error("--max-lines", "3", says="unrecognized arguments")

    def test_missing_file(self):
        self.assert_usage_error("fixtures/none.cpp", says="fixtures/none.cpp")

    def test_not_source(self):
        self.assert_usage_error("fixtures/../test_check_source_limits.txt", says="not a source file")

    def test_limit_not_a_number(self):
        self.assert_usage_error("--max-file-lines", "many", says="invalid int value")

    def test_limit_not_positive(self):
        self.assert_usage_error("--max-function-lines", "0", FUNCTIONS, says="positive")

    def test_root_not_a_checkout(self):
        with tempfile.TemporaryDirectory() as d:
            self.assert_usage_error("--root", d, says="not a git checkout")


if __name__ == "__main__":
    unittest.main()
