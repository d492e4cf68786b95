#!/usr/bin/env python3
"""The command against a hostile user (issue 30), as a subprocess; each class
is one named test:

- test_user_files: no output replaces one of the command's inputs (same
  device and inode, through links and standard input); /dev/stdout,
  /dev/fd/N, /proc/self/fd/N and links to them are written through the
  descriptor (an appended log keeps its content); `-o -` is standard
  output; a FIFO no one reads is refused, not waited on; under a file size
  limit the write fails with one line, exit 1, and no temporary file is
  left; a 250-character file name is written.
- test_hangs: every input at ten times its documented cap (docs/reliability.md)
  answers within its time limit.
- test_lies: locale, text escaping, ranges (see each case).
- test_conventions: usage, EPIPE, round trips.
- test_ranges: every quantity outside its plausible range (src/core/ranges.c)
  refused, exit 2, one line stating the range, nothing on stdout: flags,
  --hw-file cells, config.json, points; no inf, no 63-digit roof %, no count
  past 2^53 printed exact; zero-duration trace kernels left out with their
  count; measure --ws, --save-hw --id ALIAS and --id --json refused before
  anything is measured.
- test_terminal: with COLUMNS=80 every table fits 80 columns (a text last
  column wraps) and every line of prose wraps at spaces under its indent (a
  paragraph broken by hand joined first; a word longer than the line kept
  whole; --json and an SVG on standard output as they are); without COLUMNS
  in a pipe nothing is cut or wrapped.

Destructive cases run only inside a temporary folder, on FIFOs made there.
Ends with "hostile: N passed, M failed".
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINETO = os.path.join(ROOT, "tests/fixtures/traces/pytorch_kineto_2024_a100_ddp_nccl.json.gz")
check = Checks("FAIL ")


def run(binary, args, stdin=None, env=None, stdout=subprocess.PIPE, cwd=ROOT, timeout=60, preexec=None,
        pass_fds=(), stdin_file=None):
    e = dict(os.environ)
    e.update(env or {})
    t0 = time.monotonic()
    try:
        kw = {"stdin": stdin_file} if stdin_file is not None else {"input": stdin}
        p = subprocess.run([binary] + args, cwd=cwd, stdout=stdout, **kw, stderr=subprocess.PIPE,
                           timeout=timeout, env=e, preexec_fn=preexec, pass_fds=pass_fds)
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {timeout} s", timeout
    out = p.stdout.decode("utf-8", "replace") if p.stdout is not None else ""
    return p.returncode, out, p.stderr.decode("utf-8", "replace"), time.monotonic() - t0


def one_line(err):
    return err.count("\n") == 1 and err.endswith("\n") and err.startswith("roofline")


def test_user_files(rl):
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "run.json.gz")
        with open(KINETO, "rb") as f:
            data = f.read()
        with open(trace, "wb") as f:
            f.write(data)
        # an output that is an input: refused, the input intact
        os.symlink(trace, os.path.join(tmp, "alias.svg"))
        for out in (trace, os.path.join(tmp, "alias.svg")):
            rc, o, err, _ = run(rl, ["trace", trace, "--plot", out])
            with open(trace, "rb") as f:
                same = f.read() == data
            check(rc == 2 and same and not o and one_line(err) and "one of the command's inputs" in err,
                  f"trace T --plot {os.path.basename(out)}: refused, T kept: {rc} {err!r}")
        pts = os.path.join(tmp, "p.json")
        rc, o, _, _ = run(rl, ["layer", "--hw", "h100", "--json"])
        with open(pts, "w") as f:
            f.write(o)
        hw = os.path.join(tmp, "hw.csv")
        with open(os.path.join(ROOT, "tests/data/hw_custom.csv")) as f:
            hwtext = f.read()
        with open(hw, "w") as f:
            f.write(hwtext)
        for args, stdin in ((["plot", "--points", pts, "--hw", "h100", "-o", pts], None),
                            (["plot", "--points", "-", "--hw", "h100", "-o", pts], pts),
                            (["plot", "--hw", "mygpu", "--dtype", "fp32", "--hw-file", hw, "-o", hw], None)):
            with open(stdin or os.devnull, "rb") as sf:
                rc, out, err, _ = run(rl, args, stdin_file=sf)
            with open(pts) as f:
                kept = f.read() == o
            with open(hw) as f:
                kept = kept and f.read() == hwtext
            check(rc == 2 and kept and one_line(err) and "inputs" in err,
                  f"{' '.join(os.path.basename(a) for a in args)}: refused: {rc} {err!r}")
        # /dev/stdout and its aliases: written through the descriptor, an
        # appended log keeps its earlier content, no file renamed over it
        for name in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "link"):
            if name == "link":
                os.symlink("/dev/stdout", os.path.join(tmp, "link"))
            log = os.path.join(tmp, "log.txt")
            with open(log, "w") as f:
                f.write("earlier line\n")
            with open(log, "a") as f:
                rc, _, err, _ = run(rl, ["plot", "--hw", "h100", "-o", name], stdout=f, cwd=tmp)
            with open(log) as f:
                text = f.read()
            check(rc == 0 and text.startswith("earlier line\n<?xml") and text.rstrip().endswith("</svg>"),
                  f"plot -o {name} >> log: the log kept and the SVG after it: {rc} {err!r} {text[:40]!r}")
        rep = os.path.join(tmp, "rep.txt")
        with open(rep, "w") as f:
            rc, _, err, _ = run(rl, ["trace", trace, "--plot", "/dev/stdout"], stdout=f)
        with open(rep) as f:
            text = f.read()
        check(rc == 0 and text.startswith("trace ") and "</svg>" in text,
              f"trace --plot /dev/stdout > rep.txt: report and chart both there: {rc} {err!r}")
        # another inherited descriptor, /dev/fd/N
        r, w = os.pipe()
        rc, _, err, _ = run(rl, ["plot", "--hw", "h100", "-o", f"/dev/fd/{w}"], pass_fds=(w,))
        os.close(w)
        with os.fdopen(r, "rb") as f:
            got = f.read()
        check(rc == 0 and got.startswith(b"<?xml"), f"plot -o /dev/fd/N (a pipe): {rc} {err!r}")
        # -o - is standard output
        rc, out, err, _ = run(rl, ["plot", "--hw", "h100", "-o", "-"])
        check(rc == 0 and out.startswith("<?xml") and not os.path.exists(os.path.join(ROOT, "-")),
              f"plot -o - writes standard output: {rc} {err!r}")
        # a FIFO nothing reads from is refused at once
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        rc, out, err, t = run(rl, ["plot", "--hw", "h100", "-o", fifo], timeout=20)
        check(rc == 2 and one_line(err) and "FIFO" in err, f"plot -o FIFO with no reader: {rc} {err!r}")
        # a file size limit: one line, exit 1, no temporary file, no old file replaced
        old = os.path.join(tmp, "old.svg")
        with open(old, "w") as f:
            f.write("old")

        def limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        for args in (["plot", "--hw", "h100", "-o", old], ["trace", trace, "--plot", old]):
            before = set(os.listdir(tmp))
            rc, _, err, _ = run(rl, args, preexec=limit)
            with open(old) as f:
                kept = f.read() == "old"
            left = set(os.listdir(tmp)) - before
            check(rc == 1 and err.count("\n") == 1 and "File too large" in err and kept and not left,
                  f"{args[0]} under ulimit -f: exit 1, one line, old file kept, nothing left: {rc} {err!r} {left}")
        # the system's limit on a name, not ours
        long = os.path.join(tmp, "a" * 250 + ".svg")
        rc, _, err, _ = run(rl, ["plot", "--hw", "h100", "-o", long])
        check(rc == 0 and os.path.getsize(long) > 1000, f"-o with a 254-character name: {rc} {err!r}")
        rc, _, err, _ = run(rl, ["plot", "--hw", "h100", "-o", os.path.join(tmp, "b" * 300 + ".svg")])
        check(rc == 2 and one_line(err) and "too long" in err, f"-o past NAME_MAX: the system's message: {err!r}")
        check(not [n for n in os.listdir(tmp) if n.endswith(".tmp")], "no temporary file left in the folder")


def make_nsys(path, nk, nr, view=False):
    """An Nsight Systems export's tables (shared/docs/trace-formats.md section 4),
    nk kernels launched from 3 threads, nr NVTX ranges over them; view: the
    kernel table a recursive view that never ends."""
    import random
    import sqlite3
    rnd = random.Random(7)
    db = sqlite3.connect(path)
    c = db.cursor()
    c.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)")
    c.executemany("INSERT INTO StringIds VALUES (?,?)", [(i + 1, f"kern_{i}") for i in range(50)])
    cols = "start INTEGER, end INTEGER, deviceId INTEGER, correlationId INTEGER, demangledName INTEGER, streamId INTEGER"
    if view:
        c.execute("CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE r(start, end, deviceId, correlationId, "
                  "demangledName, streamId) AS (SELECT 1, 2, 0, 1, 1, 7 UNION ALL SELECT start + 1, end + 1, "
                  "deviceId, correlationId, demangledName, streamId FROM r) SELECT * FROM r")
    else:
        c.execute(f"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL ({cols})")
    c.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, correlationId INTEGER, "
              "globalTid INTEGER)")
    c.execute("CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT, textId INTEGER, "
              "globalTid INTEGER)")
    span = max(nk, 1) * 1000
    c.executemany("INSERT INTO NVTX_EVENTS VALUES (?,?,?,?,?,?)",
                  [(s, s + rnd.choice([100, 10000, 1000000]), 59, f"op{i % 97}", None, rnd.choice([1, 2, 3]))
                   for i, s in enumerate(rnd.randrange(0, span) for _ in range(nr))])
    ks, rs = [], []
    for i in range(nk):
        ls = rnd.randrange(0, span)
        ks.append((ls + 100, ls + 5000, 0, i, rnd.randrange(1, 51), 7))
        rs.append((ls, ls + 20, i, rnd.choice([1, 2, 3])))
    if not view:
        c.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,?,?,?)", ks)
    c.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?)", rs)
    db.commit()
    db.close()


def test_hangs(rl):
    """Each input at ten times its documented cap (docs/reliability.md), or at a
    size the old quadratic code took minutes on, under a time limit."""
    with tempfile.TemporaryDirectory() as tmp:
        # --hw-file: 10,000 devices at most; 100,000 rows refused at row 10,001
        hdr = "id,aliases,name,bf16,fp32,mem_gb,bandwidth_tbs,source\n"
        for n, ok in ((10000, True), (100000, False)):
            path = os.path.join(tmp, f"hw{n}.csv")
            with open(path, "w") as f:
                f.write(hdr + "".join(f"gpu{i},g{i}x,Lab {i},500,50,24GiB,2TB/s,sheet\n" for i in range(n)))
            for args in (["hw", "list", "--hw-file", path], ["op", "add", "--n", "1", "--hw", "gpu5", "--hw-file", path]):
                rc, out, err, t = run(rl, args, timeout=30)
                good = rc == 0 and out if ok else rc == 2 and one_line(err) and "more than 10000 devices" in err
                check(good, f"{args[0]} --hw-file of {n} rows: {rc} in {t:.1f} s {err[:120]!r}")
        # plot --points: 100,000 points at most (in distinct groups, identical,
        # distinct); a million refused while parsing
        for name, pt in (("distinct groups", lambda i: {"op": f"k{i}", "flops": 1e9 * (1 + i % 977),
                                                          "bytes": 1e8 * (1 + i % 631), "measured_s": 1e-3,
                                                          "group": i + 1}),
                         ("identical", lambda i: {"op": "k", "flops": 1e9, "bytes": 1e8, "measured_s": 1e-3})):
            path = os.path.join(tmp, "p.json")
            with open(path, "w") as f:
                json.dump([pt(i) for i in range(100000)], f)
            rc, _, err, t = run(rl, ["plot", "--points", path, "--hw", "h100", "-o", os.path.join(tmp, "c.svg")],
                                timeout=120)
            check(rc == 0, f"plot --points: 100,000 points, {name}: {rc} in {t:.1f} s {err[:200]!r}")
        with open(path, "w") as f:
            f.write("[" + ",".join(['{"op":"k","flops":1e9,"bytes":1e8}'] * 1000000) + "]")
        rc, _, err, t = run(rl, ["plot", "--points", path, "--hw", "h100", "-o", "-"], timeout=60)
        check(rc == 2 and one_line(err) and "at most 100000" in err, f"plot --points, a million points: {rc} {err!r}")
        # FIFOs: named, in a folder, matched by a glob: never opened for reading
        job = os.path.join(tmp, "job")
        os.mkdir(job)
        fifo = os.path.join(job, "rank1.json")
        os.mkfifo(fifo)
        with open(KINETO, "rb") as f, open(os.path.join(job, "rank0.json.gz"), "wb") as g:
            g.write(f.read())
        for args, want in ((["trace", fifo], "FIFO"), (["plot", "--points", fifo, "-o", "-"], "FIFO"),
                           (["op", "add", "--n", "1", "--hw", "x", "--hw-file", fifo], "FIFO"),
                           (["model", "show", fifo], "FIFO")):
            rc, out, err, t = run(rl, args, timeout=20)
            check(rc == 2 and not out and one_line(err) and want in err, f"{args[0]} on a FIFO: {rc} {err!r}")
        for arg in (job, os.path.join(job, "rank*")):
            rc, out, err, t = run(rl, ["trace", arg, "--json"], timeout=60)
            check(rc == 0 and "rank1.json: skipped: not a regular file" in err and json.loads(out)["ranks"],
                  f"trace {'a folder' if arg == job else 'a glob'} with a FIFO in it: {rc} {err!r}")
        # Nsight Systems: 10k kernels x 10k NVTX ranges (27 s when the match was a
        # correlated subquery); a kernel table that is a recursive view
        db = os.path.join(tmp, "big.sqlite")
        make_nsys(db, 10000, 10000)
        rc, out, err, t = run(rl, ["trace", db, "--hw", "h100", "--json"], timeout=20)
        check(rc == 0 and json.loads(out)["kernels"], f"nsys 10k kernels x 10k ranges: {rc} in {t:.1f} s {err!r}")
        db = os.path.join(tmp, "view.sqlite")
        make_nsys(db, 10, 10, view=True)
        rc, out, err, t = run(rl, ["trace", db], timeout=20)
        check(rc == 2 and one_line(err) and "is a view, not a table" in err, f"nsys kernel view: {rc} {err!r}")


def test_lies(rl):
    """Output that lies or breaks its readers: names with control characters and
    bytes that are no UTF-8 (escaped in JSON, replaced in tables, \\xNN in
    messages); a value given is never "not given"; absurd points refused."""
    name = b"k\xffx\x1b[2Jy\xc3\xa9".decode("utf-8", "surrogateescape")
    p = subprocess.run([rl, "kernel", "--name", name.encode("utf-8", "surrogateescape"), "--flops", "1G",
                        "--bytes", "1G", "--hw", "h100", "--json"], capture_output=True, cwd=ROOT)
    try:
        op = json.loads(p.stdout.decode("utf-8"))["op"]
    except (ValueError, KeyError) as e:
        op = repr(e)
    check(p.returncode == 0 and op == "k\ufffdx\x1b[2Jy\u00e9", f"kernel --name with ESC and \\xff: valid JSON: {op!r}")
    p = subprocess.run([rl, "kernel", "--name", name.encode("utf-8", "surrogateescape"), "--flops", "1G",
                        "--bytes", "1G", "--hw", "h100"], capture_output=True, cwd=ROOT)
    check(p.returncode == 0 and b"\x1b" not in p.stdout and b"\xff" not in p.stdout and
          "k\ufffdx\ufffd[2Jy\u00e9" in p.stdout.decode("utf-8"), "kernel --name in a table: replaced (U+FFFD)")
    p = subprocess.run([rl, "op", "add", "--n", b"1\x1b[2J", "--hw", "h100"], capture_output=True, cwd=ROOT)
    check(p.returncode == 2 and b"\x1b" not in p.stderr and b"\\x1b[2J" in p.stderr and p.stderr.count(b"\n") == 1,
          f"a message echoing ESC: escaped: {p.stderr!r}")
    # --overhead -1 is a value (refused), not "not given"
    for v in ("-1", "-2"):
        rc, out, err, _ = run(rl, ["op", "add", "--n", "1M", "--hw", "h100", "--overhead", v])
        check(rc == 2 and not out and one_line(err) and "--overhead" in err, f"--overhead {v}: refused: {rc} {err!r}")
    rc, out, err, _ = run(rl, ["mfu", "--seq", "2.5", "--tokens-per-s", "1000", "--gpus", "8", "--model", "llama3-8b"])
    check(rc == 2 and not out and one_line(err) and "whole number" in err, f"mfu --seq 2.5: refused: {rc} {err!r}")
    # points: measured_s -1 or 0, and a point no chart can place, refused
    for pt, want in (({"op": "a", "flops": 1e9, "bytes": 1e8, "measured_s": -1}, "measured_s"),
                     ({"op": "a", "flops": 1e9, "bytes": 1e8, "measured_s": 0}, "measured_s"),
                     ({"op": "a", "flops": 1e300, "bytes": 1e-300}, "'flops': 1e300 is outside the plausible range"),
                     ({"op": "a", "flops": 1e20, "bytes": 1e-5}, "intensity"),
                     ({"op": "a", "flops": 1e9, "bytes": 1e8, "achieved": -5}, "achieved")):
        rc, out, err, _ = run(rl, ["plot", "--points", "-", "--hw", "h100", "-o", "-"], stdin=json.dumps([pt]).encode())
        check(rc == 2 and not out and one_line(err) and want in err, f"points {pt}: refused: {rc} {err!r}")


def test_conventions(rl):
    """Round trips and conventions: usage with no arguments is an error (stderr,
    exit 2); a command name with a line break is one line; an ncu CSV with a
    UTF-8 byte-order mark reads as without it."""
    rc, out, err, _ = run(rl, [])
    check(rc == 2 and not out and "usage:" in err, f"no arguments: usage on stderr, exit 2: {rc} {out[:40]!r}")
    rc, out, err, _ = run(rl, ["tr\nace"])
    check(rc == 2 and not out and err.count("\n") == 1, f"a command name with a line break: one line: {err!r}")
    ncu = os.path.join(ROOT, "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv")
    with tempfile.TemporaryDirectory() as tmp:
        bom = os.path.join(tmp, "bom.csv")
        with open(ncu, "rb") as f, open(bom, "wb") as g:
            g.write(b"\xef\xbb\xbf" + f.read())
        a = run(rl, ["trace", ncu, "--hw", "nvidia-a100-sxm4-80gb", "--json"])
        b = run(rl, ["trace", bom, "--hw", "nvidia-a100-sxm4-80gb", "--json"])
        ok = a[0] == 0 and b[0] == 0 and json.loads(a[1])["kernels"] == json.loads(b[1])["kernels"]
        check(ok, f"ncu CSV with a byte-order mark: the same kernels: {b[0]} {b[2]!r}")
        # a folder job with no readable file, a glob matching only a folder: one line, nothing on stdout
        bad = os.path.join(tmp, "bad")
        os.makedirs(os.path.join(bad, "sub", "inner"))
        with open(os.path.join(bad, "a.json"), "w") as f:
            f.write("garbage")
        with open(os.path.join(bad, "b.json"), "w") as f:
            f.write("{")
        for args in (["trace", bad], ["trace", bad, "--json"], ["trace", bad, "--csv"],
                     ["trace", os.path.join(bad, "a.json"), os.path.join(bad, "b.json")],
                     ["trace", os.path.join(bad, "sub", "*")]):
            rc, out, err, _ = run(rl, args)
            check(rc == 2 and not out and one_line(err), f"{' '.join(args[1:])[-40:]}: one line, no report: "
                  f"{rc} {out[:60]!r} {err!r}")


def refused(rl, args, want, stdin=None, env=None):
    rc, out, err, _ = run(rl, args, stdin=stdin, env=env)
    check(rc == 2 and not out and one_line(err) and want in err, f"{' '.join(args)[:90]}: refused with {want!r}: "
          f"{rc} {err!r} {out[:80]!r}")


def test_ranges(rl):
    """Values outside their plausible range refused with the range (class 3)."""
    T = KINETO
    for args, want in (
            (["trace", T, "--bw", "1e-300"], "--bw 1e-300 B/s is outside the plausible range of a bandwidth: "
                                             "1 MB/s to 1 EB/s"),
            (["decode", "--model", "llama3-8b", "--mem", "1e-300"], "--mem 1e-300 B is outside the plausible range "
                                                                   "of a memory capacity: 1 kB to 1 EB"),
            (["decode", "--model", "llama3-8b", "--bw-eff", "1e-300"], "0.1% to 100%"),
            (["op", "add", "--n", "10", "--hw", "h100", "--time", "1.8e19"], "1 ps to 1e9 s"),
            (["op", "add", "--n", "10", "--hw", "h100", "--bw", "1e-290"], "1 MB/s to 1 EB/s"),
            (["op", "add", "--n", "10", "--hw", "h100", "--peak", "1e-300"], "1 MFLOP/s to 1e21 FLOP/s"),
            (["op", "add", "--n", "10", "--hw", "h100", "--overhead", "2.2e-300"], "0 or 1 ps to 1 s"),
            (["op", "add", "--n", "10", "--hw", "h100", "--mem", "2.2e-300"], "1 kB to 1 EB"),
            (["kernel", "--flops", "1e29", "--bytes", "1e-300", "--hw", "h100"], "0 or 1 B to 1e30 B"),
            (["decode", "--model", "llama3-8b", "--layers", "1e9"], "1 to 16777216"),
            (["prefill", "--model", "llama3-8b", "--prompt", "2e9"], "0 to 1e9"),
            (["measure", "--ws", "1e-40"], "--ws 1e-40 B is outside the plausible range of a working set"),
            (["comm", "allreduce", "--bytes", "1GB", "--ranks", "8", "--busbw", "1e300"], "1 MB/s to 1 EB/s")):
        refused(rl, args, want)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.json")
        with open(cfg, "w") as f:
            json.dump({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 2, "head_dim": 1e15,
                       "intermediate_size": 128, "vocab_size": 100}, f)
        refused(rl, ["model", "show", cfg], "model head_dim 1e15 is outside the plausible range")
        refused(rl, ["decode", "--model", cfg], "1 to 16777216")
        # the largest dimensions in range: a parameter count past 2^53 is not printed as exact digits
        with open(cfg, "w") as f:
            json.dump({"num_hidden_layers": 1024, "hidden_size": 262144, "num_attention_heads": 128,
                       "intermediate_size": 16777216, "vocab_size": 32000}, f)
        rc, out, err, _ = run(rl, ["model", "show", cfg])
        digits = [w for w in out.split() if w.isdigit() and int(w) > 2 ** 53]
        check(rc == 0 and not digits and "1.379e+16" in out,
              f"model show: no count past 2^53 as exact digits: {rc} {digits[:3]} {err!r}")
        # dimensions each in range that multiply to no model: the parameter count's range
        with open(cfg, "w") as f:
            json.dump({"num_hidden_layers": 16777216, "hidden_size": 16777216, "num_attention_heads": 128,
                       "intermediate_size": 16777216, "vocab_size": 16777216}, f)
        refused(rl, ["decode", "--model", cfg], "parameter count 3.306e22 is outside the plausible range of a "
                                                 "parameter count: 1 to 1e17")
        hw = os.path.join(tmp, "hw.csv")
        with open(hw, "w") as f:
            f.write("id,name,bf16,bandwidth_tbs,mem_gb\nmy-gpu,X,100,1e-300,80\n")
        refused(rl, ["op", "add", "--n", "10", "--hw", "my-gpu", "--hw-file", hw],
                "line 2, column 'bandwidth_tbs': 1e-288 B/s is outside the plausible range of a bandwidth")
        refused(rl, ["plot", "--points", "-", "--hw", "h100", "-o", "-"], "'bandwidth': 1e-300 B/s is outside",
                stdin=json.dumps([{"op": "a", "flops": 1e9, "bytes": 1e8, "bandwidth": 1e-300}]).encode())
        # a trace kernel of 1e-300 s and one of 0 s: left out of the times, counted; no absurd roof %
        tr = os.path.join(tmp, "zero.json")
        ev = [{"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1200, "dur": 100,
               "args": {"bytes": 4e6, "correlation": 1}},
              {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7,
               "ts": 1400, "dur": 1e-300, "args": {"bytes": 4e6, "correlation": 2}},
              {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
               "ts": 1500, "dur": 0, "args": {"bytes": 4e6, "correlation": 3}}]
        with open(tr, "w") as f:
            json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}], "traceEvents": ev}, f)
        rc, out, err, _ = run(rl, ["trace", tr, "--hw", "h100"])
        pcts = [w for w in out.split() if w.endswith("%") and len(w) > 12]
        check(rc == 0 and "2 kernels of zero duration (under 1 ps) left out of the times" in out and not pcts
              and " 0.0% " not in out.split("kernels by gain")[-1].split("without a roofline")[0],
              f"trace: zero durations left out with their count: {rc} {pcts[:2]} {err!r}")
        rc, out, err, _ = run(rl, ["trace", tr, "--hw", "h100", "--json"])
        check(rc == 0 and json.loads(out)["zero_duration_untimed"] == 2, f"trace --json: zero_duration_untimed: {rc}")
        # measure: a --save-hw --id the reader would refuse, and --id --json, before anything is measured
        out_csv = os.path.join(tmp, "mine.csv")
        rc, out, err, t = run(rl, ["measure", "--save-hw", out_csv, "--id", "h100"], timeout=20)
        check(rc == 2 and one_line(err) and "is an alias of the built-in nvidia-h100-sxm5" in err and t < 5
              and not os.path.exists(out_csv), f"measure --save-hw --id h100: refused at once: {rc} {t:.1f} s {err!r}")
        refused(rl, ["measure", "--save-hw", out_csv, "--id", "--json"], "--id needs a value, not the option '--json'")
        refused(rl, ["kernel", "--name", "--json", "--flops", "1", "--bytes", "1", "--hw", "h100"],
                "--name needs a value, not the option '--json'")
    # the bounds hold no real device: every built-in device and model still runs
    rc, out, err, _ = run(rl, ["hw", "list", "--json"])
    for h in json.loads(out)["rows"]:
        rc, _, err, _ = run(rl, ["hw", "show", h["id"], "--json"])
        check(rc == 0, f"hw show {h['id']}: {rc} {err!r}")
    rc, out, err, _ = run(rl, ["model", "list", "--json"])
    for m in json.loads(out)["rows"]:
        rc, _, err, _ = run(rl, ["model", "show", m["id"], "--json"])
        check(rc == 0, f"model show {m['id']}: {rc} {err!r}")


def table_lines(out):
    """The lines of the tables in a text report: a header, its line of dashes,
    the rows up to a blank line or a note (indented, or in parentheses)."""
    lines, keep = out.splitlines(), []
    for i, ln in enumerate(lines):
        if ln and set(ln) == {"-"} and i > 0:
            keep += [lines[i - 1], ln]
            for row in lines[i + 1:]:
                if not row.strip() or row.startswith(("  ", "(")):
                    break
                keep.append(row)
    return keep


def test_terminal(rl):
    """COLUMNS=80: tables fit (a long last column wraps under itself, columns
    named as left out give way); in a pipe
    without COLUMNS, no line is cut or wrapped (the goldens' and scripts' output)."""
    cases = (["model", "list"], ["hw", "list"], ["op", "add", "--n", "10", "--hw", "h100"],
             ["kernel", "--flops", "1e9", "--bytes", "1e6", "--hw", "h100", "--time", "1us"],
             ["decode", "--model", "llama3-8b"], ["trace", KINETO], ["layer", "--hw", "h100"],
             ["plan", "--model", "llama3-8b", "--prompt", "1000", "--gen", "100"])
    for args in cases:
        rc, out, err, _ = run(rl, args, env={"COLUMNS": "80"})
        wide = [ln for ln in table_lines(out) if len(ln) > 80]
        check(rc == 0 and not wide, f"COLUMNS=80 {' '.join(args)[:60]}: {len(wide)} lines wider: {wide[:1]!r}")
    e = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    # prose too: every line of the report fits 80 columns, but a word longer
    # than a line (a path) kept whole; wrapping changes only the blanks, so
    # a report without tables holds the same words as in a pipe
    ncu = os.path.join(ROOT, "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv")
    nsys = os.path.join(ROOT, "tests/fixtures/traces/nsys_2025.1_h200_nvfuser_cross_entropy.sqlite")
    prose = (["decode", "--model", "llama3.1-70b", "--hw", "h100", "--batch", "32"],
             ["decode", "--model", "llama3.1-8b", "--hw", "h100"], ["model", "show", "llama3.1-70b"],
             ["hw", "show", "h100"], ["trace", KINETO], ["trace", ncu, "--hw", "a100-40gb"], ["trace", nsys],
             ["plan", "--model", "llama3.1-70b", "--hw", "h100", "--tpot", "30ms", "--prompt", "2000",
              "--gen", "200"], ["prefill", "--model", "llama3.1-70b", "--hw", "h100", "--prompt", "8000"],
             ["comm", "allreduce", "--bytes", "1GB", "--hw", "h100", "--ranks", "64"])

    def unbreakable(ln):
        return any(len(w) > 40 for w in ln.split())
    for args in prose:
        rc, out, err, _ = run(rl, args, env={"COLUMNS": "80"})
        wide = [ln for ln in out.splitlines() if len(ln) > 80 and not unbreakable(ln)]
        check(rc == 0 and out and not wide,
              f"COLUMNS=80 {' '.join(args)[:60]}: prose wraps: {len(wide)} lines wider: {wide[:1]!r}")
        if args[0] in ("hw", "model"):  # no table: the same words
            p = subprocess.run([rl] + args, capture_output=True, env=e, cwd=ROOT)
            check(p.stdout.decode().split() == out.split() and max(map(len, p.stdout.splitlines())) > 80,
                  f"COLUMNS=80 {' '.join(args)}: the same words as in a pipe, on shorter lines")
    rc, out, err, _ = run(rl, prose[0], env={"COLUMNS": "80"})
    check("\nconvention: at B = 1 the weights read take 41.49 ms (139 GB): the embedding\n"
          "  table is gathered, one row per sequence. Counting every weight, as\n" in out,
          f"COLUMNS=80 decode: a paragraph broken by hand is joined and wrapped under its indent: {out[-700:]!r}")
    check("\n  weights      141.1 GB in bf16 resident; read per step: 139 GB (embedding: only\n"
          "               the row each sequence looks up)\n" in out,
          "COLUMNS=80 decode: a key's value wraps under the value's column")
    rc, out, err, _ = run(rl, ["trace", ncu, "--hw", "a100-40gb", "--json"], env={"COLUMNS": "80"})
    check(rc == 0 and out.count("\n") <= 1 and json.loads(out), "COLUMNS=80 --json: not wrapped")
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err, _ = run(rl, ["trace", ncu, "--hw", "a100-40gb", "--plot", "-"], env={"COLUMNS": "80"})
        svg = out[out.find("<svg"):] if "<svg" in out else ""
        check(rc == 0 and svg and max(map(len, svg.splitlines())) > 80 and out.index("coverage") < out.index("<svg"),
              "COLUMNS=80 trace --plot -: the report wrapped, then the SVG as it is")
    p = subprocess.run([rl, "op", "add", "--n", "10", "--hw", "h100"], capture_output=True, env=e, cwd=ROOT)
    check(p.returncode == 0 and b"only more work per launch (batching, fusion, CUDA graphs) helps" in p.stdout,
          "a pipe without COLUMNS: the verdict on one line")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    ap.add_argument("only", nargs="*", help="test names to run (default: all)")
    a = ap.parse_args()
    rl = os.path.abspath(a.roofline)
    tests = [test_user_files, test_hangs, test_lies, test_conventions, test_ranges, test_terminal]
    for t in tests:
        if not a.only or t.__name__ in a.only:
            t(rl)
    print(f"hostile: {check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
