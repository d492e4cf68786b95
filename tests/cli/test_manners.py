#!/usr/bin/env python3
"""The command's Unix manners, as a subprocess (README "Scripting"):

- `-` reads standard input wherever a file is read (a trace, --points,
  --hw-file, a model's config.json), with the same result as the file;
- a directory where a file is expected is "is a directory", exit 2;
- output that cannot be written is exit 1 and one line: a full disk (a
  character device made here with mknod, the same one as /dev/full) and a
  closed pipe (quiet, as `| head` expects);
- an endless input (a character device made here, the same one as /dev/zero)
  or a huge file stops at the reader's cap: exit 2, one line naming the cap;
- a measured --points point above its roof is said on the chart and stderr;
- OpenBLAS is loaded by `measure` only and SQLite by the nsys reader only:
  a query maps neither, and a missing OpenBLAS is one line, exit 2, before
  anything is timed;
- typos get a suggestion: commands, flags, op kinds, model and hardware ids;
- `roofline version`, `-V` and `--version` print the same line;
- `plot` without -o will not write SVG to a terminal (a pseudo-terminal);
- a --plot that cannot be written leaves the trace report printed, then one
  error line;
- tables: --csv on every table command (RFC 4180, a header, no unit
  strings in number cells), widths from COLUMNS (80 and 200: no line wider),
  colour only on a terminal and never with NO_COLOR.

Never touches a system device. Ends with "manners: N passed, M failed".
"""
import argparse
import csv
import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINETO = "tests/fixtures/traces/pytorch_kineto_2024_a100_ddp_nccl.json.gz"
NCU = "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv"
check = Checks("FAIL ")


def run(binary, args, stdin=None, env=None, stdout=subprocess.PIPE):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.update(env or {})
    p = subprocess.run([binary] + args, cwd=ROOT, input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                       timeout=300, env=e)
    out = p.stdout.decode("utf-8", "replace") if p.stdout is not None else ""
    return p.returncode, out, p.stderr.decode("utf-8", "replace")


def one_line(err):
    return err.count("\n") == 1 and err.endswith("\n") and err.startswith("roofline")


def on_pty(binary, args, env=None):
    """Run with stdout (and stderr) on a pseudo-terminal; returns (rc, text)."""
    master, slave = pty.openpty()
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.update(env or {})
    p = subprocess.Popen([binary] + args, cwd=ROOT, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL,
                         env=e)
    os.close(slave)
    chunks = []
    while True:
        r, _, _ = select.select([master], [], [], 60)
        if not r:
            break
        try:
            b = os.read(master, 65536)
        except OSError:
            break
        if not b:
            break
        chunks.append(b)
    os.close(master)
    return p.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def test_stdin(rl):
    with open(os.path.join(ROOT, KINETO), "rb") as f:
        gz = f.read()
    a = run(rl, ["trace", KINETO, "--json"])
    b = run(rl, ["trace", "-", "--json"], stdin=gz)
    check(a[0] == 0 and b[0] == 0 and json.loads(a[1])["rows"] == json.loads(b[1])["rows"],
          f"trace - (gzip on stdin) gives the file's rows: {b[0]} {b[2]!r}")
    with open(os.path.join(ROOT, "tests/data/hw_custom.csv"), "rb") as f:
        hw = f.read()
    args = ["op", "add", "--n", "1000", "--hw", "mygpu", "--dtype", "fp32", "--json"]
    a = run(rl, args + ["--hw-file", "tests/data/hw_custom.csv"])
    b = run(rl, args + ["--hw-file", "-"], stdin=hw)
    check(a[0] == 0 and a[1] == b[1], f"--hw-file - reads the CSV from stdin: {b[2]!r}")
    with open(os.path.join(ROOT, "tests/fixtures/models/gpt2/config.json"), "rb") as f:
        cfg = f.read()
    a = run(rl, ["decode", "--model", "tests/fixtures/models/gpt2", "--hw", "h100", "--batch", "1", "--json"])
    b = run(rl, ["decode", "--model", "-", "--hw", "h100", "--batch", "1", "--json"], stdin=cfg)
    check(a[0] == 0 and b[0] == 0 and json.loads(a[1])["rows"] == json.loads(b[1])["rows"],
          f"--model - reads a config.json from stdin: {b[2]!r}")
    pts = run(rl, ["layer", "--hw", "h100", "--json"])[1].encode()
    with tempfile.TemporaryDirectory() as tmp:
        rc, _, err = run(rl, ["plot", "--points", "-", "--hw", "h100", "-o", os.path.join(tmp, "c.svg")],
                         stdin=pts)
        check(rc == 0 and os.path.getsize(os.path.join(tmp, "c.svg")) > 1000, f"plot --points -: {err!r}")
    rc, out, err = run(rl, ["op", "add", "--n", "1", "--hw", "x", "--hw-file", "-"], stdin=b"")
    check(rc == 2 and not out and one_line(err), f"--hw-file - with empty stdin is an error: {err!r}")


