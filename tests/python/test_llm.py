"""The binding's LLM functions: utilization() against a worked example (8B
model, 64 H100 at 600,000 tokens/s), the records against the command's --json
output, every way to name a model, and the error paths (ValueError with the
library's message)."""
import json
import os
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import roofline as rl  # noqa: E402

PEAK = 989.4e12
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "models")
CLI = os.path.join(ROOT, os.environ.get("BUILD", "build"), "roofline")


class Utilization(unittest.TestCase):
    # the worked example: an 8B model, 32 layers, d 4096, T 4096, 64 H100 at 600,000
    # tokens/s: 6N + 12LdT = 5.44e10 FLOPs per token, MFU about 52%; full
    # recomputation (+2N + 4LdT) HFU about 69%; against the sparse peak 26%
    ARGS = (8e9, 32, 4096, 4096, 600_000, 64, PEAK)

    def test_worked_example(self):
        mfu, hfu = rl.utilization(*self.ARGS)
        self.assertAlmostEqual(mfu, 0.52, delta=0.005)
        self.assertEqual(mfu, hfu)
        mfu, hfu = rl.utilization(*self.ARGS, recompute="full")
        self.assertAlmostEqual(mfu, 0.52, delta=0.005)
        self.assertAlmostEqual(hfu, 0.69, delta=0.003)
        mfu, hfu = rl.utilization(*self.ARGS, sparse_peak=True)
        self.assertAlmostEqual(mfu, 0.26, delta=0.003)

    def test_formula(self):
        N, L, d, T, tps, n = self.ARGS[:6]
        model = 6 * N + 12 * L * d * T
        mfu, hfu = rl.utilization(*self.ARGS, recompute="full")
        self.assertAlmostEqual(mfu, tps * model / (n * PEAK), places=12)
        self.assertAlmostEqual(hfu, tps * (model + 2 * N + 4 * L * d * T) / (n * PEAK), places=12)
        _, hfu = rl.utilization(*self.ARGS, recompute="selective")
        self.assertAlmostEqual(hfu, tps * (model + 4 * L * d * T) / (n * PEAK), places=12)
        mfu2, _ = rl.utilization(*self.ARGS, sparse_peak=True, recompute="full")
        self.assertAlmostEqual(mfu2, mfu / 2, places=12)
        # units as on the command line
        self.assertEqual(rl.utilization("8e9", 32, "4Ki", 4096, 6e5, 64, "989.4T"),
                         rl.utilization(*self.ARGS))

    def test_errors(self):
        cases = [
            (dict(n_gpus=0), "GPUs must be a whole number >= 1 (got 0)"),
            (dict(tokens_per_s=0), "tokens per second must be > 0"),
            (dict(peak=0), "peak must be > 0"),
            (dict(n_layers=0), "layers"),
            (dict(recompute="some"), "recompute: 'some' is not none, selective or full"),
        ]
        names = ("n_params", "n_layers", "d_model", "seq_len", "tokens_per_s", "n_gpus", "peak")
        for change, text in cases:
            kw = dict(zip(names, self.ARGS))
            kw.update(change)
            with self.assertRaises(ValueError) as cm:
                rl.utilization(**kw)
            self.assertIn(text, str(cm.exception), change)


