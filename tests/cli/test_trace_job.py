#!/usr/bin/env python3
"""test_trace_job.py -- `roofline trace DIR` over a synthesised distributed job.

The rank traces are written at test time by tests/make_job.py from the real
2024 DDP fixture (tests/fixtures/traces): rank and world size rewritten, a
little duration skew, one straggler whose collectives start late (the
others' last that much longer), and per-rank clock offsets. Checks:
  * the straggler is found, with the others' wait the synthesis put in;
  * clocks are aligned on the first collective and said so;
  * -j 1 and -j 2 print byte-identical output (text and JSON);
  * bad input: a missing rank, a duplicate rank, a disagreeing world size,
    different steps, a file that is no trace, a broken trace: each named,
    the rest still analysed, exit status 2 for the broken one;
  * make_job.py --repeat-steps: K times the collectives and the wait;
  * with --mpi BIN (build/roofline-mpi): `mpirun -n 2` prints exactly what
    one process prints (also with 3 processes for 2 files and threads in
    each, and with -j left to its default); a process bound to fewer CPUs
    than its workers (`mpirun -n 1 --bind-to core ... -j 2`) makes rank 0 say
    so in one line on stderr, stdout unchanged; a process that waits sleeps
    (its CPU time over 2 s of waiting); an unreadable file on one rank is
    a clear error; a rank that dies ends the run with an error, not a hang.
Ends with "N passed, M failed".
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402
from make_job import make_job  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIX = os.path.join(ROOT, "tests", "fixtures", "traces", "pytorch_kineto_2024_a100_ddp_nccl.json.gz")
DELAY_US = 300.0
N_COLL = 21  # NCCL all-reduce kernels in the fixture


def make(out, *extra):
    make_job(FIX, out, *extra)


def run(cmd, timeout=300):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def mpi_env():
    env = dict(os.environ)
    # Open MPI refuses root unless told; loopback only, more ranks than cores allowed
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_btl": "self,vader,tcp", "OMPI_MCA_btl_tcp_if_include": "lo",
                "OMPI_MCA_oob_tcp_if_include": "lo", "OMPI_MCA_rmaps_base_oversubscribe": "1"})
    return env


def mpirun(binary, n, args, timeout=300, wrap=None, stdin=None, mca=(), env=None, bind="none"):
    # --bind-to none unless told: Open MPI binds each of 2 or fewer processes to a
    # core, and roofline-mpi then says so on stderr where a machine has more cores
    cmd = ["mpirun", "-n", str(n), "--oversubscribe", "--bind-to", bind] + \
        [x for kv in mca for x in ("--mca",) + kv] + (wrap or []) + [binary] + args
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                       env=dict(mpi_env(), **(env or {})), input=stdin)
    return p.returncode, p.stdout, p.stderr


def waits_asleep(mb, trace):
    """(ok, detail): process 1's CPU time over 2 s while it waits for process 0"""
    p = subprocess.Popen(["mpirun", "-n", "2", "--oversubscribe", "--bind-to", "none", mb, "trace", "-"], cwd=ROOT,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=mpi_env())
    try:
        with open(trace, "rb") as f:
            p.stdin.write(f.read())  # returns once process 0 has read most of it
        p.stdin.flush()
        pid, deadline = None, time.monotonic() + 60
        while pid is None and time.monotonic() < deadline:
            for d in os.listdir("/proc"):
                try:
                    if d.isdigit() and b"OMPI_COMM_WORLD_RANK=1\0" in open("/proc/%s/environ" % d, "rb").read() \
                            and os.path.basename(os.readlink("/proc/%s/exe" % d)) == os.path.basename(mb) \
                            and open("/proc/%s/stat" % d).read().split(")")[1].split()[1] == str(p.pid):
                        pid = d
                except OSError:
                    pass
            time.sleep(0.1)
        if pid is None:
            return False, "process 1 not found"

        def cpu():
            f = open("/proc/%s/stat" % pid).read().split(")")[1].split()
            return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

        time.sleep(1.0)  # past MPI_Init and its empty input
        c0, t0 = cpu(), time.monotonic()
        time.sleep(2.0)
        used, wall = cpu() - c0, time.monotonic() - t0
        return used < 0.25, f"process 1 used {used:.2f} s of CPU in {wall:.2f} s of waiting"
    finally:
        p.stdin.close()
        p.stdout.read()
        p.stderr.read()
        p.wait(timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    ap.add_argument("--mpi", default="")
    a = ap.parse_args()
    rf = os.path.abspath(a.roofline)
    checks = Checks("FAIL ")
    check = checks.named

    # the documents against docs/schema/trace-job.json (generated from the
    # writer's field tables): valid, and between them every key it names
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run_cli_tests import Schemas
    schemas = Schemas()

    def valid(name, doc):
        m = schemas.check(doc)
        check(name + ".schema", m is None, m)

    tmp = tempfile.mkdtemp(prefix="rl-job-")
    try:
        job = os.path.join(tmp, "job")
        make(job, "--ranks", "3", "--straggler", "1", "--delay", str(DELAY_US), "--clock-offsets")
        rc, out, err = run([rf, "trace", job, "--json", "-j", "2"])
        check("job.exit", rc == 0 and not err, f"exit {rc} {err!r}")
        doc = json.loads(out) if rc == 0 else {}
        valid("job", doc)
        st = doc.get("stragglers", [])
        want = 2 * N_COLL * DELAY_US * 1e-6
        check("job.straggler", st and st[0]["rank"] == 1 and abs(st[0]["others_waited_s"] - want) < 1e-6 * 2 * N_COLL
              and st[0]["collectives"] == N_COLL, f"{st} want rank 1, {want} s")
        check("job.ranks", [r["rank"] for r in doc.get("ranks", [])] == [0, 1, 2], str(doc.get("ranks"))[:200])
        # make_job.py --repeat-steps K (bench/trace-scaling's big ranks): K times the
        # steps, the collectives and the straggler's wait, each copy still linked
        big = os.path.join(tmp, "big")
        make(big, "--ranks", "2", "--straggler", "1", "--delay", str(DELAY_US), "--clock-offsets",
             "--repeat-steps", "2")
        rc, out2, err = run([rf, "trace", big, "--json"])
        d2 = json.loads(out2) if rc == 0 else {}
        st2 = d2.get("stragglers", [])
        r0 = [r for r in doc.get("ranks", []) if r["rank"] == 0]
        b0 = [r for r in d2.get("ranks", []) if r["rank"] == 0]
        check("job.repeat_steps", rc == 0 and st2 and st2[0]["rank"] == 1
              and st2[0]["collectives"] == 2 * N_COLL and d2["job"]["collectives_matched"] == 2 * N_COLL
              and abs(st2[0]["others_waited_s"] - 2 * N_COLL * DELAY_US * 1e-6) < 1e-6 * 2 * N_COLL
              and r0 and b0 and abs(b0[0]["gpu_time_s"] / r0[0]["gpu_time_s"] - 2) < 1e-6
              and abs(b0[0]["coverage"] - r0[0]["coverage"]) < 1e-9,
              f"exit {rc} {err!r} {st2} {b0[:1]} against {r0[:1]}")
        check("job.aligned", doc.get("job", {}).get("clocks_aligned") is True
              and any("aligned on the end of the first collective" in n for n in doc.get("notes", [])),
              str(doc.get("notes")))
        check("job.keys", all(k in doc.get("ranks", [{}])[0] for k in
                              ("rank", "file", "idle_share", "compute_share", "non_compute_share", "overlap",
                               "gpu_time_s", "busy_share", "gain_s"))
              and len(doc.get("overlap", [])) == 3 and doc["job"]["busbw"] > 0
              and doc["job"]["busbw_no_wait"] > doc["job"]["busbw"], str(doc.get("job")))
        # --csv: a record per rank, base units, the JSON's figures
        rc, csv_out, err = run([rf, "trace", job, "--csv", "-j", "2"])
        import csv as csvmod, io, math
        recs = list(csvmod.DictReader(io.StringIO(csv_out))) if rc == 0 else []
        pairs = (("gpu_time_s", "gpu_time_s"), ("hta_span_s", "hta_span_s"), ("idle_fraction", "idle_share"),
                 ("compute_fraction", "compute_share"), ("overlap_fraction", "overlap"),
                 ("waited_s", "waited_s"), ("gain_s", "gain_s"), ("coverage_fraction", "coverage"))
        def same(cell, v):
            return (cell == "" and v is None) or (v is not None and math.isclose(float(cell), v, rel_tol=1e-12))
        check("job.csv", rc == 0 and len(recs) == 3 and all(
              int(rec["rank"]) == r["rank"] and rec["file"] == r["file"]
              and all(same(rec[c], r.get(k)) for c, k in pairs)
              for rec, r in zip(recs, doc.get("ranks", []))),
              f"exit {rc} {err!r} {recs[:1]} against {doc.get('ranks', [{}])[:1]}")
        # per collective kind and process group: busbw with and without the
        # wait, recomputed here from the straggler's own kernels in its file
        cols = doc.get("collectives", [])
        check("coll.sums", cols and sum(c["count"] for c in cols) == doc["job"]["collectives_matched"]
              and abs(sum(c["waited_s"] for c in cols) - doc["job"]["waited_s"]) < 1e-9,
              f"{cols} against {doc.get('job')}")
        one = json.loads(run([rf, "trace", os.path.join(job, "rank1.json"), "--json"])[1] or "{}")
        link = one.get("collectives", [{}])[0].get("link_bw")
        with open(os.path.join(job, "rank1.json")) as f:
            mine = [e for e in json.load(f)["traceEvents"] if e.get("cat") == "kernel"
                    and e.get("name", "").startswith("ncclKernel")]
        for c in cols:
            ks = [e for e in mine if e["args"].get("Collective name", "").replace("_", "") == c["kind"]]
            n = ks[0]["args"]["Group size"] if ks else 0
            fac = {"allreduce": 2 * (n - 1) / n, "broadcast": 1}.get(c["kind"], 0) if n else 0
            size = {"Float": 4, "Int": 4, "Long": 8}
            bus = sum(fac * e["args"]["In msg nelems"] * size.get(e["args"]["dtype"], 0) for e in ks)
            t_last = sum(e["dur"] for e in ks) * 1e-6
            check("coll.%s.nowait" % c["kind"], len(ks) == c["count"] and bus > 0
                  and abs(c["busbw_no_wait"] - bus / t_last) < 1e-6 * c["busbw_no_wait"],
                  f"{c} against {len(ks)} kernels, {bus} B / {t_last} s")
            # the others' kernels lasted DELAY_US longer: the mean over 3 ranks
            t_mean = t_last + 2 * len(ks) * DELAY_US * 1e-6 / 3
            check("coll.%s.wait" % c["kind"], abs(c["busbw"] - bus / t_mean) < 1e-3 * c["busbw"]
                  and c["busbw_no_wait"] > c["busbw"] and c["last_rank"] == 1 and c["last_in"] == c["count"]
                  and link and c["link_bw"] == link, f"{c} want busbw {bus / t_mean}, link {link}")
        # a slow link: every rank's collectives twice as long, none waits:
        # busbw halves with and without the wait, no gap, no rank last
        slow = os.path.join(tmp, "slow")
        make(slow, "--ranks", "3", "--slow-link", "2")
        base = os.path.join(tmp, "base")
        make(base, "--ranks", "3")
        ds = json.loads(run([rf, "trace", slow, "--json"])[1] or "{}").get("collectives", [])
        db = json.loads(run([rf, "trace", base, "--json"])[1] or "{}").get("collectives", [])
        check("coll.slowlink", ds and len(ds) == len(db) and all(
              s_["busbw"] == s_["busbw_no_wait"] and s_["waited_s"] == 0
              and abs(s_["busbw"] - b_["busbw"] / 2) < 1e-6 * b_["busbw"]
              for s_, b_ in zip(sorted(ds, key=lambda c: c["kind"]), sorted(db, key=lambda c: c["kind"]))),
              f"{ds} against {db}")
        rc, txt, _ = run([rf, "trace", job])
        check("coll.text", "collectives by process group and kind" in txt and "a slow rank" in txt
              and "1 (15 of 15)" in txt, txt[-1500:])
        for fmt in ([], ["--json"]):
            r1 = run([rf, "trace", job, "-j", "1"] + fmt)
            r2 = run([rf, "trace", job, "-j", "2"] + fmt)
            check("job.threads" + "".join(fmt), r1 == r2 and r1[0] == 0, "-j 1 and -j 2 differ")
        # a glob and a list of files give the same analysis as the folder
        rg = run([rf, "trace", os.path.join(job, "rank*.json"), "--json"])
        rl = run([rf, "trace"] + [os.path.join(job, f"rank{i}.json") for i in range(3)] + ["--json"])
        check("job.glob", rg[1] == out and rl[1] == out, "glob or file list differs from the folder")

        # bad input: each named in one line, the rest analysed
        bad = os.path.join(tmp, "bad")
        make(bad, "--ranks", "5", "--drop", "3", "--dup", "0", "--world-of", "2=8", "--step-shift", "4")
        with open(os.path.join(bad, "README.txt"), "w") as f:
            f.write("not a trace\n")
        with open(os.path.join(bad, "rank0.json")) as f:
            text = f.read()
        with open(os.path.join(bad, "rank9_broken.json"), "w") as f:
            f.write(text[: len(text) // 2])
        rc, out, err = run([rf, "trace", bad, "--json"])
        doc = json.loads(out) if out else {}
        valid("bad", doc)
        notes = " | ".join(doc.get("notes", []))
        check("bad.exit", rc == 2, f"exit {rc}")
        check("bad.ranks", [r["rank"] for r in doc.get("ranks", [])] == [0, 1, 2, 4], str(doc.get("ranks"))[:200])
        for what, text_ in (("missing", "missing rank 3 of world size 5"), ("duplicate", "duplicate rank 0"),
                            ("world", "says 8"), ("steps", "different steps")):
            check("bad." + what, text_ in notes, notes)
        check("bad.skipped", "README.txt: skipped: not a trace" in err, err)
        check("bad.broken", "rank9_broken.json" in err and "truncated" in err
              and doc.get("failed", [{}])[0].get("file", "").endswith("rank9_broken.json"), err)
        # a file given by name that is no trace: skipped with a note, not a failure
        rc2, out2, err2 = run([rf, "trace", os.path.join(job, "rank0.json"), os.path.join(bad, "README.txt"),
                               "--json"])
        d2 = json.loads(out2) if out2 else {}
        check("bad.notrace", rc2 == 0 and d2.get("job", {}).get("failed") == 0
              and any("README.txt: not a Kineto trace, skipped" in n for n in d2.get("notes", [])),
              f"exit {rc2} {err2!r} {d2.get('notes')}")
        rc, out, err = run([rf, "trace", bad])
        check("bad.text", rc == 2 and "note       missing rank 3" in out and "per rank" in out, out[:300])
        # CPU profiles are analysed alone (roofline trace FILE): a job of them is refused in one
        # line, nothing on standard output; beside a GPU rank, each is a failed file
        cpu = [os.path.join(ROOT, "tests", "fixtures", "traces", "pytorch_cpu_%s.json.gz" % m)
               for m in ("cnn", "mlp")]
        rc, out, err = run([rf, "trace"] + cpu)
        check("bad.cpu_only", rc == 2 and out == "" and err.count("\n") == 1
              and "pytorch_cpu_cnn.json.gz: a CPU profile (cpu_ops, no GPU kernels)" in err
              and "analyse it alone" in err and "(and 1 other file)" in err, f"exit {rc} {err!r}")
        rc, out, err = run([rf, "trace", os.path.join(job, "rank0.json")] + cpu[:1] + ["--json"])
        d3 = json.loads(out) if out else {}
        check("bad.cpu_beside_gpu", rc == 2 and d3.get("job", {}).get("failed") == 1
              and "pytorch_cpu_cnn.json.gz: a CPU profile" in err, f"exit {rc} {err!r}")

        # trace DIR --model: every rank's MoE ops take their experts from the model (the B200
        # vLLM rank, gpt-oss-120b: its moe_forward's 6.08 ms under a roof), and a model the
        # rank contradicts fails that rank, naming both expert counts
        moe = os.path.join(tmp, "moe")
        os.makedirs(moe)
        shutil.copy(os.path.join(ROOT, "tests", "fixtures", "traces", "pytorch_kineto_2026_b200_vllm_custom_ops.json.gz"),
                    os.path.join(moe, "rank0.json.gz"))
        cov = {}
        for m in (None, "gpt-oss-120b"):
            rc, out, err = run([rf, "trace", moe, "--json"] + (["--model", m] if m else []))
            d4 = json.loads(out) if rc == 0 else {}
            cov[m] = (d4.get("ranks") or [{}])[0].get("coverage")
        check("moe.job", cov[None] is not None and abs(cov[None] - 0.4782) < 1e-3 and cov["gpt-oss-120b"] is not None
              and abs(cov["gpt-oss-120b"] - 0.9992) < 1e-3, str(cov))
        rc, out, err = run([rf, "trace", moe, "--model", "gpt-oss-20b"])
        check("moe.job_experts", rc == 2 and "router logits over 128 experts, but --model gpt-oss-20b has 32" in err
              and err.count("\n") == 1, f"exit {rc} {err!r}")
        rc, out, err = run([rf, "trace", moe, "--model", "llama3-8b"])
        check("moe.job_dense", rc == 2 and out == "" and "is dense (no experts)" in err, f"exit {rc} {err!r}")

        if a.mpi:
            mb = os.path.abspath(a.mpi)
            for fmt in ([], ["--json"]):
                one = run([rf, "trace", job, "-j", "1"] + fmt)
                two = mpirun(mb, 2, ["trace", job, "-j", "1"] + fmt)
                check("mpi.identical" + "".join(fmt), two[0] == 0 and two[1] == one[1],
                      f"exit {two[0]} {two[2][-400:]!r}")
            # the files go one at a time to whichever worker is free (a counter in
            # process 0's memory): more processes than files, and threads in each
            pair = [os.path.join(job, "rank%d.json" % i) for i in (0, 1)]
            one = run([rf, "trace"] + pair + ["--json"])
            more = mpirun(mb, 3, ["trace"] + pair + ["-j", "2", "--json"])
            check("mpi.more_processes", more[0] == 0 and more[1] == one[1], f"exit {more[0]} {more[2][-400:]!r}")
            # the counter through Open MPI's point-to-point one-sided layer (osc/pt2pt, as
            # across nodes over TCP), where process 0's progress thread answers the fetches
            pt = mpirun(mb, 3, ["trace"] + pair + ["-j", "2", "--json"], mca=[("osc", "pt2pt")])
            check("mpi.osc_pt2pt", pt[0] == 0 and pt[1] == one[1], f"exit {pt[0]} {pt[2][-400:]!r}")
            # the one-node settings README.md recommends (docs/performance.md, "Open MPI's
            # fixed cost"): Open MPI's own point-to-point layer (ob1; the counter then goes
            # through osc/sm or osc/rdma, not UCX's), PMIx's job data in each process,
            # hwloc without I/O discovery
            fast = mpirun(mb, 2, ["trace", job, "-j", "1", "--json"], mca=[("pml", "ob1")],
                          env={"PMIX_MCA_gds": "hash", "HWLOC_COMPONENTS": "-pci,-linuxio",
                               "HWLOC_PLUGINS_BLACKLIST": "hwloc_pci,hwloc_gl,hwloc_opencl,hwloc_xml_libxml"})
            one = run([rf, "trace", job, "-j", "1", "--json"])
            check("mpi.one_node_settings", fast[0] == 0 and fast[1] == one[1] and not fast[2],
                  f"exit {fast[0]} {fast[2][-400:]!r}")
            # ob1 with TCP alone, as between nodes (the settings kept across nodes)
            tcp = mpirun(mb, 2, ["trace", job, "-j", "1", "--json"], mca=[("pml", "ob1"), ("btl", "self,tcp")],
                         env={"PMIX_MCA_gds": "hash"})
            check("mpi.ob1_tcp", tcp[0] == 0 and tcp[1] == one[1], f"exit {tcp[0]} {tcp[2][-400:]!r}")
            one = run([rf, "trace", job, "-j", "1"])
            dflt = mpirun(mb, 2, ["trace", job])
            check("mpi.default_threads", dflt[0] == 0 and dflt[1] == one[1], f"exit {dflt[0]} {dflt[2][-400:]!r}")
            # a process bound to fewer CPUs than it runs workers (Open MPI binds 2 or
            # fewer processes to a core each): rank 0 says so, one line for the whole
            # job, naming the fix; stdout and exit status as without the binding
            if len(os.sched_getaffinity(0)) < 2:
                print("  mpi.binding: skipped: this process may use 1 CPU, where a process bound "
                      "to one core has them all")
            else:
                one = run([rf, "trace", job, "-j", "2", "--json"])
                bound = mpirun(mb, 1, ["trace", job, "-j", "2", "--json"], bind="core")
                free = mpirun(mb, 1, ["trace", job, "-j", "2", "--json"], bind="none")
                two = mpirun(mb, 2, ["trace", job, "-j", "2", "--json"], bind="core")
                lines = [ln for ln in bound[2].splitlines() if ln.startswith("roofline-mpi:")]
                check("mpi.binding_warns", bound[0] == 0 and len(lines) == 1 and "rank 0 is bound to 1 CPU of" in lines[0]
                      and "runs 2 workers" in lines[0] and "--bind-to none" in lines[0], f"exit {bound[0]} {bound[2]!r}")
                check("mpi.binding_none", free[0] == 0 and "roofline-mpi:" not in free[2], f"exit {free[0]} {free[2]!r}")
                check("mpi.binding_stdout", bound[1] == free[1] == two[1] == one[1], "stdout differs with the binding")
                check("mpi.binding_one_line", two[0] == 0 and two[2].count("roofline-mpi:") == 1
                      and " is bound to 1 CPU of" in two[2], f"exit {two[0]} {two[2]!r}")
            # a process that waits sleeps (Open MPI's blocking calls poll on a core):
            # process 0 reads standard input, which stays open; process 1, done at
            # once (its input is empty), waits for process 0's exit status. Its CPU
            # time over 2 s of that wait: a poll takes what the core gives it (0.8 s
            # under a load average of 9 on 2 cores), the sleeping wait 0.04 s
            check("mpi.waits_asleep", *waits_asleep(mb, os.path.join(job, "rank0.json")))
            # standard input (issue 30): `zcat T | mpirun -n 2 roofline-mpi trace -` prints
            # what one process prints, exit 0 (process 0 reads it; the others find theirs empty)
            with open(os.path.join(job, "rank0.json")) as f:
                text = f.read()
            one = subprocess.run([rf, "trace", "-"], input=text, capture_output=True, text=True, cwd=ROOT)
            two = mpirun(mb, 2, ["trace", "-"], stdin=text)
            check("mpi.stdin", one.returncode == 0 and two[0] == 0 and two[1] == one.stdout and not two[2],
                  f"exit {two[0]} {two[2][-300:]!r}")
            # the bad job over MPI: same report, same exit status
            one = run([rf, "trace", bad, "--json"])
            two = mpirun(mb, 2, ["trace", bad, "--json"])
            check("mpi.bad", two[0] == 2 and two[1] == one[1] and "rank9_broken.json" in two[2],
                  f"exit {two[0]} {two[2][-300:]!r}")
            # a file unreadable on one node: a clear error naming it, the rest analysed
            un = os.path.join(tmp, "unreadable")
            shutil.copytree(job, un)
            bad2 = os.path.join(un, "rank2.json")
            os.chmod(bad2, 0)
            if os.geteuid() == 0:  # root reads any file: make its content unreadable instead
                with open(bad2, "w") as f:
                    f.write('{"traceEvents": [')
            two = mpirun(mb, 2, ["trace", un])
            check("mpi.unreadable", two[0] == 2 and "rank2.json" in two[2] and "per rank" in two[1],
                  f"exit {two[0]} {two[2][-300:]!r}")
            # a rank that dies mid-run: rank 1 is stopped as it starts and killed after 2 s
            # while rank 0 waits for it: an error, no hang (a FIFO no longer stalls a rank:
            # the reader skips what is not a regular file)
            wrap = ["sh", "-c", 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then "$0" "$@" & p=$!; '
                                'kill -STOP $p; sleep 2; kill -KILL $p; wait $p; exit $?; '
                                'else exec "$0" "$@"; fi']
            files = [os.path.join(job, f"rank{i}.json") for i in range(3)]
            try:
                two = mpirun(mb, 2, ["trace"] + files, timeout=120, wrap=wrap)
                check("mpi.rank_dies", two[0] != 0 and two[2].strip() != "", f"exit {two[0]}")
            except subprocess.TimeoutExpired:
                check("mpi.rank_dies", False, "mpirun hung after a rank died")
        unseen = [u for u in schemas.unseen() if "/trace-job.json" in u]
        check("schema.keys", not unseen, "no document holds " + ", ".join(unseen))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"trace job: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
