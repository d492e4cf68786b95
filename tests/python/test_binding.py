"""The Python binding's own functions: the roofline functions, the records, the
error paths. Figures from the NVIDIA H100 whitepaper (H100 SXM5: 989.4 TFLOP/s, 3.35 TB/s)."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import roofline as rl  # noqa: E402

PEAK, BW = 989.4e12, 3.35e12


class RooflineFunctions(unittest.TestCase):
    def test_op_cost_shapes(self):
        self.assertEqual(rl.op_cost("add", (16,)), (16.0, 96.0))
        self.assertEqual(rl.op_cost("add", (4, 4), s=4), (16.0, 192.0))
        self.assertEqual(rl.op_cost("softmax", (2, 10)), (100.0, 80.0))
        self.assertEqual(rl.op_cost("layernorm", (4096, 4096)), (134217728.0, 67125248.0))
        F, Q = rl.op_cost("matmul", (8192, 8192, 8192))
        self.assertAlmostEqual(F / Q, 8192 / 3, places=6)
        self.assertEqual(rl.op_cost("matmul", (2, 3, 4, 5))[0], 5 * 2 * 2 * 3 * 4)
        F, Q = rl.op_cost("linear", (512, 4096, 4096))
        self.assertEqual(F, 2 * 512 * 4096 * 4096)
        F, Q = rl.op_cost("attention", (4096, 128))
        self.assertAlmostEqual(F / Q, 62.67, places=2)
        F, Q = rl.op_cost("attention_fused", (4096, 128))
        self.assertEqual(Q, 4 * 4096 * 128 * 2)
        self.assertEqual(rl.op_cost("kernel", (1e6, 1e5)), (1e6, 1e5))
        self.assertEqual(rl.op_cost("add", ("4Ki",))[0], 4096)
        # the shapes come from the library's op schema, not a copy
        self.assertEqual(rl.op_fields("linear"), "tokens d-in d-out [bias] [weight-dtype]")
        self.assertEqual(rl.op_fields("relu"), "n | rows cols")
        self.assertEqual(rl.op("linear", hw="h100", tokens=2, d_in=8, d_out=4)["flops"], 128)
        self.assertEqual(rl.op_cost("add", (10,), s="fp32")[1], 120)

    def test_roofline(self):
        t, bound = rl.roofline(*rl.op_cost("matmul", (8192, 8192, 8192)), PEAK, BW)
        self.assertEqual(bound, "compute")
        self.assertAlmostEqual(t, 1.111e-3, delta=1e-6)
        t, bound = rl.roofline(*rl.op_cost("add", (1 << 24,)), PEAK, BW)
        self.assertEqual(bound, "memory")
        self.assertAlmostEqual(t * 1e6, 30.05, places=1)
        t, bound = rl.roofline(1e9, 1e9, "989.4T", "3.35TB/s")
        self.assertEqual(bound, "memory")

    def test_min_batch(self):
        self.assertEqual(rl.min_batch(4096, PEAK, BW), 346)
        self.assertIsNone(rl.min_batch(512, PEAK, BW))
        # exact traffic, not peak/bw: 295 would be the placeholder's answer
        self.assertNotEqual(rl.min_batch(4096, PEAK, BW), round(PEAK / BW))
        self.assertLess(rl.min_batch(8192, PEAK, BW), rl.min_batch(4096, PEAK, BW))
        # fp32: I(B) = 2Bd^2 / (4(2Bd + d^2)) tends to d/4 = 1024 > 295, reached from B = 831
        self.assertEqual(rl.min_batch(4096, PEAK, BW, s=4), 831)
        self.assertIsNone(rl.min_batch(1024, PEAK, BW, s=4))

    def test_records(self):
        r = rl.op("layernorm", hw="h100", rows=4096, cols=4096, time="22.37us")
        self.assertAlmostEqual(r["roof_fraction"], 0.896, places=3)
        self.assertEqual(r["bound"], "memory")
        self.assertEqual(r["peak_kind"], "vec16")
        h = rl.hardware("h200")
        self.assertEqual(h["id"], "nvidia-h200-sxm")
        self.assertEqual(h["bandwidth"], 4.8e12)
        ids = [d["id"] for d in rl.hardware_list()]
        self.assertIn("amd-mi300x", ids)
        # the record is the library's (rl_hw_json): every column, the measured-CPU ones too
        h100 = rl.hardware("h100")
        self.assertEqual(h100["form_factor"], "SXM5")
        self.assertEqual((h100["l1_bandwidth"], h100["l2_bandwidth"], h100["l3_bandwidth"],
                          h100["sms"]), (33.45e12, 10.14e12, None, 132))
        self.assertTrue(all(d["source"] for d in rl.hardware_list()))
        rows = rl.layer(hw="h100")
        self.assertEqual([r["op"] for r in rows][:3], ["add", "softmax", "layernorm"])
        k = rl.kernel(1e6, "100kB", hw="h100")
        self.assertEqual(k["bound"], "overhead")
        self.assertEqual(rl.parse_quantity("128KiB", "B"), 131072)
        self.assertEqual(rl.format_quantity(3.35e12, "B/s"), "3.35 TB/s")
        self.assertEqual(rl.dtype_bytes("int4"), 0.5)

    def test_errors(self):
        cases = [
            (lambda: rl.op_cost("frob", (1,)), "unknown op 'frob'"),
            (lambda: rl.op_cost("add", (0,)), "must be > 0"),
            (lambda: rl.op_cost("add", (float("nan"),)), "NaN"),
            (lambda: rl.op_cost("add", (-3,)), "n -3 is outside the plausible range of a count"),
            (lambda: rl.op_cost("add", (10,), s=3), "no number format of 3 bytes"),
            (lambda: rl.op_cost("matmul", (1, 2, 3, 4, 5)), "should be"),
            (lambda: rl.roofline(1, 1, 0, BW), "peak"),
            (lambda: rl.roofline(1, 1, PEAK, "3.35TB"), "in B where B/s"),
            (lambda: rl.min_batch(-1, PEAK, BW), "d -1 is outside the plausible range of a count"),
            (lambda: rl.hardware("h900"), "unknown hardware 'h900'"),
            (lambda: rl.hardware("a100"), "ambiguous"),
            (lambda: rl.op("add", hw="h100", n=10, k=5), "k does not apply to add"),
            (lambda: rl.op("add", hw="h100", n=10, bogus=1), "unknown shape keyword"),
            (lambda: rl.op("add", n=10), "hw ID is required"),
            (lambda: rl.kernel(1, 1, hw="h100", time=0), "time 0 s is outside the plausible range of a time"),
            (lambda: rl.parse_quantity("12XB", "B"), "unknown unit"),
            (lambda: rl.hardware("x", hw_file="/nonexistent.csv"), "No such file"),
            # one past 2^53 - 1 would be held (and printed) rounded
            (lambda: rl.op("matmul", hw="h100", m=2**53 + 1, n=4, k=4), "m is too large"),
            (lambda: rl.parse_quantity("9007199254740993", "count"), "too large"),
            # the message gives the value as it was passed, not its rounded double
            (lambda: rl.op("matmul", hw="h100", m=2**53 + 1, n=4, k=4), "got 9007199254740993"),
            # bytes and FLOPs in full digits too (as an int or a string); 1e16 is a float
            (lambda: rl.kernel(2**53 + 1, 1, hw="h100"), "too large"),
            (lambda: rl.kernel("9007199254740993", 1, hw="h100"), "too large"),
            (lambda: rl.parse_quantity("9007199254740993B", "B"), "too large"),
            (lambda: rl.kernel(1e9, 1e6, hw="h100", time=1e-300), "time 1e-300 s is outside the plausible range"),
            # text below the smallest normal double: refused as written, never read as 0 or a subnormal
            (lambda: rl.parse_quantity("1e-400", "s"), "'1e-400' is out of range"),
            (lambda: rl.parse_quantity("2.2e-308", "s"), "'2.2e-308' is out of range"),
            (lambda: rl.parse_quantity("1e-300ns", "s"), "'1e-300ns' is out of range"),
            # the command's caps on files: /dev/zero is refused, not read for ever
            (lambda: rl.hardware("h100", hw_file="/dev/zero"), "larger than 67108864 bytes"),
            (lambda: rl.model("/dev/zero"), "larger than 16777216 bytes"),
            (lambda: rl.trace("/dev/zero", hw="h100"), "a record longer than 256 MiB"),
        ]
        for fn, text in cases:
            with self.assertRaises(ValueError) as cm:
                fn()
            self.assertIn(text, str(cm.exception))

    def test_version(self):
        self.assertEqual(rl.__version__, "0.1.0")
        self.assertTrue(os.path.exists(rl.library_path))


if __name__ == "__main__":
    unittest.main()
