#!/usr/bin/env python3
"""test_graph.py -- CUDA-graph replays matched to their capture, on the real
MI300X traces of AMD TraceLens (tests/fixtures/traces/SOURCES.md):

  * the text report says how many replayed kernels were matched and not,
    and how many captured launches had no kernel in their replay
    (torch.compile's CUDA-graph trees: a capture of 994 launches, a replay
    of 993 kernels, its first 993: matched, coverage 44.6% -> 96.2%, 99.98% with fmha_v3_fwd's row);
  * a refused match says why on the kernels' row (cut_graph_ambiguous.py):
    a replay that begins two captures with different ops, one whose
    kernel 4 is not the capture's, one longer than any capture;
  * --capture and the folder job agree: RUN.capture.json.gz beside
    RUN.json.gz is read with its rank (not counted as a rank of its own),
    and the rank's coverage is the one `trace RUN --capture CAPTURE` gives;
  * bad input: --capture with a job, a missing capture file: one line on
    stderr, exit 2, nothing on stdout.
Ends with "N passed, M failed".
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIX = os.path.join(ROOT, "tests", "fixtures", "traces")
SG_RUN = os.path.join(FIX, "pytorch_kineto_2026_mi300x_sglang_decode_graph_replay.json.gz")
SG_CAP = os.path.join(FIX, "pytorch_kineto_2026_mi300x_sglang_decode_graph_capture.json.gz")
VL_RUN = os.path.join(FIX, "pytorch_kineto_2025_mi300x_vllm_decode_graph_replay.json.gz")
TREES = os.path.join(FIX, "pytorch_kineto_2026_mi300x_flux_cudagraph_trees.json.gz")
CUT = os.path.join(FIX, "pytorch_kineto_2026_mi300x_flux_graph_%s.json.gz")


def run(cmd):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    rf = os.path.abspath(ap.parse_args().roofline)
    checks = Checks("FAIL ")
    check = checks.named

    rc, out, err = run([rf, "trace", SG_RUN, "--capture", SG_CAP, "--top", "3"])
    check("text.matched", rc == 0 and "CUDA-graph replays: 544 kernels matched to their capture, 0 not" in out,
          f"exit {rc} {err!r} {out[:400]!r}")
    rc, out, err = run([rf, "trace", SG_RUN, "--top", "3"])
    check("text.alone", rc == 0 and "CUDA-graph replays: 0 kernels matched to their capture, 544 not" in out,
          f"exit {rc} {err!r} {out[:400]!r}")
    rc, out, err = run([rf, "trace", TREES, "--top", "3"])
    check("trees.text", rc == 0 and "CUDA-graph replays: 993 kernels matched to their capture, 0 not "
          "(1 captured launch with no kernel in the replay: its last record missing)" in out
          and "(100.0%)" in out.splitlines()[1], f"exit {rc} {err!r} {out[:600]!r}")
    rc, out, err = run([rf, "trace", TREES, "--json"])
    doc = json.loads(out) if rc == 0 else {}
    check("trees.matched", rc == 0 and doc.get("graph_kernels_matched") == 993
          and doc.get("graph_kernels_unmatched") == 0 and doc.get("graph_launches_unreplayed") == 1
          and abs(doc.get("coverage", 0) - 0.9998220442) < 1e-9,
          f"exit {rc} {err!r} {[doc.get(k) for k in ('graph_kernels_matched', 'coverage')]}")
    for case, counts, want in (
            ("ambiguous", (6, 5), "a CUDA-graph replay of 5 kernels that begins several captures (of 6 and 7 "
             "launches) with different ops or shapes (which one it replays is not recorded): not matched"),
            ("mismatch", (0, 5), "a CUDA-graph replay whose kernel 4 (Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_"
             "UserArgs_MT16x16x512_MI1) is not the kernel its capture launched there "
             "(triton_poi_fused_addmm_silu_2): not matched"),
            ("longer", (0, 8), "a CUDA-graph replay of 8 kernels; the nearest capture launched 7: not matched"),
    ):
        rc, out, err = run([rf, "trace", CUT % case, "--json"])
        doc = json.loads(out) if rc == 0 else {}
        whys = {r.get("why") for r in doc.get("rows", []) if r.get("why")}
        check("refused." + case, rc == 0 and want in whys and
              (doc.get("graph_kernels_matched"), doc.get("graph_kernels_unmatched")) == counts,
              f"exit {rc} {err!r} {sorted(whys)[:3]} {doc.get('graph_kernels_matched')}")

    rc, out, err = run([rf, "trace", SG_RUN, "--capture", SG_CAP, "--json"])
    single = json.loads(out) if rc == 0 else {}
    tmp = tempfile.mkdtemp(prefix="rl-graph-")
    try:
        job = os.path.join(tmp, "job")
        os.mkdir(job)
        shutil.copyfile(SG_RUN, os.path.join(job, "sglang.json.gz"))
        shutil.copyfile(SG_CAP, os.path.join(job, "sglang.capture.json.gz"))
        rc, out, err = run([rf, "trace", job, "--json", "--hw", "amd-mi300x"])
        doc = json.loads(out) if rc == 0 else {}
        ranks = doc.get("ranks", [])
        check("job.pair", rc == 0 and len(ranks) == 1 and ranks[0]["file"].endswith("sglang.json.gz")
              and single.get("coverage") is not None
              and abs(ranks[0].get("coverage", -1) - single["coverage"]) < 1e-12
              and ranks[0].get("graph_kernels_matched") == single.get("graph_kernels_matched") == 544
              and ranks[0].get("graph_kernels_unmatched") == 0,
              f"exit {rc} {err!r} {ranks[:1]} against {single.get('coverage')}")
        # without its capture file the rank's replay has no op
        os.remove(os.path.join(job, "sglang.capture.json.gz"))
        rc, out, err = run([rf, "trace", job, "--json", "--hw", "amd-mi300x"])
        doc = json.loads(out) if rc == 0 else {}
        ranks = doc.get("ranks", [])
        check("job.alone", rc == 0 and len(ranks) == 1 and ranks[0].get("coverage", 1) < 0.02
              and ranks[0].get("graph_kernels_matched") == 0
              and ranks[0].get("graph_kernels_unmatched") == 544,
              f"exit {rc} {err!r} {ranks[:1]}")
        # a rank whose replay lacks its capture's last launch (Flux.1's CUDA-graph trees)
        trees = os.path.join(tmp, "trees")
        os.mkdir(trees)
        shutil.copyfile(TREES, os.path.join(trees, "flux.json.gz"))
        rc, out, err = run([rf, "trace", trees, "--json"])
        doc = json.loads(out) if rc == 0 else {}
        ranks = doc.get("ranks", [])
        check("job.trees", rc == 0 and len(ranks) == 1
              and (ranks[0].get("graph_kernels_matched"), ranks[0].get("graph_kernels_unmatched"),
                   ranks[0].get("graph_launches_unreplayed")) == (993, 0, 1),
              f"exit {rc} {err!r} {ranks[:1]}")
        for name, cmd, want in (
                ("err.job", [rf, "trace", job, "--capture", SG_CAP], "--capture takes one trace"),
                ("err.missing", [rf, "trace", VL_RUN, "--capture", os.path.join(tmp, "none.json")],
                 "none.json"),
        ):
            rc, out, err = run(cmd)
            check(name, rc == 2 and not out and want in err and err.count("\n") == 1,
                  f"exit {rc} out {out[:100]!r} err {err!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
