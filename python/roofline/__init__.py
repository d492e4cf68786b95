"""roofline: the roofline model from Python, backed by libroofline (C).

The roofline's four textbook functions (Williams, Waterman & Patterson 2009):

    >>> import roofline as rl
    >>> rl.op_cost("layernorm", (4096, 4096))          # (F FLOP, Q bytes)
    (134217728.0, 67125248.0)
    >>> rl.roofline(*rl.op_cost("matmul", (8192, 8192, 8192)), 989.4e12, 3.35e12)
    (0.0011112..., 'compute')
    >>> rl.min_batch(4096, 989.4e12, 3.35e12)          # smallest compute-bound batch
    346

    >>> rl.utilization(8e9, 32, 4096, 4096, 600_000, 64, 989.4e12)  # (MFU, HFU)
    (0.5159..., 0.5159...)

and the rest of the library: hardware records (`hardware`, `hardware_list`), any op
on any device with the same figures as `roofline op --json` (`op`, `kernel`,
`layer`), unit parsing (`parse_quantity`), and LLM economics with the records of
`roofline model|decode|prefill|mfu|comm --json` (`model`, `model_list`, `decode`,
`prefill`, `mfu`, `collective`; see roofline.llm), profiler traces (`trace`) and this
machine's measured roofline (`measure`) as the records of `roofline trace|measure --json`.
Bad arguments raise ValueError with the
C library's message. Standard library only (ctypes); numpy is never needed.

The shared library is found in this order: $ROOFLINE_LIB, the copy installed with
the package (`pip install ./python`), then ../build/libroofline.so of the source tree
(`make`, then `PYTHONPATH=python` or `pip install -e ./python`). Its version must equal this package's.
"""
import ctypes as _ct
import json as _json
import math as _math
import os as _os

from . import _native

__version__ = "0.1.0"

_lib, library_path = _native.load()
_found = _lib.rl_version().decode()
if _found != __version__:
    raise ImportError(f"libroofline {_found} at {library_path} does not match the Python "
                      f"package {__version__}; rebuild with `make` or reinstall")

def _dtypes_by_bytes():
    """The first format of each width, in the library's order (rl_dtype_name,
    rl_dtype_bytes): {8: "fp64", 4: "fp32", 2: "bf16", 1: "fp8", 0.5: "fp4"}."""
    out, i = {}, 0
    while _lib.rl_dtype_name(i):
        out.setdefault(_lib.rl_dtype_bytes(i), _lib.rl_dtype_name(i).decode())
        i += 1
    return out


_DTYPE_BY_BYTES = _dtypes_by_bytes()


def _msg(err, status=_native.RL_EINVAL):
    """The library's message, the parameters it names (`comm_latency`) spelled as
    this binding's keywords (rl_msg_spell)."""
    if not err.msg:
        return _lib.rl_strerror(status).decode()
    buf = _ct.create_string_buffer(2 * _native.RL_ERROR_MSG_MAX)
    _lib.rl_msg_spell(err.msg, b"", b"_", buf, len(buf))
    return buf.value.decode("utf-8", "replace")


def _check(status, err):
    if status != _native.RL_OK:
        raise ValueError(_msg(err, status))


def _cstr(value, what):
    """A name, an id or a text as the C library takes it (UTF-8, ended by a NUL),
    checked here as _num checks numbers: a NUL inside, at which C would cut it
    ("h100\0x" read as "h100", "bf16\0junk" as "bf16"), is a ValueError naming
    the argument. Not a str: its str() (b"h100" is the id "b'h100'", refused as
    unknown by the library)."""
    text = value if isinstance(value, str) else str(value)
    if "\0" in text:
        raise ValueError(f"{what}: {value!r} holds a NUL character")
    return text.encode("utf-8", "surrogateescape")


