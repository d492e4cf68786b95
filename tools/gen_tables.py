#!/usr/bin/env python3
"""Compile the declarative data files into C tables, and the JSON Schemas
of the records written from tables (the hardware columns, the record
tables).

    data/hardware.csv  ->  src/core/hw_table.inc
    data/models.csv    ->  src/core/model_table.inc
    data/custom_ops.csv ->  src/core/custom_table.inc
    src/core/hw.c      ->  docs/schema/hw-show.json, docs/schema/hw-list.json
    record tables      ->  docs/schema/measure.json, trace-job.json, trace.json

Usage: gen_tables.py [--records BUILD/tools/dump_records]          write the generated files
       gen_tables.py [--records BUILD/tools/dump_records] --check  exit 1 if one is not current

The hardware columns (CSV name, rl_hw field, unit of a bare number, JSON key,
label and description) are read from their one definition, the column table
in src/core/hw.c; the table is emitted as designated initializers, the record's
schema with one key per column. Each cell may carry its own unit ("32GiB",
"3.35TB/s"); a bare number is in the column's unit. The units and the words
each accepts are read from the C library's src/core/units.c (unit_text,
unit_matches), whose parsing rules these follow; tests/unit/test_core.c checks
that rl_hw_parse_csv reads data/hardware.csv into exactly the compiled table,
so the two cannot drift apart.

The JSON records that `measure`, `trace job` and `trace` write are built from
field tables in the C library (src/core/record.h: one row per key with its
type, unit, meaning and when it is null or left out); the writers walk those
tables, and tools/dump_records.c (built with the library, `make gen`) prints
them for this script, which turns each into a JSON Schema.
"""
import csv
import io
import json
import os
import re
from decimal import Decimal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def c_source(*parts):
    return open(os.path.join(ROOT, *parts), encoding="utf-8").read()


def c_args(text):
    """The arguments of a C macro call: string literals as str, NULL as None,
    anything else as its text."""
    args, i = [], 0
    while i < len(text):
        m = re.match(r'\s*("(?:[^"\\]|\\.)*"|[^,]*?)\s*(?:,|$)', text[i:], re.S)
        a = m.group(1)
        args.append(json.loads(a) if a.startswith('"') else None if a == "NULL" else a)
        i += m.end()
    return args


def units():
    """The units the C library reads, from src/core/units.c: {RL_UNIT_X: its
    text ("B/s")} (unit_text) and {text: the words accepted for it}
    (unit_matches; a count takes none)."""
    src = c_source("src", "core", "units.c")
    def switch(fn):
        body = src[src.index(fn):]
        return re.findall(r"case (RL_UNIT_\w+):(.*?)(?=case RL_UNIT_|\n  }\n)",
                          body[:body.index("\n}\n")], re.S)
    text = {u: re.search(r'return "(.*?)"', b).group(1) for u, b in switch("unit_text(rl_unit u)")}
    words = {text[u]: re.findall(r'strcmp\(w, "(.*?)"\)', b) or [""]
             for u, b in switch("unit_matches(const char *w, rl_unit u)")}
    return text, words


UNIT_OF, UNITS = units()


def enum_words(table):
    """An enum's words as the C library parses them, from its table in
    src/core/enums.c ({[RL_X] = "word", ...}): {word: "RL_X"}."""
    src = c_source("src", "core", "enums.c")
    body = re.search(r"\b" + table + r"\[\] = \{(.*?)\};", src, re.S).group(1)
    return {w: e for e, w in re.findall(r'\[(RL_\w+)\] = "(.*?)"', body)}


