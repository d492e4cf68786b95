#!/usr/bin/env python3
"""The files the tool writes (plot -o, widget -o, measure --save-hw and
--plot, trace --plot), as a subprocess, in a temporary folder only:

- a failed write to a path that is not a regular file (a character device
  made here with mknod, the same one as /dev/full: every write fails with
  ENOSPC) is one error line and exit 1 (a failed write, not bad input),
  and the device node is still there;
- a failed write to a regular file (the file-size limit, RLIMIT_FSIZE) leaves
  the old file byte for byte and no temporary file beside it;
- a new file gets 0666 less the umask, a replaced one keeps its mode, a link
  keeps pointing at the file it named;
- two runs writing the same path at once leave one whole output, never a
  splice of both.

Never touches a system device. Ends with "outputs: N passed, M failed".
"""
import argparse
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
check = Checks("FAIL ")


def run(binary, args, preexec=None):
    p = subprocess.run([binary] + args, cwd=ROOT, capture_output=True, text=True, timeout=300,
                       preexec_fn=preexec)
    return p.returncode, p.stdout, p.stderr


def small_fsize():
    # writes past 4 KiB fail with EFBIG (SIGXFSZ ignored, as the shell's
    # `ulimit -f` would leave it for a process that ignores it)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


WRITERS = [
    ("plot", ["plot", "-o", "{p}", "--hw", "h100"]),
    ("widget", ["widget", "-o", "{p}", "--hw", "h100"]),
    ("trace", ["trace", "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv", "--hw", "nvidia-a100-sxm4-80gb", "--plot", "{p}"]),
    # a DRAM working set past any last-level cache (this VM reports a 533 MB L3, where 64 MiB
    # was still "L3" and no row had a DRAM bandwidth to write)
    ("measure", ["measure", "--quick", "--kernel", "peak,read", "--ws", "32KiB,1GiB", "--threads", "1",
                 "--save-hw", "{p}"]),
]


def args_for(cmd, path):
    return [a.replace("{p}", path) for a in cmd]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    binary = os.path.abspath(ap.parse_args().roofline)
    writers = [(n, c) for n, c in WRITERS
               if n != "trace" or os.path.exists(os.path.join(ROOT, c[1]))]
    with tempfile.TemporaryDirectory() as d:
        # 1. a device node that refuses writes
        dev = os.path.join(d, "full")
        try:
            os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
            have_dev = True
        except PermissionError:
            have_dev = False
            print("outputs: not root, the device-node cases are skipped", file=sys.stderr)
        if have_dev:
            for name, cmd in writers:
                rc, out, err = run(binary, args_for(cmd, dev))
                for _ in range(2):  # a machine too busy for 3 clean samples: no row to write (exit 2)
                    if name == "measure" and rc == 2 and "stayed disturbed" in err:
                        rc, out, err = run(binary, args_for(cmd, dev))
                if name == "measure" and rc == 2 and "stayed disturbed" in err:
                    print("outputs: note: measure -> device not checked: the machine stayed too busy "
                          "for a row to be written", file=sys.stderr)
                    continue
                check(rc == 1, f"{name} -> device: exit {rc}, want 1 ({err.strip()!r})")
                check("No space left" in err and dev in err, f"{name} -> device: message {err!r}")
                st = os.lstat(dev) if os.path.lexists(dev) else None
                check(st and stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 7),
                      f"{name} -> device: the node is gone or changed")
                check(sorted(os.listdir(d)) == ["full"], f"{name} -> device: left {os.listdir(d)}")
                if not st:  # a broken build removed it: make it again for the next case
                    if os.path.lexists(dev):
                        os.unlink(dev)
                    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        # 2. a failed write to a regular file leaves it as it was
        for name, cmd in writers:
            if name == "measure":
                continue  # its file is smaller than the limit
            old = os.path.join(d, name + ".out")
            with open(old, "wb") as f:
                f.write(b"the old contents\n")
            rc, out, err = run(binary, args_for(cmd, old), preexec=small_fsize)
            check(rc == 1 and err.count("\n") == 1 and "File too large" in err,
                  f"{name} fsize: exit {rc}, stderr {err!r}")
            with open(old, "rb") as f:
                check(f.read() == b"the old contents\n", f"{name} fsize: the old file was changed")
            left = [x for x in os.listdir(d) if x.endswith(".tmp")]
            check(not left, f"{name} fsize: temporary files left: {left}")
            os.unlink(old)
        # 3. modes and links
        old_umask = os.umask(0o027)
        try:
            new = os.path.join(d, "new.svg")
            rc, _, err = run(binary, ["plot", "-o", new])
            check(rc == 0 and stat.S_IMODE(os.stat(new).st_mode) == 0o640,
                  f"new file mode {oct(os.stat(new).st_mode)} with umask 027 ({err!r})")
            os.chmod(new, 0o604)
            rc, _, _ = run(binary, ["plot", "-o", new, "--hw", "nvidia-a100-sxm4-80gb"])
            check(rc == 0 and stat.S_IMODE(os.stat(new).st_mode) == 0o604, "replaced file kept its mode")
            link = os.path.join(d, "link.svg")
            os.symlink("new.svg", link)
            rc, _, _ = run(binary, ["plot", "-o", link, "--hw", "h200"])
            check(rc == 0 and os.path.islink(link) and os.readlink(link) == "new.svg",
                  "a link stays a link")
            with open(new) as f:
                check("H200" in f.read(), "the file behind the link was written")
        finally:
            os.umask(old_umask)
        # 4. two runs at once: one whole output
        target = os.path.join(d, "race.html")
        want = []
        for hw in ("h100", "mi300x"):
            rc, out, _ = run(binary, ["widget", "-o", "-", "--hw", hw])
            want.append(out)
        ok = True
        for _ in range(5):
            ps = [subprocess.Popen([binary, "widget", "-o", target, "--hw", hw], cwd=ROOT)
                  for hw in ("h100", "mi300x")]
            rcs = [p.wait(timeout=120) for p in ps]
            with open(target) as f:
                got = f.read()
            ok = ok and rcs == [0, 0] and got in want
        check(ok and want[0] != want[1], "concurrent writers: the file is one whole output")
        check(not [x for x in os.listdir(d) if x.endswith(".tmp")], "concurrent writers: no temporary file left")
    print(f"outputs: {check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
