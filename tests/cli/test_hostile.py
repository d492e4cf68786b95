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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    ap.add_argument("only", nargs="*", help="test names to run (default: all)")
    a = ap.parse_args()
    rl = os.path.abspath(a.roofline)
    tests = [test_user_files]
    for t in tests:
        if not a.only or t.__name__ in a.only:
            t(rl)
    print(f"hostile: {check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