def _num(value, unit, what, whole=False):
    """A number, or a string with units ("3.35TB/s"), as a float in base units.

    Every numeric argument of the binding passes here, checked before any call
    with the command's messages: its type (bool, bytes, a string holding a NUL
    are refused: b"64" is not the number 64, and C would cut "64\0junk" to
    "64"), a count's exactness (2^53), whole=True: a whole number (top=1.5),
    and its quantity's plausible range, from the library's one table
    (rl_param_check: a bandwidth of 1e-300 B/s, a head_dim of 1e15).
    """
    if isinstance(value, bool) or isinstance(value, (bytes, bytearray, memoryview)):
        raise ValueError(f"{what}: {value!r} is not a number")
    if isinstance(value, int) and unit in ("count", "tokens", "B", "FLOP") and abs(value) > 2 ** 53 - 1:
        # a float would hold it rounded (9007199254740993 -> ...992), as the CLI refuses it
        got = str(value) if len(str(value)) <= 40 else f"{str(value)[:12]}... ({len(str(abs(value)))} digits)"
        raise ValueError(f"{what} is too large (got {got}; at most 9007199254740991 = 2^53 - 1)")
    if isinstance(value, str) and "\0" in value:
        raise ValueError(f"{what}: {value!r} holds a NUL character")
    huge = None
    if isinstance(value, int):
        try:
            v = float(value)
        except OverflowError:          # past a double's range: the library's range message,
            v = _math.inf if value > 0 else -_math.inf
            d = str(abs(value))        # the value written as 1.000e400, not as inf
            huge = f"{'-' if value < 0 else ''}{d[0]}.{d[1:4]}e{len(d) - 1}"
    elif isinstance(value, float):
        v = value
    elif isinstance(value, str) and unit == "tokens":
        # a token count: "4k" is refused as ambiguous (4096 or 4000?)
        out, err = _ct.c_double(), _native.Error()
        if _lib.rl_parse_tokens(value.encode(), _ct.byref(out), _ct.byref(err)):
            raise ValueError(f"{what}: {err.msg.decode()}")
        v = out.value
    elif isinstance(value, str):
        v = parse_quantity(value, unit, what)
    else:
        try:                           # numpy scalars and the like
            v = float(value)
        except OverflowError:
            v = _math.inf
        except (TypeError, ValueError):
            raise ValueError(f"{what}: {value!r} is not a number") from None
    if whole and _math.isfinite(v) and v != _math.floor(v):
        raise ValueError(f"{what}: '{value}' is not a whole number")
    if v <= 0 and str(what).lstrip("-") in _POSITIVE_FIRST:
        if huge:                       # the caller's message, with the value as written
            raise ValueError(f"{what} must be > 0 (got {huge})")
        return v                       # the caller's "must be > 0" first, as the command's
    err = _native.Error()
    if _lib.rl_param_check(str(what).encode(), _native.UNIT.get(unit, 0), v, _ct.byref(err)):
        msg = _msg(err, _native.RL_ERANGE)
        if huge:
            msg = msg.replace(" -inf " if v < 0 else " inf ", f" {huge} ", 1)
        raise ValueError(msg)
    return v


# The command's flags that refuse 0 and below before their range (cli.h's
# OPT_*_POS: --peak, --bw, --mem; measure's --ws): the same message order here.
_POSITIVE_FIRST = frozenset(("peak", "bw", "mem", "ws"))


def parse_quantity(text, unit="count", what=None):
    """Parse "3.35TB/s", "989.4T", "16GB", "128KiB", "25us", "1e9" into base units.
    unit is one of "count", "B", "B/s", "FLOP", "FLOP/s", "s"."""
    if unit not in _native.UNIT:
        raise ValueError(f"unknown unit kind {unit!r}")
    out = _ct.c_double()
    err = _native.Error()
    st = _lib.rl_parse_quantity(_cstr(text, what or "quantity"), _native.UNIT[unit], _ct.byref(out), _ct.byref(err))
    if st == _native.RL_ERANGE and what and err.msg.decode().endswith("is out of range"):
        # past a double ("1e400"): the quantity's range, the value as written (as the command)
        r = _native.Error()
        _lib.rl_param_check(str(what).encode(), _native.UNIT[unit],
                            -_math.inf if str(text).lstrip().startswith("-") else _math.inf, _ct.byref(r))
        msg = _msg(r, _native.RL_ERANGE)
        if " is outside" in msg:
            raise ValueError(f"{what} '{text}'" + msg[msg.index(" is outside"):])
    if st and what:
        raise ValueError(f"{what}: {err.msg.decode()}")
    _check(st, err)
    return out.value


def format_quantity(value, unit):
    """3.35e12, "B/s" -> "3.35 TB/s" (decimal prefixes, 4 significant digits)."""
    buf = _ct.create_string_buffer(64)
    _lib.rl_format_quantity(float(value), _native.UNIT[unit], buf, 64)
    return buf.value.decode()