@unittest.skipUnless(os.path.exists(CLI), "the command is not built")
class SameAsTheCommand(unittest.TestCase):
    """Each record equals the command's --json output, key for key."""
    CASES = [
        (["model", "show", "llama3-8b"], lambda: rl.model("llama3-8b")),
        (["model", "show", "gpt2-124m", "--kv-dtype", "fp8"], lambda: rl.model("gpt2-124m", kv_dtype="fp8")),
        (["model", "list"], rl.model_list),
        (["decode", "--model", "llama3-8b", "--context", "4096", "--batch", "1,64,119,120"],
         lambda: rl.decode("llama3-8b", context=4096, batch=[1, 64, 119, 120])),
        (["decode", "--model", "mixtral-8x7b", "--context", "1000", "--batch", "1..64", "--tp", "2",
          "--link-bw", "100GB/s", "--comm-latency", "5us", "--hw", "h200"],
         lambda: rl.decode("mixtral-8x7b", context=1000, batch="1..64", tp=2, link_bw="100GB/s",
                           comm_latency="5us", hw="h200")),
        (["decode", "--params", "7e9", "--layers", "32", "--heads", "32", "--kv-heads", "8",
          "--head-dim", "128", "--peak", "100T", "--bw", "1TB/s", "--mem", "80GiB"],
         lambda: rl.decode(params=7e9, layers=32, heads=32, kv_heads=8, head_dim=128, peak=100e12,
                           bw=1e12, mem="80GiB")),
        (["prefill", "--model", "llama3-8b", "--prompt", "2048", "--new-tokens", "256", "--no-causal"],
         lambda: rl.prefill("llama3-8b", prompt=2048, new_tokens=256, causal=False)),
        (["decode", "--model", "deepseek-v3", "--context", "4096", "--batch", "1,96", "--pp", "3",
          "--ep", "8", "--tp", "2", "--hw", "h200"],
         lambda: rl.decode("deepseek-v3", context=4096, batch=[1, 96], pp=3, ep=8, tp=2, hw="h200")),
        (["prefill", "--model", "llama3-70b", "--prompt", "1024", "--batch", "7", "--pp", "3",
          "--microbatches", "5", "--new-tokens", "8"],
         lambda: rl.prefill("llama3-70b", prompt=1024, batch=7, pp=3, microbatches=5, new_tokens=8)),
        (["plan", "--model", "mixtral-8x7b", "--prompt", "512", "--gen", "32", "--tpot", "40ms",
          "--pp", "1,2", "--ep", "1,4", "--hw", "h200"],
         lambda: rl.plan("mixtral-8x7b", prompt=512, gen=32, tpot="40ms", pp="1,2", ep=[1, 4], hw="h200")),
        (["mfu", "--model", "llama3-8b", "--seq", "8192", "--tokens-per-s", "1e6", "--gpus", "128",
          "--hw", "b200", "--recompute", "selective", "--attention", "causal", "--padding", "5%",
          "--exclude-embedding"],
         lambda: rl.mfu("llama3-8b", seq=8192, tokens_per_s=1e6, gpus=128, hw="b200",
                        recompute="selective", attention="causal", padding="5%",
                        exclude_embedding=True)),
        (["comm", "allreduce", "--params", "7e9", "--ranks", "8", "--busbw", "37.4GB/s",
          "--step-time", "3.64s"],
         lambda: rl.collective("allreduce", params=7e9, ranks=8, busbw=37.4e9, step_time=3.64)),
        (["comm", "allreduce", "--bytes", "1GB", "--ranks", "32", "--busbw", "400GB/s",
          "--ranks-per-node", "8", "--inter-busbw", "50GB/s"],
         lambda: rl.collective("allreduce", bytes="1GB", ranks=32, busbw="400GB/s",
                               ranks_per_node=8, inter_busbw="50GB/s")),
    ]

    def test_records(self):
        for args, call in self.CASES:
            out = subprocess.run([CLI] + args + ["--json"], capture_output=True, text=True,
                                 cwd=ROOT, check=True).stdout
            doc = json.loads(out)
            # the command's envelope around the record (docs/schema/)
            self.assertEqual((doc.pop("schema_version"), doc.pop("command")), (2, args[0] if args[0] not in
                             ("model", "hw") else " ".join(args[:2])))
            if list(doc) == ["rows"]:
                doc = doc["rows"]
            self.assertEqual(call(), doc, " ".join(args))


