#!/usr/bin/env python3
"""test_trace_agree.py -- one reader, one analysis: `roofline trace FILE` and
`roofline trace DIR` say the same of the same rank, and the invariants every
trace report keeps.

For every Kineto file among the fixtures (tests/fixtures/traces, its bad/
files that read, tests/fixtures/hostile):
  * a folder holding a link to it, read as a job of one rank: every key the
    job's rank record shares with the single file's --json document has the
    same value (a key of the same name must mean the same thing);
  * the rank's idle kinds sum to its idle time, and its host wait is at most
    its span;
  * the single file's collectives: busbw at most the link's (one direction
    of the interconnect) x 1.05;
  * every invariant of tests/trace_invariants.py, on the file's JSON and text
    (the idle headline) and on the job's JSON.
For each fixture with collectives, a job of 3 identical ranks made by
tests/make_job.py (--skew 0): per collective kind, the job's bytes (the
sum of the message sizes S) equal those of `trace FILE` on one of its ranks
(in 2023-era traces, whose NCCL kernels carry no size, the all-to-alls are
costed from their nccl:all_to_all op by both), and its busbw stays under the
link. Ends with "N passed, M failed".
"""
import argparse
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402
from make_job import make_job  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from trace_invariants import invariants  # noqa: E402
TRACES = os.path.join(ROOT, "tests", "fixtures", "traces")
HOSTILE = os.path.join(ROOT, "tests", "fixtures", "hostile")
# the device for files that name none (the same as docs/trace.md gives them)
HW_FOR = {"pytorch_kineto_2023_ddp128_sampled_input_dims.json.gz": "a100-sxm4-80gb",
          "pytorch_kineto_2024_mi250_rocm6.2_foreach_shapes.json.gz": "amd-mi250x"}
# the job's rank record says more than a single file: its own keys
JOB_ONLY = {"rank", "file", "steps", "clock_offset_s", "waited_s", "others_waited_s"}


def kineto_files():
    out = []
    for d in (TRACES, os.path.join(TRACES, "bad"), HOSTILE):
        for p in sorted(glob.glob(os.path.join(d, "*.json")) + glob.glob(os.path.join(d, "*.json.gz"))):
            # CPU profiles (pytorch_cpu_*, their cuts): trace FILE analyses their ops,
            # a job (trace DIR) the GPU kernels of its ranks only
            if os.path.basename(p).startswith(("pytorch_cpu_", "cut_cpu_")):
                continue
            out.append(p)
    return out


def run(cmd, timeout=600):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)
    return a == b


