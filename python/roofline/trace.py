"""Profiler traces from Python: the record of `roofline trace FILE --json` as a dict.

    >>> import roofline as rl
    >>> t = rl.trace("tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv", hw="a100-40gb")
    >>> t["floor_s"], t["gain_s"], t["fusion"][0]["kernels"]
    (3.359996471e-06, 0, 4)

The analysis is the C library's (rl_trace_read_file, rl_trace_analyze,
rl_trace_json): every gain already respects the floor (no kernel below the
launch overhead, or for Nsight Compute the shortest launch of the export),
overhead-bound kernels gain only through the "fusion" candidates, and an
Nsight Compute export carries the hierarchical roofline per launch
(l1_bytes, l2_bytes, dram_bytes, ..., binding_level, sol_compute, ...).
Keywords are the command's flags: hw, bw, overhead ("4us"), top, format
(a name rl_trace_format_parse knows: "kineto", "ncu", "nsys"), hw_file, cpu (True: the CPU
ops even beside GPU kernels), threads (a CPU trace's intra-op threads), capture, model (the
model the trace ran: its MoE ops' experts). Bad input raises
ValueError with the library's one-line message.

A CPU trace (a PyTorch profile's cpu_op events, no GPU kernels) is analysed under this
machine's measured roofs: hw="measured" or none takes the row `roofline measure
--save-hw` wrote for its processor and threads from hw_file, else measures this machine
now (quick: the peak and read kernels, with the trace's threads; a note on stderr), as
`roofline trace` does.
"""
import ctypes as _ct
import os as _os
import json as _json

from . import _native
from . import _check, _cstr, _find_hw, _lib, _load_hw_file, _msg, _num, _path

def _measured_now(threads):
    """This machine measured now with `threads` threads (quick, the peak and read
    kernels) as a hardware row, the figures the measurement marks disturbed kept (a
    low figure only raises a bound), as `roofline trace` does for a CPU trace."""
    import sys
    from .measure import measure
    sys.stderr.write(f"roofline.trace: measuring this machine with {threads} thread{'' if threads == 1 else 's'} "
                     "(measure(quick=True, kernel=\"peak,read\"); save a row with `roofline measure --save-hw` and give "
                     "hw_file to skip this)\n")
    m = measure(quick=True, threads=threads, kernel="peak,read")
    cpu, pk, bw = m["cpu"], m["peak"], m["bandwidth"]
    if not (pk.get("fp32") or pk.get("fp64")) or not bw.get("dram"):
        raise ValueError("measuring this machine: no FP32/FP64 peak or no DRAM bandwidth")
    h = _native.Hw()
    h.id = "measured"
    h.vendor = cpu["vendor"]
    h.name = f"{cpu['model'][:60]} (measured, {m['threads']} threads)"
    h.form_factor = "CPU"
    for k in ("fp64", "fp32", "bf16"):
        if pk.get(k):
            setattr(h, k, pk[k])
    h.mem_bw = bw["dram"]
    for lv in ("l1", "l2", "l3"):
        if bw.get(lv):
            setattr(h, lv + "_bw", bw[lv])
    caches = cpu.get("cache_bytes") or {}
    if caches.get("l3") or caches.get("l2"):
        h.l2_bytes = caches.get("l3") or caches.get("l2")
    if caches.get("l1"):
        h.l1_bytes = caches["l1"]
    if caches.get("l3") and caches.get("l2"):
        h.l2_core_bytes = caches["l2"]
    h.source = (f"roofline measure (quick): FMA peaks with {m['threads']} threads; bandwidth of the read kernel, "
                f"best of {m['repeats']} (STREAM byte counting); clock measured"
                + (f"; CPUID family {cpu['family']} model {cpu['model_id']}"
                   if cpu.get("family") is not None and cpu.get("model_id") is not None else ""))
    return h