class Parallelism(unittest.TestCase):
    def test_pipeline_identity(self):
        """pp 2 at B = 1: pp 1's memory-bound step plus one send of d bf16 activations."""
        one = rl.decode("llama3-70b", batch=1, context=4096)["rows"][0]
        two = rl.decode("llama3-70b", batch=1, context=4096, pp=2)
        send = 8192 * 2 / 450e9 + 6.6e-6 + 0.6e-6
        self.assertEqual([s["layers"] for s in two["stages"]], [40, 40])
        self.assertAlmostEqual(two["rows"][0]["step_time_s"], one["step_time_s"] + send, delta=1e-12)
        p = rl.prefill("llama3-70b", prompt=2048, batch=8, pp=4, microbatches=8)
        self.assertAlmostEqual(p["bubble_fraction"], 3 / 11, delta=0.005)
        with self.assertRaisesRegex(ValueError, "pp must be >= 1"):
            rl.decode("llama3-8b", pp=0)
        with self.assertRaisesRegex(ValueError, "ep 3 does not divide the 8 experts"):
            rl.decode("mixtral-8x7b", ep=3)


class Models(unittest.TestCase):
    def test_every_way_to_name_a_model(self):
        want = rl.model("llama3-8b")["params"]
        self.assertEqual(want, 8030261248)
        self.assertEqual(rl.model("llama3-8b")["id"], "llama3-8b")
        path = os.path.join(FIXTURES, "llama3-8b", "config.json")
        self.assertEqual(rl.model(path)["params"], want)
        self.assertEqual(rl.model(os.path.join(FIXTURES, "llama3-8b"))["id"], "llama3-8b")
        with open(path) as f:
            config = json.load(f)
        self.assertEqual(rl.model(config)["params"], want)
        self.assertEqual(rl.model(params=7e9, layers=32, heads=32, kv_heads=8,
                                  head_dim=128)["kv_bytes_per_token"], 131072)
        # a record goes back in as the model
        m = rl.model("gpt2-124m")
        self.assertIsInstance(m, rl.Model)
        self.assertEqual(rl.decode(m, batch=1), rl.decode("gpt2-124m", batch=1))
        self.assertEqual(rl.decode(rl.model_list()[0], batch=1)["model"], "llama3-8b")
        self.assertEqual(len(rl.model_list()), 24)
        # a Hugging Face id is an alias of a built-in model, offline
        self.assertEqual(rl.model("meta-llama/Llama-2-7b-hf")["id"], "llama2-7b")
        with self.assertRaisesRegex(ValueError, "looks like a Hugging Face id"):
            rl.model("meta-llama/Llama-9-7b")

    def test_decode_and_prefill(self):
        d = rl.decode("llama3-8b", embedding="full", batch=1)
        self.assertAlmostEqual(d["rows"][0]["step_time_s"], 4.8e-3, delta=0.01e-3)
        self.assertEqual(d["embedding"], "full")
        # batch as a list, a string, a range and a number
        b = [r["batch"] for r in rl.decode("llama3-8b", batch="1..16")["rows"]]
        self.assertEqual(b, [1, 2, 4, 8, 16])
        self.assertEqual([r["batch"] for r in rl.decode("llama3-8b", batch=range(1, 4))["rows"]],
                         [1, 2, 3])
        self.assertEqual(len(rl.decode("llama3-8b")["rows"]), 11)
        p = rl.prefill("llama3-8b", prompt=512)
        self.assertEqual([o["bound"] for o in p["ops"]][:1], ["compute"])
        self.assertTrue(p["causal"])

    def test_expert_weights(self):
        # gpt-oss' experts in MXFP4 (4.25 bits a weight), the rest bf16: through the binding
        # as through the CLI; a weight format given wins for the experts too
        m = rl.model("gpt-oss-120b")
        self.assertEqual(m["expert_weights"], "mxfp4")
        self.assertEqual(m["weights_bytes"], 65248811136)
        self.assertIsNone(rl.model("llama3-8b")["expert_weights"])
        d = rl.decode("gpt-oss-120b", batch=1, hw="h100")
        self.assertEqual((d["expert_weights"], d["weights_bytes"]), ("mxfp4", 65248811136))
        self.assertEqual(d["rows"][0]["bytes"], 5002903296)
        self.assertTrue(d["weights_fit"])
        b = rl.decode("gpt-oss-120b", batch=1, hw="h100", weight_dtype="bf16")
        self.assertIsNone(b["expert_weights"])
        self.assertEqual(b["weights_bytes"], 116829154368 * 2)
        self.assertFalse(b["weights_fit"])

    def test_decode_ops(self):
        # one step op by op: the record `decode --ops --json` prints, the ops' bounds
        # summing to at least the step's (each op bounded on its own)
        d = rl.decode("llama3-8b", context=4096, batch=16, tp=2, ops=True)
        cli = json.loads(subprocess.run([CLI, "decode", "--model", "llama3-8b", "--context", "4096",
                                         "--batch", "16", "--tp", "2", "--ops", "--json"],
                                        capture_output=True, text=True, check=True).stdout)
        for k in ("schema_version", "command"):
            cli.pop(k)
        self.assertEqual(d, cli)
        total = sum(o["time_s"] for o in d["ops"])
        self.assertAlmostEqual(d["ops_time_s"], total, delta=1e-15)
        self.assertGreaterEqual(total, d["rows"][0]["step_time_s"])
        self.assertAlmostEqual(sum(o["share"] for o in d["ops"]), 1.0, delta=1e-12)
        self.assertEqual(d["ops"][-1]["bound"], "network")   # the all-reduces
        self.assertAlmostEqual(d["ops"][-1]["time_s"], d["rows"][0]["comm_time_s"], delta=1e-15)
        self.assertEqual(rl.decode("llama3-8b", ops=True)["rows"][0]["batch"], 1)
        self.assertNotIn("ops", rl.decode("llama3-8b", batch=1))
        with self.assertRaisesRegex(ValueError, "one batch size"):
            rl.decode("llama3-8b", batch="1,2", ops=True)

    def test_mfu_conventions(self):
        r = rl.mfu(params=7e9, layers=32, heads=32, head_dim=128, seq=4096,
                   tokens_per_step=262144, step_time="3.64s", gpus=8, hw="h100")
        values = [c["value"] for c in r["conventions"]]
        self.assertAlmostEqual(min(values), 0.19, delta=0.002)
        hfu_8n = [c["value"] for c in r["conventions"]
                  if c["metric"] == "hfu" and c["attention"] == "none" and not c["sparse"]]
        self.assertAlmostEqual(hfu_8n[0], 0.51, delta=0.003)      # 8N: the worked example's 51%
        self.assertEqual((r["conventions_min"], r["conventions_max"]), (min(values), max(values)))