def hw_columns():
    """The hardware schema, read from its one definition: the column table in
    src/core/hw.c (one TEXT/PEAK/NUM/NUMJ/INT/BOOL row per CSV column, each
    macro's parameters named by its #define). Returns one dict per column:
    csv, kind, field (the C designator), scale, unit (its text), json (the key
    in rl_hw_json), label, suffix, note, doc (what a text or flag column
    holds); and the text columns' capacities from
    the rl_hw struct in include/roofline.h."""
    src = c_source("src", "core", "hw.c")
    params = {k: [a.strip() for a in v.split(",")] for k, v in
              re.findall(r"#define (TEXT|PEAK|NUMJ|NUM|INT|BOOL)\(([^)]*)\)", src)}
    table = src[src.index("static const hw_column columns[] = {"):]
    table = table[:table.index("\n};")]
    cols = []
    for kind, args in re.findall(r'\b(TEXT|PEAK|NUMJ|NUM|INT|BOOL)\(((?:"(?:[^"\\]|\\.)*"|[^()"])*)\)',
                                 table):
        a = dict(zip(params[kind], c_args(args)))
        col = {"csv": a["csv"], "kind": "NUM" if kind == "NUMJ" else kind,
               "scale": float(a.get("scale", 1)), "unit": UNIT_OF[a.get("unit", "RL_UNIT_COUNT")],
               "label": a.get("label"), "suffix": a.get("suffix"), "note": a.get("note"),
               "doc": a.get("doc")}
        if kind in ("TEXT", "BOOL") and not col["doc"] or kind in ("NUM", "NUMJ", "INT") and not col["label"]:
            sys.exit(f"src/core/hw.c: column {a['csv']} says nothing of what it holds")
        if kind == "PEAK":
            col.update(field=f".peak[{a['k']}]", json=a["csv"], scale=1e12,
                       unit=UNIT_OF["RL_UNIT_FLOP_S"])
        else:
            col.update(field=f".{a['f']}", json=a.get("json") or a["f"])
        cols.append(col)
    header = c_source("include", "roofline.h")
    defines = dict(re.findall(r"#define (RL_\w+_MAX) (\d+)", header))
    struct = header[header.index("typedef struct rl_hw {"):]
    struct = struct[:struct.index("} rl_hw;")]
    caps = {f: int(defines[c]) for f, c in re.findall(r"char (\w+)\[(RL_\w+)\];", struct)}
    return cols, {c["csv"]: caps[c["field"][1:]] for c in cols if c["kind"] == "TEXT"}


PREFIX = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}


def quantity(text, scale, unit, where):
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(.*?)\s*", text)
    if not m:
        sys.exit(f"{where}: '{text}' is not a number")
    # decimal arithmetic, rounded once: "66.9" TFLOP/s is 66900000000000, not
    # 66.9 * 1e12 = 66900000000000.01
    v = Decimal(m.group(1))
    rest = m.group(2)
    if not rest:
        return float(v * Decimal(scale))
    mul = 1.0
    if rest[:2] in BINARY:
        mul, rest = BINARY[rest[:2]], rest[2:]
    elif rest[:1] in PREFIX and (rest[1:] or not unit):
        mul, rest = PREFIX[rest[:1]], rest[1:]
    if rest not in UNITS[unit]:
        sys.exit(f"{where}: '{text}' is not in {unit}")
    return float(v * Decimal(mul))


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_num(v):
    return repr(float(v)) if v else "0"


def rows_of(path):
    with open(path, newline="", encoding="utf-8") as f:
        lines = [l for l in f if not l.lstrip().startswith("#") and l.strip()]
    return list(csv.DictReader(io.StringIO("".join(lines)))), len(lines)


def checked_rows(name, text_caps):
    """The rows of data/NAME with the checks every table shares: a unique id,
    a source, text that fits its C field. Yields (where, row)."""
    rows, _ = rows_of(os.path.join(ROOT, "data", name))
    seen = set()
    for n, r in enumerate(rows, 1):
        where = f"data/{name} row {n} ({r.get('id')})"
        if not r["id"] or r["id"] in seen:
            sys.exit(f"{where}: missing or duplicate id")
        seen.add(r["id"])
        if not r["source"].strip():
            sys.exit(f"{where}: every row needs a source")
        for k, cap in text_caps.items():
            if len(r[k].encode()) >= cap:
                sys.exit(f"{where}: {k} longer than {cap - 1} bytes")
        yield where, r