def trace(path, hw=None, bw=None, overhead=None, top=None, format=None, hw_file=None, cpu=False,
          threads=None, capture=None, model=None):
    """Every kernel of a PyTorch (Kineto), Nsight Compute or Nsight Systems file
    under its roof, ranked by the time still to gain; the dict of --json.
    capture: the run's CUDA-graph captures profiled into a file of their own
    (as --capture): each replayed kernel takes the op of its captured launch.
    model: the model the trace ran (as --model: an id, a config.json path or dict,
    a Model): vLLM's moe_forward ops take their experts' FLOPs and bytes from it."""
    fmt = _ct.c_int32(0)  # RL_TRACE_AUTO: detected from the content
    cpath = _path(path)
    path = _os.fsdecode(cpath)
    if format is not None:
        err = _native.Error()
        if _lib.rl_trace_format_parse(_cstr(format, "format"), _ct.byref(fmt), _ct.byref(err)):
            raise ValueError(f"format: {err.msg.decode('utf-8', 'replace')}")
    oh = -1.0
    if overhead is not None:
        oh = _num(overhead, "s", "overhead")
        if not oh >= 0:
            raise ValueError("overhead must be >= 0")
    if top is not None:
        given = top
        top = _num(top, "count", "top", whole=True)
        if top > 2147483647:
            raise ValueError(f"top: '{given}' is too large (at most 2147483647)")
        if not top >= 1:
            raise ValueError("top must be >= 1")
    top = int(top or 0)
    if bw is not None:
        bw = _num(bw, "B/s", "bw")
        if not bw > 0:
            raise ValueError("--bw must be > 0")
    if threads is not None:
        given = threads
        threads = _num(threads, "count", "threads", whole=True)
        if not 1 <= threads <= 4096:
            raise ValueError(f"--threads must be 1..4096 (got {given})")
    m = None
    if model is not None:
        from .llm import _resolve_model
        m = _resolve_model(model, {})
        if fmt.value not in (0, 1):  # auto, kineto
            raise ValueError(f"--model costs the MoE ops of PyTorch (Kineto) traces, not --format {format}")
    t = _lib.rl_trace_new(oh)
    if not t:
        raise MemoryError("out of memory")
    try:
        err = _native.Error()
        if m is not None and _lib.rl_trace_set_model(t, _ct.byref(m), _ct.byref(err)):
            raise ValueError(f"model: {_msg(err)}")
        if cpu:
            _lib.rl_trace_set_cpu(t, 1)
        if threads is not None:
            _lib.rl_trace_set_threads(t, int(threads))
        if capture is not None:
            if fmt.value not in (0, 1):  # auto, kineto
                raise ValueError(f"--capture reads PyTorch (Kineto) traces, not --format {format}")
            _check(_lib.rl_trace_read_capture(t, _path(capture), _ct.byref(err)), err)
        _check(_lib.rl_trace_read_file(t, cpath, fmt.value, _ct.byref(err)), err)
        info = _native.TraceInfo()
        _lib.rl_trace_get_info(t, _ct.byref(info))
        if cpu and not info.cpu:
            raise ValueError(f"{path}: --cpu: no CPU ops in it (a PyTorch profile's cpu_op events)")
        if info.cpu and (hw is None or hw == "measured"):
            extra, n = _load_hw_file(hw_file)
            if extra is not None and any(_lib.rl_hw_measured(_ct.byref(extra[i])) for i in range(n)):
                h = _native.Hw()
                if _lib.rl_trace_measured_hw(t, extra, n, _ct.byref(h), _ct.byref(err)):
                    raise ValueError(f"{path}: --hw-file: {_msg(err)}")
            else:
                h = _measured_now(info.threads if info.threads > 0 else 1)
        elif hw is not None:
            h = _find_hw(hw, hw_file)
        else:
            h = _native.Hw()
            st = _lib.rl_trace_hw(t, _ct.byref(h), _ct.byref(err))
            if st:
                raise ValueError(f"{path}: {_msg(err)}")
        if bw is not None:
            h.mem_bw = bw
        s = _native.TraceSummary()
        st = _lib.rl_trace_analyze(t, _ct.byref(h), _ct.byref(s), _ct.byref(err))
        if st:
            raise ValueError(f"{path}: {_msg(err)}")
        need = _lib.rl_trace_json(t, _ct.byref(h), _ct.byref(s), top, None, 0)
        buf = _ct.create_string_buffer(need + 1)
        _lib.rl_trace_json(t, _ct.byref(h), _ct.byref(s), top, buf, need + 1)
        return _json.loads(buf.value.decode("utf-8"))
    finally:
        _lib.rl_trace_free(t)
