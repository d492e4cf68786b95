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
(a name rl_trace_format_parse knows: "kineto", "ncu", "nsys"), hw_file. Bad input raises ValueError with the
library's one-line message.
"""
import ctypes as _ct
import os as _os
import json as _json

from . import _native
from . import _check, _cstr, _find_hw, _lib, _msg, _num, _path

def trace(path, hw=None, bw=None, overhead=None, top=None, format=None, hw_file=None):
    """Every kernel of a PyTorch (Kineto), Nsight Compute or Nsight Systems file
    under its roof, ranked by the time still to gain; the dict of --json."""
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
    t = _lib.rl_trace_new(oh)
    if not t:
        raise MemoryError("out of memory")
    try:
        err = _native.Error()
        _check(_lib.rl_trace_read_file(t, cpath, fmt.value, _ct.byref(err)), err)
        if hw is not None:
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
