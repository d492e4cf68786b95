"""python3 -m roofline.profile under a real PyTorch (make check-torch: Debian's
python3-torch for /usr/bin/python3; not part of make check, whose Python need not
have PyTorch). A tiny script is profiled end to end: its arguments, its current
directory, the trace (ops with shapes and dtypes, the machine at the top level),
the analysis (--json: the object `roofline trace TRACE --json` prints, or the
command's own refusal), a script that raises or exits non-zero, and the two
writers (the profiler's event tree, prof.events()) agreeing op by op."""
import csv
import gzip
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
# Without a device the analysis of a CPU profile measures this machine, and two
# measurements (the module's, the command's) differ; a measured row of another CPU or
# thread count is refused. So the tests analyse with one fixed row of this machine:
# tests/data/hw_cpu.csv's 1-thread figures under this machine's CPU identity (as the
# trace records it, roofline.profile.cpu_info) and torch's thread count. Its figures
# are the development machine's: these tests check the plumbing (module == command),
# not the roofs, which bench/cpu-truth checks on the machine itself.
HW_CPU = os.path.join(ROOT, "tests", "data", "hw_cpu.csv")

try:
    import torch
except ImportError:  # make check-torch installs it or skips before running this file
    sys.stderr.write(f"test_profile_torch: {sys.executable} has no PyTorch (python3-torch)\n")
    sys.exit(2)

SCRIPT = """\
import json, sys, torch
n = int(sys.argv[1])
a = torch.ones(n, n)
b = torch.mm(a, a).relu()
with open("argv.json", "w") as f:  # in the current directory, as python3 would
    json.dump(sys.argv, f)
print("sum", float(b.sum()))
"""


def this_machine_row(path):
    """Write HW_CPU's test-zen5-1t row as this machine's measured row to path."""
    with open(HW_CPU, newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    head, row = rows[0], next(r for r in rows[1:] if r[0] == "test-zen5-1t")
    d = dict(zip(head, row))
    info = rp.cpu_info()
    d["id"], d["aliases"] = "this-machine", ""
    d["vendor"] = info["cpu_vendor"] or ""
    d["name"] = f"{(info['cpu_model'] or 'this machine')[:60]} (measured, {torch.get_num_threads()} threads)"
    src = d["source"].split("; CPUID family ")[0]
    if info["cpu_family"] is not None and info["cpu_model_id"] is not None:
        src += f"; CPUID family {info['cpu_family']} model {info['cpu_model_id']}"
    d["source"] = src
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerow([d[k] for k in head])


def load(path):
    with (gzip.open(path) if path.endswith(".gz") else open(path, "rb")) as f:
        return json.load(f)


def run_module(args, cwd):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "roofline.profile"] + args, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def ops(doc, name):
    return [e for e in doc["traceEvents"] if e.get("cat") == "cpu_op" and e["name"] == name]


