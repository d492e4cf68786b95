"""Every published serving measurement in bench/published/*.csv is at most
roofline's bound: a bound that some real deployment beats is not a bound.

Each row names the model, the device, the tensor-parallel degree, the request
shape (isl prompt tokens, osl generated) and the measured figure. The bound is
`plan`'s continuous batching with the most favourable settings the engines
allow, so that no setting the measurement used can be faster: weights, KV cache
and activations in the row's format (the fp8 tensor peak; a model's own checkpoint,
"mxfp4", in its formats with the cache and activations in fp8), a chunk as large as
any prompt, the whole memory for the engine (mem_fraction 1, no reserve, blocks
of one token), the batch searched up to 65,536.
"""
import csv
import glob
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import roofline as rl  # noqa: E402


def points():
    for path in sorted(glob.glob(os.path.join(ROOT, "bench", "published", "*.csv"))):
        with open(path, encoding="utf-8") as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                yield os.path.basename(path), row


def bound(row):
    tp, isl, osl = int(row["tp"]), int(row["isl"]), int(row["osl"])
    fmt = row["weights"]
    # "mxfp4": the model's own checkpoint formats (gpt-oss: MXFP4 experts, the rest bf16), the
    # cache and activations in fp8, the most favourable
    wd, kd = (None, "fp8") if fmt == "mxfp4" else (fmt, fmt)
    rec = rl.plan(row["model"], prompt=isl, gen=osl, hw=row["hw"], tp=tp, gpus=tp, weight_dtype=wd,
                  kv_dtype=kd, dtype=kd, chunk=65536, mem_fraction=1.0, reserve=0, block_size=1,
                  max_batch=65536)
    return rec["rows"][0]


class Published(unittest.TestCase):
    def test_every_measurement_within_its_bound(self):
        n = 0
        for name, row in points():
            with self.subTest(file=name, id=row["id"]):
                self.assertEqual(row["metric"], "tokens_per_s")
                b = bound(row)
                self.assertGreater(b["batch"], 0)
                self.assertLessEqual(float(row["measured"]), b["tokens_per_s"], row["id"])
                n += 1
        self.assertGreaterEqual(n, 75)

    def test_table(self):
        ids = set()
        for name, row in points():
            self.assertNotIn(row["id"], ids)
            ids.add(row["id"])
            self.assertTrue(row["engine"] and row["name"] and float(row["measured"]) > 0, row["id"])


if __name__ == "__main__":
    unittest.main()
