#!/usr/bin/env python3
"""make_job.py -- a distributed job's rank traces, synthesised from one real
single-rank Kineto trace (tests/fixtures/traces), for the job tests and
bench/trace-scaling.

Each rank r gets a copy of the trace with
  * distributedInfo.rank = r and world_size = N (--world overrides N);
  * skew: every GPU event's duration scaled by 1 + u, u uniform in
    [-skew, +skew] per rank and kernel name (seeded, reproducible);
  * the straggler (--straggler R): each of its collective kernels starts
    --delay microseconds later, and every other rank's matching collective
    lasts that much longer (they wait for it; all end together);
  * a slow link (--slow-link F): every rank's collective kernels last F
    times longer, all starting together (no rank waits for another);
  * clock offsets (--clock-offsets, Kineto 2024 traces with
    baseTimeNanoseconds): rank r's timestamps shifted by r x 1.7 s and its
    baseTimeNanoseconds moved back by the same, as on another host;
  * bigger ranks (--repeat-steps K): the fixture's events K times in a row,
    copy c shifted by c x (its span + 1 ms) in time, its correlation,
    External id, Record function id and flow ids by c x (the largest + 1),
    its ProfilerStep#N numbered on (N + c x steps): K times the steps,
    kernels and bytes of one rank (bench/trace-scaling's 8-rank job of
    500 MB: K = 8 over the 2024 fixture's 8.6 MB).
Bad inputs for the tests: --drop R (a missing rank), --dup R (a second file
claiming rank R), --world-of R=W (rank R says world size W), --step-shift R
(rank R's ProfilerStep numbers + 1).

usage: make_job.py FIXTURE OUTDIR --ranks N [--straggler R] [--delay US]
       [--skew F] [--slow-link F] [--clock-offsets] [--repeat-steps K] [--gz]
       [--drop R] [--dup R] [--world-of R=W] [--step-shift R]

From a test: `from make_job import make_job; make_job(FIXTURE, OUTDIR,
"--ranks", "3", ...)` (the same arguments, in-process).
"""
import argparse
import gzip
import json
import os
import random
import re


def is_comm(name):
    return name.startswith("nccl") or "ncclKernel" in name


ID_ARGS = ("correlation", "External id", "Record function id")


def repeat_steps(events, k):
    """The events k times in a row: copy c shifted in time by c spans (+ 1 ms),
    in ids by c x (the largest id + 1), its profiler steps numbered on; the
    metadata events (ph M) once"""
    if k <= 1:
        return events
    ts = [e["ts"] for e in events if isinstance(e.get("ts"), (int, float)) and e.get("ph") != "M"]
    span = max(e["ts"] + e.get("dur", 0) for e in events
               if isinstance(e.get("ts"), (int, float)) and e.get("ph") != "M") - min(ts) + 1000.0
    ids = [e["args"][n] for e in events if isinstance(e.get("args"), dict)
           for n in ID_ARGS if isinstance(e["args"].get(n), int)]
    ids += [e["id"] for e in events if e.get("ph") in ("s", "f", "t") and isinstance(e.get("id"), int)]
    idk = 1 + max(ids + [0])
    steps = [int(m.group(1)) for e in events for m in [re.match(r"ProfilerStep#(\d+)$", e.get("name", ""))] if m]
    nsteps = max(steps) - min(steps) + 1 if steps else 0
    out = list(events)
    for c in range(1, k):
        for e in events:
            if e.get("ph") == "M" or not isinstance(e.get("ts"), (int, float)):
                continue
            e = dict(e)
            e["ts"] = round(e["ts"] + c * span, 3)
            if isinstance(e.get("args"), dict) and any(isinstance(e["args"].get(n), int) for n in ID_ARGS):
                e["args"] = dict(e["args"])
                for n in ID_ARGS:
                    if isinstance(e["args"].get(n), int):
                        e["args"][n] += c * idk
            if e.get("ph") in ("s", "f", "t") and isinstance(e.get("id"), int):
                e["id"] += c * idk
            m = re.match(r"ProfilerStep#(\d+)$", e.get("name", ""))
            if m:
                e["name"] = "ProfilerStep#%d" % (int(m.group(1)) + c * nsteps)
            out.append(e)
    return out


