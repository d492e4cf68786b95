"""ctypes mirror of include/roofline.h: the structs, the status codes and the
function signatures. Only this module touches ctypes; roofline/__init__.py
builds the Python API on it. Keep the field order identical to the header.
"""
import ctypes
import os

RL_OK, RL_EINVAL, RL_ENOTFOUND, RL_EAMBIGUOUS, RL_EPARSE, RL_ERANGE = 0, 1, 2, 3, 4, 5
RL_EUNSUPPORTED, RL_ENOMEM, RL_EIO, RL_ETRUNCATED = 6, 7, 8, 9

RL_PEAK_COUNT = 10
RL_ERROR_MSG_MAX = 320
RL_HW_ID_MAX, RL_HW_TEXT_MAX, RL_HW_SOURCE_MAX = 48, 96, 640
RL_LAYER_OPS, RL_LABEL_MAX = 8, 48

# rl_unit
UNIT = {"count": 0, "B": 1, "B/s": 2, "FLOP": 3, "FLOP/s": 4, "s": 5, "FLOP/B": 6}
# rl_op flags
RL_OP_FUSED, RL_OP_CAUSAL, RL_OP_BIAS = 1, 2, 4
RL_ROOF_SPARSE = 1
D = ctypes.c_double
I32 = ctypes.c_int32


class Error(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * RL_ERROR_MSG_MAX)]


class Hw(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_char * RL_HW_ID_MAX),
        ("aliases", ctypes.c_char * RL_HW_TEXT_MAX),
        ("vendor", ctypes.c_char * RL_HW_ID_MAX),
        ("name", ctypes.c_char * RL_HW_TEXT_MAX),
        ("form_factor", ctypes.c_char * RL_HW_TEXT_MAX),
        ("peak", D * RL_PEAK_COUNT),
        ("sparsity", I32),
        ("sms", I32),
        ("mem_bytes", D), ("mem_bw", D), ("l1_bw", D), ("l2_bytes", D), ("l2_bw", D),
        ("l3_bw", D), ("boost_hz", D), ("interconnect_bw", D), ("tdp_w", D),
        ("source", ctypes.c_char * RL_HW_SOURCE_MAX),
    ]


class Op(ctypes.Structure):
    _fields_ = [
        ("kind", I32), ("dtype", I32), ("weight_dtype", I32), ("flags", ctypes.c_uint32),
        ("batch", D), ("m", D), ("n", D), ("k", D),
        ("seq", D), ("seq_kv", D), ("head_dim", D), ("heads", D), ("kv_heads", D), ("tile", D),
        ("c_in", D), ("c_out", D), ("h", D), ("w", D), ("kh", D), ("kw", D),
        ("stride", D), ("pad", D), ("groups", D),
        ("flops", D), ("bytes", D),
    ]


class Cost(ctypes.Structure):
    _fields_ = [("flops", D), ("bytes", D), ("intensity", D), ("peak", I32), ("tensor", I32)]


class Roof(ctypes.Structure):
    _fields_ = [("peak", D), ("bandwidth", D), ("launch_overhead_s", D),
                ("peak_kind", I32), ("sparse", I32)]


class Result(ctypes.Structure):
    _fields_ = [
        ("flops", D), ("bytes", D), ("intensity", D), ("peak", D), ("bandwidth", D), ("ridge", D),
        ("compute_time_s", D), ("memory_time_s", D), ("time_s", D), ("attainable", D),
        ("peak_fraction", D), ("bound", I32), ("has_measured", I32), ("measured_s", D),
        ("achieved", D), ("roof_fraction", D), ("launch_overhead_s", D),
    ]


class LayerShape(ctypes.Structure):
    _fields_ = [("rows", D), ("d", D), ("batches", D * 3), ("seq", D), ("head_dim", D),
                ("dtype", I32)]


def _candidates():
    env = os.environ.get("ROOFLINE_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "_lib", "libroofline.so")          # installed with pip
    yield os.path.join(here, "..", "..", "build", "libroofline.so")  # the build tree


def load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            lib = ctypes.CDLL(os.path.abspath(path))
            _declare(lib)
            return lib, os.path.abspath(path)
        tried.append(path)
    raise ImportError("libroofline.so not found (run `make`, or set ROOFLINE_LIB); tried: "
                      + ", ".join(tried))


def _declare(lib):
    P = ctypes.POINTER
    E = P(Error)
    sig = {
        "rl_version": (ctypes.c_char_p, []),
        "rl_version_number": (ctypes.c_int, []),
        "rl_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "rl_parse_quantity": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_int, P(D), E]),
        "rl_format_quantity": (ctypes.c_size_t, [D, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
        "rl_dtype_bytes": (D, [I32]),
        "rl_dtype_name": (ctypes.c_char_p, [I32]),
        "rl_dtype_parse": (ctypes.c_int, [ctypes.c_char_p, P(I32), E]),
        "rl_peak_name": (ctypes.c_char_p, [I32]),
        "rl_hw_count": (I32, []),
        "rl_hw_get": (ctypes.c_int, [I32, P(Hw)]),
        "rl_hw_find": (ctypes.c_int, [ctypes.c_char_p, P(Hw), I32, P(Hw), E]),
        "rl_hw_parse_csv": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_size_t, P(Hw), I32, P(I32), E]),
        "rl_hw_ridge": (D, [P(Hw), I32]),
        "rl_hw_roof": (ctypes.c_int, [P(Hw), I32, ctypes.c_uint32, P(Roof), E]),
        "rl_hw_peak_for": (I32, [P(Hw), I32, ctypes.c_int]),
        "rl_op_name": (ctypes.c_char_p, [I32]),
        "rl_op_parse": (ctypes.c_int, [ctypes.c_char_p, P(I32), E]),
        "rl_op_init": (Op, [I32, I32]),
        "rl_op_cost": (ctypes.c_int, [P(Op), P(Cost), E]),
        "rl_linear_min_batch": (ctypes.c_int, [D, D, I32, I32, ctypes.c_int, D, P(D), E]),
        "rl_bound_name": (ctypes.c_char_p, [I32]),
        "rl_roofline": (ctypes.c_int, [D, D, P(Roof), D, P(Result), E]),
        "rl_verdict": (ctypes.c_size_t, [P(Result), ctypes.c_char_p, ctypes.c_size_t]),
        "rl_layer_default": (LayerShape, []),
        "rl_layer_ops": (ctypes.c_int, [P(LayerShape), P(Op), ctypes.c_void_p, I32, P(I32), E]),
        "rl_result_json": (ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                             P(Roof), P(Result), ctypes.c_char_p,
                                             ctypes.c_char_p, ctypes.c_size_t]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
