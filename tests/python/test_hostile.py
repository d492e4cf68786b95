"""The Python binding against a hostile caller (issue 30), one class per class of
the issue:

- Ranges (class 3): every quantity's plausible range comes from the library's
  one table (rl_range_get, src/core/ranges.c); a value outside it is a
  ValueError with the command's message stating the range; every built-in
  device and model, and every fixture model, lies inside; docs/reliability.md
  lists each range as the library has it.
- NoNonsense (class 3): no inf, no 63-digit percentage, no count past 2^53
  printed as exact, from inputs at the edges of the ranges.
- Arguments (class 5): every argument checked for its type and range before
  the call (bytes, a NUL, 1.5 for a whole number, an int past a double's
  range, written as 1.000e400); a NUL in an id, a name or a keyword refused
  (_cstr); paths as str, bytes or os.PathLike.
"""
import ctypes
import json
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import roofline as rl  # noqa: E402
from roofline import _native  # noqa: E402

LIB = rl._lib
NCU = os.path.join(ROOT, "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv")
CLI = os.path.join(os.path.dirname(os.path.abspath(os.environ.get("ROOFLINE_LIB", os.path.join(
    ROOT, "build", "libroofline.so")))), "roofline")


def ranges():
    """{name: rl_range} of the library's table."""
    out, q = {}, 0
    while True:
        r = LIB.rl_range_get(q)
        if not r:
            return out
        buf = ctypes.create_string_buffer(128)
        LIB.rl_range_text(q, buf, 128)
        out[r.contents.name.decode()] = (q, r.contents, buf.value.decode())
        q += 1


class Ranges(unittest.TestCase):
    def test_table(self):
        t = ranges()
        self.assertGreaterEqual(len(t), 12)
        for name, (q, r, text) in t.items():
            self.assertLess(r.min, r.max, name)
            self.assertTrue(r.min_why and r.max_why, name)
            self.assertIn(" to ", text, name)

    def test_docs_list_every_range(self):
        """docs/reliability.md's table: one row per quantity, its range as the library prints it."""
        with open(os.path.join(ROOT, "docs/reliability.md"), encoding="utf-8") as f:
            doc = f.read()
        for name, (q, r, text) in ranges().items():
            row = [ln for ln in doc.splitlines() if ln.startswith(f"| {name} |")]
            self.assertEqual(len(row), 1, f"docs/reliability.md: no row '| {name} |'")
            self.assertIn(f"| {text} |", row[0], name)

    def test_messages_state_the_range(self):
        for kw, v, want in (("bw", 1e-300, "1 MB/s to 1 EB/s"), ("peak", 1e-300, "1 MFLOP/s to 1e21 FLOP/s"),
                            ("mem", 2.2e-300, "1 kB to 1 EB"), ("time", 1.8e19, "1 ps to 1e9 s"),
                            ("overhead", 2.2e-300, "0 or 1 ps to 1 s")):
            with self.assertRaises(ValueError) as c:
                rl.op("add", n=4096, hw="h100", **{kw: v})
            self.assertIn(want, str(c.exception))
            self.assertTrue(str(c.exception).startswith(kw + " "), str(c.exception))
        with self.assertRaises(ValueError) as c:
            rl.decode(model="llama3-8b", bw_eff=1e-300)
        self.assertIn("0.1% to 100%", str(c.exception))
        with self.assertRaises(ValueError) as c:
            rl.model({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 2,
                             "head_dim": 1e15, "intermediate_size": 128, "vocab_size": 100})
        self.assertIn("1 to 16777216", str(c.exception))

    def test_the_cli_says_the_same(self):
        if not os.path.exists(CLI):
            self.skipTest("no build/roofline")
        p = subprocess.run([CLI, "op", "add", "--n", "4096", "--hw", "h100", "--bw", "1e-300"],
                           capture_output=True, text=True)
        with self.assertRaises(ValueError) as c:
            rl.op("add", n=4096, hw="h100", bw=1e-300)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr.strip(), "roofline op: --" + str(c.exception))

    def test_real_devices_and_models_inside(self):
        """Every built-in device's figures and every model's dimensions lie inside
        their ranges, at least 10x from either bound (a range refuses accidents,
        never a real device)."""
        t = {name: r for name, (q, r, _) in ranges().items()}
        for h in rl.hardware_list():
            rec = rl.hardware(h["id"])
            figs = [(f"peak {k}", v, "peak") for k, v in rec["peak"].items() if v]
            figs += [(k, rec[k], name) for k, name in (
                ("mem_bytes", "memory capacity"), ("l2_bytes", "memory capacity"), ("bandwidth", "bandwidth"),
                ("l1_bandwidth", "bandwidth"), ("l2_bandwidth", "bandwidth"), ("l3_bandwidth", "bandwidth"),
                ("interconnect_bandwidth", "bandwidth"), ("host_bandwidth", "bandwidth"),
                ("boost_hz", "clock (Hz)"), ("link_latency_s", "latency or launch overhead")) if rec.get(k)]
            for k, v, name in figs:
                r = t[name]
                self.assertTrue(r.min * 10 <= v <= r.max / 10, f"{h['id']} {k} {v:g} near {name}'s bounds")
        for m in rl.model_list():
            for k in ("layers", "d_model", "heads", "kv_heads", "head_dim", "d_ff", "vocab", "experts"):
                v = m[k]
                if v:
                    r = t["model dimension"]
                    self.assertTrue(r.min <= v <= r.max / 10, f"{m['id']} {k} {v}")
        for d in sorted(pathlib.Path(ROOT, "tests/fixtures/models").glob("*/config.json")):
            rl.model(str(d))