def make_job(fixture, outdir, *args):
    """Write the job's rank traces: make_job.py FIXTURE OUTDIR ARGS..."""
    main([fixture, outdir] + [str(x) for x in args])


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("fixture")
    ap.add_argument("outdir")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--world", type=int, default=0)
    ap.add_argument("--straggler", type=int, default=-1)
    ap.add_argument("--delay", type=float, default=300.0)
    ap.add_argument("--skew", type=float, default=0.02)
    ap.add_argument("--slow-link", type=float, default=1.0)
    ap.add_argument("--clock-offsets", action="store_true")
    ap.add_argument("--repeat-steps", type=int, default=1)
    ap.add_argument("--gz", action="store_true")
    ap.add_argument("--drop", type=int, default=-1)
    ap.add_argument("--dup", type=int, default=-1)
    ap.add_argument("--world-of", default="")
    ap.add_argument("--step-shift", type=int, default=-1)
    a = ap.parse_args(argv)
    opener = gzip.open if a.fixture.endswith(".gz") else open
    with opener(a.fixture, "rt") as f:
        doc = json.load(f)
    os.makedirs(a.outdir, exist_ok=True)
    world = a.world or a.ranks
    wof = {}
    if a.world_of:
        r, w = a.world_of.split("=")
        wof[int(r)] = int(w)
    events = repeat_steps(doc["traceEvents"], a.repeat_steps)
    comm_idx = [i for i, e in enumerate(events)
                if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel")
                and is_comm(e.get("name", ""))]
    base = doc.get("baseTimeNanoseconds")
    targets = list(range(a.ranks))
    if a.dup >= 0:
        targets.append(a.dup)
    for k, r in enumerate(targets):
        if r == a.drop:
            continue
        rng = random.Random(1000 + r)
        d = dict(doc)
        di = dict(doc.get("distributedInfo", {"backend": "nccl"}))
        di["rank"] = r
        di["world_size"] = wof.get(r, world)
        d["distributedInfo"] = di
        shift = 1.7e6 * r if a.clock_offsets else 0.0
        if a.clock_offsets and base is not None:
            d["baseTimeNanoseconds"] = int(base - shift * 1000)
        factor = {}
        out = []
        comm = set(comm_idx)
        for i, e in enumerate(events):
            if "ts" not in e:
                out.append(e)
                continue
            e = dict(e)
            if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel", "gpu_memcpy", "gpu_memset"):
                if i in comm:
                    e["dur"] = e["dur"] * a.slow_link
                    if r == a.straggler:
                        e["ts"] = e["ts"] + a.delay
                    elif a.straggler >= 0:
                        e["dur"] = e["dur"] + a.delay
                else:
                    f = factor.setdefault(e.get("name"), 1 + rng.uniform(-a.skew, a.skew))
                    e["dur"] = e["dur"] * f
                    if isinstance(events[i]["dur"], int):
                        e["dur"] = int(round(e["dur"]))
            if r == a.step_shift and e.get("name", "").startswith("ProfilerStep#"):
                m = re.match(r"ProfilerStep#(\d+)", e["name"])
                e["name"] = "ProfilerStep#%d" % (int(m.group(1)) + 1)
            if shift:
                e["ts"] = e["ts"] + shift
            out.append(e)
        d["traceEvents"] = out
        name = "rank%d%s.json" % (r, "_dup" if k >= a.ranks else "")
        path = os.path.join(a.outdir, name + (".gz" if a.gz else ""))
        text = json.dumps(d)  # ", " and ": " as Kineto writes (HTA finds "rank": N so)
        if a.gz:
            with gzip.open(path, "wt", compresslevel=1) as f:
                f.write(text)
        else:
            with open(path, "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
