"""Profile a PyTorch script and put its ops on the roofline, in one command.

    python3 -m roofline.profile [--json] [-o TRACE] SCRIPT [ARGS...]

runs SCRIPT as `python3 SCRIPT ARGS...` would (runpy: `__name__ == "__main__"`,
sys.argv = [SCRIPT, ARGS...], the script's folder first on sys.path, in the current
directory) under torch.profiler with record_shapes=True (CPU activity, and CUDA where
torch.cuda.is_available()), writes the trace (-o TRACE; default SCRIPT's path with
".trace.json" appended: train.py -> train.py.trace.json; a name ending in .gz is
gzip-compressed) and prints the analysis of the C library this package loads
(roofline.trace(), the analysis of `roofline trace TRACE`): with --json exactly the
object `roofline trace TRACE --json` prints, alone on standard output (the script's
own output goes to standard error); without it a summary and the ops by gain.
Before SCRIPT, the flags of `roofline trace` that roofline.trace() takes as keywords
(--hw ID, --top N, --bw, --overhead, --hw-file, ...) go to the analysis.

Exit status: 0 when the script ran and the trace was analysed; 1 when the script
raised (its traceback is printed, the trace of what ran is still written, nothing
analysed) or exited with a non-zero status (that status is returned instead); 2 for
a usage error, a missing script, no PyTorch ("roofline.profile: needs PyTorch (pip
install torch, or Debian's python3-torch)") or a trace the library refuses (its
one-line message).

The trace is PyTorch's own (Kineto) export where the build has Kineto; where it has
not (Debian's 1.13 build: torch.profiler.kineto_available() is False and its chrome
export carries neither shapes nor dtypes), write_trace() writes it here in the
Kineto form from the profiler's own records (torch's _ProfilerResult event tree
with ns times, shapes, dtypes, strides and scalar values; prof.events(), whose
times are whole microseconds and which has shapes but no dtypes, where that tree is
missing). Either way the top level records the machine the ops ran on: "cpu_model"
(/proc/cpuinfo's model name, the CPUID brand string `roofline measure` prints),
"cpu_vendor", "cpu_family", "cpu_model_id", "logical_cpus", "intra_op_threads"
(torch.get_num_threads()), "inter_op_threads", "pytorch_version" and
"blas_libraries" (the BLAS libraries loaded, by path: /proc/self/maps) with
"blas_threads" where that is OpenBLAS (openblas_get_num_threads(): its own
threads, which torch.set_num_threads does not set).

From Python: write_trace(prof, path) writes any finished torch.profiler.profile
(or torch.autograd.profiler.profile) that way; trace_document(prof) returns the
document as a dict; run_script(script, args, trace_path) profiles a script and
returns the trace's path.
"""
import ctypes
import gzip
import json
import os
import platform
import runpy
import sys
import traceback

USAGE = ("usage: python3 -m roofline.profile [--json] [-o TRACE] [--hw ID] [--top N] [trace's flags]\n"
         "                                      SCRIPT [ARGS...]")
PROG = "roofline.profile"
NO_TORCH = f"{PROG}: needs PyTorch (pip install torch, or Debian's python3-torch)"

# RecordScope::USER_SCOPE (c10/aten/src/ATen/record_function.h): record_function()
# ranges, which Kineto writes as cat "user_annotation", not "cpu_op"
_USER_SCOPE = 7


class UsageError(Exception):
    """A bad command line or input: exit status 2 with its one-line message."""


def _torch():
    try:
        import torch  # noqa: F401
        import torch.profiler  # noqa: F401
    except ImportError:
        return None
    return sys.modules["torch"]


def cpu_info():
    """The machine's CPU as the trace's top-level keys (Linux: /proc/cpuinfo, whose
    "model name" is the CPUID brand string; elsewhere platform.processor())."""
    info = {"cpu_model": None, "cpu_vendor": None, "cpu_family": None, "cpu_model_id": None,
            "logical_cpus": os.cpu_count()}
    keys = {"model name": "cpu_model", "vendor_id": "cpu_vendor", "cpu family": "cpu_family",
            "model": "cpu_model_id"}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor's block is enough
                k, _, v = line.partition(":")
                k, v = k.strip(), v.strip()
                if k in keys and info[keys[k]] is None:
                    info[keys[k]] = int(v) if keys[k] in ("cpu_family", "cpu_model_id") and v.isdigit() else v
    except OSError:
        pass
    if not info["cpu_model"]:
        info["cpu_model"] = platform.processor() or platform.machine() or None
    return info


