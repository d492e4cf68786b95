"""ctypes mirror of include/roofline.h: the structs, the status codes and the
function signatures. Only this module touches ctypes; roofline/__init__.py
builds the Python API on it. Keep the field order identical to the header.
"""
import ctypes
import json
import os

RL_OK, RL_EINVAL, RL_ENOTFOUND, RL_EAMBIGUOUS, RL_EPARSE, RL_ERANGE = 0, 1, 2, 3, 4, 5
RL_EUNSUPPORTED, RL_ENOMEM, RL_EIO, RL_ETRUNCATED = 6, 7, 8, 9

RL_PEAK_COUNT = 11
RL_ERROR_MSG_MAX = 1024
RL_HW_ID_MAX, RL_HW_TEXT_MAX, RL_HW_SOURCE_MAX = 48, 96, 640
RL_LAYER_OPS, RL_LABEL_MAX = 8, 48
RL_MODEL_ID_MAX, RL_MODEL_TEXT_MAX, RL_MODEL_SOURCE_MAX = 48, 96, 320
RL_MODEL_ALIASES_MAX = 192
RL_PREFILL_OPS, RL_MFU_CONVENTIONS = 24, 12
RL_MEASURE_MAX_WS = 64

# rl_unit
UNIT = {"count": 0, "B": 1, "B/s": 2, "FLOP": 3, "FLOP/s": 4, "s": 5, "FLOP/B": 6}
# rl_op flags and the op schema's field types
RL_OP_FUSED, RL_OP_CAUSAL, RL_OP_BIAS = 1, 2, 4
RL_OP_FIELD_SIZE, RL_OP_FIELD_FLAG, RL_OP_FIELD_DTYPE = 1, 2, 3
RL_ROOF_SPARSE = 1
RL_ROOF_MEASURED_PEAK, RL_ROOF_MEASURED_BW = 1, 2
RL_GROUP_CHANNEL, RL_GROUP_NONE = -1.0, -2.0
D = ctypes.c_double
_LIB = None  # the loaded library (load())
I32 = ctypes.c_int32


class Error(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * RL_ERROR_MSG_MAX)]


class Range(ctypes.Structure):
    """rl_range: a quantity's plausible range (src/core/ranges.c)."""
    _fields_ = [("name", ctypes.c_char_p), ("unit", ctypes.c_int), ("min", ctypes.c_double),
                ("max", ctypes.c_double), ("zero_ok", ctypes.c_int32), ("min_why", ctypes.c_char_p),
                ("max_why", ctypes.c_char_p)]


class Hw(ctypes.Structure):
    """rl_hw, opaque here: its size comes from the library (rl_hw_sizeof) and its
    figures are read and written through the library's hardware schema (rl_hw_json,
    rl_hw_value, rl_hw_set, rl_hw_set_value), so a new figure needs no change here.
    h.mem_bw, h.id (bytes), h.peak (a list by rl_peak index), h.record() (the JSON
    record of `roofline hw show --json`); h.mem_bw = 3.35e12 sets one, in base units."""
    _opaque_ = True

    def record(self):
        need = _LIB.rl_hw_json(ctypes.byref(self), None, 0)
        buf = ctypes.create_string_buffer(need + 1)
        _LIB.rl_hw_json(ctypes.byref(self), buf, need + 1)
        return json.loads(buf.value.decode())

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "peak":
            return [_LIB.rl_hw_value(ctypes.byref(self), _LIB.rl_peak_name(i))
                    for i in range(RL_PEAK_COUNT)]
        rec = self.record()
        key = _LIB.rl_hw_json_key(name.encode())  # "mem_bw" -> "bandwidth"
        if key is None or key.decode() not in rec:
            raise AttributeError(name)
        key = key.decode()
        val = rec[key]
        if isinstance(val, list):  # aliases: the C field is space-separated
            return " ".join(val).encode()
        if isinstance(val, str):
            return val.encode()
        v = _LIB.rl_hw_value(ctypes.byref(self), name.encode())  # 0 where the record has null
        return bool(v) if isinstance(val, bool) else int(v) if isinstance(val, int) else v

    def __setattr__(self, name, value):
        err = Error()
        if isinstance(value, (bytes, str)):
            text = value if isinstance(value, bytes) else value.encode()
            st = _LIB.rl_hw_set(ctypes.byref(self), name.encode(), text, ctypes.byref(err))
        else:
            st = _LIB.rl_hw_set_value(ctypes.byref(self), name.encode(), float(value),
                                      ctypes.byref(err))
        if st:
            raise ValueError(err.msg.decode())


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
                ("peak_kind", I32), ("sparse", I32), ("compute_eff", D), ("bw_eff", D),
                ("measured", I32)]


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