def gen_hw():
    cols, caps = hw_columns()
    out = ["/* Generated by tools/gen_tables.py from data/hardware.csv and the column",
           " * table in src/core/hw.c. Do not edit. */"]
    for where, r in checked_rows("hardware.csv", caps):
        missing = [c["csv"] for c in cols if c["csv"] not in r]
        if missing:
            sys.exit(f"data/hardware.csv: no column {', '.join(missing)} (src/core/hw.c has it)")
        items = []
        for c in cols:
            csv_name, kind, field, scale, unit = c["csv"], c["kind"], c["field"], c["scale"], c["unit"]
            cell = r[csv_name].strip()
            if kind == "TEXT":
                items.append(f"{field} = {c_str(r[csv_name])}")
            elif kind in ("INT", "BOOL"):
                if cell and not re.fullmatch(r"[0-9]+", cell):
                    sys.exit(f"{where}: {csv_name} '{cell}' is not a whole number")
                if cell and int(cell):
                    items.append(f"{field} = {int(cell)}")
            elif cell:
                items.append(f"{field} = {c_num(quantity(cell, scale, unit, where))}")
        if not any(i.startswith(".mem_bw = ") for i in items):
            sys.exit(f"{where}: a device needs a memory bandwidth")
        out.append("{")
        out += [f"  {i}," for i in items]
        out.append("},")
    return [("src/core/hw_table.inc", "\n".join(out) + "\n")]


# ---- data/custom_ops.csv -> src/core/custom_table.inc ----------------------
# The kinds, roles and parameters src/core/trace_custom.c reads (its enums).
CUSTOM_KINDS = {"elementwise": "CK_ELEMENTWISE", "rotary": "CK_ROTARY", "attention": "CK_ATTENTION",
                "attention_paged": "CK_ATTENTION_PAGED", "collective": "CK_COLLECTIVE",
                "moe": "CK_MOE", "tbe": "CK_TBE", "uncovered": "CK_UNCOVERED"}
CUSTOM_ROLES = {"r": "CT_READ", "w": "CT_WRITE", "m": "CT_MODIFY", "o": "CT_OUTPUT"}
CUSTOM_PARAMS = ["q", "k", "v", "cu_q", "cu_k", "kv_pages", "max_q", "causal", "window", "paged",
                 "in", "rot", "head", "x", "logits", "weights", "uvm", "cache", "d_offsets", "indices",
                 "offsets", "pooling", "momentum", "momentum_uvm", "out_dtype"]
CUSTOM_COLLS = {"allreduce": "RLI_COLL_ALLREDUCE", "allgather": "RLI_COLL_ALLGATHER",
                "reducescatter": "RLI_COLL_REDUCESCATTER"}
CUSTOM_MAX_T = 12
CUSTOM_MAX_ARG = 32  # RLI_ATEN_MAX_IN: the arguments the reader keeps