def _dtype(name):
    if isinstance(name, (int, float)) and not isinstance(name, bool):
        if name not in _DTYPE_BY_BYTES:
            raise ValueError(f"no number format of {name} bytes per element "
                             f"({', '.join(f'{b:g}' for b in _DTYPE_BY_BYTES)})")
        name = _DTYPE_BY_BYTES[name]
    out = _ct.c_int32()
    err = _native.Error()
    _check(_lib.rl_dtype_parse(_cstr(name, "dtype"), _ct.byref(out), _ct.byref(err)), err)
    return out.value


def dtype_bytes(name):
    """Bytes per element: dtype_bytes("bf16") == 2, dtype_bytes("int4") == 0.5."""
    return _lib.rl_dtype_bytes(_dtype(name))


# ---- hardware -------------------------------------------------------------------

_PEAKS = [_lib.rl_peak_name(i).decode() for i in range(_native.RL_PEAK_COUNT)]


def _hw_dict(h):
    return h.record()


# The command's caps on the files it reads (cli/): a --hw-file, a config.json.
HW_FILE_MAX = 64 << 20
CONFIG_MAX = 16 << 20


def _read_capped(path, cap):
    """A file's bytes, at most cap of them: a larger one (or /dev/zero) is a
    ValueError, as the command says it, never gigabytes read."""
    try:
        with open(path, "rb") as f:
            text = f.read(cap + 1)
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}") from None
    if len(text) > cap:
        raise ValueError(f"{path}: larger than {cap} bytes")
    return text


def _path(path, what="path"):
    """A file's path as the C library takes it: a str, bytes or an os.PathLike
    (os.fsencode: any byte a file name may hold); a NUL, which C would cut the
    name at, or another type is a ValueError."""
    try:
        b = _os.fsencode(path)
    except TypeError:
        raise ValueError(f"{what}: {path!r} is not a path (give a str, bytes or os.PathLike)") from None
    if b"\0" in b:
        raise ValueError(f"{what}: {path!r} holds a NUL character")
    if not b:
        raise ValueError(f"{what}: an empty path")
    return b


def _load_hw_file(path):
    if path is None:
        return None, 0
    path = _os.fsdecode(_path(path, "hw_file"))
    text = _read_capped(path, HW_FILE_MAX)
    n = _ct.c_int32()
    err = _native.Error()
    st = _lib.rl_hw_parse_csv(text, len(text), None, 0, _ct.byref(n), _ct.byref(err))
    if st:
        raise ValueError(f"{path}: {err.msg.decode()}")
    arr = (_native.Hw * n.value)()
    _check(_lib.rl_hw_parse_csv(text, len(text), arr, n.value, _ct.byref(n), _ct.byref(err)), err)
    return arr, n.value


def _find_hw(hw_id, hw_file=None):
    extra, n = _load_hw_file(hw_file)
    h = _native.Hw()
    err = _native.Error()
    _check(_lib.rl_hw_find(_cstr(hw_id, "hw"), extra, n, _ct.byref(h), _ct.byref(err)), err)
    return h


def hardware(hw_id, hw_file=None):
    """The record of one device (an id, alias or unique fragment: "h100", "mi300x"):
    peaks in FLOP/s, bandwidths in B/s, capacities in B, ridge points in FLOP/B."""
    return _hw_dict(_find_hw(hw_id, hw_file))


def hardware_list():
    """Every built-in device, as records like hardware()'s."""
    out = []
    for i in range(_lib.rl_hw_count()):
        h = _native.Hw()
        _lib.rl_hw_get(i, _ct.byref(h))
        out.append(_hw_dict(h))
    return out


# ---- ops and the bound ------------------------------------------------------------

def _op_kind(name):
    out = _ct.c_int32()
    err = _native.Error()
    _check(_lib.rl_op_parse(_cstr(name, "kind"), _ct.byref(out), _ct.byref(err)), err)
    return out.value


_UNIT_NAMES = {v: k for k, v in _native.UNIT.items()}


def _op_fields(kind):
    """The kind's fields from the library's op schema, as its forms: a list of
    (positional size fields, number of them required), one per alternative."""
    forms = []
    for part in op_fields(_lib.rl_op_name(kind).decode()).split("|"):
        sizes, required = [], 0
        for word in part.split():
            name = word.strip("[]")
            if _lib.rl_op_field_type(name.encode(), None) != _native.RL_OP_FIELD_SIZE:
                continue
            sizes.append(name)
            if not word.startswith("["):
                required = len(sizes)
        forms.append((sizes, required))
    return forms