# ---- models and LLM economics -------------------------------------------------
# the enums' names are the library's (rl_mlp_parse, rl_embed_parse, ...)


class Model(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_char * RL_MODEL_ID_MAX),
        ("name", ctypes.c_char * RL_MODEL_TEXT_MAX),
        ("layers", D), ("d_model", D), ("heads", D), ("kv_heads", D), ("head_dim", D),
        ("d_ff", D), ("vocab", D), ("max_seq", D), ("experts", D), ("experts_active", D),
        ("params", D), ("published_params", D),
        ("mlp", I32), ("norm", I32), ("tied_embeddings", I32), ("bias", I32),
        ("learned_pos", I32), ("dtype", I32),
        ("source", ctypes.c_char * RL_MODEL_SOURCE_MAX),
        ("aliases", ctypes.c_char * RL_MODEL_ALIASES_MAX), ("window", D), ("window_layers", D),
        ("norms_per_layer", D), ("shared_experts", D), ("dense_layers", D), ("dense_d_ff", D),
        ("q_lora_rank", D), ("kv_lora_rank", D), ("rope_dim", D), ("nope_dim", D),
        ("v_head_dim", D), ("act", I32), ("router_bias", I32), ("expert_weights", I32),
    ]


class ParamCount(ctypes.Structure):
    _fields_ = [("total", D), ("active", D), ("embedding", D), ("output", D), ("attention", D),
                ("mlp", D), ("mlp_active", D), ("norms", D), ("non_embedding", D),
                ("matmul_active", D), ("derived", I32)]


class InferCfg(ctypes.Structure):
    _fields_ = [("weight_dtype", I32), ("kv_dtype", I32), ("act_dtype", I32), ("tp", I32),
                ("embedding", I32), ("causal", I32), ("context", D), ("batch", D),
                ("new_tokens", D), ("mem_bytes", D), ("link_bw", D), ("comm_latency_s", D),
                ("group_size", D), ("quantize_all", I32), ("attention_impl", I32), ("pp", I32),
                ("ep", I32), ("microbatches", D), ("p2p_latency_s", D), ("a2a_latency_s", D)]


class HwReq(ctypes.Structure):
    _fields_ = [("hw", ctypes.c_char_p), ("peak", D), ("bw", D), ("mem", D), ("use_default", I32)]


class RoofReq(ctypes.Structure):
    _fields_ = [("dtype", I32), ("tensor", I32), ("peak", D), ("sparse", I32),
                ("overhead_given", I32), ("overhead_s", D), ("bw_given", I32), ("stand_in", I32)]


class InferReq(ctypes.Structure):
    _fields_ = [("weight_dtype", I32), ("kv_dtype", I32), ("dtype", I32), ("tp", I32), ("pp", I32),
                ("ep", I32), ("microbatches_given", I32), ("microbatches", D), ("embedding", I32),
                ("quantize_all", I32), ("group_size", D), ("link_bw_given", I32), ("link_bw", D),
                ("comm_latency_given", I32), ("comm_latency", D), ("compute_eff", D),
                ("bw_eff", D), ("roof", RoofReq)]


class InferInfo(ctypes.Structure):
    _fields_ = [("dtype", I32), ("peak_dtype", I32), ("comm_latency_default", I32)]


class DecodeRow(ctypes.Structure):
    _fields_ = [("batch", D), ("flops", D), ("bytes", D), ("weight_bytes", D), ("kv_bytes", D),
                ("intensity", D), ("compute_time_s", D), ("memory_time_s", D),
                ("comm_time_s", D), ("step_time_s", D), ("tokens_per_s", D),
                ("tokens_per_s_per_seq", D), ("memory_bytes", D), ("bound", I32), ("fits", I32),
                ("microbatches", D), ("stage_time_max_s", D), ("p2p_time_s", D), ("a2a_time_s", D),
                ("tp_fit", D), ("ep_fit", D)]