class Errors(unittest.TestCase):
    def test_value_errors(self):
        fx = os.path.join(FIXTURES)
        cases = [
            (lambda: rl.model("llama9-8b"), "unknown model 'llama9-8b'; nearest: llama"),
            (lambda: rl.model("mistral-7b", layers=3), "model and layers exclude each other"),
            (lambda: rl.model(), "which model?"),
            (lambda: rl.model(params=7e9, heads=32), "names no layers"),
            (lambda: rl.model(params=7e9, layers=32), "names no attention heads"),
            (lambda: rl.model(layers=32, heads=32), "give the parameter count"),
            (lambda: rl.model(params=-1, layers=32, heads=32), "params -1 is outside the plausible range of a count"),
            (lambda: rl.model(os.path.join(fx, "broken.json")), "not valid JSON: byte"),
            (lambda: rl.model(os.path.join(fx, "truncated.json")), "truncated"),
            (lambda: rl.model(os.path.join(fx, "none")), "No such file"),
            (lambda: rl.model({"hidden_size": 64}), "names no layers"),
            (lambda: rl.model("llama3-8b", kv_dtype="fp7"), "fp7"),
            (lambda: rl.decode("llama3-8b", batch=0), "a batch must be a whole number >= 1 (got 0)"),
            (lambda: rl.decode("llama3-8b", batch=[4, 2.5]), "(got 2.5)"),
            (lambda: rl.decode("llama3-8b", batch="8..2"), "runs backwards"),
            (lambda: rl.decode("llama3-8b", batch=[]), "no batch sizes"),
            (lambda: rl.decode("llama3-8b", context=-5), "context -5 is outside the plausible range of a context length (tokens): 0 to 1e9"),
            (lambda: rl.decode("llama3-8b", tp=3), "tp 3 does not divide the 32 attention heads"),
            (lambda: rl.decode("llama3-8b", tp=0), "tp must be >= 1 (got 0)"),
            (lambda: rl.decode("llama3-8b", link_bw="1GB/s"), "link_bw applies with tp, pp or ep N > 1 only"),
            (lambda: rl.decode("llama3-8b", embedding="half"), "'half' is not gathered or full"),
            (lambda: rl.decode("llama3-8b", hw="h900"), "unknown hardware 'h900'"),
            (lambda: rl.decode("llama3-8b", hw="h100", dtype="int4"), "no int4 tensor peak"),
            (lambda: rl.decode("llama3-8b", sparse=True, peak="1P"), "exclude each other"),
            (lambda: rl.prefill("llama3-8b"), "prompt is required"),
            (lambda: rl.prefill("llama3-8b", prompt=0), "prompt must be a whole number"),
            (lambda: rl.prefill("llama3-8b", prompt=8, causal=True, no_causal=True),
             "exclude each other"),
            (lambda: rl.mfu("llama3-8b", tokens_per_s=1, gpus=1), "seq is required"),
            (lambda: rl.mfu("llama3-8b", seq=1, gpus=1), "tokens_per_s is required"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=0, gpus=1), "tokens_per_s must be > 0"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=1, tokens_per_step=1, gpus=1),
             "exclude each other"),
            (lambda: rl.mfu("llama3-8b", seq=1, step_time=1, gpus=1), "go together"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=1, gpus=1.5), "gpus must be a whole"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=1, gpus=1, padding=1),
             "padding must be a fraction"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=1, gpus=1, attention="half"),
             "attention: 'half' is not full, causal or none"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=1, gpus=1, hw="v100", dtype="fp16",
                            sparse_peak=True), "v100-sxm2 has no 2:4 sparse peak"),
            (lambda: rl.mfu("llama3-8b", seq=1, tokens_per_s=1, gpus=1, hw="h100", peak="1P"),
             "peak and hw exclude each other"),
            (lambda: rl.mfu(os.path.join(fx, "nolayers.json"), seq=1, tokens_per_s=1, gpus=1),
             "config.json names no layers"),
            (lambda: rl.collective("broadcast", bytes=1, ranks=8, busbw="1GB/s"),
             "unknown collective 'broadcast'"),
            (lambda: rl.collective("allreduce", bytes="1GB", ranks=1, busbw="1GB/s"),
             "ranks must be >= 2"),
            (lambda: rl.collective("allreduce", bytes="1GB", ranks=2.5, busbw="1GB/s"),
             "ranks must be a whole number >= 2"),
            (lambda: rl.collective("allreduce", bytes="1GB", ranks=8), "give the bandwidth"),
            (lambda: rl.collective("allreduce", bytes="1GB", ranks=8, busbw="1GB/s", hw="h100"),
             "exclude each other"),
            (lambda: rl.collective("allreduce", bytes=0, ranks=8, busbw="1GB/s"), "bytes must be > 0"),
            (lambda: rl.collective("allreduce", bytes="1GB/s", ranks=8, busbw="1GB/s"), "B/s"),
            (lambda: rl.collective("allreduce", bytes="1GB", ranks=12, busbw="1GB/s", ranks_per_node=8,
                                   inter_busbw="1GB/s"), "ranks per node (8) does not divide the ranks (12)"),
            (lambda: rl.collective("allgather", bytes="1GB", ranks=8, busbw="1GB/s", bucket="25MiB"),
             "need step_time"),
        ]
        for fn, text in cases:
            with self.assertRaises(ValueError, msg=text) as cm:
                fn()
            self.assertIn(text, str(cm.exception))

    def test_unknown_keyword_is_a_type_error(self):
        with self.assertRaises(TypeError):
            rl.decode("llama3-8b", batches=[1])
        with self.assertRaises(TypeError):
            rl.collective("allreduce", byte=1)


if __name__ == "__main__":
    unittest.main()