def by_kind(colls, bytes_of):
    """per collective kind: [count of sized ones, sum of S]"""
    out = {}
    for c in colls:
        k = out.setdefault(c["kind"], [0, 0.0])
        b = bytes_of(c)
        if b:
            k[0] += c["count"]
            k[1] += b
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    a = ap.parse_args()
    rf = os.path.abspath(a.roofline)
    checks = Checks("FAIL ")
    check = checks.named

    tmp = tempfile.mkdtemp(prefix="rl-agree-")
    try:
        with_coll = []
        for path in kineto_files():
            base = os.path.basename(path)
            hw = ["--hw", HW_FOR[base]] if base in HW_FOR else []
            rc, out, err = run([rf, "trace", path, "--json"] + hw)
            if rc != 0:
                continue  # a file the reader refuses is no rank either (test_trace_job, errors.golden)
            one = json.loads(out)
            # issue 24's invariants of every report, the text's idle headline included
            rc, text, err = run([rf, "trace", path] + hw)
            msgs = invariants(one, text if rc == 0 else None)
            check(f"{base}.invariants", rc == 0 and not msgs, f"exit {rc}; " + "; ".join(msgs))
            d = os.path.join(tmp, base.replace(".", "_"))
            os.makedirs(d)
            os.symlink(path, os.path.join(d, "rank0" + (".json.gz" if base.endswith(".gz") else ".json")))
            rc, jout, jerr = run([rf, "trace", d, "--json", "-j", "1"] + hw)
            check(f"{base}.job_exit", rc == 0, f"exit {rc} {jerr.strip()!r}")
            if rc != 0:
                continue
            job = json.loads(jout)
            check(f"{base}.job_invariants", not invariants(job), "; ".join(invariants(job)))
            check(f"{base}.one_rank", len(job["ranks"]) == 1, f"{len(job['ranks'])} ranks")
            r = job["ranks"][0]
            shared = [k for k in r if k in one and k not in JOB_ONLY]
            check(f"{base}.shared_keys", len(shared) >= 10, f"only {shared}")
            for k in shared:
                check(f"{base}.{k}", same(r[k], one[k]), f"job {r[k]!r}, file {one[k]!r}")
            # one count of collective kernels under two names: those launched before the window
            # (no size, not in the collectives table) in both (the 2023 DDP file's 5 of its 80)
            check(f"{base}.collectives", r["job_collectives"] == one["collective_kernels"],
                  f"job {r['job_collectives']}, file {one['collective_kernels']}")
            # the rank's idle time by kind: a partition of its idle time
            kinds = r["idle_host_wait_s"] + r["idle_kernel_wait_s"] + r["idle_other_s"]
            check(f"{base}.idle_kinds_sum", math.isclose(kinds, r["hta_idle_s"], rel_tol=1e-9, abs_tol=1e-12),
                  f"{kinds} != idle {r['hta_idle_s']}")
            check(f"{base}.host_wait<=span", r["idle_host_wait_s"] <= r["hta_span_s"] * (1 + 1e-12),
                  f"host wait {r['idle_host_wait_s']} > span {r['hta_span_s']}")
            for c in one["collectives"]:
                if c["busbw"] is not None and c["link_bw"]:
                    check(f"{base}.busbw<=link", c["busbw"] <= c["link_bw"] * 1.05,
                          f"{c} above the link x 1.05")
            if any(c["msg_bytes"] for c in one["collectives"]):
                with_coll.append((path, hw))
        check("fixtures_with_collectives", len(with_coll) >= 2, f"{with_coll}")
        # the other formats' fixtures (Nsight Systems, Nsight Compute): the invariants
        others = 0
        for d in (TRACES, os.path.join(TRACES, "bad"), HOSTILE):
            for path in sorted(glob.glob(os.path.join(d, "*.sqlite")) + glob.glob(os.path.join(d, "ncu*.csv"))):
                hw = ["--hw", "a100-80gb"]  # Nsight Compute exports name no device
                rc, out, err = run([rf, "trace", path, "--json"] + hw)
                if rc != 0:
                    continue  # refused (errors.golden)
                rc, text, err = run([rf, "trace", path] + hw)
                msgs = invariants(json.loads(out), text if rc == 0 else None)
                check(f"{os.path.basename(path)}.invariants", not msgs, "; ".join(msgs))
                others += 1
        check("other_formats", others >= 3, f"{others} non-Kineto fixtures read")
        # a job of identical ranks: the job's collectives are the single file's
        for path, hw in with_coll:
            base = os.path.basename(path)
            d = os.path.join(tmp, "job_" + base.replace(".", "_"))
            make_job(path, d, "--ranks", "3", "--skew", "0")
            rank0 = sorted(glob.glob(os.path.join(d, "rank0*")))[0]
            rc, out, err = run([rf, "trace", rank0, "--json"] + hw)
            check(f"job.{base}.rank0_exit", rc == 0, err.strip())
            rc2, jout, jerr = run([rf, "trace", d, "--json", "-j", "1"] + hw)
            check(f"job.{base}.exit", rc2 == 0, jerr.strip())
            if rc or rc2:
                continue
            one, job = json.loads(out), json.loads(jout)
            check(f"job.{base}.invariants", not invariants(job) and not invariants(one),
                  "; ".join(invariants(job) + invariants(one)))
            # one name for one thing: kind and bytes (the sum of S) in both
            mine = by_kind(one["collectives"], lambda c: c["bytes"] or 0)
            theirs = by_kind(job["collectives"], lambda c: c["bytes"] or 0)
            for k in sorted(set(mine) | set(theirs)):
                m, t = mine.get(k, [0, 0.0]), theirs.get(k, [0, 0.0])
                check(f"job.{base}.{k}.bytes", math.isclose(m[1], t[1], rel_tol=1e-9),
                      f"file {m[1]}, job {t[1]}")
            # busbw over the sized collectives: sum(factor x S) / time, as both compute it
            gains = []
            for c in job["collectives"]:
                if c["busbw"] is not None and c["link_bw"]:
                    check(f"job.{base}.busbw<=link", c["busbw_no_wait"] <= c["link_bw"] * 1.05, f"{c}")
                    # the transfer's gain: its time without the wait above its time at the roof
                    check(f"job.{base}.gain", c["gain_s"] is not None and math.isclose(
                        c["gain_s"], max(0.0, c["no_wait_s"] - c["at_roof_s"]), rel_tol=1e-9, abs_tol=1e-12)
                        and c["gain_s"] <= c["no_wait_s"], f"{c}")
                    gains.append(c["gain_s"])
            check(f"job.{base}.ranked_by_gain", gains == sorted(gains, reverse=True), f"{gains}")
            for r in job["ranks"]:
                check(f"job.{base}.host_wait<=span", r["idle_host_wait_s"] <= r["hta_span_s"],
                      f"rank {r['rank']}: {r['idle_host_wait_s']} > {r['hta_span_s']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