class NoNonsense(unittest.TestCase):
    def test_trace_zero_durations_left_out(self):
        ev = [{"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1200, "dur": 100,
               "args": {"bytes": 4e6, "correlation": 1}},
              {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7,
               "ts": 1400, "dur": 1e-300, "args": {"bytes": 4e6, "correlation": 2}},
              {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
               "ts": 1500, "dur": 0, "args": {"bytes": 4e6, "correlation": 3}}]
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "t.json")
            with open(p, "w") as f:
                json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}], "traceEvents": ev}, f)
            t = rl.trace(p, hw="h100")
        self.assertEqual(t["zero_duration_untimed"], 2)
        for r in t["rows"] if "rows" in t else t.get("kernels", []):
            f = r.get("roof_fraction")
            self.assertTrue(f is None or (math.isfinite(f) and f < 1e6), r)

    def test_counts_past_2_53(self):
        """No figure is computed from a dimension past the range; a count past
        2^53 in JSON is a float (not an exact-looking integer)."""
        m = rl.model({"num_hidden_layers": 1024, "hidden_size": 262144, "num_attention_heads": 128,
                      "intermediate_size": 16777216, "vocab_size": 32000})
        self.assertGreater(m["params"], 2 ** 53)
        self.assertIsInstance(m["params"], float)
        with self.assertRaises(ValueError) as c:
            rl.model({"num_hidden_layers": 16777216, "hidden_size": 16777216, "num_attention_heads": 128,
                      "intermediate_size": 16777216, "vocab_size": 16777216})
        self.assertIn("parameter count 3.306e22 is outside the plausible range", str(c.exception))


class Arguments(unittest.TestCase):
    def test_numbers(self):
        for bad, want in ((b"64", "is not a number"), ("64\0junk", "NUL"), (bytearray(b"1"), "is not a number"),
                          (True, "is not a number"), (10 ** 400, "too large")):
            with self.assertRaises(ValueError) as c:
                rl.op("add", n=bad, hw="h100")
            self.assertIn(want, str(c.exception))
        with self.assertRaises(ValueError) as c:       # past a double: the range's message
            rl.op("add", n=4096, hw="h100", time=10 ** 400)
        self.assertIn("outside the plausible range of a time", str(c.exception))
        with self.assertRaises(ValueError) as c:
            rl.trace(NCU, top=1.5)
        self.assertIn("not a whole number", str(c.exception))
        self.assertEqual(rl.op("add", n="4Ki", hw="h100")["flops"], 4096)

    def test_names_with_a_nul(self):
        """A NUL inside an id, a name or a keyword is refused, naming the argument,
        never cut by C ("h100\\0x" is not h100): every string the binding hands
        to the library passes _cstr."""
        cases = (("hw", lambda: rl.hardware("h100\0x")),
                 ("hw", lambda: rl.op("add", n=64, hw="h100\0x")),
                 ("kind", lambda: rl.op("add\0x", n=64, hw="h100")),
                 ("dtype", lambda: rl.op("add", n=64, hw="h100", dtype="bf16\0junk")),
                 ("dtype", lambda: rl.dtype_bytes("fp8\0")),
                 ("keyword", lambda: rl.op("add", hw="h100", **{"n\0x": 64})),
                 ("quantity", lambda: rl.parse_quantity("1.5k\0x")),
                 ("model", lambda: rl.model("llama3-8b\0x")),
                 ("model", lambda: rl.decode(model="llama3-8b\0x")),
                 ("hw", lambda: rl.decode(model="llama3-8b", hw="h100\0x")),
                 ("kind", lambda: rl.collective("allreduce\0x", bytes=1e9, ranks=8, hw="h100")),
                 ("hw", lambda: rl.trace(NCU, hw="a100-40gb\0x")),
                 ("format", lambda: rl.trace(NCU, hw="a100-40gb", format="ncu\0x")))
        for what, call in cases:
            with self.assertRaises(ValueError) as c:
                call()
            self.assertIn("holds a NUL character", str(c.exception), what)
            self.assertTrue(str(c.exception).startswith(what + ": "), str(c.exception))
        self.assertEqual(rl.hardware("h100")["id"], "nvidia-h100-sxm5")  # the same ids without

    def test_ints_past_a_double(self):
        """An int past a double's range: the range's message with the value as
        written (1.000e400), never inf nor a bare OverflowError."""
        with self.assertRaises(ValueError) as c:
            rl.op("add", n=64, peak=10 ** 400, bw=1e12)
        self.assertEqual(str(c.exception).split(" is outside")[0], "peak 1.000e400 FLOP/s")
        self.assertNotIn("inf", str(c.exception))
        with self.assertRaises(ValueError) as c:
            rl.op("add", n=64, peak=-10 ** 400, bw=1e12)
        self.assertEqual(str(c.exception), "peak must be > 0 (got -1.000e400)")

    def test_paths(self):
        a = rl.trace(NCU, hw="a100-40gb")
        self.assertEqual(rl.trace(os.fsencode(NCU), hw="a100-40gb"), a)
        self.assertEqual(rl.trace(pathlib.Path(NCU), hw="a100-40gb"), a)
        for bad in (NCU + "\0x", 3, None):
            with self.assertRaises(ValueError):
                rl.trace(bad)
        cfg = os.path.join(ROOT, "tests/fixtures/models/gpt2/config.json")
        self.assertEqual(rl.model(os.fsencode(cfg))["params"], rl.model(cfg)["params"])


if __name__ == "__main__":
    unittest.main()
