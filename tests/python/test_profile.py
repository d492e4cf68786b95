"""python3 -m roofline.profile without PyTorch (make check): its command line, its
errors, and its --json object against `roofline trace --json` on the committed
traces. The run under PyTorch is tests/python/test_profile_torch.py (make
check-torch, with Debian's python3-torch for /usr/bin/python3)."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
from roofline import profile as rp  # noqa: E402

CLI = os.path.join(ROOT, os.environ.get("BUILD", "build"), "roofline")
D = os.path.join(ROOT, "tests", "fixtures", "traces")
CPU_TRACES = sorted(f for f in os.listdir(D) if f.startswith("pytorch_cpu_"))


def run_module(args, cwd):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "roofline.profile"] + args, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


class CommandLine(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(rp._parse(["--json", "-o", "t.json", "--top", "3", "--hw=h100", "s.py", "a", "--json"]),
                         (True, "t.json", {"top": "3", "hw": "h100"}, "s.py", ["a", "--json"]))
        # after SCRIPT everything is the script's; "--" ends the options
        self.assertEqual(rp._parse(["--", "-x.py", "-o"]), (False, None, {}, "-x.py", ["-o"]))
        self.assertEqual(rp._parse(["s.py", "--hw", "x"]), (False, None, {}, "s.py", ["--hw", "x"]))

    def test_flag_message(self):
        # roofline.trace() names its keywords; the command writes them as its flags
        kw = {"top": "0", "hw_file": "x.csv"}
        self.assertEqual(rp.flag_message("top must be >= 1", kw), "--top must be >= 1")
        self.assertEqual(rp.flag_message("hw_file: no such file", kw), "--hw-file: no such file")
        self.assertEqual(rp.flag_message("topology unknown", kw), "topology unknown")
        self.assertEqual(rp.flag_message("top must be >= 1", {}), "top must be >= 1")

    def test_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "s.py"), "w") as f:
                f.write("print('ran')\n")
            cases = [([], "roofline.profile: which script? e.g. python3 -m roofline.profile train.py"),
                     (["--bogus", "s.py"], "roofline.profile: unknown option '--bogus' before the script"),
                     (["--top"], "roofline.profile: --top needs a value"),
                     (["--json=1", "s.py"], "roofline.profile: unknown option '--json=1'"),
                     (["missing.py"], "roofline.profile: missing.py: no such file"),
                     (["--json", tmp], f"roofline.profile: {tmp}: no such file")]
            for args, msg in cases:
                r = run_module(args, tmp)
                self.assertEqual(r.returncode, 2, (args, r.stderr))
                self.assertTrue(r.stderr.startswith(msg), (args, r.stderr))
                self.assertEqual(r.stdout, "")
            self.assertEqual(os.listdir(tmp), ["s.py"])  # nothing run, nothing written

    @unittest.skipIf(importlib.util.find_spec("torch") is not None, "this Python has PyTorch")
    def test_no_torch(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "s.py"), "w") as f:
                f.write("open('ran', 'w').close()\n")
            r = run_module(["s.py"], tmp)
            self.assertEqual((r.returncode, r.stdout), (2, ""))
            self.assertEqual(r.stderr, rp.NO_TORCH + "\n")
            self.assertEqual(os.listdir(tmp), ["s.py"])  # the script did not run without the profiler

    def test_help(self):
        r = run_module(["--help"], ROOT)
        self.assertEqual(r.returncode, 0)
        self.assertTrue(r.stdout.startswith(rp.USAGE))
        self.assertIn("Exit status", r.stdout)


class SameAsCli(unittest.TestCase):
    """analysis_json(TRACE, **flags) is the object `roofline trace TRACE --json` prints,
    and a trace the command refuses raises its message."""

    def check(self, path, flags, argv):
        cli = subprocess.run([CLI, "trace", path, "--json"] + argv, capture_output=True, text=True)
        try:
            doc = rp.analysis_json(path, **flags)
        except ValueError as e:
            self.assertEqual(cli.returncode, 2, cli.stderr)
            self.assertEqual(cli.stdout, "")
            self.assertEqual(cli.stderr, f"roofline trace: {e}\n")
            return False
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertEqual(doc, json.loads(cli.stdout))
        return True

    def test_gpu(self):
        self.assertTrue(self.check(os.path.join(D, "ncu_details_sm80_bert_flashattn.csv"),
                                   {"hw": "a100-40gb", "top": "3"}, ["--hw", "a100-40gb", "--top", "3"]))
        self.assertTrue(self.check(os.path.join(D, "pytorch_kineto_2024_mi250_rocm6.2_foreach_shapes.json.gz"),
                                   {"hw": "mi250x"}, ["--hw", "mi250x"]))

    def test_cpu_traces(self):
        # under the committed rows of this machine (without them each side would
        # measure the machine, and two measurements differ)
        hw = os.path.join(ROOT, "tests", "data", "hw_cpu.csv")
        self.assertGreaterEqual(len(CPU_TRACES), 4)
        for name in CPU_TRACES:
            self.assertTrue(self.check(os.path.join(D, name), {"hw_file": hw}, ["--hw-file", hw]))


class Fixtures(unittest.TestCase):
    """The committed CPU traces are what write_trace writes: the machine at the top
    level, every op with its shapes and one type per input."""

    def test_form(self):
        import gzip
        for name in CPU_TRACES:
            with gzip.open(os.path.join(D, name)) as f:
                doc = json.load(f)
            for key in ("cpu_model", "cpu_vendor", "logical_cpus", "intra_op_threads", "pytorch_version",
                        "blas_libraries", "baseTimeNanoseconds"):
                self.assertIn(key, doc, name)
            self.assertEqual(doc["deviceProperties"], [])
            ops = [e for e in doc["traceEvents"] if e.get("cat") == "cpu_op"]
            self.assertGreater(len(ops), 50, name)
            for e in ops:
                a = e["args"]
                self.assertEqual(len(a["Input Dims"]), len(a["Input type"]), (name, e["name"]))
                self.assertGreaterEqual(e["dur"], 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