def blas_libraries():
    """The BLAS libraries mapped into this process (Linux: /proc/self/maps), by real
    path: which one torch's matrix products ran on (Debian's torch calls
    libblas.so.3, the reference BLAS or OpenBLAS as the alternatives say). Empty
    where that cannot be read."""
    found = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                path = line.split(None, 5)[-1].strip() if line.count(" ") >= 5 else ""
                base = os.path.basename(path).lower()
                if path.startswith("/") and ("blas" in base or base.startswith(("libmkl_", "libblis"))) \
                        and path not in found:
                    found.append(path)
    except OSError:
        pass
    return found


def set_blas_threads(n):
    """Set OpenBLAS's own thread count (openblas_set_num_threads) where OpenBLAS is
    loaded, so that its matrix products run on as many threads as torch's other ops.
    Returns whether it was set."""
    for path in blas_libraries():
        try:
            fn = ctypes.CDLL(path).openblas_set_num_threads
        except (OSError, AttributeError):
            continue
        fn.argtypes = [ctypes.c_int]
        fn(int(n))
        return True
    return False


def machine_metadata(torch=None):
    """The top-level keys write_trace() adds: the CPU, the thread counts, the
    version, the BLAS libraries loaded."""
    torch = torch or _torch()
    meta = cpu_info()
    if torch is not None:
        meta["intra_op_threads"] = torch.get_num_threads()
        meta["inter_op_threads"] = torch.get_num_interop_threads()
        meta["pytorch_version"] = torch.__version__
    meta["blas_libraries"] = libs = blas_libraries()
    for path in libs:  # OpenBLAS runs its own threads beside torch's (OPENBLAS_NUM_THREADS)
        try:
            fn = ctypes.CDLL(path).openblas_get_num_threads
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_int
        meta["blas_threads"] = fn()
        break
    return meta


def _result(prof):
    """The torch._C._autograd._ProfilerResult behind a finished profiler, or None."""
    inner = getattr(prof, "profiler", None)  # torch.profiler.profile wraps the autograd one
    for p in (prof, inner):
        r = getattr(p, "kineto_results", None)
        if r is not None:
            return r
    return None