class DecodeSummary(ctypes.Structure):
    _fields_ = [("params", D), ("active_params", D), ("weights_bytes", D),
                ("weights_read_bytes", D), ("embedding_bytes", D), ("kv_bytes_per_token", D),
                ("kv_bytes_per_seq", D), ("linear_flops_per_token", D),
                ("attention_flops_per_token", D), ("attention_intensity", D), ("ridge", D),
                ("ridge_batch", D), ("asymptotic_intensity", D), ("max_batch", D),
                ("devices_needed", D), ("mem_bytes", D), ("weights_fit", I32), ("tp", I32),
                ("activation_flops_per_token", D), ("scale_bytes", D), ("group_size", D),
                ("kept_bytes", D), ("quantized", I32), ("kept_dtype", I32), ("pp", I32), ("ep", I32),
                ("tp_needed", D), ("ep_needed", D), ("expert_weights", I32), ("expert_bytes", D)]


class PrefillOp(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * RL_LABEL_MAX), ("count", D), ("flops", D),
                ("bytes", D), ("intensity", D), ("time_s", D), ("bound", I32)]


class PrefillResult(ctypes.Structure):
    _fields_ = [("tokens", D), ("flops", D), ("bytes", D), ("compute_time_s", D),
                ("comm_time_s", D), ("ttft_s", D), ("compute_bound_fraction", D),
                ("tokens_per_s", D), ("decode_time_s", D), ("e2e_time_s", D),
                ("memory_bytes", D), ("fits", I32), ("n_ops", I32), ("weights_bytes", D),
                ("mem_bytes", D), ("pp", I32), ("ep", I32), ("microbatches", D),
                ("bubble_fraction", D), ("stage_time_max_s", D), ("p2p_time_s", D),
                ("a2a_time_s", D)]


class PlanCfg(ctypes.Structure):
    _fields_ = [("prompt", D), ("gen", D), ("ttft_s", D), ("tpot_s", D), ("gpus", D),
                ("max_batch", D), ("batching", I32), ("chunk", D), ("mem_fraction", D),
                ("block_size", D), ("reserve_bytes", D)]


class PlanRow(ctypes.Structure):
    _fields_ = [("batch", D), ("ttft_s", D), ("tpot_s", D), ("e2e_s", D), ("replicas", D),
                ("tokens_per_s", D), ("tokens_per_s_per_device", D), ("memory_bytes", D),
                ("tp", I32), ("pp", I32), ("weight_dtype", I32), ("kv_dtype", I32),
                ("limit", I32), ("bound", I32), ("ep", I32), ("microbatches", D),
                ("requests_per_s", D), ("prefill_tokens_per_step", D), ("kv_bytes", D),
                ("activation_bytes", D), ("reserve_bytes", D)]


class MfuCfg(ctypes.Structure):
    _fields_ = [("seq", D), ("tokens_per_s", D), ("gpus", D), ("peak", D), ("sparse_peak", D),
                ("padding", D), ("attention", I32), ("recompute", I32), ("use_sparse", I32),
                ("exclude_embedding", I32)]


class MfuResult(ctypes.Structure):
    _fields_ = [("n_params", D), ("attention_flops_per_token", D),
                ("model_flops_per_token", D), ("recompute_flops_per_token", D),
                ("hardware_flops_per_token", D), ("peak", D), ("useful_tokens_per_s", D),
                ("model_flops_per_s", D), ("mfu", D), ("hfu", D), ("sparse", I32)]


class MfuConvention(ctypes.Structure):
    _fields_ = [("label", ctypes.c_char * RL_LABEL_MAX), ("metric", ctypes.c_char * 8),
                ("attention", I32), ("recompute", I32), ("sparse", I32), ("padded", I32),
                ("flops_per_token", D), ("value", D)]


class CollCfg(ctypes.Structure):
    _fields_ = [("kind", I32), ("bytes", D), ("ranks", D), ("busbw", D), ("latency_s", D),
                ("ranks_per_node", D), ("inter_busbw", D), ("step_time_s", D),
                ("backward_time_s", D), ("bucket_bytes", D)]


class CollResult(ctypes.Structure):
    _fields_ = [("factor", D), ("bytes_per_rank", D), ("bandwidth_time_s", D),
                ("latency_time_s", D), ("time_s", D), ("algbw", D), ("busbw", D),
                ("intra_time_s", D), ("inter_time_s", D), ("step_fraction", D),
                ("step_fraction_added", D), ("ddp_exposed_s", D), ("ddp_fraction", D),
                ("fsdp_time_s", D), ("fsdp_fraction", D)]


# The C name of each mirrored struct (tests/python/test_layout.py compiles a
# C program that checks every field's offset and each struct's size).
RL_REASON_COUNT = 12


