#!/usr/bin/env python3
"""test_trace_idle.py -- the GPU's idle time as the headline (issue 24).

For every Kineto fixture with kernel times (tests/fixtures/traces), the idle
record of `roofline trace FILE --json` recomputed here from the file's own
events: the union of its GPU events (kernel, gpu_memcpy, gpu_memset; their
ts and dur; those of zero duration time nothing), its gaps, the 5 largest (start from the first event's start,
length), the share idle / span and the headline (share >= 0.2, printed before
the kernel tables). Each host op named in a gap is a cpu_op or
user_annotation of that name whose calls overlap the gap by at least the time
given (the tool sums one level of nesting, a subset of them). On the 2024 DDP
fixture the first gap's ops are checked exactly: aten::narrow's calls inside
it, summed. Ends with "N passed, M failed".
"""
import argparse
import glob
import gzip
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = os.path.join(ROOT, "tests", "fixtures", "traces")
HW_FOR = {"pytorch_kineto_2023_ddp128_sampled_input_dims.json.gz": "a100-sxm4-80gb",
          "pytorch_kineto_2024_mi250_rocm6.2_foreach_shapes.json.gz": "amd-mi250x"}
GPU = {"kernel", "Kernel", "gpu_memcpy", "gpu_memset", "Memcpy", "Memset"}
HOST = {"cpu_op", "user_annotation", "Operator"}


def events(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    ev = doc["traceEvents"] if isinstance(doc, dict) else doc
    return [e for e in ev if e.get("ph") == "X" and "ts" in e and "dur" in e]


def gaps_of(ev):
    """(first start, span, idle, [(start from first, length)] largest first), seconds"""
    # a duration under 1 ps (0: a timer's rounding) times nothing: no such event ends a gap
    # (the tool's zero_duration_untimed)
    iv = sorted((float(e["ts"]), float(e["ts"]) + float(e["dur"])) for e in ev
                if e.get("cat") in GPU and float(e["dur"]) >= 1e-6)
    if not iv:
        return None
    first, (cs, ce) = iv[0][0], iv[0]
    busy, gaps = 0.0, []
    for s, e in iv[1:]:
        if s > ce:
            busy += ce - cs
            gaps.append((ce - first, s - ce))
            cs, ce = s, e
        else:
            ce = max(ce, e)
    busy += ce - cs
    span = ce - first
    gaps.sort(key=lambda g: (-g[1], g[0]))
    return first, span * 1e-6, (span - busy) * 1e-6, [(a * 1e-6, b * 1e-6) for a, b in gaps[:5]]


def overlap_of(ev, name, g0, g1):
    """the calls of host op `name` inside [g0, g1] (us), summed, in seconds"""
    return sum(max(0.0, min(g1, e["ts"] + e["dur"]) - max(g0, e["ts"])) for e in ev
               if e.get("cat") in HOST and e.get("name") == name) * 1e-6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    rf = os.path.abspath(ap.parse_args().roofline)
    checks = Checks("FAIL ")
    check = checks.named

    # absolute Kineto timestamps (1e12 us with fractional ns) in doubles: a few ns of rounding here
    close = lambda a, b: math.isclose(a, b, rel_tol=1e-6, abs_tol=5e-8)  # noqa: E731
    headlines = 0
    for path in sorted(glob.glob(os.path.join(TRACES, "pytorch_kineto_*.json.gz"))):
        base = os.path.basename(path)
        hw = ["--hw", HW_FOR[base]] if base in HW_FOR else []
        p = subprocess.run([rf, "trace", path, "--json"] + hw, capture_output=True, text=True)
        check(f"{base}.exit", p.returncode == 0, p.stderr.strip())
        if p.returncode:
            continue
        doc = json.loads(p.stdout)
        idle = doc["idle"]
        if doc["span_s"] is None:  # no kernel times (CUPTI range profiler)
            check(f"{base}.no_span", idle["share"] is None and not idle["gaps"] and not idle["headline"], str(idle))
            continue
        ev = events(path)
        first, span, idl, gaps = gaps_of(ev)
        check(f"{base}.span", close(doc["span_s"], span) and close(doc["idle_s"], idl),
              f"{doc['span_s']} {doc['idle_s']} against {span} {idl}")
        check(f"{base}.share", math.isclose(idle["share"], idl / span if span else 0, rel_tol=1e-6, abs_tol=1e-3),
              f"{idle['share']}")
        check(f"{base}.headline", idle["headline"] == (idl / span >= 0.2 if span else False), str(idle["headline"]))
        # gaps of a microsecond or more (the order of ns-long ones is rounding's)
        got = [(g["start_s"], g["length_s"]) for g in idle["gaps"] if g["length_s"] >= 1e-6]
        gaps = [g for g in gaps if g[1] >= 1e-6]
        check(f"{base}.gaps", len(got) == len(gaps) and all(close(a, c) and close(b, d)
                                                           for (a, b), (c, d) in zip(got, gaps)),
              f"{got} against {gaps}")
        check(f"{base}.host_ops", idle["host_ops"] == any(e.get("cat") in HOST for e in ev), str(idle["host_ops"]))
        for g in idle["gaps"]:
            g0 = first + g["start_s"] * 1e6
            g1 = g0 + g["length_s"] * 1e6
            for o in g["ops"]:
                check(f"{base}.op.{o['name']}", 0 < o["overlap_s"] <= overlap_of(ev, o["name"], g0, g1) * (1 + 1e-5) + 5e-8,
                      f"{o} against {overlap_of(ev, o['name'], g0, g1)}")
        t = subprocess.run([rf, "trace", path] + hw, capture_output=True, text=True).stdout
        line = f"GPU idle {100 * idle['share']:.1f}% of the span"
        at, tables = t.find(line), t.find("\nkernels by gain")
        check(f"{base}.text", (at >= 0 and at < tables) if idle["headline"] else at < 0 and "GPU idle" not in t,
              t[:200])
        headlines += idle["headline"]
        if base == "pytorch_kineto_2024_a100_ddp_nccl.json.gz":
            # the first gap: 15.72 ms from 3.066 ms, aten::narrow's calls 10.31 ms of it
            g = idle["gaps"][0]
            g0 = first + g["start_s"] * 1e6
            want = overlap_of(ev, "aten::narrow", g0, g0 + g["length_s"] * 1e6)
            check("kineto2024.narrow", g["ops"] and g["ops"][0]["name"] == "aten::narrow"
                  and close(g["ops"][0]["overlap_s"], want) and abs(want - 0.01031) < 1e-5
                  and abs(g["length_s"] - 0.01572) < 1e-5, f"{g} against {want}")
            check("kineto2024.text_gap", "aten::narrow 10.31 ms" in t and "15.72 ms" in t, t[:1500])
    check("headlines", headlines >= 3, f"{headlines} fixtures with the idle headline")
    # below the threshold: the Inductor fixture's one kernel, no gap at all
    p = subprocess.run([rf, "trace", os.path.join(TRACES, "pytorch_kineto_2024_a100_inductor_triton_launch.json.gz")],
                       capture_output=True, text=True)
    check("inductor.no_headline", p.returncode == 0 and "GPU idle" not in p.stdout, p.stdout[:300])
    print(f"trace idle: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
