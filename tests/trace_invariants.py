"""trace_invariants.py -- what every trace report keeps (issue 24), checked on
any `roofline trace ... --json` document and its text: run over every golden
case (tests/cli/run_cli_tests.py) and every fixture (tests/cli/test_trace_agree.py).

    msgs = invariants(doc, text)   # [] when every invariant holds

A single trace (`"command": "trace"`):
  * no row (kernels and ops, floors included) has a time at its roof above
    its measured time, and none a roof fraction above 1, unless flagged
    above_roof;
  * a collective's busbw is at most the link's (one direction of the
    interconnect) x 1.05; bytes is count x msg_bytes (one name for one thing:
    a job's collectives give the same sum under the same key);
  * idle: its share is idle_s / span_s, the headline is share >= 0.2, the gaps
    are largest first and sum to at most idle_s, each inside the span, and
    the text prints "GPU idle NN% of the span" before the kernel tables
    exactly when it is the headline.
A job (`"command": "trace job"`):
  * a rank's host wait is at most its span (hta_span_s), the idle kinds sum to
    hta_idle_s, its single-trace idle_s at most its span_s;
  * each collective's busbw without the wait is at most the link's x 1.05,
    its gain at most its time without the wait.
"""
import math

HEADLINE = 0.2  # RL_TRACE_IDLE_HEADLINE (include/roofline.h)
LINK_SLACK = 1.05


def _le(a, b, rel=1e-9, abs_=1e-15):
    return a <= b * (1 + rel) + abs_


def _rows(doc, msgs):
    for key in ("rows", "ops"):
        for r in doc.get(key) or []:
            flagged = r.get("above_roof")
            f, at, m = r.get("roof_fraction"), r.get("at_roof_s"), r.get("measured_s")
            if f is not None and f > 1 + 1e-12 and not flagged:
                msgs.append(f"{key} {r['name']!r}: roof fraction {f} > 1 without above_roof")
            if at is not None and m is not None and not flagged and not _le(at, m):
                msgs.append(f"{key} {r['name']!r}: at roof {at} s > measured {m} s without above_roof")


def _colls(doc, msgs):
    for c in doc.get("collectives") or []:
        if c.get("busbw") is not None and c.get("link_bw"):
            if c["busbw"] > c["link_bw"] * LINK_SLACK:
                msgs.append(f"collective {c['kind']}: busbw {c['busbw']} > link {c['link_bw']} x 1.05")
        if c.get("msg_bytes") is not None and not math.isclose(c["bytes"], c["count"] * c["msg_bytes"],
                                                               rel_tol=1e-12):
            msgs.append(f"collective {c['kind']}: bytes {c['bytes']} != count x msg_bytes")


def _idle(doc, text, msgs):
    d = doc.get("idle")
    if d is None:
        msgs.append("no idle record")
        return
    span, idle = doc.get("span_s"), doc.get("idle_s")
    if span is None or idle is None or d["share"] is None:  # no timeline (ncu), a CPU trace
        if d["share"] is not None or d["headline"] or d["gaps"]:
            msgs.append(f"idle without a span: {d}")
        return
    share = idle / span if span > 0 else 0
    if not math.isclose(d["share"], share, rel_tol=1e-12, abs_tol=1e-15):
        msgs.append(f"idle share {d['share']} != idle_s / span_s {share}")
    if d["headline"] != (d["share"] >= HEADLINE):
        msgs.append(f"idle headline {d['headline']} at share {d['share']}")
    lens = [g["length_s"] for g in d["gaps"]]
    if lens != sorted(lens, reverse=True) or len(lens) > 5:
        msgs.append(f"idle gaps not the largest first: {lens}")
    if not _le(sum(lens), idle):
        msgs.append(f"idle gaps sum {sum(lens)} > idle_s {idle}")
    for g in d["gaps"]:
        if g["start_s"] < 0 or not _le(g["start_s"] + g["length_s"], span):
            msgs.append(f"idle gap {g} outside the span {span}")
        if len(g["ops"]) > 3 or any(o["overlap_s"] <= 0 for o in g["ops"]):
            msgs.append(f"idle gap's ops {g['ops']}")
        if g["ops"] and not d["host_ops"]:
            msgs.append("ops in a gap of a file without host ops")
    if text is not None:
        at = text.find("GPU idle ")
        tables = text.find("\nkernels by gain")
        if d["headline"] and not (0 <= at and (tables < 0 or at < tables)
                                  and f"GPU idle {100 * d['share']:.1f}% of the span" in text):
            msgs.append("the idle headline is not printed before the kernel tables")
        if not d["headline"] and at >= 0:
            msgs.append("an idle headline printed below the threshold")


def _job(doc, msgs):
    for r in doc.get("ranks") or []:
        if r["idle_host_wait_s"] > r["hta_span_s"] * (1 + 1e-12):
            msgs.append(f"rank {r['rank']}: host wait {r['idle_host_wait_s']} > span {r['hta_span_s']}")
        kinds = r["idle_host_wait_s"] + r["idle_kernel_wait_s"] + r["idle_other_s"]
        if not math.isclose(kinds, r["hta_idle_s"], rel_tol=1e-9, abs_tol=1e-12):
            msgs.append(f"rank {r['rank']}: idle kinds {kinds} != hta_idle_s {r['hta_idle_s']}")
        if r.get("idle_s") is not None and not _le(r["idle_s"], r["span_s"]):
            msgs.append(f"rank {r['rank']}: idle_s {r['idle_s']} > span_s {r['span_s']}")
    for c in doc.get("collectives") or []:
        if c.get("busbw_no_wait") is not None and c.get("link_bw"):
            if c["busbw_no_wait"] > c["link_bw"] * LINK_SLACK:
                msgs.append(f"job collective {c['kind']}: busbw {c['busbw_no_wait']} > link x 1.05")
        if c.get("gain_s") is not None and not _le(c["gain_s"], c["no_wait_s"]):
            msgs.append(f"job collective {c['kind']}: gain {c['gain_s']} > its time {c['no_wait_s']}")


def invariants(doc, text=None):
    """The invariants of a trace or trace job document (and of the text of the
    same run, when given): a list of what fails, [] when all hold."""
    msgs = []
    cmd = doc.get("command")
    if cmd == "trace" and "rows" in doc and "kernels" in doc:
        _rows(doc, msgs)
        _colls(doc, msgs)
        _idle(doc, text, msgs)
    elif cmd == "trace job":
        _job(doc, msgs)
    return msgs