def gen_custom():
    out = ["/* Generated by tools/gen_tables.py from data/custom_ops.csv. Do not edit. */"]
    rows = []
    for where, r in checked_rows("custom_ops.csv", {"name": 64, "reason": 200, "source": 400}):
        kind = r["kind"].strip()
        if kind not in CUSTOM_KINDS:
            sys.exit(f"{where}: kind must be one of {' '.join(CUSTOM_KINDS)}")
        items = [f".name = {c_str(r['name'].strip())}", f".kind = {CUSTOM_KINDS[kind]}"]
        def arg(v, what):
            if not re.fullmatch(r"[0-9]+", v) or int(v) >= CUSTOM_MAX_ARG:
                sys.exit(f"{where}: {what} '{v}' is not an argument index below {CUSTOM_MAX_ARG}")
            return int(v)
        ts = r["tensors"].split()
        if len(ts) > CUSTOM_MAX_T:
            sys.exit(f"{where}: more than {CUSTOM_MAX_T} tensors")
        tl = []
        for t in ts:
            m = re.fullmatch(r"([rwmo])([0-9]+)(?::([0-9]+))?(?:@([0-9.]+))?", t)
            if not m:
                sys.exit(f"{where}: tensor '{t}' is not ROLE ARG[:REF][@BYTES]")
            role, a, ref, es = m.groups()
            if ref is not None and role not in "rw":
                sys.exit(f"{where}: tensor '{t}': only r and w count another argument's elements")
            es_v = float(es) if es else 0.0
            if es and not 0 < es_v <= 8:
                sys.exit(f"{where}: tensor '{t}': @{es} is not an element size")
            tl.append(f"{{{CUSTOM_ROLES[role]}, {arg(a, 'tensor')}, "
                      f"{arg(ref, 'reference') if ref is not None else -1}, {c_num(es_v)}}}")
        if tl:
            items.append(f".nt = {len(tl)}, .t = {{{', '.join(tl)}}}")
        f, e = r["flops"].strip(), r["elems"].strip()
        if kind == "elementwise":
            try:
                fv = float(f or "0")
            except ValueError:
                sys.exit(f"{where}: flops '{f}' is not a number")
            if fv < 0 or (fv > 0 and not e):
                sys.exit(f"{where}: flops per element needs `elems`, the argument they count")
            items.append(f".flops = {c_num(fv)}, .elems = {arg(e, 'elems') if e else -1}")
        elif kind == "attention" and f and not e:
            try:
                fv = float(f)
            except ValueError:
                sys.exit(f"{where}: flops '{f}' is not a number")
            if not fv >= 1:
                sys.exit(f"{where}: an attention row's flops (times the forward's) is at least 1")
            items.append(f".flops = {c_num(fv)}")
        elif f or e:
            sys.exit(f"{where}: flops and elems are for elementwise rows (attention: flops alone, "
                     "times the forward's FLOPs)")
        params = {k: -1 for k in CUSTOM_PARAMS}
        extra = []
        for kv in r["params"].split():
            k, _, v = kv.partition("=")
            if k == "layout":
                if v not in ("bthd", "thd"):
                    sys.exit(f"{where}: layout must be bthd or thd")
                extra.append(f".bthd = {int(v == 'bthd')}")
            elif k == "coll":
                if v not in CUSTOM_COLLS:
                    sys.exit(f"{where}: coll must be one of {' '.join(CUSTOM_COLLS)}")
                extra.append(f".coll = {CUSTOM_COLLS[v]}")
            elif k == "args":
                if not re.fullmatch(r"[1-9][0-9]*", v) or int(v) > CUSTOM_MAX_ARG:
                    sys.exit(f"{where}: args '{v}' is not an argument count up to {CUSTOM_MAX_ARG}")
                extra.append(f".nargs = {int(v)}")
            elif k == "none":
                extra.append(f".none = {arg(v, k)}")
            elif k == "outputs":
                if v not in ("1", "2"):
                    sys.exit(f"{where}: outputs (of the hidden states' shape) must be 1 or 2")
                extra.append(f".outputs = {v}")
            elif k == "causal" and v.startswith("mask"):
                params[k] = arg(v[4:], k)
                extra.append(".causal_mask = 1")
            elif k in params:
                params[k] = arg(v, k)
            else:
                sys.exit(f"{where}: unknown parameter '{k}'")
        need = {"attention": ["q", "k", "v"], "attention_paged": ["q"], "collective": ["in"],
                "rotary": ["rot", "head"], "moe": ["x", "logits"],
                "tbe": ["weights", "d_offsets", "indices", "offsets", "momentum"]}.get(kind, [])
        for k in need:
            if params[k] < 0:
                sys.exit(f"{where}: a {kind} row needs the parameter {k}")
        if kind == "collective" and not any(x.startswith(".coll") for x in extra):
            sys.exit(f"{where}: a collective row needs coll=")
        if kind in ("attention", "attention_paged") and not any(x.startswith(".bthd") for x in extra) \
                and kind == "attention":
            sys.exit(f"{where}: an attention row needs layout=")
        if kind in ("uncovered", "moe") and not r["reason"].strip():
            sys.exit(f"{where}: an {kind} row says why (reason{' without the model' if kind == 'moe' else ''})")
        if kind not in ("uncovered", "moe") and r["reason"].strip():
            sys.exit(f"{where}: only uncovered and moe rows have a reason")
        if kind not in ("collective", "uncovered", "moe") and not tl:
            sys.exit(f"{where}: a {kind} row needs the tensors it reads and writes")
        if not any(x.startswith(".none") for x in extra):
            extra.append(".none = -1")
        items += [", ".join(f".{k} = {v}" for k, v in params.items())] + extra
        items.append(f".reason = {c_str(r['reason'].strip())}" if r["reason"].strip() else ".reason = NULL")
        items.append(f".source = {c_str(r['source'])}")
        rows.append((r["name"].strip(), items))
    rows.sort(key=lambda x: x[0].encode())
    for i in range(1, len(rows)):
        if rows[i][0] == rows[i - 1][0]:
            sys.exit(f"data/custom_ops.csv: op {rows[i][0]} has two rows")
    for _, items in rows:
        out.append("{")
        out += [f"  {i}," for i in items]
        out.append("},")
    return [("src/core/custom_table.inc", "\n".join(out) + "\n")]