def _scalar(v):
    """A scalar argument as Kineto's "Concrete Inputs" writes it (a string)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (int, float)):
        return repr(v)
    return ""


def _events_from_tree(result):
    """Kineto-form events from the profiler's event tree (PyTorch 1.13 on): ns times,
    Input Dims, Input type, Input Strides, Concrete Inputs. None if this build's tree
    lacks what is needed."""
    try:
        roots = result.experimental_event_tree()
    except (AttributeError, RuntimeError):
        return None
    out = []
    stack = list(reversed(roots))
    while stack:
        e = stack.pop()
        stack.extend(reversed(list(e.children)))
        tag = str(getattr(e, "tag", ""))
        if not tag.endswith("TorchOp"):
            continue  # allocations, Python frames: not ops
        xf = e.extra_fields
        inputs = getattr(xf, "inputs", None)
        if inputs is None or not hasattr(inputs, "shapes"):
            return None  # a newer tree layout: let prof.events() write it
        args = {"External id": int(e.correlation_id)}
        args["Input Dims"] = [list(s) for s in inputs.shapes]
        args["Input type"] = list(inputs.dtypes)
        strides = getattr(inputs, "strides", None)
        if strides is not None:
            args["Input Strides"] = [list(s) for s in strides]
        ivalues = getattr(inputs, "ivalues", None)
        if ivalues is not None:
            args["Concrete Inputs"] = [_scalar(v) for v in ivalues]
        seq = getattr(xf, "sequence_number", -1)
        if seq is not None and seq >= 0:
            args["Sequence number"] = int(seq)
        scope = getattr(xf, "scope", None)
        user = scope is not None and (int(scope) if isinstance(scope, int) else
                                      int(getattr(scope, "value", -1))) == _USER_SCOPE
        out.append({"ph": "X", "cat": "user_annotation" if user else "cpu_op", "name": e.name,
                    "tid": int(e.start_tid), "start_ns": int(e.start_time_ns),
                    "dur_ns": max(0, int(e.end_time_ns) - int(e.start_time_ns)), "args": args})
    return out


def _events_from_function_events(prof, result):
    """Kineto-form events from prof.events() (FunctionEvent: whole-microsecond times
    since the profiler's start, shapes), with the dtypes of the matching KinetoEvent
    (same correlation id) where the result has them."""
    base_us = 0
    dtypes = {}
    if result is not None:
        try:
            base_us = int(result.trace_start_us())
            for k in result.events():
                if hasattr(k, "dtypes"):
                    dtypes[int(k.correlation_id())] = list(k.dtypes())
        except (AttributeError, RuntimeError):
            pass
    out = []
    for fe in prof.events():
        if str(getattr(fe, "device_type", "CPU")).rsplit(".", 1)[-1] != "CPU":
            continue
        args = {"External id": int(fe.id), "Input Dims": [list(s) for s in (fe.input_shapes or [])]}
        if int(fe.id) in dtypes:
            args["Input type"] = dtypes[int(fe.id)]
        if getattr(fe, "sequence_nr", -1) >= 0:
            args["Sequence number"] = int(fe.sequence_nr)
        user = getattr(fe, "scope", 0) == _USER_SCOPE
        start = (base_us + fe.time_range.start) * 1000
        out.append({"ph": "X", "cat": "user_annotation" if user else "cpu_op", "name": fe.name,
                    "tid": int(fe.thread), "start_ns": int(round(start)),
                    "dur_ns": max(0, int(round((fe.time_range.end - fe.time_range.start) * 1000))),
                    "args": args})
    return out


def trace_document(prof, torch=None, window=None, source="auto"):
    """The finished profiler's CPU ops as a Kineto trace document (a dict): what
    write_trace() writes where the build has no Kineto. window=(t0_ns, t1_ns) keeps
    only the ops that start in [t0, t1) of the profiler's clock. source: "tree" (the
    profiler's event tree), "events" (prof.events()) or "auto" (the tree where this
    PyTorch has it)."""
    torch = torch or _torch()
    if source not in ("auto", "tree", "events"):
        raise ValueError(f"source: '{source}' is not auto, tree or events")
    result = _result(prof)
    events = None
    if source != "events":
        events = _events_from_tree(result) if result is not None else None
        if events is None and source == "tree":
            raise ValueError("this PyTorch's profiler has no event tree with shapes")
    what = "the profiler's event tree (torch._C._autograd._ProfilerResult)"
    if events is None:
        events = _events_from_function_events(prof, result)
        what = "prof.events()"
    if window is not None:
        events = [e for e in events if window[0] <= e["start_ns"] < window[1]]
    events.sort(key=lambda e: (e["tid"], e["start_ns"], -e["dur_ns"]))
    base = min((e["start_ns"] for e in events), default=0)
    base -= base % 1000
    pid = os.getpid()
    trace_events = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "python3"}},
        {"ph": "M", "name": "process_labels", "pid": pid, "tid": 0, "args": {"labels": "CPU"}},
    ]
    for tid in sorted({e["tid"] for e in events}):
        trace_events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                             "args": {"name": f"thread {tid}"}})
    for e in events:
        trace_events.append({"ph": e["ph"], "cat": e["cat"], "name": e["name"], "pid": pid,
                             "tid": e["tid"], "ts": round((e["start_ns"] - base) / 1000, 3),
                             "dur": round(e["dur_ns"] / 1000, 3), "args": e["args"]})
    doc = {"schemaVersion": 1, "deviceProperties": [], "record_shapes": 1}
    doc.update(machine_metadata(torch))
    doc["trace_writer"] = f"roofline.profile from {what}"
    doc["displayTimeUnit"] = "ms"
    doc["baseTimeNanoseconds"] = base
    doc["traceEvents"] = trace_events
    return doc


def _dump(doc, path):
    data = json.dumps(doc, separators=(",", ":")).encode()
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(data)


def _kineto(torch):
    try:
        return bool(torch.profiler.kineto_available())
    except AttributeError:
        return bool(torch.autograd.kineto_available())


def write_trace(prof, path, torch=None):
    """Write a finished profiler's trace to path (.gz: compressed): PyTorch's own
    Kineto export where the build has Kineto, with machine_metadata() added to its
    top level; trace_document() otherwise. Returns path."""
    torch = torch or _torch()
    path = str(path)
    if not _kineto(torch):
        doc = trace_document(prof, torch)
        doc["traceName"] = path
        _dump(doc, path)
        return path
    tmp = path[:-3] if path.endswith(".gz") else path
    tmp += f".tmp{os.getpid()}.json"
    try:
        prof.export_chrome_trace(tmp)
        with open(tmp, "rb") as f:
            doc = json.loads(f.read())
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    for k, v in machine_metadata(torch).items():
        doc.setdefault(k, v)
    _dump(doc, path)
    return path


def profiler(torch=None):
    """A torch.profiler.profile for this machine: CPU activity, CUDA where there is
    one, record_shapes=True."""
    torch = torch or _torch()
    acts = [torch.profiler.ProfilerActivity.CPU]
    if torch.cuda.is_available():
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    return torch.profiler.profile(activities=acts, record_shapes=True)


class ScriptFailed(Exception):
    """The profiled script raised or exited non-zero; .status is the exit status."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


