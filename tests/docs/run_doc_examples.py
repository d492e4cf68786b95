#!/usr/bin/env python3
"""Run every example of the README and docs/*.md and compare its output.

As jq's tests/man.test runs the manual's examples, this runs the examples of
the documentation, so the text cannot drift from what the program prints.
The marked-up form (see docs/testing.md, "Examples in the documentation"):

  ```console                 a shell session: each line starting with `$ ` is a
  $ roofline op add ...      command (a line ending in `\\` continues on the next),
  expected output            the lines up to the next `$ ` its expected output
  ```                        (stdout and stderr together, as a terminal shows).

  ```console no-compare      the same, run, but the output is not compared (it
                             depends on the machine: `roofline measure`); each
                             command must exit with status 0.

  ```pycon                   a Python session (doctest's `>>>` and `...`), run
                             against the binding in python/ with the library built.

In expected output a line `...` stands for any number of lines (none included).
Trailing blanks of each line are not compared. Commands run under bash with
`roofline` on PATH (the binary given by --roofline), from a scratch folder that
holds links to the repository's tests/, data/, docs/, python/, bench/ and
build/, so relative paths in the examples work and files they write land in
the scratch folder. Each file's blocks share one folder and, for Python, one
namespace.

A fenced block of another kind, or an indented one, that holds a roofline
command (`$ roofline`, `roofline ...`) or a `>>>` prompt is an error: every
example is a test.

usage: run_doc_examples.py [--roofline build/roofline] [--lib build/libroofline.so]
                           [-j N] [-v] [FILE.md ...]
"""
import argparse
import concurrent.futures
import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINKS = ("tests", "data", "docs", "python", "bench", "build", "web", "scripts")
COMMAND_LINE = re.compile(r"^\s*(\$ )?(roofline|build/roofline)\b")