def schema_version():
    """CLI_SCHEMA_VERSION of cli/cli.h: the one place the contract's version is set"""
    m = re.search(r"^#define CLI_SCHEMA_VERSION (\d+)$", c_source("cli", "cli.h"), re.M)
    if not m:
        sys.exit("gen_tables: cli/cli.h defines no CLI_SCHEMA_VERSION")
    return int(m.group(1))


ENVELOPE = {
    "schema_version": {"description": "version of the --json contract; raised when a key is renamed or "
                                      "removed or changes meaning", "const": schema_version()},
    "command": {"description": "the command that wrote the document"},
}


def hw_record_schema(cols):
    """The JSON Schema of one device as rl_hw_json writes it: the columns in
    table order, the peaks gathered into "peak" (FLOP/s) and "ridge" (FLOP/B)
    by format, aliases as a list, a figure the database lacks as null."""
    props = {}
    peaks = [c["json"] for c in cols if c["kind"] == "PEAK"]
    for c in cols:
        if c["kind"] == "PEAK":
            if "peak" not in props:
                for key, what in (("peak", "dense peak of each format the device has, FLOP/s (2:4 sparse "
                                           "peaks are twice the tensor ones where sparsity is true)"),
                                  ("ridge", "ridge point of each format: its peak / the memory bandwidth, "
                                            "FLOP/B")):
                    props[key] = {"description": what, "type": "object",
                                  "properties": {k: {"type": "number"} for k in peaks},
                                  "additionalProperties": False}
            continue
        if c["kind"] == "TEXT":
            p = {"type": "array", "items": {"type": "string"}} if c["json"] == "aliases" else \
                {"type": "string"}
            what = c["doc"]
        elif c["kind"] == "BOOL":
            p, what = {"type": "boolean"}, c["doc"]
        else:
            unit = c["unit"]
            if not unit and c["suffix"]:  # "GHz" at scale 1e9: Hz
                unit = c["suffix"][1:] if c["scale"] != 1 else c["suffix"]
            what = c["label"] + (" " + c["note"] if c["note"] else "") + (", " + unit if unit else "")
            what += "; null when not known"
            p = {"type": ["integer" if c["kind"] == "INT" else "number", "null"]}
        props[c["json"]] = {"description": what, **p}
    return props


def gen_hw_schemas():
    cols, _ = hw_columns()
    record = hw_record_schema(cols)
    note = ("generated by tools/gen_tables.py from the hardware column table in src/core/hw.c; "
            "do not edit")
    show = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$comment": note,
            "title": "roofline hw show --json", "type": "object",
            "properties": {**ENVELOPE, **record},
            "required": [*ENVELOPE, *record], "additionalProperties": False}
    show["properties"]["command"] = {**ENVELOPE["command"], "const": "hw show"}
    rows = {"description": "the result's rows, in the order the table prints them", "type": "array",
            "items": {"type": "object", "properties": record, "required": list(record),
                      "additionalProperties": False}}
    lst = {"$schema": show["$schema"], "$comment": note, "title": "roofline hw list --json",
           "type": "object",
           "properties": {**ENVELOPE, "command": {**ENVELOPE["command"], "const": "hw list"},
                          "rows": rows},
           "required": [*ENVELOPE, "rows"], "additionalProperties": False}
    return [("docs/schema/hw-show.json", json.dumps(show, indent=2) + "\n"),
            ("docs/schema/hw-list.json", json.dumps(lst, indent=2) + "\n")]


MODEL_INT = ["layers", "d_model", "heads", "kv_heads", "head_dim", "d_ff", "vocab", "max_seq",
             "experts", "experts_active"]
# optional whole numbers (empty = 0): sliding windows, Gemma 2's extra norms, DeepSeek's
# shared experts, dense first layers and multi-head latent attention
MODEL_OPT_INT = ["window", "window_layers", "norms_per_layer", "shared_experts", "dense_layers",
                 "dense_d_ff", "q_lora_rank", "kv_lora_rank", "rope_dim", "nope_dim", "v_head_dim",
                 "router_bias"]
