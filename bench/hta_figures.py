#!/usr/bin/python3
"""hta_figures.py HTA_SRC DIR -- Holistic Trace Analysis' own figures for
the rank traces in DIR, as JSON on stdout: per rank the temporal breakdown
(idle, compute, non-compute shares of HTA's GPU span), the
communication/computation overlap and the idle-time breakdown (host wait,
kernel wait, other; summed over the rank's streams), and the load time.
HTA_SRC is a checkout of github.com/facebookresearch/HolisticTraceAnalysis
(fetched beside the project, never part of it); runs with Debian's
python3-pandas, python3-plotly, python3-networkx, python3-psutil."""
import json
import logging
import math
import sys
import time

sys.path.insert(0, sys.argv[1])
logging.disable(logging.WARNING)
from hta.trace_analysis import TraceAnalysis  # noqa: E402

t0 = time.time()
ta = TraceAnalysis(trace_dir=sys.argv[2])
t_load = time.time() - t0
tb = ta.get_temporal_breakdown(visualize=False)
ov = ta.get_comm_comp_overlap(visualize=False)
out = {"load_s": t_load, "ranks": {}}
for _, row in tb.iterrows():
    r = int(row["rank"])
    span = float(row["kernel_time(us)"])
    out["ranks"][r] = {
        "span_us": span,
        "idle_share": float(row["idle_time(us)"]) / span,
        "compute_share": float(row["compute_time(us)"]) / span,
        "non_compute_share": float(row["non_compute_time(us)"]) / span,
    }
for _, row in ov.iterrows():
    v = float(row["comp_comm_overlap_pctg"]) / 100
    out["ranks"][int(row["rank"])]["overlap"] = None if math.isnan(v) else v
for r in out["ranks"]:
    df = ta.get_idle_time_breakdown(ranks=[r], visualize=False)[0] \
        if "ranks" in ta.get_idle_time_breakdown.__code__.co_varnames \
        else ta.get_idle_time_breakdown(rank=r, visualize=False)[0]
    kinds = {"host_wait": 0.0, "kernel_wait": 0.0, "other": 0.0}
    for _, row in df.iterrows():
        kinds[row["idle_category"]] += float(row["idle_time"])
    out["ranks"][r].update({"idle_%s_us" % k: v for k, v in kinds.items()})
out["total_s"] = time.time() - t0
print(json.dumps(out))