class TraceUncovered(ctypes.Structure):
    _fields_ = [("reason", I32), ("time_s", D)]


class TraceSummary(ctypes.Structure):
    _fields_ = [
        ("kernels", ctypes.c_int64), ("gpu_time_s", D), ("span_s", D), ("busy_s", D),
        ("idle_s", D), ("busy_share", D), ("compute_s", D), ("memory_s", D), ("overhead_s", D),
        ("short_s", D), ("unknown_s", D), ("gain_s", D), ("fusion_s", D),
        ("launch_overhead_s", D), ("floor_s", D), ("floor_source", ctypes.c_char_p),
        ("has_time", I32), ("has_span", I32),
        ("covered_s", D), ("coverage", D), ("n_uncovered", I32),
        ("uncovered", TraceUncovered * RL_REASON_COUNT), ("no_shapes", I32),
        ("copies", ctypes.c_int64), ("copy_s", D), ("collectives", ctypes.c_int64),
        ("collective_s", D), ("network_s", D), ("devices", I32),
        ("duplicates", ctypes.c_int64), ("duplicate_s", D), ("overlapping", ctypes.c_int64),
        ("overlap_s", D), ("ends_before_start", ctypes.c_int64), ("overhead_cut_s", D),
        ("zero_duration", ctypes.c_int64),
    ]


class TraceInfo(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_char * 16), ("device", ctypes.c_char * RL_HW_TEXT_MAX),
        ("device_mem_bytes", D), ("cc_major", I32), ("cc_minor", I32), ("has_time", I32),
        ("kernels", ctypes.c_int64), ("unlinked", ctypes.c_int64), ("events", ctypes.c_int64),
        ("cpu", I32), ("threads", I32), ("cpu_model", ctypes.c_char * 80),
        ("graph_matched", ctypes.c_int64), ("graph_unmatched", ctypes.c_int64),
        ("graph_unreplayed", ctypes.c_int64),
        ("model", ctypes.c_char * RL_MODEL_ID_MAX),
    ]


# rl_measure_opts; the clock is the library's (NULL), progress a Python callable.
PROGRESS_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)


class MeasureOpts(ctypes.Structure):
    _fields_ = [("threads", I32), ("quick", I32), ("parts", ctypes.c_uint32),
                ("ws", ctypes.POINTER(D)), ("n_ws", I32), ("clock", ctypes.c_void_p),
                ("clock_user", ctypes.c_void_p), ("progress", PROGRESS_FN),
                ("progress_user", ctypes.c_void_p)]