MODEL_FLAGS = ["tied", "learned_pos"]
MODEL_BIAS = {"0": "0", "1": "1", "qkv": "RL_BIAS_QKV"}
MODEL_ENUMS = {"mlp": enum_words("mlp_names"), "norm": enum_words("norm_words")}
MODEL_ACTS = {"": "RL_ACT_DEFAULT", "silu": "RL_ACT_SILU", "gelu-tanh": "RL_ACT_GELU_TANH",
              "gelu-erf": "RL_ACT_GELU_ERF", "relu": "RL_ACT_RELU"}
MODEL_DTYPES = {"fp32": "RL_FP32", "bf16": "RL_BF16", "fp16": "RL_FP16", "fp8": "RL_FP8"}


def wfmt_words():
    """The block-scaled weight formats the C library knows, from their table
    in src/core/dtype.c ({[RL_WFMT_X] = {"word", ...}}): {word: "RL_WFMT_X"},
    RL_WFMT_DTYPE (the model's dtype) left out: a blank cell."""
    src = c_source("src", "core", "dtype.c")
    return {w: e for e, w in re.findall(r'\[(RL_WFMT_\w+)\] = \{"(\w+)"', src) if e != "RL_WFMT_DTYPE"}


MODEL_WFMTS = wfmt_words()
MODEL_TEXT = {"id": 48, "name": 96, "source": 320, "aliases": 192}


def gen_models():
    out = ["/* Generated by tools/gen_tables.py from data/models.csv. Do not edit. */"]
    for where, r in checked_rows("models.csv", MODEL_TEXT):
        ints = {}
        for k in MODEL_INT:
            if not re.fullmatch(r"[0-9]+", r[k].strip()):
                sys.exit(f"{where}: {k} '{r[k]}' is not a whole number")
            ints[k] = int(r[k])
        for k in ["layers", "d_model", "heads", "kv_heads", "head_dim"]:
            if ints[k] <= 0:
                sys.exit(f"{where}: {k} must be > 0")
        if ints["heads"] % ints["kv_heads"]:
            sys.exit(f"{where}: heads is not a multiple of kv_heads")
        for k in MODEL_OPT_INT:
            v = r[k].strip()
            if v and not re.fullmatch(r"[0-9]+", v):
                sys.exit(f"{where}: {k} '{r[k]}' is not a whole number")
            ints[k] = int(v) if v else 0
        for k in MODEL_FLAGS:
            if r[k].strip() not in ("0", "1"):
                sys.exit(f"{where}: {k} must be 0 or 1")
        if r["bias"].strip() not in MODEL_BIAS:
            sys.exit(f"{where}: bias must be 0, 1 or qkv")
        for k, m in MODEL_ENUMS.items():
            if r[k].strip() not in m:
                sys.exit(f"{where}: {k} must be one of {' '.join(m)}")
        if r["act"].strip() not in MODEL_ACTS:
            sys.exit(f"{where}: act must be empty or one of {' '.join(a for a in MODEL_ACTS if a)}")
        if r["dtype"].strip() not in MODEL_DTYPES:
            sys.exit(f"{where}: dtype must be one of {' '.join(MODEL_DTYPES)}")
        ew = r["expert_weights"].strip()
        if ew and ew not in MODEL_WFMTS:
            sys.exit(f"{where}: expert_weights must be empty or one of {' '.join(MODEL_WFMTS)}")
        if ew and ints["experts"] <= 1:
            sys.exit(f"{where}: expert_weights is for a mixture of experts (experts > 1)")
        pub = quantity(r["published_params"], 1.0, "B", where) if r["published_params"].strip() else 0
        out.append("{")
        out.append(f"  .id = {c_str(r['id'])}, .name = {c_str(r['name'])},")
        out.append("  " + ", ".join(f".{k} = {ints[k]}" for k in MODEL_INT) + ",")
        out.append("  " + ", ".join(f".{k} = {ints[k]}" for k in MODEL_OPT_INT) + ",")
        out.append(f"  .aliases = {c_str(r['aliases'])},")
        out.append(f"  .published_params = {c_num(pub)},")
        out.append(f"  .mlp = {MODEL_ENUMS['mlp'][r['mlp'].strip()]}, "
                   f".norm = {MODEL_ENUMS['norm'][r['norm'].strip()]}, "
                   f".tied_embeddings = {r['tied'].strip()}, .bias = {MODEL_BIAS[r['bias'].strip()]}, "
                   f".learned_pos = {r['learned_pos'].strip()}, "
                   f".dtype = {MODEL_DTYPES[r['dtype'].strip()]}, .act = {MODEL_ACTS[r['act'].strip()]},")
        if ew:
            out.append(f"  .expert_weights = {MODEL_WFMTS[ew]},")
        out.append(f"  .source = {c_str(r['source'])}")
        out.append("},")
    return [("src/core/model_table.inc", "\n".join(out) + "\n")]


