"""roofline.measure(): the record of `roofline measure --json`, measured twice.

The same short measurement (one thread, the read kernel over two working
sets, the add) is taken by the command and by the binding. The figures differ
from run to run, so the test compares what must not: the keys and the
structure (every object's keys, every list's length, which figures are null),
the descriptive fields (CPU, threads, sizes, counted FLOPs and bytes) exactly,
and that every figure is a finite number >= 0, the measured ones (bandwidths,
times, achieved FLOP/s) > 0."""
import json
import math
import os
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import roofline as rl  # noqa: E402

CLI = os.path.join(os.path.dirname(os.path.abspath(rl.library_path)), "roofline")
ARGS = dict(quick=True, threads=1, kernel="read,add", ws="32KiB,1MiB")
FLAGS = ["--quick", "--threads", "1", "--kernel", "read,add", "--ws", "32KiB,1MiB"]

# figures measured on the machine: they may differ between the two runs
MEASURED = {"measured_hz", "tick_s", "wall_s", "spread_median", "spread_max", "noisy",
            "unreliable", "retakes", "bw", "measured_s", "achieved", "roof", "roof_dram",
            "roof_fraction", "above_roof", "bound", "bandwidth", "min", "median", "max", "spread", "level",
            "levels", "bandwidth_1t", "bandwidth_spread", "bandwidth_spread_1t", "nt", "measured_s_stats"}
# measured figures that are never 0 when present
POSITIVE = {"measured_hz", "tick_s", "wall_s", "bw", "measured_s", "achieved", "roof",
            "min", "median", "max"}


def numbers(doc, path=""):
    """(path, key, value) of every number and null in a document."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from numbers(v, f"{path}.{k}") if isinstance(v, (dict, list)) else \
                [(f"{path}.{k}", k, v)]
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from numbers(v, f"{path}.{i}")


class MeasureRecord(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(CLI):
            raise unittest.SkipTest(f"no command beside the library ({CLI})")
        out = subprocess.run([CLI, "measure", *FLAGS, "--json"], capture_output=True, text=True,
                             check=True).stdout
        cls.cli = json.loads(out)
        cls.lines = []
        cls.py = rl.measure(progress=cls.lines.append, **ARGS)

    def compare(self, a, b, path="", measured=False):
        """Same shape; equal values outside the measured figures."""
        if isinstance(a, dict):
            self.assertIsInstance(b, dict, path)
            self.assertEqual(sorted(a), sorted(b), path)
            for k in a:
                self.compare(a[k], b[k], f"{path}.{k}", measured or k in MEASURED)
        elif isinstance(a, list):
            self.assertIsInstance(b, list, path)
            if path.endswith(".unreliable"):  # which figures a busy machine disturbed: its own per run
                return
            if not measured:  # a measured list (unreliable figures) may differ in length
                self.assertEqual(len(a), len(b), path)
            for i, (x, y) in enumerate(zip(a, b)):
                self.compare(x, y, f"{path}.{i}", measured)
        elif a is None or b is None:
            self.assertEqual(a, b, f"{path}: null in one run only")
        elif measured:
            self.assertEqual(type(a) is str, type(b) is str, path)
            self.assertEqual(type(a) is bool, type(b) is bool, path)
        else:
            self.assertEqual(a, b, path)

    def test_same_record_as_the_command(self):
        self.assertEqual((self.cli.pop("schema_version"), self.cli.pop("command")), (2, "measure"))
        self.compare(self.cli, self.py)
        self.assertEqual(self.py["threads"], 1)
        self.assertEqual([s["kernel"] for s in self.py["sweeps"]], ["read", "read"])
        self.assertEqual([p["ws"] for p in self.py["sweeps"][0]["points"]], [32768, 1048576])
        ops = {p["op"] for p in self.py["points"]}
        self.assertEqual(ops, {"add"})
        for p in self.py["points"]:
            self.assertEqual((p["flops"], p["bytes"]), (p["n"], 12 * p["n"]))  # fp32 c = a + b

    def test_figures_finite_and_positive(self):
        for doc in (self.cli, self.py):
            seen = 0
            for path, key, v in numbers(doc):
                if v is None or isinstance(v, (bool, str)):
                    continue
                self.assertTrue(math.isfinite(v) and v >= 0, f"{path} = {v}")
                if key in POSITIVE or ".levels." in path or path.startswith((".bandwidth.", ".bandwidth_1t.")):
                    self.assertGreater(v, 0, path)
                    seen += 1
            self.assertGreater(seen, 20)
            self.assertTrue(any(v for k, v in doc["bandwidth"].items()), doc["bandwidth"])

    def test_tables_for_pandas(self):
        # lists of records with the same keys, which pandas takes as they are
        tables = (self.py["points"], self.py["sweeps"], self.py["sweeps"][0]["points"])
        for rows in tables:
            self.assertGreater(len(rows), 0)
            self.assertTrue(all(sorted(r) == sorted(rows[0]) for r in rows))
        try:
            import pandas as pd
        except ImportError:  # Debian's python3-pandas; another interpreter may lack it
            return
        df = pd.DataFrame(self.py["points"])
        self.assertEqual(list(df.columns), list(self.py["points"][0]))
        self.assertEqual(len(df), len(self.py["points"]))
        self.assertTrue((df["achieved"] > 0).all())
        flat = pd.json_normalize(self.py["points"])
        self.assertIn("measured_s_stats.median", flat.columns)

    def test_progress(self):
        self.assertTrue(self.lines and all(isinstance(s, str) for s in self.lines))
        self.assertTrue(any(s.startswith("read") for s in self.lines), self.lines)
        self.assertTrue(any(s.startswith("add") for s in self.lines), self.lines)

    def test_errors(self):
        for kw, text in [(dict(threads=0), "^threads must be >= 1"),
                         (dict(threads=1.5), "^threads: '1.5' is not a whole number"),
                         (dict(kernel="fft"), "unknown kernel 'fft'"),
                         (dict(kernel=["peak", "fft"]), "unknown kernel 'fft'"),
                         (dict(ws=[0]), "^ws: working sets must be > 0"),
                         (dict(ws="32KiB,"), "^ws: empty item"),
                         (dict(ws=["4GFLOP"]), "^ws:"),
                         (dict(ws="1PB"), "does not fit in this machine's memory"),
                         (dict(ws=[4096] * 65), "^ws: at most 64 items")]:
            with self.assertRaisesRegex(ValueError, text):
                rl.measure(**kw)


if __name__ == "__main__":
    unittest.main()