C_NAMES = {
    "Error": "rl_error", "Range": "rl_range", "Op": "rl_op", "Cost": "rl_cost", "Roof": "rl_roof",
    "Result": "rl_result", "LayerShape": "rl_layer_shape", "Model": "rl_model",
    "ParamCount": "rl_param_count", "InferCfg": "rl_infer_cfg", "DecodeRow": "rl_decode_row",
    "DecodeSummary": "rl_decode_summary", "PrefillOp": "rl_prefill_op",
    "PrefillResult": "rl_prefill_result", "PlanCfg": "rl_plan_cfg", "PlanRow": "rl_plan_row",
    "MfuCfg": "rl_mfu_cfg", "MfuResult": "rl_mfu_result",
    "MfuConvention": "rl_mfu_convention", "CollCfg": "rl_coll_cfg", "CollResult": "rl_coll_result",
    "TraceSummary": "rl_trace_summary", "TraceUncovered": "rl_trace_uncovered",
    "TraceInfo": "rl_trace_info",
    "MeasureOpts": "rl_measure_opts", "HwReq": "rl_hw_req", "RoofReq": "rl_roof_req",
    "InferReq": "rl_infer_req", "InferInfo": "rl_infer_info",
}


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
            global _LIB
            _LIB = lib
            lib.rl_hw_sizeof.restype = ctypes.c_size_t
            Hw._fields_ = [("_raw", D * (lib.rl_hw_sizeof() // ctypes.sizeof(D)))]
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
        "rl_parse_tokens": (ctypes.c_int, [ctypes.c_char_p, P(D), E]),
        "rl_range_get": (P(Range), [ctypes.c_int]),
        "rl_range_text": (ctypes.c_size_t, [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
        "rl_param_qty": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_int]),
        "rl_param_check": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_int, D, E]),
        "rl_format_quantity": (ctypes.c_size_t, [D, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
        "rl_dtype_bytes": (D, [I32]),
        "rl_dtype_name": (ctypes.c_char_p, [I32]),
        "rl_dtype_parse": (ctypes.c_int, [ctypes.c_char_p, P(I32), E]),
        "rl_peak_name": (ctypes.c_char_p, [I32]),
        "rl_hw_count": (I32, []),
        "rl_default_hw": (ctypes.c_char_p, []),
        "rl_hw_get": (ctypes.c_int, [I32, P(Hw)]),
        "rl_hw_find": (ctypes.c_int, [ctypes.c_char_p, P(Hw), I32, P(Hw), E]),
        "rl_hw_parse_csv": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_size_t, P(Hw), I32, P(I32), E]),
        "rl_hw_ridge": (D, [P(Hw), I32]),
        "rl_hw_roof": (ctypes.c_int, [P(Hw), I32, ctypes.c_uint32, P(Roof), E]),
        "rl_hw_peak_for": (I32, [P(Hw), I32, ctypes.c_int]),
        "rl_msg_spell": (ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char,
                                           ctypes.c_char_p, ctypes.c_size_t]),
        "rl_hw_resolve": (ctypes.c_int, [P(HwReq), P(Hw), I32, P(Hw), E]),
        "rl_roof_req_init": (RoofReq, []),
        "rl_roof_resolve": (ctypes.c_int, [P(Hw), P(RoofReq), P(Roof), P(I32), E]),
        "rl_comm_latency": (D, [P(Hw), I32, I32]),
        "rl_fraction_parse": (ctypes.c_int, [ctypes.c_char_p, P(D), E]),
        "rl_infer_req_init": (InferReq, []),
        "rl_hw_json": (ctypes.c_size_t, [P(Hw), ctypes.c_char_p, ctypes.c_size_t]),
        "rl_hw_value": (D, [P(Hw), ctypes.c_char_p]),
        "rl_hw_json_key": (ctypes.c_char_p, [ctypes.c_char_p]),
        "rl_hw_set": (ctypes.c_int, [P(Hw), ctypes.c_char_p, ctypes.c_char_p, E]),
        "rl_hw_set_value": (ctypes.c_int, [P(Hw), ctypes.c_char_p, D, E]),
        "rl_op_name": (ctypes.c_char_p, [I32]),
        "rl_op_parse": (ctypes.c_int, [ctypes.c_char_p, P(I32), E]),
        "rl_op_init": (Op, [I32, I32]),
        "rl_op_cost": (ctypes.c_int, [P(Op), P(Cost), E]),
        "rl_op_fields": (ctypes.c_size_t, [I32, ctypes.c_char_p, ctypes.c_size_t]),
        "rl_op_field_type": (I32, [ctypes.c_char_p, P(I32)]),
        "rl_op_set_fields": (ctypes.c_int, [P(Op), P(ctypes.c_char_p), P(D), I32, ctypes.c_char_p,
                                            E]),
        "rl_linear_min_batch": (ctypes.c_int, [D, D, I32, I32, ctypes.c_int, D, P(D), E]),
        "rl_bound_name": (ctypes.c_char_p, [I32]),
        "rl_roofline": (ctypes.c_int, [D, D, P(Roof), D, P(Result), E]),
        "rl_verdict": (ctypes.c_size_t, [P(Result), ctypes.c_char_p, ctypes.c_size_t]),
        "rl_above_roof": (ctypes.c_int, [P(Result)]),
        "rl_layer_default": (LayerShape, []),
        "rl_layer_ops": (ctypes.c_int, [P(LayerShape), P(Op), ctypes.c_void_p, I32, P(I32), E]),
        "rl_result_json": (ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                             P(Roof), P(Result), ctypes.c_char_p,
                                             ctypes.c_char_p, ctypes.c_size_t]),
    }
    C = ctypes.c_char_p
    Z = ctypes.c_size_t
    sig.update({
        "rl_model_init": (Model, []),
        "rl_model_count": (I32, []),
        "rl_model_get": (ctypes.c_int, [I32, P(Model)]),
        "rl_model_find": (ctypes.c_int, [C, P(Model), E]),
        "rl_model_from_hf_config": (ctypes.c_int, [C, Z, C, P(Model), E]),
        "rl_model_check": (ctypes.c_int, [P(Model), P(Model), E]),
        "rl_model_params": (ctypes.c_int, [P(Model), P(ParamCount), E]),
        "rl_model_kv_bytes_per_token": (ctypes.c_int, [P(Model), I32, P(D), E]),
        "rl_infer_cfg_init": (InferCfg, []),
        "rl_infer_setup": (ctypes.c_int, [P(Model), P(Hw), P(InferReq), P(InferCfg), P(Roof),
                                          P(InferInfo), E]),
        "rl_infer_degrees": (None, [P(InferCfg), P(Hw), P(InferReq), I32, I32, I32]),
        "rl_decode": (ctypes.c_int, [P(Model), P(InferCfg), P(Roof), P(D), I32, P(DecodeRow),
                                     P(DecodeSummary), E]),
        "rl_prefill": (ctypes.c_int, [P(Model), P(InferCfg), P(Roof), P(PrefillOp), I32,
                                      P(PrefillResult), E]),
        "rl_plan": (ctypes.c_int, [P(Model), P(InferCfg), P(Roof), P(PlanCfg), P(PlanRow), E]),
        "rl_plan_cfg_init": (PlanCfg, []),
        "rl_allreduce_floor": (D, [P(Hw)]),
        "rl_batching_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_plan_json": (Z, [P(Model), P(PlanCfg), C, P(Roof), P(PlanRow), I32, C, Z]),
        "rl_hw_measured": (ctypes.c_int, [P(Hw)]),
        "rl_mfu_cfg_init": (MfuCfg, []),
        "rl_mfu": (ctypes.c_int, [P(Model), P(MfuCfg), P(MfuResult), E]),
        "rl_mfu_conventions": (ctypes.c_int, [P(Model), P(MfuCfg), P(MfuConvention), I32,
                                              P(I32), E]),
        "rl_coll_name": (C, [I32]),
        "rl_mlp_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_norm_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_attn_impl_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_group_size_parse": (ctypes.c_int, [C, P(D), E]),
        "rl_embed_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_attn_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_recompute_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_coll_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_coll_cfg_init": (CollCfg, []),
        "rl_collective": (ctypes.c_int, [P(CollCfg), P(CollResult), E]),
        "rl_model_json": (Z, [P(Model), I32, C, Z]),
        "rl_model_list_json": (Z, [C, Z]),
        "rl_decode_json": (Z, [P(Model), P(InferCfg), P(Roof), C, P(DecodeRow), I32,
                               P(DecodeSummary), P(PrefillOp), I32, C, Z]),
        "rl_decode_ops": (ctypes.c_int, [P(Model), P(InferCfg), P(Roof), D, P(PrefillOp), I32,
                                         P(I32), E]),
        "rl_prefill_json": (Z, [P(Model), P(InferCfg), P(Roof), C, P(PrefillOp),
                                P(PrefillResult), C, Z]),
        "rl_mfu_json": (Z, [P(Model), P(MfuCfg), C, P(MfuResult), C, Z]),
        "rl_collective_json": (Z, [P(CollCfg), P(CollResult), C, Z]),
        "rl_trace_new": (ctypes.c_void_p, [D]),
        "rl_trace_free": (None, [ctypes.c_void_p]),
        "rl_trace_read_file": (ctypes.c_int, [ctypes.c_void_p, C, I32, E]),
        "rl_trace_read_capture": (ctypes.c_int, [ctypes.c_void_p, C, E]),
        "rl_trace_format_parse": (ctypes.c_int, [C, P(I32), E]),
        "rl_trace_hw": (ctypes.c_int, [ctypes.c_void_p, P(Hw), E]),
        "rl_trace_analyze": (ctypes.c_int, [ctypes.c_void_p, P(Hw), P(TraceSummary), E]),
        "rl_trace_json": (Z, [ctypes.c_void_p, P(Hw), P(TraceSummary), I32, C, Z]),
        "rl_trace_get_info": (ctypes.c_int, [ctypes.c_void_p, P(TraceInfo)]),
        "rl_trace_set_cpu": (None, [ctypes.c_void_p, I32]),
        "rl_trace_set_threads": (None, [ctypes.c_void_p, I32]),
        "rl_trace_set_model": (ctypes.c_int, [ctypes.c_void_p, P(Model), E]),
        "rl_trace_measured_hw": (ctypes.c_int, [ctypes.c_void_p, P(Hw), I32, P(Hw), E]),
        "rl_measure_parts_parse": (ctypes.c_int, [C, P(ctypes.c_uint32), E]),
        "rl_measurement_sizeof": (Z, []),
        "rl_measure": (ctypes.c_int, [P(MeasureOpts), ctypes.c_void_p, E]),
        "rl_measure_json": (Z, [ctypes.c_void_p, C, Z]),
    })
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
