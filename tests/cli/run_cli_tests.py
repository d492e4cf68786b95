#!/usr/bin/env python3
"""Run the golden cases (tests/golden/*.golden) against the `roofline` binary
as a subprocess, the way a user or a script runs it.

For each success case: exit 0, nothing on stderr, stdout is JSON with the
expected figures (--json added); the same command without --json prints a
readable result that carries no "nan" or "inf"; with --csv (where the command
has it) the output parses as CSV. For each error case: exit status as
expected, exactly one line on stderr containing the text, nothing on stdout.

Format of the cases: tests/golden/README.md. Ends with "N passed, M failed".
"""
import argparse
import csv
import glob
import io
import json
import math
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from trace_invariants import invariants  # noqa: E402
# the --json contract's version (cli/cli.h: CLI_SCHEMA_VERSION)
with open(os.path.join(ROOT, "cli", "cli.h"), encoding="utf-8") as _f:
    SCHEMA_VERSION = int(re.search(r"^#define CLI_SCHEMA_VERSION (\d+)$", _f.read(), re.M).group(1))


def parse_cases(path):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            tok = shlex.split(s)
            if "=>" not in tok:
                raise SystemExit(f"{path}:{n}: no '=>' in case")
            k = tok.index("=>")
            yield tok[0], tok[1:k], tok[k + 1:], f"{os.path.basename(path)}:{n}"


def lookup(doc, path):
    cur = doc
    for seg in path.split("."):
        if isinstance(cur, list):
            if not seg.isdigit() or int(seg) >= len(cur):
                return KeyError
            cur = cur[int(seg)]
        elif isinstance(cur, dict):
            if seg not in cur:
                return KeyError
            cur = cur[seg]
        else:
            return KeyError
    return cur


def check_expect(doc, exp):
    """Return None if the expectation holds, else a message."""
    path, _, want = exp.partition("=")
    tol = None
    if "~" in want:
        want, tol = want.rsplit("~", 1)
    got = lookup(doc, path)
    if got is KeyError:
        return f"no '{path}' in the output"
    if want == "null":
        return None if got is None else f"{path} = {got!r}, want null"
    if want in ("true", "false"):
        return None if got is (want == "true") else f"{path} = {got!r}, want {want}"
    try:
        w = float(want)
    except ValueError:
        return None if got == want else f"{path} = {got!r}, want {want!r}"
    if not isinstance(got, (int, float)) or isinstance(got, bool):
        return f"{path} = {got!r} is not a number (want {want})"
    t = 1e-9 * (abs(w) if w else 1)
    if tol:
        t = float(tol[:-1]) / 100 * abs(w) if tol.endswith("%") else float(tol)
    return None if abs(got - w) <= t else f"{path} = {got!r}, want {want}~{tol or '1e-9'}"


def run(binary, args):
    p = subprocess.run([binary] + args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


SCHEMA_DIR = os.path.join(ROOT, "docs", "schema")


class Schemas:
    """docs/schema/COMMAND.json (JSON Schema 2020-12, python3-jsonschema): every
    --json document must validate against the schema its "command" names."""

    def __init__(self):
        import jsonschema
        self.validator = {}
        for path in sorted(glob.glob(os.path.join(SCHEMA_DIR, "*.json"))):
            with open(path, encoding="utf-8") as f:
                schema = json.load(f)
            jsonschema.Draft202012Validator.check_schema(schema)
            self.validator[os.path.basename(path)[:-5]] = jsonschema.Draft202012Validator(schema)
        self.used = set()
        # keys of the records generated from the library's field tables
        # (src/core/record.h): every one must turn up in some document
        self.seen = {name: set() for name in self.generated()}

    def generated(self):
        """{schema name: {(where, key)}}: the keys of the generated records
        (the whole document where the $comment says it is generated from the
        field tables, else its $defs that are)."""
        out = {}
        for name, v in self.validator.items():
            s = v.schema
            note = s.get("$comment", "")
            if "src/core/record.h" not in note:
                continue
            keys = {(d, k) for d, rec in s.get("$defs", {}).items() for k in rec.get("properties", {})}
            if note.startswith("generated"):
                keys |= {("", k) for k in s["properties"]}
            out[name] = keys
        return out

    def walk(self, name, schema, node, doc, where):
        """Note the keys of doc, an instance of node (within schema)."""
        if doc is not None and "anyOf" in node:  # a record or null: the record
            node = next((n for n in node["anyOf"] if "$ref" in n), node)
        ref = node.get("$ref", "")
        if ref.startswith("#/$defs/"):
            where = ref[len("#/$defs/"):]
            node = schema["$defs"][where]
        if isinstance(doc, dict):
            props = node.get("properties")
            for k, v in doc.items():
                if props is not None and k in props:
                    self.seen[name].add((where, k))
                    self.walk(name, schema, props[k], v, where)
                elif isinstance(node.get("additionalProperties"), dict):
                    self.walk(name, schema, node["additionalProperties"], v, where)
        elif isinstance(doc, list) and isinstance(node.get("items"), dict):
            for v in doc:
                self.walk(name, schema, node["items"], v, where)

    def unseen(self):
        """The generated keys no document held: 'schema: where.key'."""
        gen = self.generated()
        return sorted(f"docs/schema/{n}.json: {(w + '.') if w else ''}{k}"
                      for n, keys in gen.items() for w, k in keys - self.seen[n])

    def check(self, doc):
        """None when doc validates, else a message naming the first problems."""
        if not isinstance(doc, dict) or not isinstance(doc.get("command"), str):
            return "not an object with a \"command\""
        if doc.get("schema_version") != SCHEMA_VERSION:
            return f"schema_version {doc.get('schema_version')!r}, want {SCHEMA_VERSION}"
        name = doc["command"].replace(" ", "-")
        v = self.validator.get(name)
        if v is None:
            return f"no docs/schema/{name}.json"
        self.used.add(name)
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))[:3]
        if not errs and name in self.seen:
            self.walk(name, v.schema, v.schema, doc, "")
        return "; ".join(f"docs/schema/{name}.json: at /{'/'.join(map(str, e.absolute_path))}: "
                         f"{e.message[:160]}" for e in errs) or None