def op_fields(kind):
    """The shape fields an op kind takes, from the library's op schema:
    op_fields("linear") == "tokens d-in d-out [bias] [weight-dtype]" (bare: required,
    [..]: optional, " | ": alternative forms)."""
    buf = _ct.create_string_buffer(256)
    _lib.rl_op_fields(_op_kind(kind), buf, 256)
    return buf.value.decode()


def _set_fields(o, fields):
    """Set (name, value) pairs on an rl_op through the library's schema check."""
    names = (_ct.c_char_p * max(len(fields), 1))(*[k.encode() for k, _ in fields])
    values = (_ct.c_double * max(len(fields), 1))(*[v for _, v in fields])
    err = _native.Error()
    _check(_lib.rl_op_set_fields(_ct.byref(o), names, values, len(fields), b"", _ct.byref(err)), err)


def _cost(op):
    c = _native.Cost()
    err = _native.Error()
    _check(_lib.rl_op_cost(_ct.byref(op), _ct.byref(c), _ct.byref(err)), err)
    return c


def op_cost(op, shape, s=2):
    """FLOPs F and ideal bytes Q of an operation (each input read once, each output
    written once) with s bytes per element (or a dtype name: "bf16", "fp8").

    Shapes:  add, mul, sub, div, relu, gelu, silu, copy: (n,) or (rows, cols)
             softmax, layernorm, rmsnorm: (rows, cols)
             matmul: (M, N, K) or (M, N, K, batch)   -- (M x K) times (K x N)
             linear: (B, d_in, d_out)                -- B tokens, weights read once
             attention, attention_fused: (T, d_k[, heads[, kv_heads[, batch]]])
             conv2d: (N, C_in, H, W, C_out, kh, kw[, stride[, pad[, groups]]])
             kernel: (F, Q)
    """
    name = str(op)
    flags = 0
    if name in ("attention_fused", "flash_attention", "flash-attention"):
        name, flags = "attention", _native.RL_OP_FUSED
    kind = _op_kind(name)
    canonical = _lib.rl_op_name(kind).decode()
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    forms = _op_fields(kind)
    form = next((f for f, req in forms if req <= len(shape) <= len(f)), None)
    if form is None:
        want = " or ".join("(" + ", ".join(f) + ")" for f, _ in forms)
        raise ValueError(f"{canonical}: shape {shape!r} should be {want}")
    o = _lib.rl_op_init(kind, _dtype(s))
    o.flags = flags
    _set_fields(o, [(f, _num(v, "count", f)) for f, v in zip(form, shape)])
    c = _cost(o)
    return (c.flops, c.bytes)


def _roof_result(F, Q, roof, measured=0.0):
    r = _native.Result()
    err = _native.Error()
    _check(_lib.rl_roofline(float(F), float(Q), _ct.byref(roof), float(measured), _ct.byref(r),
                            _ct.byref(err)), err)
    return r


def roofline(F, Q, peak, bw):
    """The time lower bound max(F/peak, Q/bw) in seconds and what bounds it:
    ("memory" or "compute"). Williams, Waterman & Patterson (2009)."""
    roof = _native.Roof(_num(peak, "FLOP/s", "peak"), _num(bw, "B/s", "bw"), 0.0, -1, 0)
    r = _roof_result(_num(F, "FLOP", "F"), _num(Q, "B", "Q"), roof)
    return (r.time_s, _lib.rl_bound_name(r.bound).decode())


def min_batch(d, peak, bw, s=2):
    """The smallest whole token batch at which a d x d linear layer is compute-bound
    (intensity >= peak/bw), from the exact traffic s(Bd + d^2 + Bd); None when it
    never is (its intensity tends to d/(2s))."""
    d = _num(d, "count", "d")
    ridge = _num(peak, "FLOP/s", "peak") / _num(bw, "B/s", "bw") if _num(bw, "B/s", "bw") > 0 else 0
    out = _ct.c_double()
    err = _native.Error()
    _check(_lib.rl_linear_min_batch(d, d, _dtype(s), -1, 0, ridge, _ct.byref(out), _ct.byref(err)), err)
    return int(out.value) if out.value > 0 else None


