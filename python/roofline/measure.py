"""This machine's empirical roofline from Python: the record of `roofline measure --json`.

    >>> import roofline as rl
    >>> m = rl.measure(quick=True, kernel="read,add", ws=["32KiB", "1MiB"], threads=1)
    >>> sorted(m["bandwidth"]), m["points"][0]["op"]
    (['dram', 'l1', 'l2', 'l3'], 'add')

The measuring is the C library's (rl_measure: CPUID and sysfs, the measured
clock, peak FMA kernels, read/copy/triad sweeps with plateau detection,
OpenBLAS sgemm/dgemm and an add placed on the measured roofs) and so is the
record (rl_measure_json), so it holds what the command prints: every figure in
base units (FLOP/s, B/s, s, B), null where not measured. Keywords are the
command's flags: quick, threads, kernel ("peak", "read", "copy", "triad",
"bandwidth", "gemm", "add", "all"; a comma-separated string or a list), ws (the
sweep's working sets, total over arrays and threads: numbers in bytes or strings
with units, a list or a comma-separated string). progress, a callable, gets the
progress lines the command writes to stderr. It takes seconds (about 5 s with
quick=True on 2 cores, under a minute without); bad arguments raise ValueError
with the command's one-line message.
"""
import ctypes as _ct
import json as _json

from . import _native
from . import _check, _cstr, _lib, _num


def _items(value, flag):
    items = value.split(",") if isinstance(value, str) else list(value)
    if not items or any(isinstance(i, str) and not i for i in items):
        raise ValueError(f"{flag}: empty item in '{value}'")
    return items


def measure(quick=False, threads=None, kernel=None, ws=None, progress=None):
    """Measure this CPU's roofline; the dict of `roofline measure --json` (without
    its schema_version and command)."""
    opts = _native.MeasureOpts()
    opts.quick = 1 if quick else 0
    if threads is not None:
        given = threads
        threads = _num(threads, "count", "threads")
        if threads != int(threads) or threads > 2147483647:
            raise ValueError(f"threads: '{given}' is not a whole number of threads")
        if threads < 1:
            raise ValueError("threads must be >= 1 (default: every CPU)")
        opts.threads = int(threads)
    err = _native.Error()
    if kernel is not None:
        parts = _ct.c_uint32()
        text = kernel if isinstance(kernel, str) else ",".join(kernel)
        st = _lib.rl_measure_parts_parse(_cstr(text, "kernel"), _ct.byref(parts), _ct.byref(err))
        if st:
            raise ValueError(f"kernel: {err.msg.decode('utf-8', 'replace')}")
        opts.parts = parts.value
    if ws is not None:
        sizes = [_num(w, "B", "ws") for w in _items(ws, "ws")]
        if len(sizes) > _native.RL_MEASURE_MAX_WS:
            raise ValueError(f"ws: at most {_native.RL_MEASURE_MAX_WS} items")
        if not all(s > 0 for s in sizes):
            raise ValueError("ws: working sets must be > 0")
        arr = (_ct.c_double * len(sizes))(*sizes)
        opts.ws = _ct.cast(arr, _ct.POINTER(_ct.c_double))
        opts.n_ws = len(sizes)
    if progress is not None:
        def on_line(_user, line):
            # the parameters it names (`quick`) as this binding's keywords
            buf = _ct.create_string_buffer(4 * len(line) + 64)
            _lib.rl_msg_spell(line, b"", b"_", buf, len(buf))
            progress(buf.value.decode("utf-8", "replace"))
        callback = _native.PROGRESS_FN(on_line)  # alive until rl_measure returns
        opts.progress = callback
    m = _ct.create_string_buffer(_lib.rl_measurement_sizeof())
    st = _lib.rl_measure(_ct.byref(opts), m, _ct.byref(err))
    if st == _native.RL_ENOMEM:
        raise MemoryError(err.msg.decode("utf-8", "replace") or "out of memory")
    _check(st, err)
    need = _lib.rl_measure_json(m, None, 0)
    buf = _ct.create_string_buffer(need + 1)
    _lib.rl_measure_json(m, buf, need + 1)
    return _json.loads(buf.value.decode("utf-8"))