def golden_sources():
    """The name prefixes of tests/golden/README.md's table of sources."""
    with open(os.path.join(ROOT, "tests", "golden", "README.md"), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("## Sources"):]
    return {p for row in re.findall(r"^\| (`[^|]*)\|", table, re.M)
            for p in re.findall(r"`([\w.-]+)`", row)}


BAD_NUMBER = re.compile(r"(?<![\w-])-?(nan|inf)(?![\w-])")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    binary = os.path.abspath(a.roofline)
    files = a.files or sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.golden")))
    passed = failed = 0
    schemas = Schemas()

    def bad(where, name, msg):
        nonlocal failed
        failed += 1
        print(f"FAIL {where} {name}: {msg}", file=sys.stderr)

    sources, seen = golden_sources(), {}
    for path in files:
        for name, args, expects, where in parse_cases(path):
            # a case's name says where its figures come from (tests/golden/README.md)
            if name.split(".")[0] not in sources:
                bad(where, name, "the name's first part names no source of tests/golden/README.md")
            if name in seen:
                bad(where, name, f"the name is used twice (also {seen[name]})")
            seen[name] = where
            want_exit = next((int(e[5:]) for e in expects if e.startswith("exit=")), 0)
            if want_exit:
                rc, out, err = run(binary, args)
                text = next((e[7:] for e in expects if e.startswith("stderr~")), None)
                msgs = []
                if rc != want_exit:
                    msgs.append(f"exit {rc}, want {want_exit}")
                if out:
                    msgs.append(f"stdout not empty: {out[:80]!r}")
                if err.count("\n") != 1 or not err.endswith("\n"):
                    msgs.append(f"stderr is not one line: {err!r}")
                if not err.startswith("roofline"):
                    msgs.append(f"stderr does not name the tool: {err!r}")
                if text and text not in err:
                    msgs.append(f"stderr {err.strip()!r} lacks {text!r}")
                if msgs:
                    bad(where, name, "; ".join(msgs))
                else:
                    passed += 1
                continue
            rc, out, err = run(binary, args + ["--json"])
            if rc != 0 or err:
                bad(where, name, f"exit {rc}, stderr {err.strip()!r}")
                continue
            try:
                doc = json.loads(out)
            except ValueError as e:
                bad(where, name, f"--json output is not JSON: {e}")
                continue
            msgs = [m for m in (check_expect(doc, e) for e in expects) if m]
            m = schemas.check(doc)
            if m:
                msgs.append(m)
            # the readable output: exit 0, no NaN or infinity printed
            rc2, out2, err2 = run(binary, args)
            if rc2 != 0 or err2 or not out2.strip():
                msgs.append(f"readable output: exit {rc2}, stderr {err2.strip()!r}")
            elif BAD_NUMBER.search(out2):
                msgs.append("readable output prints nan/inf")
            # issue 24's invariants of every trace report (tests/trace_invariants.py)
            msgs += invariants(doc, out2 if rc2 == 0 else None)
            if msgs:
                bad(where, name, "; ".join(msgs))
            else:
                passed += 1
    # documents no golden case prints (machine-dependent or long) against their schema
    for args in (["hw", "list"], ["hw", "list", "--hw-file", "tests/data/hw_custom.csv"],
                 ["measure", "--quick", "--kernel", "peak"]):
        rc, out, err = run(binary, args + ["--json"])
        m = f"exit {rc}" if rc else schemas.check(json.loads(out))
        if m:
            bad("schema", " ".join(args), m)
        else:
            passed += 1
    # the measure record with every part filled (tests/unit/test_measure.c
    # writes it), in the command's envelope
    with open(os.path.join(ROOT, "tests", "data", "measure_record.json"), encoding="utf-8") as f:
        m = schemas.check({"schema_version": SCHEMA_VERSION, "command": "measure", **json.load(f)})
    if m:
        bad("schema", "tests/data/measure_record.json", m)
    else:
        passed += 1
    # every key of a generated record was written by some case (a job's
    # stragglers, collectives and failed files need several ranks:
    # test_trace_job.py checks trace-job.json on its synthesised jobs)
    for where in schemas.unseen():
        if "/trace-job.json" in where:
            continue
        bad("schema", where, "no document holds this key")
    # every schema describes a command the tests ran
    for name in sorted(set(schemas.validator) - schemas.used):
        bad("schema", name, f"docs/schema/{name}.json was not exercised by any test")
    # --csv where the command supports it: the output is well-formed CSV with a header
    for args in (["op", "add", "--n", "1e6", "--hw", "h100"], ["layer", "--hw", "h200"], ["hw", "list"],
                 ["kernel", "--flops", "1e9", "--bytes", "1e6", "--hw", "b200"]):
        rc, out, err = run(binary, args + ["--csv"])
        rows = list(csv.reader(io.StringIO(out))) if rc == 0 else []
        if rc != 0 or len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows):
            bad("csv", " ".join(args), f"exit {rc}, {out[:120]!r} {err!r}")
        else:
            passed += 1
    # trace --csv: the rows of --json, a CPU trace's with their level and working set,
    # a GPU trace's with those cells empty
    for args in (["trace", "tests/fixtures/traces/pytorch_cpu_cnn.json.gz", "--hw", "measured",
                  "--hw-file", "tests/data/hw_cpu.csv"],
                 ["trace", "tests/fixtures/traces/pytorch_kineto_2024_a100_ddp_nccl.json.gz"]):
        rc, out, err = run(binary, args + ["--csv", "--top", "100000"])
        rc2, js, _ = run(binary, args + ["--json", "--top", "100000"])
        rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
        jr = json.loads(js)["rows"] if rc2 == 0 else []
        got = [(r["name"], r["level"], r["working_set_bytes"]) for r in rows]
        want = [(r["name"], r.get("level", ""), repr(float(r["working_set"])) if "working_set" in r else "")
                for r in jr]
        if rc != 0 or not rows or [(n, lv, float(w) if w else "") for n, lv, w in got] != \
                [(n, lv, float(w) if w else "") for n, lv, w in want]:
            bad("csv", " ".join(args), f"exit {rc}, {got[:3]} vs {want[:3]} {err!r}")
        else:
            passed += 1
    # --require-fit: a model that does not fit still prints its answer, and exits 1
    # with one line on stderr; one that fits exits 0
    for args, want in ((["decode", "--model", "llama3-70b", "--batch", "1"], 1),
                       (["decode", "--model", "llama3-8b", "--context", "4096", "--batch", "119,120"], 1),
                       (["prefill", "--model", "llama3-70b", "--prompt", "512"], 1),
                       (["decode", "--model", "llama3-70b", "--batch", "1", "--tp", "2"], 0)):
        for extra in ([], ["--json"]):
            rc, out, err = run(binary, args + ["--require-fit"] + extra)
            ok = rc == want and out.strip() and (err.count("\n") == 1 and "does not fit" in err if want else not err)
            if ok and not extra:
                ok = ("DOES NOT FIT" in out.splitlines()[0]) == (want == 1)
            if not ok:
                bad("require-fit", " ".join(args + extra), f"exit {rc}, want {want}; {err!r}")
            else:
                passed += 1
    # a user's row without vendor and form factor prints no empty "( , )"; the text
    # says "query head" for one query head per K/V head
    rc, out, _ = run(binary, ["hw", "show", "bf16-only", "--hw-file", "tests/fixtures/models/hw-bf16-only.csv"])
    if rc or "(" in out.splitlines()[0]:
        bad("text", "hw show without vendor", repr(out.splitlines()[:1]))
    else:
        passed += 1
    rc, out, _ = run(binary, ["decode", "--model", "llama2-7b", "--context", "16", "--batch", "1"])
    if rc or "serves 1 query head)" not in out:
        bad("text", "one query head per K/V head", "plural")
    else:
        passed += 1
    # a kernel in an anonymous namespace ("void at::native::(anonymous
    # namespace)::max_pool_backward_nchw<...>(...)"): the table shows its
    # function (rl_kernel_display_name), not "at::native::" as it once did
    rc, out, _ = run(binary, ["trace", "tests/fixtures/traces/pytorch_kineto_2025_mi300x_ddp_resnet_act_checkpoint.json.gz"])
    cells = [m.group(1) for m in (re.match(r"\d+ +(\S+)", ln) for ln in out.splitlines()) if m]
    if rc or "at::native::max_pool_backward_nchw<>" not in cells or "at::native::" in cells:
        bad("text", "trace: an (anonymous namespace) kernel's name in the table", repr(cells[:4]))
    else:
        passed += 1
    # plan --batching static: every row agrees with `decode` and `prefill` run at its batch
    # and formats (continuous batching's rows are checked against a simulation:
    # tests/python/test_plan_continuous.py)
    for plan in (["--model", "llama3-70b", "--prompt", "2048", "--gen", "64", "--ttft", "1s",
                  "--tpot", "30ms", "--weight-dtype", "bf16,int4", "--kv-dtype", "bf16,fp8"],
                 ["--model", "mixtral-8x7b", "--prompt", "512", "--gen", "32", "--tpot", "40ms",
                  "--gpus", "4", "--hw", "h200"],
                 # pipeline stages (uneven: 80 layers over 3) and expert parallelism
                 ["--model", "llama3-70b", "--prompt", "1024", "--gen", "64", "--ttft", "2s",
                  "--tpot", "60ms", "--gpus", "8", "--pp", "1,2,3", "--tp", "1,2"],
                 ["--model", "mixtral-8x7b", "--prompt", "512", "--gen", "32", "--tpot", "40ms",
                  "--gpus", "8", "--ep", "1,2,4", "--pp", "1,2", "--tp", "1,2", "--hw", "h200"]):
        rc, out, err = run(binary, ["plan", "--batching", "static"] + plan + ["--json"])
        doc = json.loads(out) if rc == 0 else {"rows": []}
        if rc != 0 or not any(r["batch"] > 0 for r in doc["rows"]):
            bad("plan", " ".join(plan), f"exit {rc}, {err!r}")
        hw = plan[plan.index("--hw"):plan.index("--hw") + 2] if "--hw" in plan else []
        for r in doc["rows"]:
            if r["batch"] == 0:
                continue
            fmt = ["--model", plan[1], "--tp", str(r["tp"]), "--pp", str(r["pp"]), "--ep", str(r["ep"]),
                   "--weight-dtype", r["weight_dtype"], "--kv-dtype", r["kv_dtype"]] + hw
            rc1, o1, _ = run(binary, ["decode"] + fmt + ["--batch", str(r["batch"]), "--context",
                             str(doc["prompt"] + doc["gen"]), "--json"])
            rc2, o2, _ = run(binary, ["prefill"] + fmt + ["--batch", str(r["batch"]), "--prompt",
                             str(doc["prompt"]), "--new-tokens", str(doc["gen"]), "--json"])
            if rc1 or rc2:
                bad("plan", f"row {r}", "decode or prefill failed")
                continue
            d, p = json.loads(o1), json.loads(o2)
            same = (d["rows"][0]["step_time_s"] == r["tpot_s"] and p["ttft_s"] == r["ttft_s"]
                    and p["e2e_time_s"] == r["e2e_s"] and d["rows"][0]["fits"] and p["fits"]
                    and d["rows"][0]["memory_bytes"] == r["memory_bytes"]
                    and d["rows"][0]["microbatches"] == r["microbatches"])
            if same:
                passed += 1
            else:
                bad("plan", f"tp {r['tp']} pp {r['pp']} ep {r['ep']} {r['weight_dtype']}/{r['kv_dtype']} batch {r['batch']}",
                    "differs from decode/prefill at that batch")
    # help: `roofline CMD --help` and `roofline help CMD` print the same text
    rc, out, _ = run(binary, ["--help"])
    cmds = re.findall(r"^  (\w+)\s", out, re.M)
    if rc != 0 or not cmds:
        bad("help", "--help", "no command list")
    for c in cmds:
        r1 = run(binary, [c, "--help"])
        r2 = run(binary, ["help", c])
        if r1[0] != 0 or r1[1] != r2[1] or not r1[1].startswith("usage: roofline " + c):
            bad("help", c, "--help and `help CMD` differ or lack a usage line")
        else:
            passed += 1
    print(f"cli: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