# --- schemas from the record tables (src/core/record.h) ----------------------
RECORDS_TOOL = os.path.join(ROOT, "build", "tools", "dump_records")


def records():
    """The record tables as tools/dump_records prints them."""
    if not os.path.exists(RECORDS_TOOL):
        sys.exit(f"gen_tables: {os.path.relpath(RECORDS_TOOL, ROOT)} is not built (make gen builds it)")
    out = subprocess.run([RECORDS_TOOL], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def field_schema(f):
    """One key's JSON Schema: its meaning and unit, its type, null where the
    table says it may be; a list's or a map's items."""
    kind = f["type"]
    if kind == "object":
        item = {"$ref": "#/$defs/" + f["record"]}
        if f["nullable"] and f["shape"] not in ("list", "map"):  # one record, or null
            item = {"anyOf": [item, {"type": "null"}]}
    elif kind == "enum":
        item = {"enum": f["enum"] + ([None] if f["nullable"] else [])}
    else:
        item = {"type": [kind, "null"] if f["nullable"] else kind}
    # the unit after the meaning, before what a null means ("...; null when ...")
    what = f["doc"]
    if f["unit"]:
        head, sep, tail = what.partition("; ")
        what = head + ", " + f["unit"] + sep + tail
    if f["shape"] == "list":
        return {"description": what, "type": "array", "items": item}
    if f["shape"] == "map":
        return {"description": what, "type": "object", "propertyNames": {"enum": f["keys"]},
                "additionalProperties": item}
    return {"description": what, **item}


def record_schema(rec, props=None):
    """A record's object: its keys in the writer's order, each required
    unless the table leaves it out at times, no other key."""
    props = dict(props or {})
    for f in rec["fields"]:
        props[f["key"]] = field_schema(f)
    required = [k for k in props if not any(f["key"] == k and f["optional"] for f in rec["fields"])]
    return {"description": rec["doc"], "type": "object", "properties": props, "required": required,
            "additionalProperties": False}


def defs_of(recs, name, out=None):
    """The records a record reaches, for $defs."""
    out = {} if out is None else out
    for f in recs[name]["fields"]:
        sub = f.get("record")
        if sub and sub not in out:
            out[sub] = record_schema(recs[sub])
            defs_of(recs, sub, out)
    return out


RECORD_NOTE = ("generated by tools/gen_tables.py from the field tables of the C library "
               "(src/core/record.h); do not edit")


def command_schema(recs, name, command):
    """A command's document: the envelope, then the record's keys."""
    top = record_schema(recs[name], {**ENVELOPE, "command": {**ENVELOPE["command"], "const": command}})
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$comment": RECORD_NOTE,
           "title": f"roofline {command} --json", **top}
    doc["$defs"] = dict(sorted(defs_of(recs, name).items()))
    return json.dumps(doc, indent=2) + "\n"


def gen_record_schemas():
    recs = records()
    return [("docs/schema/measure.json", command_schema(recs, "measure", "measure")),
            ("docs/schema/trace-job.json", command_schema(recs, "trace_job", "trace job")),
            ("docs/schema/trace.json", command_schema(recs, "trace", "trace"))]


GENERATORS = [gen_hw, gen_models, gen_custom, gen_hw_schemas, gen_record_schemas]


def main():
    global RECORDS_TOOL
    args = sys.argv[1:]
    check = "--check" in args
    if "--records" in args:
        RECORDS_TOOL = os.path.abspath(args[args.index("--records") + 1])
    stale = []
    for rel, text in [out for g in GENERATORS for out in g()]:
        path = os.path.join(ROOT, rel)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(rel)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"gen_tables: wrote {rel}")
    if stale:
        print("gen_tables: not current (run `make gen`): " + " ".join(stale), file=sys.stderr)
        sys.exit(1)
    if check:
        print("gen_tables: generated files are current")


if __name__ == "__main__":
    main()
