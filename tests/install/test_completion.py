#!/usr/bin/env python3
"""The installed bash and zsh completions, used for real.

bash: the completion file is sourced and its function called with the words
of a command line (COMP_WORDS, COMP_CWORD), as bash's programmable completion
does. zsh: an interactive zsh on a pseudo-terminal with compinit loads the
installed _roofline and completes each line on TAB (zsh_complete.zsh). Both
must offer the same matches: commands, a command's flags, subcommands
(`hw list|show`, `model list|show`, `comm allreduce|...`), the op kinds after
`op`, hardware ids after `--hw` and `hw show`, model ids (and files) after
`--model` and `model show`, file names elsewhere. The full lists are compared
with what the command itself knows (`hw list --json`, `model list --json`, the
kinds its "unknown op" error lists). Runs in a temporary folder holding two
files, so file completion has something to find.

    test_completion.py --roofline BIN --bash FILE [--zsh FILE]

Ends with "completion: N passed, M failed"; without zsh installed, only bash.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from checks import Checks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
check = Checks("completion: FAIL: ")


def bash_complete(comp, lines, cwd):
    script = ['. "$1"']
    for line in lines:
        words = line.split(" ")
        arr = " ".join("'%s'" % w for w in words)
        script += ["COMP_WORDS=(%s); COMP_CWORD=%d; COMPREPLY=(); _roofline" % (arr, len(words) - 1),
                   "echo '@@case %s'; printf '%%s\\n' \"${COMPREPLY[@]}\"; echo @@end" % line]
    out = subprocess.run(["bash", "-c", "\n".join(script), "bash", comp], cwd=cwd, check=True,
                         capture_output=True, text=True).stdout
    return parse(out)


def zsh_complete(comp, roofline, lines, cwd):
    fp = os.path.join(cwd, ".fpath")
    os.makedirs(fp, exist_ok=True)
    shutil.copy(comp, os.path.join(fp, "_roofline"))
    out = os.path.join(cwd, ".zsh-out")
    subprocess.run(["zsh", "-f", os.path.join(HERE, "zsh_complete.zsh"), fp,
                    os.path.dirname(roofline), out, *lines], cwd=cwd, check=True, timeout=120,
                   env=dict(os.environ, HOME=cwd))
    with open(out) as f:
        return parse(f.read())


def parse(text):
    got, case = {}, None
    for line in text.splitlines():
        if line.startswith("@@case "):
            case = line[7:]
            got[case] = []
        elif line == "@@end":
            case = None
        elif case is not None and line:
            got[case].append(line)
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", required=True)
    ap.add_argument("--bash", required=True)
    ap.add_argument("--zsh")
    a = ap.parse_args()
    rl = os.path.abspath(a.roofline)

    def listed(*args):
        return json.loads(subprocess.run([rl, *args, "--json"], capture_output=True, text=True,
                                         check=True).stdout)["rows"]
    hw_ids = {r["id"] for r in listed("hw", "list")}
    hw_aliases = {x for r in listed("hw", "list") for x in r["aliases"]}
    model_ids = {r["id"] for r in listed("model", "list")}
    err = subprocess.run([rl, "op", "nosuch"], capture_output=True, text=True).stderr
    kinds = set(re.search(r"\(([a-z0-9 -]+)\)", err).group(1).split())
    check(len(hw_ids) > 10 and len(model_ids) > 10 and "matmul" in kinds,
          "the command's own lists: %d devices, %d models, kinds %s" % (len(hw_ids), len(model_ids), kinds))

    # (line as typed, the matches exactly, or a test of them)
    cases = [
        ("roofline pl", {"plot", "plan"}),
        ("roofline me", {"measure"}),
        ("roofline trace --hw-f", {"--hw-file"}),
        ("roofline op matmul --weight-d", {"--weight-dtype"}),
        ("roofline hw show h100 --j", {"--json"}),
        ("roofline help me", {"measure"}),
        ("roofline hw ", {"list", "show"}),
        ("roofline hw s", {"show"}),
        ("roofline model ", {"list", "show"}),
        ("roofline comm all", {"allreduce", "allgather"}),
        ("roofline comm ", {"allreduce", "allgather", "reducescatter"}),
        ("roofline op mat", {"matmul"}),
        ("roofline op ", kinds),
        ("roofline op --hw ", hw_ids | hw_aliases),
        ("roofline decode --hw ", hw_ids | hw_aliases),
        ("roofline hw show ", hw_ids | hw_aliases),
        ("roofline hw show nvidia-h1", {i for i in hw_ids | hw_aliases if i.startswith("nvidia-h1")}),
        ("roofline op matmul --m 8 --hw h10", {i for i in hw_aliases if i.startswith("h10")}),
        ("roofline decode --model ", model_ids | {"llama3-local.json", "trace.json"}),
        ("roofline mfu --model llama3-", {i for i in model_ids if i.startswith("llama3-")}
         | {"llama3-local.json"}),
        ("roofline model show gpt", {i for i in model_ids if i.startswith("gpt")}),
        ("roofline trace tr", {"trace.json"}),
        ("roofline op matmul --m 4096 tr", {"trace.json"}),
    ]
    lines = [c for c, _ in cases]
    with tempfile.TemporaryDirectory() as tmp:
        for f in ("llama3-local.json", "trace.json"):
            open(os.path.join(tmp, f), "w").close()
        shells = [("bash", bash_complete(a.bash, lines, tmp))]
        if a.zsh and shutil.which("zsh"):
            shells.append(("zsh", zsh_complete(a.zsh, rl, lines, tmp)))
        elif a.zsh:
            print("completion: zsh is absent; only bash is tested (scripts/deb-packages.txt "
                  "installs zsh)")
    for shell, got in shells:
        for line, want in cases:
            have = set(got.get(line, []))
            check(have == want, "%s: '%s' completed to %s; want %s" % (
                shell, line, sorted(have)[:12], sorted(want)[:12]))
    print("completion: %d passed, %d failed (%s)" % (check.passed, check.failed, ", ".join(s for s, _ in shells)))
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