def run_script(script, args, trace_path, torch=None, stdout_to_stderr=False):
    """Run script with args under profiler() as `python3 script args` would, write
    the trace to trace_path and return it. Raises ScriptFailed (after writing the
    trace) when the script raises or exits with a non-zero status. With
    stdout_to_stderr, what the script writes to standard output (Python's and file
    descriptor 1's) goes to standard error, so that standard output holds only the
    analysis (--json)."""
    torch = torch or _torch()
    if not os.path.isfile(script):
        raise UsageError(f"{PROG}: {script}: no such file")
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [script] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    status = 0
    prof = profiler(torch)
    saved_fd = None
    if stdout_to_stderr:
        sys.stdout.flush()
        saved_fd = os.dup(1)
        os.dup2(2, 1)
    try:
        with prof:
            try:
                runpy.run_path(script, run_name="__main__")
            except SystemExit as e:
                if e.code is None or e.code == 0:
                    status = 0
                elif isinstance(e.code, int):
                    status = e.code
                else:
                    print(e.code, file=sys.stderr)
                    status = 1
            except BaseException as e:  # the script's own error: its traceback, as python3 prints it
                tb = e.__traceback__
                while tb is not None and (tb.tb_frame.f_code.co_filename == __file__
                                          or tb.tb_frame.f_globals.get("__name__") == "runpy"):
                    tb = tb.tb_next  # from the script's first frame on
                traceback.print_exception(type(e), e, tb)
                status = 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        if saved_fd is not None:
            sys.stdout.flush()
            os.dup2(saved_fd, 1)
            os.close(saved_fd)
    write_trace(prof, trace_path, torch)
    if status:
        raise ScriptFailed(status)
    return trace_path


def _fmt(value, unit):
    from . import format_quantity
    return format_quantity(value, unit)


def summary(doc, path):
    """A short text report of roofline.trace()'s record: coverage, device, time by
    bound, and the ops by gain (the full report: `roofline trace TRACE`)."""
    lines = [f"trace      {path}"]
    if doc.get("device") is not None or doc.get("hw") is not None:
        lines.append(f"device     {doc.get('device')} -> {doc.get('hw')}")
    total = doc.get("gpu_time_s", doc.get("op_time_s"))
    covered = doc.get("covered_s")
    if total is not None and covered is not None:
        share = f" ({100 * doc['coverage']:.1f}%)" if doc.get("coverage") is not None else ""
        lines.append(f"coverage   {_fmt(covered, 's')} of {_fmt(total, 's')} under a roof{share}")
    note = (doc.get("cpu") or {}).get("note")
    if note:
        lines.extend(("roofs      " if i == 0 else "           ") + n for i, n in enumerate(note.splitlines()))
    if doc.get("gain_s") is not None:
        lines.append(f"gain       {_fmt(doc['gain_s'], 's')} if every op with F and Q ran at its roof")
    rows = doc.get("ops") or doc.get("rows") or []
    if rows:
        lines.append("")
        lines.append(f"ops by gain (top {min(10, len(rows))}):")
        w = max(len("op"), *(len(str(r.get("name", ""))[:48]) for r in rows[:10]))
        lines.append(f"{'op':<{w}}  {'count':>6}  {'time':>10}  {'at roof':>10}  {'roof %':>7}  bound")
        for r in rows[:10]:
            frac = r.get("roof_fraction")
            frac = f"{100 * frac:.1f}%" if frac is not None else "-"
            at = r.get("at_roof_s")
            lines.append(f"{str(r.get('name', ''))[:48]:<{w}}  {r.get('count', 0):>6}  "
                         f"{_fmt(r.get('measured_s') or 0, 's'):>10}  "
                         f"{(_fmt(at, 's') if at is not None else '-'):>10}  {frac:>7}  {r.get('bound') or '-'}")
    lines.append(f"(the full report: roofline trace {path})")
    return "\n".join(lines)