def test_directories(rl):
    for args in (["trace", "tests"], ["plot", "--points", "tests", "-o", "-"],
                 ["op", "add", "--n", "1", "--hw", "h100", "--hw-file", "tests"]):
        rc, out, err = run(rl, args)
        check(rc == 2 and not out and one_line(err) and "is a directory" in err, f"{' '.join(args)}: {rc} {err!r}")


def test_write_errors(rl):
    with tempfile.TemporaryDirectory() as tmp:
        full = os.path.join(tmp, "full")
        try:
            os.mknod(full, 0o666 | 0o020000, os.makedev(1, 7))
        except PermissionError:
            print("note  mknod not permitted here: the full-disk case is not run", file=sys.stderr)
            full = None
        if full:
            for args in (["hw", "list"], ["layer", "--json"], ["model", "list", "--csv"], ["version"]):
                with open(full, "wb") as f:
                    rc, _, err = run(rl, args, stdout=f)
                check(rc == 1 and one_line(err) and "No space left on device" in err,
                      f"{' '.join(args)} > full device: exit {rc}, {err!r}")
    # a closed pipe: the reader goes away after a few bytes (160 kB of output, more
    # than a pipe holds, so the writer meets the closed end whatever the timing)
    big = "tests/fixtures/traces/pytorch_kineto_2023_a100_ddp_input_dims.json.gz"
    p = subprocess.Popen([rl, "trace", big, "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=120)
    check(rc == 1 and err == "", f"closed pipe: exit 1 and quiet (a reader that went away wanted no more): "
                                 f"exit {rc}, {err!r}")


def test_suggestions(rl):
    for args, want in ((["tarce", KINETO], "did you mean 'trace'?"),
                       (["help", "decod"], "did you mean 'decode'?"),
                       (["op", "add", "--n", "1", "--hw", "h100", "--jsno"], "did you mean --json?"),
                       (["op", "add", "--nn", "1", "--hw", "h100"], "did you mean --n?"),
                       (["op", "matmull", "--m", "1", "--n", "1", "--k", "1"], "did you mean 'matmul'?"),
                       (["decode", "--model", "llama-3-8b"], "llama3-8b"),
                       (["hw", "show", "h1000"], "nvidia-h100")):
        rc, out, err = run(rl, args)
        check(rc == 2 and not out and one_line(err) and want in err, f"{' '.join(args)}: {err!r}")
    rc, out, err = run(rl, ["zzzz"])
    check(rc == 2 and "did you mean" not in err, f"no suggestion for a word near nothing: {err!r}")


def test_openblas(rl):
    """Only `measure` loads OpenBLAS and only the nsys reader SQLite (dlopen): a query maps neither (glibc's LD_DEBUG=libs lists
    every library the loader opens), and a missing one is one line naming it, exit 2, at once."""
    rc, out, err = run(rl, ["hw", "show", "h100"], env={"LD_DEBUG": "libs"})
    if "find library" in err:
        check(rc == 0 and "openblas" not in err.lower() and "gfortran" not in err and "sqlite" not in err,
              "hw show loads neither OpenBLAS, libgfortran nor SQLite")
    else:
        print("note  no LD_DEBUG here (not glibc): the no-OpenBLAS-at-start-up case is not run", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        missing = os.path.join(tmp, "libopenblas.so.0")
        rc, out, err = run(rl, ["measure", "--kernel", "gemm", "--quick"], env={"ROOFLINE_OPENBLAS": missing})
        check(rc == 2 and not out and one_line(err) and "OpenBLAS" in err and missing in err,
              f"measure without OpenBLAS: exit 2, one line: {rc} {err!r}")


def test_version(rl):
    outs = [run(rl, [a]) for a in ("version", "-V", "--version")]
    check(all(o[0] == 0 and re.fullmatch(r"roofline \d+\.\d+\.\d+\n", o[1]) for o in outs)
          and len({o[1] for o in outs}) == 1, f"version, -V, --version: {outs!r}")


def test_plot_terminal(rl):
    rc, text = on_pty(rl, ["plot", "--hw", "h100"])
    check(rc == 2 and "<svg" not in text and "terminal" in text, f"plot to a terminal refused: {rc} {text[:200]!r}")
    rc, text = on_pty(rl, ["plot", "--hw", "h100", "-o", "-"])
    check(rc == 0 and "<svg" in text, f"plot -o - writes to a terminal when asked: {rc}")
    rc, out, _ = run(rl, ["plot", "--hw", "h100"])
    check(rc == 0 and out.startswith("<?xml") or "<svg" in out[:400], "plot into a pipe writes SVG")


def test_failed_plot(rl):
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "no-such-dir", "chart.svg")
        rc, out, err = run(rl, ["trace", NCU, "--hw", "a100-40gb", "--plot", bad])
        check(rc == 2 and "kernels by gain" in out and one_line(err) and "--plot" in err,
              f"a failed --plot still prints the report, then one line: {rc} {err!r}")


def test_widths(rl):
    full = run(rl, ["hw", "list"])[1]
    check("nvidia-h100-sxm5" in full and "\u2026" not in full, "hw list into a pipe: full names, no cut")
    for cols in (80, 200):
        rc, out, _ = run(rl, ["hw", "list"], env={"COLUMNS": str(cols)})
        lines = out.splitlines()
        rule = next((l for l in lines if l and set(l) == {"-"}), "")
        check(rc == 0 and 0 < len(rule) <= cols, f"COLUMNS={cols}: rule of {len(rule)} cells")
        if cols == 80:
            check(all(len(l) <= cols for l in lines) and "\u2026" in out,
                  f"COLUMNS=80: hw list fits, names cut in the middle: {max(map(len, lines))}")
            check(lines[-1].startswith("(left out to fit the width:"), "COLUMNS=80: the columns left out are named")
        else:
            check(out == full, "COLUMNS=200: hw list as wide as it needs")
        # the ids are what the user copies: whole at every width, each its row's first word
        ids = [r[0] for r in csv.reader(io.StringIO(run(rl, ["hw", "list", "--csv"])[1]))][1:]
        firsts = [l.split(" ")[0] for l in lines[2:]]
        check(len(ids) > 20 and all(i in firsts for i in ids), f"COLUMNS={cols}: every id whole")
    rc, text = on_pty(rl, ["hw", "list"], env={"COLUMNS": "80"})
    check(rc == 0 and all(len(l.rstrip("\r")) <= 80 for l in text.split("\n")), "hw list on a terminal of 80")
    for env in ({}, {"NO_COLOR": "1"}):
        rc, text = on_pty(rl, ["hw", "list"], env=env)
        check(rc == 0 and "\x1b[" not in text, f"tables carry no colour codes ({env})")
    rc, text = on_pty(rl, ["plot", "--term", "--hw", "h100"], env={"NO_COLOR": "1"})
    check(rc == 0 and "\x1b[" not in text, "plot --term with NO_COLOR: no colour")
    rc, out, _ = run(rl, ["plot", "--term", "--hw", "h100"])
    check(rc == 0 and "\x1b[" not in out, "plot --term into a pipe: no colour")


def test_endless_inputs(rl):
    """An endless input (a character device made here, the same one as /dev/zero) and a
    300 MB file of zeros (sparse: no disk used) stop at the reader's cap: exit 2, one
    line that names the cap, never a read to the end of memory."""
    with tempfile.TemporaryDirectory() as tmp:
        zeros = os.path.join(tmp, "zeros")
        with open(zeros, "wb") as f:
            f.truncate(300 * 1000 * 1000)
        paths = [zeros]
        dev = os.path.join(tmp, "zero")
        try:
            os.mknod(dev, 0o666 | 0o020000, os.makedev(1, 5))
            paths.append(dev)
        except PermissionError:
            print("note  mknod not permitted here: the endless-device case is not run", file=sys.stderr)
        for path in paths:
            for args, cap in ((["trace", path], "a record longer than 256 MiB"),
                              (["plot", "--points", path, "-o", "-"], "larger than 268435456 bytes"),
                              (["op", "add", "--n", "1", "--hw", "x", "--hw-file", path], "larger than 67108864 bytes"),
                              (["model", "show", path], "larger than 16777216 bytes")):
                rc, out, err = run(rl, args)
                check(rc == 2 and not out and one_line(err) and cap in err,
                      f"{' '.join(args[:-1] if args[-1] == path else args)} on {os.path.basename(path)}: "
                      f"exit {rc}, {err!r}")


def test_points_above_roof(rl):
    """A measured point faster than its roof: drawn, and said on the chart and on stderr."""
    with tempfile.TemporaryDirectory() as tmp:
        pts = os.path.join(tmp, "p.json")
        with open(pts, "w") as f:  # 1 GFLOP in 100 ns: 10 PFLOP/s, over the H100's 989 TFLOP/s
            json.dump([{"op": "fast", "flops": 1e9, "bytes": 1e6, "measured_s": 1e-7},
                       {"op": "slow", "flops": 1e9, "bytes": 1e6, "measured_s": 1e-3}], f)
        rc, out, err = run(rl, ["plot", "--points", pts, "--preset", "none", "--hw", "h100", "-o", "-"])
        check(rc == 0 and one_line(err) and "1 measured point faster than its roof" in err
              and "1 point ABOVE the roof" in out, f"plot --points above its roof: exit {rc}, {err!r}")


# --csv: one table per command, RFC 4180, base units with the unit in the column's name
CSV_COMMANDS = [
    ["op", "add", "--n", "1e6", "--hw", "h100"],
    ["op", "linear", "--tokens", "1", "--d-in", "4096", "--d-out", "4096", "--hw", "h100", "--time", "20us"],
    ["kernel", "--flops", "1e9", "--bytes", "1e6", "--hw", "b200", "--name", "my, \"quoted\" kernel"],
    ["layer", "--hw", "h200"],
    ["hw", "list"],
    ["model", "list"],
    ["model", "show", "llama3-8b"],
    ["comm", "allreduce", "--params", "7e9", "--ranks", "8", "--busbw", "37.4GB/s", "--step-time", "3.64s"],
    ["comm", "allgather", "--bytes", "512MB", "--ranks", "8", "--hw", "h100"],
    ["mfu", "--params", "7e9", "--layers", "32", "--heads", "32", "--head-dim", "128", "--seq", "4096",
     "--tokens-per-s", "72000", "--gpus", "8"],
    ["measure", "--quick", "--kernel", "peak"],
    ["decode", "--model", "llama3-8b", "--context", "4096", "--batch", "1,16,119,128"],
    ["decode", "--model", "llama3-8b", "--context", "4096", "--batch", "16", "--ops", "--tp", "2"],
    ["decode", "--model", "llama3-8b", "--batch", "1,2", "--peak", "100T", "--bw", "1TB/s"],
    ["prefill", "--model", "llama3-8b", "--prompt", "2048", "--new-tokens", "256"],
    ["plan", "--model", "llama3-70b", "--prompt", "2048", "--gen", "64", "--ttft", "1s", "--tpot", "30ms",
     "--weight-dtype", "bf16,int4"],
]
# columns that name, label or count (no unit to carry); every other column ends in its unit
CSV_PLAIN = {"op", "hw", "dtype", "bound", "id", "name", "part", "params", "published_params", "active_params",
             "layers", "d_model", "heads", "kv_heads", "head_dim", "d_ff", "experts", "experts_active", "vocab",
             "collective", "ranks", "factor", "convention", "metric", "attention", "recompute", "sparse", "padded",
             "figure", "kernel", "level", "threads", "n", "plateau", "unreliable", "batch", "count", "fits", "tp",
             "pp", "ep", "microbatches", "weight_dtype", "kv_dtype", "replicas", "limit", "stops", "gpus",
             "prefill_tokens_per_step"}
CSV_UNITS = {"s", "bytes", "flops", "flop", "fraction", "hz", "w"}
HUMAN = re.compile(r"^[-+]?[0-9][0-9.]*(e[-+]?[0-9]+)?\s?(%|[kMGTP]?(B|FLOP|Hz|W)\b|[munp]?s\b|x\b|/)")


def test_csv(rl):
    for args in CSV_COMMANDS:
        rc, out, err = run(rl, args + ["--csv"])
        what = " ".join(args)
        rows = list(csv.reader(io.StringIO(out))) if rc == 0 else []
        if not check(rc == 0 and len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows),
                     f"{what} --csv: a header and rows of its width: exit {rc} {err!r}"):
            continue
        hdr = rows[0]
        nounit = [h for h in hdr if h not in CSV_PLAIN and not set(h.split("_")) & CSV_UNITS]
        check(not nounit, f"{what} --csv: every figure's column names its unit: {nounit}")
        human = [c for r in rows[1:] for c in r if HUMAN.match(c)]
        check(not human, f"{what} --csv: no human strings in cells: {human[:3]}")
        for j, h in enumerate(hdr):
            if h in CSV_PLAIN and h not in ("params", "layers", "n", "batch", "count", "threads", "ranks"):
                continue
            bad = []
            for r in rows[1:]:
                try:
                    if r[j] != "":
                        float(r[j])
                except ValueError:
                    bad.append(r[j])
            check(not bad, f"{what} --csv: column {h} holds numbers: {bad[:3]}")
    # RFC 4180: a field with a comma or a quote is quoted, its quotes doubled
    rc, out, _ = run(rl, CSV_COMMANDS[2] + ["--csv"])
    check(rc == 0 and '"my, ""quoted"" kernel"' in out, f"kernel --csv quotes its name: {out[-200:]!r}")
    # the CSV holds the JSON's figures
    rc, out, _ = run(rl, CSV_COMMANDS[7] + ["--csv"])
    row = dict(zip(*list(csv.reader(io.StringIO(out)))))
    doc = json.loads(run(rl, CSV_COMMANDS[7] + ["--json"])[1])
    check(float(row["time_s"]) == doc["time_s"] and float(row["busbw_bytes_per_s"]) == doc["busbw"]
          and row["collective"] == doc["collective"], f"comm --csv carries the JSON's figures: {row}")
    rc, out, _ = run(rl, CSV_COMMANDS[9] + ["--csv"])
    conv = list(csv.DictReader(io.StringIO(out)))
    doc = json.loads(run(rl, CSV_COMMANDS[9] + ["--json"])[1])
    check([c["convention"] for c in conv] == [c["label"] for c in doc["conventions"]]
          and [float(c["value_fraction"]) for c in conv] == [c["value"] for c in doc["conventions"]],
          "mfu --csv is the conventions table of the JSON")
    # decode: the JSON rows' figures, fits as true/false (empty without a capacity)
    for k in (11, 13):  # with a capacity, and without one (--peak --bw)
        rows = list(csv.DictReader(io.StringIO(run(rl, CSV_COMMANDS[k] + ["--csv"])[1])))
        doc = json.loads(run(rl, CSV_COMMANDS[k] + ["--json"])[1])
        check([float(r["step_time_s"]) for r in rows] == [r["step_time_s"] for r in doc["rows"]]
              and [r["fits"] for r in rows] == [("" if doc["mem_bytes"] is None else str(r["fits"]).lower())
                                                for r in doc["rows"]], f"decode --csv rows are the JSON's: {rows[:1]}")
    rows = list(csv.DictReader(io.StringIO(run(rl, CSV_COMMANDS[14] + ["--csv"])[1])))
    doc = json.loads(run(rl, CSV_COMMANDS[14] + ["--json"])[1])
    check([r["op"] for r in rows] == [o["op"] for o in doc["ops"]]
          and abs(sum(float(r["share_fraction"]) for r in rows) - 1) < 1e-9, "prefill --csv: the ops, shares sum to 1")
    # plan: the JSON's rows, null as an empty cell
    rows = list(csv.DictReader(io.StringIO(run(rl, CSV_COMMANDS[15] + ["--csv"])[1])))
    doc = json.loads(run(rl, CSV_COMMANDS[15] + ["--json"])[1])
    same = len(rows) == len(doc["rows"]) > 1
    for r, d in zip(rows, doc["rows"]):
        for k, v in r.items():
            same &= (v == "" and d.get(k) is None) or (isinstance(d.get(k), str) and v == d[k]) \
                or (isinstance(d.get(k), (int, float)) and float(v) == d[k])
    check(same, f"plan --csv: the JSON rows, key for key: {rows[:1]}")
    # what has no table says so in one line
    for args in (["plot", "--hw", "h100", "-o", "-"], ["widget", "-o", "-"]):
        rc, out, err = run(rl, args + ["--csv"])
        check(rc == 2 and not out and one_line(err), f"{' '.join(args)} --csv: one line: {err!r}")


def test_trace_flags(rl):
    """Issue 24's invariant in every output: no roof fraction above 1 without its flag (JSON's
    above_roof, the CSV's above_roof column, a '!' after the text's percentage), no time at the
    roof above the measured time without it; a row on the L2 roof says so ("/L2")."""
    fx = os.path.join(ROOT, "tests", "fixtures", "traces")
    files = [(f, ["--hw", "a100-80gb"] if "ddp128" in f else ["--hw", "a100-40gb"] if f.startswith("ncu_") else [])
             for f in sorted(os.listdir(fx))
             if (f.endswith(".json.gz") or f.endswith(".json") or f.endswith(".csv") or f.endswith(".sqlite"))
             and "_cpu_" not in f]
    l2 = 0
    for f, hw in files:
        args = ["trace", os.path.join(fx, f), "--top", "100000"] + hw
        rc, out, err = run(rl, args + ["--csv"])
        if rc != 0:
            check(False, f"trace {f} --csv: exit {rc}: {err!r}")
            continue
        rows = list(csv.DictReader(io.StringIO(out)))
        bad = [r["name"] for r in rows if r["roof_fraction"] and float(r["roof_fraction"]) > 1 and r["above_roof"] != "true"]
        bad += [r["name"] for r in rows if r["at_roof_s"] and r["measured_s"] and r["above_roof"] != "true"
                and float(r["at_roof_s"]) > float(r["measured_s"]) * (1 + 1e-9) + 1e-15]
        check(not bad and rows and all(r["above_roof"] in ("true", "false") for r in rows),
              f"trace {f} --csv: every fraction above 1 and time at the roof above the measured one flagged: {bad[:3]}")
        rc, out, err = run(rl, args)
        pct = [float(m.group(1)) for m in re.finditer(r"\s([0-9.]+)%(!?)\s", out) if m.group(2) != "!"]
        check(rc == 0, f"trace {f}: exit {rc}")
        over = [p for p in pct if p > 100.05 and f"{p:.1f}%!" not in out]
        check(not over, f"trace {f}: every percentage of a roof above 100% marked '!': {over[:3]}")
        l2 += sum(r["roof"] == "l2" for r in rows)
        if any(r["roof"] == "l2" for r in rows):
            check("/L2" in out, f"trace {f}: a row on the L2 roof marked /L2 in the text")
    check(l2 >= 1, f"the fixtures have a cache-resident row on the L2 roof: {l2}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    rl = os.path.abspath(ap.parse_args().roofline)
    for t in (test_stdin, test_directories, test_write_errors, test_suggestions, test_openblas, test_version,
              test_plot_terminal, test_failed_plot, test_widths, test_endless_inputs,
              test_points_above_roof, test_csv, test_trace_flags):
        t(rl)
    print(f"manners: {check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