class EndToEnd(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        os.mkdir(os.path.join(self.dir, "job"))
        with open(os.path.join(self.dir, "job", "tiny.py"), "w") as f:
            f.write(SCRIPT)
        self.hw = os.path.join(self.dir, "hw_this_machine.csv")
        this_machine_row(self.hw)
        self.hw_flags = ["--hw", "measured", "--hw-file", self.hw]

    def tearDown(self):
        self.tmp.cleanup()

    def cli(self, trace):
        r = subprocess.run([CLI, "trace", trace, "--json"] + self.hw_flags, capture_output=True, text=True,
                           cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)  # this machine's row fits its trace
        return r

    def test_json(self):
        r = run_module(["--json"] + self.hw_flags + ["job/tiny.py", "48", "--top", "x"], self.dir)
        with open(os.path.join(self.dir, "argv.json")) as f:
            self.assertEqual(json.load(f), ["job/tiny.py", "48", "--top", "x"])
        self.assertIn("sum 110592.0", r.stderr)  # the script's output, off standard output
        trace = os.path.join(self.dir, "job", "tiny.py.trace.json")  # next to the script
        doc = load(trace)
        mm = ops(doc, "aten::mm")
        self.assertEqual(len(mm), 1)
        self.assertEqual(mm[0]["args"]["Input Dims"], [[48, 48], [48, 48]])
        self.assertEqual(mm[0]["args"]["Input type"], ["float", "float"])
        self.assertGreater(mm[0]["dur"], 0)
        self.assertEqual(doc["intra_op_threads"], torch.get_num_threads())
        self.assertEqual(doc["pytorch_version"], torch.__version__)
        self.assertEqual(doc["logical_cpus"], os.cpu_count())
        self.assertTrue(doc["cpu_model"])
        cli = self.cli("job/tiny.py.trace.json")
        self.assertEqual((r.returncode, r.stdout.count("\n")), (0, 1), r.stderr)
        self.assertEqual(json.loads(r.stdout), json.loads(cli.stdout))
        self.assertEqual(json.loads(r.stdout)["hw"], "this-machine")
        # a refusal is the command's message, exit 2: a row of another thread count
        bad = ["--hw", "measured", "--hw-file", HW_CPU, "--threads", "3"]
        r = run_module(["--json"] + bad + ["job/tiny.py", "4"], self.dir)
        cli = subprocess.run([CLI, "trace", "job/tiny.py.trace.json", "--json"] + bad, capture_output=True,
                             text=True, cwd=self.dir)
        self.assertEqual((r.returncode, r.stdout, cli.returncode), (2, "", 2), r.stderr)
        self.assertTrue(r.stderr.endswith("roofline.profile: " + cli.stderr[len("roofline trace: "):]),
                        (r.stderr, cli.stderr))

    def test_text_and_gz(self):
        r = run_module(["-o", "t.json.gz"] + self.hw_flags + ["job/tiny.py", "8"], self.dir)
        trace = os.path.join(self.dir, "t.json.gz")
        self.assertEqual(len(ops(load(trace), "aten::mm")), 1)
        self.assertTrue(r.stdout.startswith("sum 512.0\n"), r.stdout)  # the script's, then the report
        cli = subprocess.run([CLI, "trace", trace] + self.hw_flags, capture_output=True, text=True)
        self.assertEqual((r.returncode, cli.returncode), (0, 0), (r.stderr, cli.stderr))
        self.assertIn(f"trace      {'t.json.gz'}", r.stdout)
        self.assertIn("coverage", r.stdout)

    def test_script_fails(self):
        with open(os.path.join(self.dir, "bad.py"), "w") as f:
            f.write("import torch\ntorch.ones(4).sum()\n\ndef f():\n    raise KeyError('boom')\nf()\n")
        r = run_module(["bad.py"], self.dir)
        self.assertEqual(r.returncode, 1)
        tb = r.stderr.splitlines()
        self.assertEqual(tb[0], "Traceback (most recent call last):")
        self.assertEqual(tb[1], '  File "bad.py", line 6, in <module>')  # the script's frames only
        self.assertEqual(tb[-2], "KeyError: 'boom'")
        self.assertEqual(tb[-1], "roofline.profile: bad.py failed (exit status 1); "
                                 "the trace of what ran: bad.py.trace.json")
        self.assertGreaterEqual(len(ops(load(os.path.join(self.dir, "bad.py.trace.json")), "aten::sum")), 1)
        with open(os.path.join(self.dir, "ex.py"), "w") as f:
            f.write("import sys\nsys.exit(3)\n")
        self.assertEqual(run_module(["ex.py"], self.dir).returncode, 3)
        with open(os.path.join(self.dir, "ok.py"), "w") as f:
            f.write("import sys\nimport torch\ntorch.ones(2, 2).sum()\nsys.exit(0)\n")
        r = run_module(["ok.py"], self.dir)
        self.assertNotIn("failed", r.stderr)


class Writers(unittest.TestCase):
    def test_tree_and_events_agree(self):
        x = torch.randn(32, 64)
        lin = torch.nn.Linear(64, 16)
        prof = rp.profiler(torch)
        with prof:
            lin(x).relu().sum().backward()
        docs = {src: rp.trace_document(prof, torch, source=src) for src in ("tree", "events")}
        keyed = {}
        for src, doc in docs.items():
            evs = [e for e in doc["traceEvents"] if e.get("cat") == "cpu_op"]
            keyed[src] = {e["args"]["External id"]: e for e in evs}
            self.assertGreater(len(evs), 10)
        # prof.events() drops an op nested in one of its own name (EventList._remove_dup_nodes:
        # aten::sum in aten::sum); the tree keeps both
        self.assertLessEqual(set(keyed["events"]), set(keyed["tree"]))
        names = {e["name"] for e in keyed["events"].values()}
        for k in set(keyed["tree"]) - set(keyed["events"]):
            self.assertIn(keyed["tree"][k]["name"], names)
        self.assertLessEqual(len(keyed["tree"]) - len(keyed["events"]), 2)
        base = {s: docs[s]["baseTimeNanoseconds"] for s in docs}
        for k, e in keyed["events"].items():
            t = keyed["tree"][k]
            self.assertEqual((t["name"], t["args"]["Input Dims"]), (e["name"], e["args"]["Input Dims"]))
            if "Input type" in e["args"]:
                self.assertEqual(t["args"]["Input type"], e["args"]["Input type"])
            # prof.events() has whole microseconds; the tree nanoseconds
            self.assertAlmostEqual(t["dur"], e["dur"], delta=1.001)
            self.assertAlmostEqual(base["tree"] / 1e3 + t["ts"], base["events"] / 1e3 + e["ts"], delta=1.001)
        addmm = [e for e in keyed["tree"].values() if e["name"] == "aten::addmm"]
        self.assertEqual(addmm[0]["args"]["Input Dims"][:3], [[16], [32, 64], [64, 16]])

    def test_write_trace(self):
        prof = rp.profiler(torch)
        with prof:
            torch.mm(torch.ones(8, 4), torch.ones(4, 2))
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("t.json", "t.json.gz"):
                path = rp.write_trace(prof, os.path.join(tmp, name), torch)
                doc = load(path)
                self.assertEqual(ops(doc, "aten::mm")[0]["args"]["Input Dims"], [[8, 4], [4, 2]])
                for k, v in rp.machine_metadata(torch).items():
                    self.assertEqual(doc[k], v, k)
            self.assertEqual(sorted(os.listdir(tmp)), ["t.json", "t.json.gz"])  # no temporary left


if __name__ == "__main__":
    unittest.main(verbosity=2)
