#!/usr/bin/env python3
"""The manual page roofline(1) and the bash and zsh completions, generated
from the command's own help text and its options' declarations, so that
they cannot drift from them.

    gen_docs.py --roofline build/roofline --man OUT.1 --bash OUT --zsh OUT

The command list is the "commands:" block of `roofline --help` (printed
from the CLI's command table); each command's page is `roofline CMD --help`
verbatim, then its options as declared (cli/options.c, printed by `roofline
help --options`: name, short letter, placeholder, help). The completions
offer the commands, then the flags declared for that command (long and
short), then file names; and where a command's usage lines
name a word or a placeholder, its values: subcommands (`hw list|show`,
`comm allreduce|...`), the op kinds of `roofline op --help` (printed from
the op schema) for KIND, the hardware and model ids of `roofline hw list
--json` and `model list --json` for `hw show ID`, `model show ID|PATH`
and after `--hw ID` and `--model ID|PATH` (and file names where PATH).
"""
import json
import argparse
import re
import subprocess
import sys


def run_help(roofline, *args):
    p = subprocess.run([roofline, *args, "--help"], capture_output=True,
                       text=True, check=False)
    if p.returncode != 0 or not p.stdout.strip():
        sys.exit("gen_docs: `%s %s --help` failed (exit %d): %s" % (
            roofline, " ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def parse_commands(overview):
    """[(name, summary)] from the "commands:" block of the overview."""
    cmds, inside = [], False
    for line in overview.splitlines():
        if line.strip() == "commands:":
            inside = True
            continue
        if inside:
            m = re.match(r"^  ([a-z][a-z0-9-]*)\s{2,}(.*)$", line)
            if not m:
                break
            cmds.append((m.group(1), m.group(2).strip()))
    if not cmds:
        sys.exit("gen_docs: no 'commands:' block in `roofline --help`")
    return cmds


def run_options(roofline):
    """{command: [(name, letter or None, placeholder or None, help)]}, in the
    declarations' order, from `roofline help --options`."""
    p = subprocess.run([roofline, "help", "--options"], capture_output=True,
                       text=True, check=False)
    if p.returncode != 0 or not p.stdout.strip():
        sys.exit("gen_docs: `%s help --options` failed (exit %d): %s" % (
            roofline, p.returncode, p.stderr.strip()))
    out = {}
    for line in p.stdout.splitlines():
        cmd, name, letter, arg, help_ = line.split("\t", 4)
        out.setdefault(cmd, []).append((name, None if letter == "-" else letter,
                                        None if arg == "-" else arg, help_))
    return out


def option_flags(opts):
    """The flags of one command's declarations: --long, then -x short forms."""
    flags = ["--" + name for name, _, _, _ in opts]
    return flags + [letter for _, letter, _, _ in opts if letter]


def run_json(roofline, *args):
    p = subprocess.run([roofline, *args, "--json"], capture_output=True,
                       text=True, check=False)
    if p.returncode != 0:
        sys.exit("gen_docs: `%s %s --json` failed (exit %d): %s" % (
            roofline, " ".join(args), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/+-]*$")  # safe inside shell quotes


def words(items, what):
    bad = [w for w in items if not WORD.match(w)]
    if bad:
        sys.exit("gen_docs: %s %r cannot be completed safely" % (what, bad[0]))
    return items


def id_lists(roofline):
    """{"hw": ids and aliases, "model": ids} from the commands' own lists."""
    hw = []
    for row in run_json(roofline, "hw", "list")["rows"]:
        hw += [row["id"]] + [a for a in row.get("aliases") or [] if a not in hw]
    models = [row["id"] for row in run_json(roofline, "model", "list")["rows"]]
    return {"hw": words(hw, "hardware id"), "model": words(models, "model id")}


def op_kinds(op_help):
    """The kinds of the "kinds ..." block of `roofline op --help`: its lines of
    two-space indent made only of kind names."""
    kinds, inside = [], False
    for line in op_help.splitlines():
        if line.startswith("kinds"):
            inside = True
            continue
        if inside and not line.strip():
            break
        if inside and re.match(r"^  [a-z]", line):
            toks = line.split()
            if all(re.match(r"^[a-z][a-z0-9-]*$", t) for t in toks):
                kinds += toks
    if not kinds:
        sys.exit("gen_docs: no op kinds in `roofline op --help`")
    return kinds


def usage_lines(cmd, text):
    """The words after `roofline CMD` on each usage line of a help text."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(?:usage:)?\s*roofline %s\b(.*)$" % re.escape(cmd), line)
        if m:
            out.append(m.group(1).split())
        elif out and not line.startswith(" "):
            break
    return out


def values(cmd, placeholder, lists, kinds):
    """(words, files) a placeholder of `cmd`'s usage stands for; None: files."""
    alts = placeholder.strip("[]").split("|")
    got, files = [], False
    for a in alts:
        if a == "KIND" and cmd == "op":
            got += kinds
        elif a.startswith("ID") and cmd in lists:
            got += lists[cmd]
        elif a.rstrip(".") in ("PATH", "FILE", "DIR"):
            files = True
    return (got, files) if got else None


def positionals(cmds, helps, lists, kinds):
    """{cmd: {"": (words, files), SUB: (words, files)}}: what the word after the
    command (key "") and after each of its subcommands (key SUB) is."""
    table = {}
    for c, _ in cmds:
        entry = {}
        for toks in usage_lines(c, helps[c]):
            if not toks or toks[0][0] in "-[(":
                continue
            t0 = toks[0]
            if re.match(r"^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$", t0):
                subs = t0.split("|")
                w, f = entry.get("", ([], False))
                entry[""] = (w + [x for x in subs if x not in w], f)
                if len(toks) > 1 and toks[1][0].isupper():
                    v = values(c, toks[1], lists, kinds)
                    if v:
                        for x in subs:
                            entry[x] = v
            elif t0[0].isupper():
                v = values(c, t0, lists, kinds)
                if v:
                    entry[""] = v
        if entry:
            table[c] = entry
    return table


def flag_values(options, lists):
    """{flag: (words, files)} for flags declared to take an id of a list:
    `--hw ID`, `--model ID|PATH`."""
    out = {}
    for opts in options.values():
        for flag, _, ph, _ in opts:
            if ph and ph.startswith("ID") and flag in lists and flag not in out:
                out[flag] = (lists[flag], "PATH" in ph)
    return out


def troff(text):
    out = []
    for line in text.rstrip("\n").splitlines():
        line = line.replace("\\", "\\e").replace("-", "\\-")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line if line.strip() else "")
    return "\n".join(out)


def man_options(cmds, options):
    """OPTIONS: each command's declared options, as man(7) tagged paragraphs."""
    parts = [".SH OPTIONS",
             "Each command's options as declared once in the command's source "
             "(cli/options.c), from which its \\fB\\-\\-help\\fR lists them."]
    for name, _ in cmds:
        parts.append(".SS %s" % name)
        for flag, letter, arg, help_ in options.get(name, []):
            head = ("\\fB\\-%s\\fR, " % letter[1:] if letter else "") + "\\fB%s\\fR" % troff("--" + flag)
            if arg:
                head += " \\fI%s\\fR" % troff(arg)
            parts += [".TP", head, troff(help_)]
    return parts


def man_page(overview, cmds, helps, version, options):
    title = overview.splitlines()[0]
    name_line = title.split(" -- ", 1)[1] if " -- " in title else title
    name_line = name_line.rstrip(",")
    parts = [
        '.TH ROOFLINE 1 "" "roofline %s" "User Commands"' % version,
        ".SH NAME",
        "roofline \\- " + troff(name_line.strip()),
        ".SH SYNOPSIS",
        ".B roofline",
        ".I COMMAND",
        "[flags]",
        ".br",
        ".B roofline help",
        ".I COMMAND",
        ".SH DESCRIPTION",
        "The text below is the command's own help: \\fBroofline \\-\\-help\\fR "
        "and, for each command, \\fBroofline\\fR \\fICOMMAND\\fR "
        "\\fB\\-\\-help\\fR.",
        ".PP",
        ".nf",
        troff(overview),
        ".fi",
        ".SH COMMANDS",
    ]
    for name, summary in cmds:
        parts += [".SS %s" % name, troff(summary), ".PP", ".nf",
                  troff(helps[name]), ".fi"]
    parts += man_options(cmds, options)
    parts += [
        ".SH EXIT STATUS",
        "0 on success; 2 for bad input (unknown hardware, malformed units or "
        "files), with one line on standard error naming what is wrong.",
        ".SH SEE ALSO",
        "The README of the roofline project; \\fBpkg\\-config\\fR(1) for "
        "building against libroofline (\\fBpkg\\-config \\-\\-cflags \\-\\-libs "
        "roofline\\fR).",
    ]
    return "\n".join(parts) + "\n"


def bash_words(v, lists):
    """A bash expression completing (words, files) for $cur; an id list by
    its variable."""
    w, files = v
    name = next((k for k, ids in lists.items() if ids == w), None)
    out = '$(compgen -W "%s" -- "$cur")' % ("$ids_" + name if name else " ".join(w))
    return out + (' $(compgen -f -- "$cur")' if files else "")


def bash_completion(cmds, flags, pos, fvals, lists):
    lines = [
        "# bash completion for roofline (generated by tools/gen_docs.py from",
        "# `roofline --help`, each command's --help, `hw list` and `model list`;",
        "# do not edit)",
        "_roofline() {",
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
        "  local cmd=${COMP_WORDS[1]} words",
    ]
    lines += ['  local ids_%s="%s"' % (k, " ".join(v)) for k, v in sorted(lists.items())]
    lines += [
        "  if [ \"$COMP_CWORD\" -eq 1 ]; then",
        "    words=\"%s\"" % " ".join(["help"] + [c for c, _ in cmds]),
        "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
        "    return",
        "  fi",
        "  case $prev in",
    ]
    for f, v in sorted(fvals.items()):
        lines.append("    --%s) COMPREPLY=(%s); return ;;" % (f, bash_words(v, lists)))
    lines += [
        "  esac",
        "  if [[ $cur != -* ]]; then",
        "    case $COMP_CWORD:$cmd:${COMP_WORDS[2]} in",
    ]
    for c, entry in sorted(pos.items()):
        for sub, v in sorted(entry.items()):
            pat = "2:%s:*" % c if sub == "" else "3:%s:%s" % (c, sub)
            lines.append("      %s) COMPREPLY=(%s); return ;;" % (pat, bash_words(v, lists)))
    lines += [
        "    esac",
        "  fi",
        "  case $cmd in",
    ]
    for c, _ in cmds:
        lines.append("    %s) words=\"%s\" ;;" % (c, " ".join(flags[c])))
    lines += [
        "    help) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;"
        % " ".join(c for c, _ in cmds),
        "    *) words= ;;",
        "  esac",
        "  if [[ $cur == -* ]]; then",
        "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
        "  else",
        "    COMPREPLY=($(compgen -f -- \"$cur\"))",
        "  fi",
        "}",
        "complete -o filenames -F _roofline roofline",
    ]
    return "\n".join(lines) + "\n"


def zsh_words(v, lists):
    w, files = v
    name = next((k for k, ids in lists.items() if ids == w), None)
    add = "compadd -a ids_" + name if name else "compadd -- " + " ".join(w)
    return add + ("; _files" if files else "")


def zsh_completion(cmds, flags, pos, fvals, lists):
    def q(s):
        return s.replace("'", "'\\''").replace(":", "\\:")
    lines = [
        "#compdef roofline",
        "# zsh completion for roofline (generated by tools/gen_docs.py from",
        "# `roofline --help`, each command's --help, `hw list` and `model list`;",
        "# do not edit)",
        "local -a commands",
        "commands=(",
    ]
    lines += ["  '%s:%s'" % (c, q(s)) for c, s in cmds]
    lines += [
        "  'help:the help of one command'",
        ")",
        "if (( CURRENT == 2 )); then",
        "  _describe -t commands 'roofline command' commands",
        "  return",
        "fi",
        "local -a %s" % " ".join("ids_" + k for k in sorted(lists)),
    ]
    lines += ["ids_%s=(%s)" % (k, " ".join(v)) for k, v in sorted(lists.items())]
    lines += [
        "case ${words[CURRENT-1]} in",
    ]
    for f, v in sorted(fvals.items()):
        lines.append("  --%s) %s; return ;;" % (f, zsh_words(v, lists)))
    lines += [
        "esac",
        "if [[ ${words[CURRENT]} != -* ]]; then",
        "  case $CURRENT:${words[2]}:${words[3]} in",
    ]
    for c, entry in sorted(pos.items()):
        for sub, v in sorted(entry.items()):
            pat = "3:%s:*" % c if sub == "" else "4:%s:%s" % (c, sub)
            lines.append("    %s) %s; return ;;" % (pat, zsh_words(v, lists)))
    lines += [
        "  esac",
        "fi",
        "local -a flags",
        "case ${words[2]} in",
    ]
    for c, _ in cmds:
        lines.append("  %s) flags=(%s) ;;" % (c, " ".join(flags[c])))
    lines += [
        "  help) _describe -t commands 'roofline command' commands; return ;;",
        "esac",
        "if [[ ${words[CURRENT]} == -* ]]; then",
        "  compadd -a flags",
        "else",
        "  _files",
        "fi",
    ]
    return "\n".join(lines) + "\n"


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roofline", required=True)
    ap.add_argument("--man")
    ap.add_argument("--bash")
    ap.add_argument("--zsh")
    a = ap.parse_args()
    overview = run_help(a.roofline)
    cmds = parse_commands(overview)
    helps = {c: run_help(a.roofline, c) for c, _ in cmds}
    options = run_options(a.roofline)
    missing = [c for c, _ in cmds if c not in options]
    if missing:
        sys.exit("gen_docs: no options declared for %s" % ", ".join(missing))
    flags = {c: option_flags(options[c]) for c, _ in cmds}
    m = re.search(r"Version (\d+\.\d+\.\d+)", overview)
    version = m.group(1) if m else "unknown"
    if a.man:
        write(a.man, man_page(overview, cmds, helps, version, options))
    if a.bash or a.zsh:
        lists = id_lists(a.roofline)
        pos = positionals(cmds, helps, lists, op_kinds(helps["op"]))
        fvals = flag_values(options, lists)
    if a.bash:
        write(a.bash, bash_completion(cmds, flags, pos, fvals, lists))
    if a.zsh:
        write(a.zsh, zsh_completion(cmds, flags, pos, fvals, lists))


if __name__ == "__main__":
    main()