def _trace_flags():
    """The flags of `roofline trace` that roofline.trace() takes as keywords
    (--hw ID -> hw="ID"), by name: True for a switch (a keyword whose default is
    False), False for one that takes a value."""
    import inspect
    from . import trace as analyse
    out = {}
    for name, p in inspect.signature(analyse).parameters.items():
        if name not in ("path", "progress") and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            out["--" + name.replace("_", "-")] = (name, p.default is False)
    return out


def _parse(argv):
    """(json, out, the analysis' keywords, script, its args) from the command line."""
    flags = _trace_flags()
    as_json, out, kw = False, None, {}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, val = a.partition("=") if a.startswith("--") else (a, "", "")
        if a in ("-h", "--help"):
            print(USAGE)
            print(__doc__.split("\n\n", 2)[2].split("\n\nThe trace is")[0])
            raise SystemExit(0)
        if a == "--json":
            as_json = True
        elif name in ("-o", "--output") or name in flags:
            switch = name in flags and flags[name][1]
            if switch:
                if eq:
                    raise UsageError(f"{PROG}: {name} takes no value\n{USAGE}")
                kw[flags[name][0]] = True
            else:
                if not eq:
                    if i + 1 >= len(argv):
                        raise UsageError(f"{PROG}: {name} needs a value\n{USAGE}")
                    val = argv[i + 1]
                    i += 1
                if name in ("-o", "--output"):
                    out = val
                else:
                    kw[flags[name][0]] = val
        elif a == "--":
            i += 1
            break
        elif a.startswith("-") and a != "-":
            known = ", ".join(["--json", "-o"] + sorted(flags))
            raise UsageError(f"{PROG}: unknown option '{a}' before the script (known: {known})\n{USAGE}")
        else:
            break
        i += 1
    if i >= len(argv):
        raise UsageError(f"{PROG}: which script? e.g. python3 -m roofline.profile train.py\n{USAGE}")
    return as_json, out, kw, argv[i], argv[i + 1:]


def flag_message(msg, kw):
    """A message of roofline.trace() naming one of its keywords (top, hw_file),
    with that keyword written as the flag it came from (--top, --hw-file)."""
    for k in kw:
        if msg.startswith(k) and msg[len(k):len(k) + 1] in (" ", ":"):
            return "--" + k.replace("_", "-") + msg[len(k):]
    return msg


def analysis_json(trace_path, **flags):
    """The object `roofline trace TRACE --json` prints (with the flags given as
    roofline.trace()'s keywords), as a dict: the library's record in the command's
    envelope (cli/cli.h: CLI_SCHEMA_VERSION, print_json_doc)."""
    from . import trace as analyse
    doc = {"schema_version": 2, "command": "trace"}
    doc.update(analyse(trace_path, **flags))
    return doc


def main(argv=None):
    """The command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        as_json, out, kw, script, args = _parse(argv)
        if not os.path.isfile(script):
            raise UsageError(f"{PROG}: {script}: no such file")
        torch = _torch()
        if torch is None:
            raise UsageError(NO_TORCH)
        out = out or script + ".trace.json"
        try:
            run_script(script, args, out, torch, stdout_to_stderr=as_json)
        except ScriptFailed as e:
            print(f"{PROG}: {script} failed (exit status {e.status}); the trace of what ran: {out}",
                  file=sys.stderr)
            return e.status
        sys.stdout.flush()
        try:
            doc = analysis_json(out, **kw)
        except ValueError as e:
            raise UsageError(f"{PROG}: {flag_message(str(e), kw)}") from None
        if as_json:
            print(json.dumps(doc, separators=(",", ":")))
        else:
            print(f"{PROG}: trace written to {out}", file=sys.stderr)
            print(summary(doc, out))
        return 0
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