def _roof_req(dtype, tensor, peak=None, sparse=False, overhead=None, bw=None):
    """The rl_roof_req of these keywords (the library resolves it)."""
    r = _lib.rl_roof_req_init()
    r.dtype, r.tensor, r.sparse = dtype, int(bool(tensor)), int(bool(sparse))
    if peak is not None:
        r.peak = _given_positive(peak, "FLOP/s", "peak")
    if overhead is not None:
        r.overhead_given, r.overhead_s = 1, _num(overhead, "s", "overhead")
    r.bw_given = int(bw is not None)
    return r


def _roof_for(h, dtype, tensor, peak=None, sparse=False, overhead=None, bw=None):
    """The roof of these keywords on device h (rl_roof_resolve, as the command's)."""
    req = _roof_req(dtype, tensor, peak, sparse, overhead, bw)
    roof = _native.Roof()
    err = _native.Error()
    _check(_lib.rl_roof_resolve(_ct.byref(h), _ct.byref(req), _ct.byref(roof), None,
                                _ct.byref(err)), err)
    return roof


def _given_positive(value, unit, what):
    """A figure given by keyword: > 0 (0 would read as "not given" in a request)."""
    v = _num(value, unit, what)
    if not v > 0:
        raise ValueError(f"{what} must be > 0 (got {v:g})")
    return v


def _device(hw, peak, bw, mem, hw_file, use_default=False):
    """The device of these keywords (rl_hw_resolve): hw looked up (hw_file's
    devices first) with bw and mem replacing its figures, or the device that
    peak and bw describe; use_default: RL_DEFAULT_HW unless peak and bw are given."""
    extra, n = _load_hw_file(hw_file)
    req = _native.HwReq(None if hw is None else _cstr(hw, "hw"),
                        0.0 if peak is None else _given_positive(peak, "FLOP/s", "peak"),
                        0.0 if bw is None else _given_positive(bw, "B/s", "bw"),
                        0.0 if mem is None else _given_positive(mem, "B", "mem"),
                        int(bool(use_default)))
    h = _native.Hw()
    err = _native.Error()
    _check(_lib.rl_hw_resolve(_ct.byref(req), extra, n, _ct.byref(h), _ct.byref(err)), err)
    return h


def _result_json(label, h, dtype, roof, r, extra=""):
    need = _lib.rl_result_json(label.encode(), h.id, _lib.rl_dtype_name(dtype), _ct.byref(roof),
                               _ct.byref(r), extra.encode() or None, None, 0)
    buf = _ct.create_string_buffer(need + 1)
    _lib.rl_result_json(label.encode(), h.id, _lib.rl_dtype_name(dtype), _ct.byref(roof),
                        _ct.byref(r), extra.encode() or None, buf, need + 1)
    return _json.loads(buf.value.decode())


def op(kind, hw=None, dtype="bf16", time=None, weight_dtype=None, fused=False, causal=False,
       bias=False, peak=None, bw=None, mem=None, sparse=False, overhead=None, hw_file=None,
       **shape):
    """One operation on one device: the record `roofline op KIND --json` prints.

    Shape keywords are the command's flags ('_' for '-'), as op_fields(kind) lists
    them: rows=, cols= (softmax, norms), m=, n=, k= (matmul), tokens=, d_in=, d_out=
    (linear), ... Values may carry units ("4Ki").
    """
    k = _op_kind(kind)
    name = _lib.rl_op_name(k).decode()
    if name == "kernel":
        raise ValueError("use kernel(flops, bytes, ...) for a generic kernel")
    dt = _dtype(dtype)
    o = _lib.rl_op_init(k, dt)
    fields = []
    for key, val in shape.items():
        unit = _ct.c_int32()
        if _lib.rl_op_field_type(_cstr(key, "keyword"), _ct.byref(unit)) != _native.RL_OP_FIELD_SIZE:
            raise ValueError(f"unknown shape keyword {key!r}")
        fields.append((key, _num(val, _UNIT_NAMES[unit.value], key)))
    fields += [(f, 1.0) for f, on in (("fused", fused), ("causal", causal), ("bias", bias)) if on]
    if weight_dtype is not None:
        fields.append(("weight-dtype", float(_dtype(weight_dtype))))
    _set_fields(o, fields)
    c = _cost(o)
    h = _device(hw, peak, bw, mem, hw_file)
    roof = _roof_for(h, dt, c.tensor, peak, sparse, overhead, bw)
    measured = _num(time, "s", "time") if time is not None else 0.0
    if time is not None and not measured > 0:
        raise ValueError("time must be > 0")
    r = _roof_result(c.flops, c.bytes, roof, measured)
    extra = []
    if weight_dtype is not None:
        extra.append(f'"weight_dtype":"{_lib.rl_dtype_name(o.weight_dtype).decode()}"')
    if name == "linear":
        mb = _ct.c_double()
        err = _native.Error()
        _check(_lib.rl_linear_min_batch(o.k, o.n, dt, o.weight_dtype, int(bias), r.ridge,
                                        _ct.byref(mb), _ct.byref(err)), err)
        extra.append(f'"min_batch_compute_bound":{int(mb.value) if mb.value > 0 else "null"}')
    return _result_json(name, h, dt, roof, r, ",".join(extra))