def default_files():
    files = [os.path.join(ROOT, "README.md")]
    docs = os.path.join(ROOT, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    bench = os.path.join(ROOT, "bench", "README.md")
    if os.path.exists(bench):
        files.append(bench)
    return files


class Block:
    def __init__(self, path, line, kind, flags, lines):
        self.path, self.line, self.kind, self.flags, self.lines = path, line, kind, flags, lines

    def where(self):
        return "%s:%d" % (os.path.relpath(self.path, ROOT), self.line)


def parse(path):
    """The fenced blocks of a Markdown file, and the lint errors of the others."""
    blocks, errors = [], []
    with open(path, encoding="utf-8") as f:
        text = f.read().split("\n")
    i = 0
    while i < len(text):
        m = re.match(r"^(```+)\s*(\S*)\s*(.*)$", text[i])
        if m:
            fence, kind, flags = m.group(1), m.group(2), m.group(3).split()
            start = i + 1
            j = start
            while j < len(text) and not text[j].startswith(fence):
                j += 1
            body = text[start:j]
            if kind in ("console", "pycon"):
                blocks.append(Block(path, start, kind, flags, body))
            else:
                for k, line in enumerate(body):
                    if COMMAND_LINE.match(line) or line.lstrip().startswith(">>> "):
                        errors.append("%s:%d: an example outside a ```console or ```pycon block "
                                      "(it would not be tested): %s"
                                      % (os.path.relpath(path, ROOT), start + k + 1, line.strip()))
            i = j + 1
            continue
        # An indented code block (4 spaces after a blank line): no commands allowed.
        if text[i].startswith("    ") and (i == 0 or not text[i - 1].strip()):
            j = i
            while j < len(text) and (text[j].startswith("    ") or not text[j].strip()):
                line = text[j]
                if COMMAND_LINE.match(line) or line.lstrip().startswith(">>> "):
                    errors.append("%s:%d: an example in an indented block (it would not be "
                                  "tested; use ```console): %s"
                                  % (os.path.relpath(path, ROOT), j + 1, line.strip()))
                j += 1
            i = j
            continue
        i += 1
    return blocks, errors


def commands(block):
    """(line, command, expected lines) of a console block."""
    out, i, lines = [], 0, block.lines
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError("%s: output before the first `$ ` command: %r"
                             % (block.where(), lines[i]))
        line_no = block.line + i + 1
        cmd = lines[i][2:]
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd + "\n" + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        out.append((line_no, cmd, expected))
    return out


def matches(expected, actual):
    """Whether the actual lines match the expected ones, `...` matching any lines."""
    exp = [e.rstrip() for e in expected]
    act = [a.rstrip() for a in actual]
    while exp and not exp[-1]:
        exp.pop()
    while act and not act[-1]:
        act.pop()
    memo = {}

    def m(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(exp):
            r = j == len(act)
        elif exp[i] == "...":
            r = any(m(i + 1, k) for k in range(j, len(act) + 1))
        else:
            r = j < len(act) and exp[i] == act[j] and m(i + 1, j + 1)
        memo[key] = r
        return r

    return m(0, 0)


def scratch_dir():
    d = tempfile.mkdtemp(prefix="roofline-doc-")
    for name in LINKS:
        if os.path.exists(os.path.join(ROOT, name)):
            os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    return d


UPDATE = False
UPDATES = []


def apply_updates():
    """--update: write the actual output of each failing command into its file."""
    by_file = {}
    for path, line_no, cmd, expected, actual in UPDATES:
        by_file.setdefault(path, []).append((line_no, cmd, expected, actual))
    for path, items in by_file.items():
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for line_no, cmd, expected, actual in sorted(items, reverse=True):
            start = line_no - 1 + cmd.count("\n") + 1
            act = [a.rstrip() for a in actual]
            while act and not act[-1]:
                act.pop()
            lines[start:start + len(expected)] = act
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print("updated %s (%d examples)" % (os.path.relpath(path, ROOT), len(items)))


def run_console(blocks, roofline, verbose):
    """Run one file's console blocks; return (count, failures)."""
    failures, count = [], 0
    work = scratch_dir()
    bindir = os.path.join(work, ".bin")
    os.mkdir(bindir)
    os.symlink(os.path.abspath(roofline), os.path.join(bindir, "roofline"))
    env = dict(os.environ)
    for k in ("COLUMNS", "LINES"):
        env.pop(k, None)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = os.path.join(ROOT, "python")
    env["ROOFLINE_LIB"] = os.path.join(os.path.dirname(os.path.abspath(roofline)),
                                       "libroofline.so")
    try:
        for block in blocks:
            compare = "no-compare" not in block.flags
            for line_no, cmd, expected in commands(block):
                count += 1
                t0 = time.time()
                p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=300)
                actual = p.stdout.decode("utf-8", "replace").split("\n")
                where = "%s:%d" % (os.path.relpath(block.path, ROOT), line_no)
                if verbose:
                    print("  %.2fs %s $ %s" % (time.time() - t0, where, cmd.split("\n")[0]),
                          flush=True)
                if compare and not matches(expected, actual):
                    if UPDATE:
                        UPDATES.append((block.path, line_no, cmd, expected, actual))
                    failures.append("%s: `$ %s` printed (exit status %d):\n%s\nexpected:\n%s"
                                    % (where, cmd, p.returncode,
                                       "\n".join(actual).rstrip(), "\n".join(expected).rstrip()))
                elif not compare and p.returncode != 0:
                    failures.append("%s: `$ %s` exited with status %d:\n%s"
                                    % (where, cmd, p.returncode, "\n".join(actual).rstrip()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return count, failures


def run_pycon(blocks, lib, verbose):
    """Run one file's Python blocks in one namespace; return (count, failures)."""
    if not blocks:
        return 0, []
    os.environ["ROOFLINE_LIB"] = os.path.abspath(lib)
    if os.path.join(ROOT, "python") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "python"))
    work = scratch_dir()
    here = os.getcwd()
    globs, failures, count = {"__name__": "__doc_examples__"}, [], 0
    parser = doctest.DocTestParser()
    flags = doctest.ELLIPSIS
    try:
        os.chdir(work)
        for block in blocks:
            where = block.where()
            test = parser.get_doctest("\n".join(block.lines) + "\n", globs, where,
                                      block.path, block.line)
            count += len(test.examples)
            out = []
            runner = doctest.DocTestRunner(optionflags=flags, verbose=False)
            t0 = time.time()
            result = runner.run(test, out=out.append, clear_globs=False)
            if verbose:
                print("  %.2fs %s (%d Python examples)" % (time.time() - t0, where,
                                                           len(test.examples)), flush=True)
            if result.failed:
                failures.append("".join(out).rstrip())
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
    return count, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    ap.add_argument("--lib", default=None, help="libroofline.so (default: beside --roofline)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--update", action="store_true",
                    help="write the actual output of failing commands into the files")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    global UPDATE
    UPDATE = a.update
    # absolute now: the Python examples chdir while the commands run on the pool
    a.roofline = os.path.abspath(a.roofline)
    lib = os.path.abspath(a.lib or os.path.join(os.path.dirname(a.roofline), "libroofline.so"))
    for need in (a.roofline, lib):
        if not os.path.exists(need):
            print("run_doc_examples: %s: not built (make)" % need, file=sys.stderr)
            return 2
    files = [os.path.abspath(f) for f in a.files] or default_files()
    parsed, errors = {}, []
    for f in files:
        blocks, errs = parse(f)
        parsed[f] = blocks
        errors += errs
        for b in blocks:
            if b.kind == "console":
                try:
                    commands(b)
                except ValueError as e:
                    errors.append(str(e))
    failures, ncmd, npy = list(errors), 0, 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        futs = [pool.submit(run_console, [b for b in parsed[f] if b.kind == "console"],
                            a.roofline, a.verbose) for f in files]
        # The Python examples run in this process, one file after the other,
        # while the commands run on the pool.
        for f in files:
            n, fails = run_pycon([b for b in parsed[f] if b.kind == "pycon"], lib, a.verbose)
            npy += n
            failures += fails
        for fut in futs:
            n, fails = fut.result()
            ncmd += n
            failures += fails
    if UPDATE:
        apply_updates()
    for fail in failures:
        print("FAIL " + fail + "\n", file=sys.stderr)
    print("doc examples: %d commands and %d Python examples in %d files, %d failed (%.1f s)"
          % (ncmd, npy, len(files), len(failures), time.time() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