def kernel(flops, bytes, hw=None, dtype="bf16", time=None, vector=False, name="kernel",
           peak=None, bw=None, mem=None, sparse=False, overhead=None, hw_file=None):
    """Any kernel from its FLOPs and bytes: the record `roofline kernel --json` prints."""
    dt = _dtype(dtype)
    o = _lib.rl_op_init(_op_kind("kernel"), dt)
    o.flops = _num(flops, "FLOP", "flops")
    o.bytes = _num(bytes, "B", "bytes")
    c = _cost(o)
    h = _device(hw, peak, bw, mem, hw_file)
    roof = _roof_for(h, dt, not vector, peak, sparse, overhead, bw)
    measured = _num(time, "s", "time") if time is not None else 0.0
    if time is not None and not measured > 0:
        raise ValueError("time must be > 0")
    r = _roof_result(c.flops, c.bytes, roof, measured)
    above = "true" if _lib.rl_above_roof(_ct.byref(r)) else "false"
    return _result_json(str(name), h, dt, roof, r, f'"above_roof":{above}')


def layer(hw=None, dtype="bf16", rows=4096, d=4096, batches=(1, 128, 512), seq=4096, head_dim=128,
          peak=None, bw=None, mem=None, sparse=False, overhead=None, hw_file=None):
    """One Transformer layer's roofline table: a list of op records (add, softmax,
    layernorm, three linear layers, naive and fused attention)."""
    sh = _lib.rl_layer_default()
    sh.dtype = _dtype(dtype)
    sh.rows, sh.d = _num(rows, "count", "rows"), _num(d, "count", "d")
    if len(batches) != 3:
        raise ValueError("batches: give exactly three batch sizes (e.g. 1,128,512)")
    for i, b in enumerate(batches):
        sh.batches[i] = _num(b, "count", "batches")
    sh.seq, sh.head_dim = _num(seq, "count", "seq"), _num(head_dim, "count", "head_dim")
    ops = (_native.Op * _native.RL_LAYER_OPS)()
    labels = _ct.create_string_buffer(_native.RL_LAYER_OPS * _native.RL_LABEL_MAX)
    n = _ct.c_int32()
    err = _native.Error()
    _check(_lib.rl_layer_ops(_ct.byref(sh), ops, labels, _native.RL_LAYER_OPS, _ct.byref(n),
                             _ct.byref(err)), err)
    h = _device(hw, peak, bw, mem, hw_file, use_default=True)
    out = []
    for i in range(n.value):
        c = _cost(ops[i])
        roof = _roof_for(h, sh.dtype, c.tensor, peak, sparse, overhead, bw)
        label = labels.raw[i * _native.RL_LABEL_MAX:(i + 1) * _native.RL_LABEL_MAX].split(b"\0")[0]
        out.append(_result_json(label.decode(), h, sh.dtype, roof, _roof_result(c.flops, c.bytes, roof)))
    return out


# Models and LLM economics (roofline.llm needs the helpers above).
from .llm import (Model, collective, decode, mfu, model, model_list, plan, prefill,  # noqa: E402
                  utilization)
from .trace import trace  # noqa: E402
from .measure import measure  # noqa: E402

__all__ = ["op_cost", "roofline", "min_batch", "utilization", "parse_quantity", "format_quantity",
           "dtype_bytes", "hardware", "hardware_list", "op", "kernel", "layer", "Model", "model",
           "model_list", "decode", "prefill", "plan", "mfu", "collective", "trace", "measure",
           "library_path", "__version__"]
