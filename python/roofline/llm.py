"""Models and LLM economics from Python: utilization() (MFU, HFU), and the
records of `roofline model|decode|prefill|mfu|comm --json` as dicts.

    >>> import roofline as rl
    >>> mfu, hfu = rl.utilization(8e9, 32, 4096, 4096, 600_000, 64, 989.4e12,
    ...                           recompute="full")
    >>> round(mfu, 3), round(hfu, 3)
    (0.516, 0.688)
    >>> d = rl.decode("llama3-8b", batch=[1, 64], context=4096, hw="h100")
    >>> d["rows"][0]["step_time_s"], d["max_batch"]

Keyword names are the command's flags with - replaced by _ (--kv-dtype is
kv_dtype); values may carry units as on the command line ("80GiB",
"37.4GB/s", "3.64s"). A model is a built-in id ("llama3-8b"), a Hugging Face
config.json or the folder holding one, a config dict, a record returned by
model(), or its sizes (params=, layers=, heads=, ...). The records come from
the C library's JSON writers (rl_model_json, rl_decode_json, ...), so they
equal the command's --json output. Bad arguments raise ValueError with the
library's message; an unknown keyword is a TypeError, as in any Python call.

The package's __init__ re-exports everything here. The structs and function
signatures are declared in _native.py only; this module calls them.
"""
import ctypes as _ct
import json as _json
import math as _math
import os as _os

from . import _native
from . import (CONFIG_MAX, _check, _cstr, _device, _dtype, _find_hw, _lib, _msg, _num, _path, _read_capped,
               _roof_req, parse_quantity)

_SIZES = ("params", "layers", "d_model", "heads", "kv_heads", "head_dim", "d_ff", "vocab",
          "experts", "experts_active", "mlp", "norm", "tied", "bias", "learned_pos")
_SHAPES = ("mlp", "norm", "tied", "bias", "learned_pos")
_DEFAULT_HW = _lib.rl_default_hw().decode()


def _err():
    return _native.Error()


def _choice(parse, value, what):
    """An enum's value from its name through the library's parser (rl_mlp_parse,
    rl_embed_parse, ...), whose error lists the names."""
    out = _ct.c_int32()
    err = _err()
    if parse(_cstr(value, what), _ct.byref(out), _ct.byref(err)):
        raise ValueError(f"{what}: {err.msg.decode('utf-8', 'replace')}")
    return out.value


def _record(fn, *args):
    """Call a snprintf-style writer twice (size, then write) and parse its JSON."""
    need = fn(*args, None, 0)
    buf = _ct.create_string_buffer(need + 1)
    fn(*args, buf, need + 1)
    return _json.loads(buf.value.decode("utf-8"))


def _whole(value, unit, what, lo, text):
    """A whole number >= lo, else ValueError '<what> must be <text> (got v)'."""
    v = _num(value, unit, what)
    if not (v >= lo) or v != _math.floor(v):
        raise ValueError(f"{what} must be {text} (got {v:g})")
    return v


def _positive(value, unit, what):
    v = _num(value, unit, what)
    if not v > 0:
        raise ValueError(f"{what} must be > 0 (got {v:g})")
    return v


def _unexpected(fn, extra):
    if extra:
        raise TypeError(f"{fn}() got an unexpected keyword argument {sorted(extra)[0]!r}")


# ---- models ------------------------------------------------------------------------

class Model(dict):
    """A model's record: the dict `roofline model show --json` prints. Pass it as
    the model of decode(), prefill() or mfu() (it keeps the configuration it was
    made from)."""
    __slots__ = ("_struct",)


def _from_config_text(text, ident, where):
    m = _native.Model()
    err = _err()
    st = _lib.rl_model_from_hf_config(text, len(text), ident.encode(), _ct.byref(m), _ct.byref(err))
    if st:
        raise ValueError(f"{where}: {err.msg.decode()}" if where else err.msg.decode())
    return m


def _load_config(path):
    path = _os.fsdecode(_path(path, "model"))
    file = _os.path.join(path, "config.json") if _os.path.isdir(path) else path
    text = _read_capped(file, CONFIG_MAX)
    # the model's id: the folder's name, else the file's (as the command does)
    ident = _os.path.basename(path.rstrip("/")) or path
    return _from_config_text(text, ident[:_native.RL_MODEL_ID_MAX - 1], file)


def _resolve_model(model, sizes, heads_optional=False):
    """An rl_model from model= (id, path, config dict, record) or the sizes."""
    given = {k: v for k, v in sizes.items() if v is not None and k not in _SHAPES}
    shape = {k: v for k, v in sizes.items() if v is not None and v is not False and k in _SHAPES}
    for k in shape:
        if model is not None or "d_ff" not in given or "params" in given:
            raise ValueError(f"{k} describes a model derived from its sizes (d_ff and vocab, no "
                             f"params{', no model' if model is not None else ''})")
    if model is not None:
        if given:
            raise ValueError(f"model and {next(iter(given))} exclude each other (give a model "
                             "either by model or by its sizes)")
        if isinstance(model, Model):
            return _native.Model.from_buffer_copy(model._struct)
        if isinstance(model, _native.Model):
            return _native.Model.from_buffer_copy(model)
        if isinstance(model, dict):
            name = str(model.get("_name_or_path") or "config").rstrip("/")
            return _from_config_text(_json.dumps(model).encode(),
                                     _os.path.basename(name)[:_native.RL_MODEL_ID_MAX - 1] or "config",
                                     None)
        if isinstance(model, (bytes, _os.PathLike)):
            text = _os.fsdecode(_path(model, "model"))
        elif isinstance(model, str):
            _cstr(model, "model")          # a NUL: refused before the file system sees it
            text = model
        else:
            raise ValueError(f"model: {model!r} is not a model id, a path, a config dict or a Model")
        exists = _os.path.exists(text)
        hub = (not exists and text.count("/") == 1 and ".json" not in text
               and not text.startswith(("/", ".")))
        if not hub and ("/" in text or ".json" in text or exists):
            return _load_config(text)
        m = _native.Model()
        err = _err()
        st = _lib.rl_model_find(text.encode(), _ct.byref(m), _ct.byref(err))
        if st:
            raise ValueError(f"model: {_msg(err)}")
        return m
    if not given:
        raise ValueError("which model? give model=ID|config.json (model_list()) or layers, heads "
                         "and params")
    v = {k: _num(x, "count", k) for k, x in given.items()}
    for k, x in v.items():
        if not x > 0:
            raise ValueError(f"{k} must be > 0 (got {x:g})")
    if "layers" not in v:
        raise ValueError("the model names no layers: give layers (or model=ID|config.json)")
    one_head = False
    if "heads" not in v:
        if not (heads_optional and "d_model" in v and "head_dim" not in v and "kv_heads" not in v):
            raise ValueError("the model names no attention heads: give heads")
        one_head = True                     # only H d_h = d matters (attention FLOPs)
    if "params" not in v and not ("d_ff" in v and "vocab" in v):
        raise ValueError("give the parameter count (params=7e9) or d_ff and vocab to derive it")
    m = _lib.rl_model_init()
    for k, x in v.items():
        setattr(m, k, x)
    if one_head:
        m.heads = 1
    if "mlp" in shape:
        m.mlp = _choice(_lib.rl_mlp_parse, shape["mlp"], "mlp")
    if "norm" in shape:
        m.norm = _choice(_lib.rl_norm_parse, shape["norm"], "norm")
    m.tied_embeddings = int(bool(shape.get("tied")))
    m.bias = int(bool(shape.get("bias")))
    if "learned_pos" in shape:
        n = _num(shape["learned_pos"], "count", "learned_pos")
        if not 1 <= n <= 1e9 or n != _math.floor(n):
            raise ValueError(f"learned_pos must be a whole number of positions >= 1 (got {n:g})")
        m.learned_pos, m.max_seq = 1, n
    m.id, m.name, m.source = b"custom", b"model given by flags", b"command line"
    c = _native.Model()
    err = _err()
    _check(_lib.rl_model_check(_ct.byref(m), _ct.byref(c), _ct.byref(err)), err)
    return m


def _model_record(m, kv_dtype=-1):
    rec = Model(_record(_lib.rl_model_json, _ct.byref(m), kv_dtype))
    rec._struct = _native.Model.from_buffer_copy(m)
    return rec


def model(model=None, kv_dtype=None, params=None, layers=None, d_model=None, heads=None,
          kv_heads=None, head_dim=None, d_ff=None, vocab=None, experts=None, experts_active=None,
          mlp=None, norm=None, tied=False, bias=False, learned_pos=None):
    """A model's configuration and its parameter count, part by part: the record
    of `roofline model show --json`. model is a built-in id or fragment
    ("llama3-8b", "8x7b"), one of its Hugging Face ids ("meta-llama/Llama-2-7b-hf"),
    a Hugging Face config.json or its folder, or a config dict; or give the sizes (layers, heads, [kv_heads, head_dim, d_model]
    and params, or d_ff and vocab to derive the count). kv_dtype: the format of
    the KV cache per token (default: the model's)."""
    sizes = dict(params=params, layers=layers, d_model=d_model, heads=heads, kv_heads=kv_heads,
                 head_dim=head_dim, d_ff=d_ff, vocab=vocab, experts=experts,
                 experts_active=experts_active, mlp=mlp, norm=norm, tied=tied, bias=bias,
                 learned_pos=learned_pos)
    m = _resolve_model(model, sizes)
    p = _native.ParamCount()
    err = _err()
    _check(_lib.rl_model_params(_ct.byref(m), _ct.byref(p), _ct.byref(err)), err)
    kd = _dtype(kv_dtype) if kv_dtype is not None else -1
    if kd >= 0:
        kv = _ct.c_double()
        _check(_lib.rl_model_kv_bytes_per_token(_ct.byref(m), kd, _ct.byref(kv), _ct.byref(err)), err)
    return _model_record(m, kd)


def model_list():
    """Every built-in model, as records like model()'s (`roofline model list --json`)."""
    out = []
    for i, rec in enumerate(_record(_lib.rl_model_list_json)):
        m = _native.Model()
        _lib.rl_model_get(i, _ct.byref(m))
        r = Model(rec)
        r._struct = m
        out.append(r)
    return out


# ---- decode and prefill --------------------------------------------------------------

def _batches(batch):
    """--batch: a number, a list, or "1,8,64" / "1..1024" (doubling)."""
    if batch is None:
        return [float(2 ** i) for i in range(11)]
    if isinstance(batch, str):
        out = []
        for tok in batch.split(","):
            if not tok:
                raise ValueError(f"batch: empty item in '{batch}'")
            sep, skip = tok.find(".."), 2
            if sep < 0:
                sep, skip = tok.find("-", 1), 1
            if sep > 0:
                a = parse_quantity(tok[:sep], "count", "batch")
                b = parse_quantity(tok[sep + skip:], "count", "batch")
                if not a >= 1 or a != _math.floor(a):
                    raise ValueError(f"batch: a batch must be a whole number >= 1 (got {a:g})")
                if not b >= a:
                    raise ValueError(f"batch: range {a:g}..{b:g} runs backwards")
                v = a
                while True:
                    v = min(v, b)
                    out.append(v)
                    if v >= b:
                        break
                    v *= 2
            else:
                out.append(parse_quantity(tok, "count", "batch"))
        if not out:
            raise ValueError("batch: no batch sizes")
    elif isinstance(batch, (list, tuple, range)) or hasattr(batch, "__iter__"):
        out = [_num(b, "count", "batch") for b in batch]
        if not out:
            raise ValueError("batch: no batch sizes")
    else:
        out = [_num(batch, "count", "batch")]
    for b in out:
        if not 1 <= b <= 1e12 or b != _math.floor(b):
            raise ValueError(f"batch: a batch must be a whole number >= 1 (got {b:g})")
    return out


def _fraction(v, what):
    """A fraction in (0, 1]: 0.7, "0.7" or "70%" (rl_fraction_parse)."""
    text = v if isinstance(v, str) else repr(_num(v, "count", what))
    x = _ct.c_double()
    err = _err()
    st = _lib.rl_fraction_parse(_cstr(text, what), _ct.byref(x), _ct.byref(err))
    if st:
        sep = " " if st == _native.RL_EINVAL else ": "
        raise ValueError(f"{what}{sep}{_msg(err, st)}")
    return x.value


def _group_size(v):
    """A group size as the command spells it, through rl_group_size_parse."""
    g = _ct.c_double()
    err = _err()
    if _lib.rl_group_size_parse(_cstr(v, "group_size"), _ct.byref(g), _ct.byref(err)):
        msg = err.msg.decode("utf-8", "replace")
        raise ValueError(f"group_size{': ' if msg.startswith(chr(39)) else ' '}{msg}")
    return g.value


def _degree(v, what):
    v = _num(v, "count", what)
    if not v >= 1 or v != _math.floor(v):
        raise ValueError(f"{what} must be >= 1 (got {v:g})")
    if v > 65536:
        raise ValueError(f"{what} must be >= 1 and <= 65536 (got {v:g})")
    return int(v)


def _infer_req(weight_dtype, kv_dtype, dtype, tp, embedding, link_bw, comm_latency,
               group_size=None, quantize_all=False, compute_eff=None, bw_eff=None, pp=1, ep=1,
               microbatches=None, peak=None, sparse=False, overhead=None, bw=None):
    """The rl_infer_req of these keywords: their values converted, as the command
    converts its flags; the library checks them and decides (rl_infer_setup)."""
    req = _lib.rl_infer_req_init()
    if compute_eff is not None:
        req.compute_eff = _fraction(compute_eff, "compute_eff")
    if bw_eff is not None:
        req.bw_eff = _fraction(bw_eff, "bw_eff")
    if group_size is not None:
        req.group_size = _group_size(group_size)
    req.quantize_all = int(bool(quantize_all))
    req.tp, req.pp, req.ep = _degree(tp, "tp"), _degree(pp, "pp"), _degree(ep, "ep")
    if microbatches is not None:
        req.microbatches_given, req.microbatches = 1, _num(microbatches, "count", "microbatches")
    if link_bw is not None:
        req.link_bw_given, req.link_bw = 1, _num(link_bw, "B/s", "link_bw")
    if comm_latency == "nccl":   # NCCL's ring estimate instead of the all-reduce floor
        req.comm_latency_given = 2
    elif comm_latency is not None:
        req.comm_latency_given, req.comm_latency = 1, _num(comm_latency, "s", "comm_latency")
    if embedding is not None:
        req.embedding = _choice(_lib.rl_embed_parse, embedding, "embedding")
    req.weight_dtype = _dtype(weight_dtype) if weight_dtype is not None else -1
    req.kv_dtype = _dtype(kv_dtype) if kv_dtype is not None else -1
    req.dtype = _dtype(dtype) if dtype is not None else -1
    req.roof = _roof_req(-1, True, peak, sparse, overhead, bw)
    return req


def _setup(m, h, req):
    """The roof and the rl_infer_cfg of model m on device h (rl_infer_setup)."""
    cfg = _native.InferCfg()
    roof = _native.Roof()
    err = _err()
    _check(_lib.rl_infer_setup(_ct.byref(m), _ct.byref(h), _ct.byref(req), _ct.byref(cfg),
                               _ct.byref(roof), None, _ct.byref(err)), err)
    return roof, cfg


def _infer_setup(m, hw, peak, bw, mem, sparse, overhead, hw_file, weight_dtype, kv_dtype, dtype,
                 tp, embedding, link_bw, comm_latency, group_size=None, quantize_all=False,
                 compute_eff=None, bw_eff=None, pp=1, ep=1, microbatches=None):
    """The device, its roof and the rl_infer_cfg, as the command resolves them."""
    req = _infer_req(weight_dtype, kv_dtype, dtype, tp, embedding, link_bw, comm_latency,
                     group_size, quantize_all, compute_eff, bw_eff, pp, ep, microbatches, peak,
                     sparse, overhead, bw)
    h = _device(hw, peak, bw, mem, hw_file, use_default=True)
    roof, cfg = _setup(m, h, req)
    return h, roof, cfg


def decode(model=None, batch=None, context=0, hw=None, weight_dtype=None, kv_dtype=None,
           dtype=None, tp=1, embedding=None, link_bw=None, comm_latency=None, peak=None, bw=None,
           mem=None, sparse=False, overhead=None, hw_file=None, group_size=None,
           quantize_all=False, compute_eff=None, bw_eff=None, require_fit=False, ops=False,
           pp=1, ep=1, microbatches=None, **sizes):
    """One decode step at each batch size: the record `roofline decode --json`
    prints, with "rows" a list of dicts (batch, step_time_s, tokens_per_s,
    intensity, bound, memory_bytes, fits, ...) and the summary (params,
    weights_bytes, kv_bytes_per_token, ridge_batch, asymptotic_intensity,
    max_batch, ...). batch: a number, a list, or "1,8,64" / "1..1024" (default
    1..1024 doubling); context: tokens in each sequence's KV cache. The device
    defaults to the H100 SXM5 (or peak= and bw=); tp splits the model over
    devices; pp splits the layers over pipeline stages (microbatches in flight,
    default min(pp, batch)), ep spreads an MoE model's experts over devices;
    embedding="full" counts the whole embedding table (as hand calculations do).
    ops=True adds "ops", the table of one step op by op (one batch size, default 1), as
    `roofline decode --ops` prints it: each op bounded on its own, their sum "ops_time_s"
    >= the step's bound."""
    _unexpected("decode", set(sizes) - set(_SIZES))
    ctx = _whole(context, "tokens", "context", 0, "a whole number of tokens >= 0")
    batches = _batches(1 if ops and batch is None else batch)
    if ops and len(batches) != 1:
        raise ValueError("ops tables one decode step: give one batch size")
    m = _resolve_model(model, sizes)
    h, roof, cfg = _infer_setup(m, hw, peak, bw, mem, sparse, overhead, hw_file, weight_dtype,
                                kv_dtype, dtype, tp, embedding, link_bw, comm_latency, group_size,
                                quantize_all, compute_eff, bw_eff, pp, ep, microbatches)
    cfg.context = ctx
    n = len(batches)
    arr = (_ct.c_double * n)(*batches)
    rows = (_native.DecodeRow * n)()
    s = _native.DecodeSummary()
    err = _err()
    _check(_lib.rl_decode(_ct.byref(m), _ct.byref(cfg), _ct.byref(roof), arr, n, rows,
                          _ct.byref(s), _ct.byref(err)), err)
    op_rows, n_ops = None, _ct.c_int32(0)
    if ops:
        op_rows = (_native.PrefillOp * _native.RL_PREFILL_OPS)()
        _check(_lib.rl_decode_ops(_ct.byref(m), _ct.byref(cfg), _ct.byref(roof), batches[0],
                                  op_rows, _native.RL_PREFILL_OPS, _ct.byref(n_ops),
                                  _ct.byref(err)), err)
    doc = _record(_lib.rl_decode_json, _ct.byref(m), _ct.byref(cfg), _ct.byref(roof), h.id,
                  rows, n, _ct.byref(s), op_rows, n_ops.value)
    if require_fit and (not s.weights_fit or not all(r.fits for r in rows)):
        raise ValueError("does not fit in the device's memory (require_fit)")
    return doc


def prefill(model=None, prompt=None, batch=1, new_tokens=0, causal=None, no_causal=False,
            hw=None, weight_dtype=None, kv_dtype=None, dtype=None, tp=1, embedding=None,
            link_bw=None, comm_latency=None, peak=None, bw=None, mem=None, sparse=False,
            overhead=None, hw_file=None, group_size=None, quantize_all=False, compute_eff=None,
            bw_eff=None, require_fit=False, attention_impl=None, pp=1, ep=1, microbatches=None,
            **sizes):
    """The prefill of batch prompts of prompt tokens: the record `roofline
    prefill --json` prints (ttft_s, compute_bound_fraction, e2e_time_s with
    new_tokens, and "ops", one dict per op kind with its bound). Attention is
    causal unless causal=False (or no_causal=True)."""
    _unexpected("prefill", set(sizes) - set(_SIZES))
    if causal and no_causal:
        raise ValueError("causal and no_causal exclude each other")
    if prompt is None:
        raise ValueError("prompt is required (the prompt's tokens)")
    p = _whole(prompt, "tokens", "prompt", 1, "a whole number of tokens >= 1")
    b = _whole(batch, "count", "batch", 1, "a whole number of sequences >= 1")
    nt = _whole(new_tokens, "tokens", "new_tokens", 0, "a whole number >= 0")
    m = _resolve_model(model, sizes)
    h, roof, cfg = _infer_setup(m, hw, peak, bw, mem, sparse, overhead, hw_file, weight_dtype,
                                kv_dtype, dtype, tp, embedding, link_bw, comm_latency, group_size,
                                quantize_all, compute_eff, bw_eff, pp, ep, microbatches)
    cfg.context, cfg.batch, cfg.new_tokens = p, b, nt
    cfg.causal = 0 if (no_causal or causal is False) else 1
    if attention_impl is not None:
        cfg.attention_impl = _choice(_lib.rl_attn_impl_parse, attention_impl, "attention_impl")
    ops = (_native.PrefillOp * _native.RL_PREFILL_OPS)()
    r = _native.PrefillResult()
    err = _err()
    _check(_lib.rl_prefill(_ct.byref(m), _ct.byref(cfg), _ct.byref(roof), ops,
                           _native.RL_PREFILL_OPS, _ct.byref(r), _ct.byref(err)), err)
    doc = _record(_lib.rl_prefill_json, _ct.byref(m), _ct.byref(cfg), _ct.byref(roof), h.id,
                  ops, _ct.byref(r))
    if require_fit and not r.fits:
        raise ValueError("does not fit in the device's memory (require_fit)")
    return doc


# ---- the planner ------------------------------------------------------------------------

def _list(v, what):
    if v is None:
        return [None]
    # one value (8, "fp8", a numpy scalar) or several ([1, 8], "1,8", a tuple), as the
    # CLI's --tp 8 and --tp 1,8
    if isinstance(v, str):
        items = v.split(",")
    elif isinstance(v, (list, tuple, range)) or (hasattr(v, "__iter__") and not hasattr(v, "__float__")):
        items = list(v)
    else:
        items = [v]
    if not items or not all(str(x).strip() for x in items):
        raise ValueError(f"{what}: no formats" if "dtype" in what else f"{what}: no degrees")
    return items


def _degrees(v, what):
    out = []
    for x in _list(v, what):
        d = _num(x, "count", what)
        if not d >= 1 or d != _math.floor(d) or d > 65536:
            raise ValueError(f"{what} must be whole numbers >= 1 (got {x})")
        out.append(int(d))
    return out


def plan(model=None, prompt=None, gen=None, ttft=None, tpot=None, gpus=8, max_batch=None, tp=None,
         weight_dtype=None, kv_dtype=None, hw=None, dtype=None, embedding=None, link_bw=None,
         comm_latency=None, peak=None, bw=None, mem=None, sparse=False, overhead=None,
         hw_file=None, group_size=None, quantize_all=False, compute_eff=None, bw_eff=None,
         pp=None, ep=None, batching="continuous", chunk=None, mem_fraction=None, block_size=None,
         reserve=None, **sizes):
    """For each way to run the model on gpus devices (tp degrees, pipeline stages
    pp and expert-parallel degrees ep, default 1; weight and KV formats: each one
    value or a list, or "a,b"), the largest batch that meets ttft and tpot and fits:
    the record `roofline plan --json` prints, rows sorted best first.
    batching="continuous" (the default): B sequences decoding in a steady state,
    each step also prefilling up to chunk prompt tokens (default 512), the KV cache
    in mem_fraction (0.90) of each device less the weights, the step's largest
    activation and reserve (bytes, default 0.21 GiB), in blocks of block_size (16)
    tokens. batching="static": B prompts prefilled together within ttft, the last
    decode step within tpot (as `roofline plan --batching static`)."""
    _unexpected("plan", set(sizes) - set(_SIZES))
    if prompt is None:
        raise ValueError("prompt is required (the prompt's tokens)")
    if gen is None:
        raise ValueError("gen is required (tokens generated per request)")
    pc = _lib.rl_plan_cfg_init()      # continuous batching's defaults, from the library
    dflt = _native.PlanCfg.from_buffer_copy(pc)
    pc.prompt = _whole(prompt, "tokens", "prompt", 1, "a whole number of tokens >= 1")
    pc.gen = _whole(gen, "tokens", "gen", 1, "a whole number of tokens >= 1")
    for what, v in (("ttft", ttft), ("tpot", tpot)):
        if v is not None:
            x = _num(v, "s", what)
            if not x > 0:
                raise ValueError(f"{what} must be > 0 (got {x:g} s)")
            setattr(pc, what + "_s", x)
    pc.gpus = _whole(gpus, "count", "gpus", 1, "a whole number >= 1")
    if max_batch is not None:
        pc.max_batch = _whole(max_batch, "count", "max_batch", 1, "a whole number >= 1")
    b, err = _ct.c_int32(), _err()
    _check(_lib.rl_batching_parse(_cstr(batching, "batching"), _ct.byref(b), _ct.byref(err)), err)
    pc.batching = b.value
    if pc.batching != dflt.batching:    # static
        for what, v in (("chunk", chunk), ("mem_fraction", mem_fraction), ("block_size", block_size),
                        ("reserve", reserve)):
            if v is not None:
                raise ValueError(f"{what} applies with batching='continuous'")
        pc.chunk = pc.mem_fraction = pc.block_size = pc.reserve_bytes = 0
    else:
        if pc.gen < 2:
            raise ValueError("gen 1 has no decode phase to batch continuously: give batching='static'")
        if chunk is not None:
            pc.chunk = _whole(chunk, "tokens", "chunk", 1, "a whole number of tokens >= 1")
        if block_size is not None:
            pc.block_size = _whole(block_size, "tokens", "block_size", 1, "a whole number of tokens >= 1")
        if mem_fraction is not None:
            pc.mem_fraction = _fraction(mem_fraction, "mem_fraction")
        if reserve is not None:
            pc.reserve_bytes = _num(reserve, "B", "reserve")
        if not pc.reserve_bytes >= 0:
            raise ValueError(f"reserve must be >= 0 bytes (got {pc.reserve_bytes:g})")
    m = _resolve_model(model, sizes)
    c = _native.Model()
    err = _err()
    _check(_lib.rl_model_check(_ct.byref(m), _ct.byref(c), _ct.byref(err)), err)
    if tp is None:
        tps, t = [], 1
        while t <= pc.gpus:
            if c.heads % t == 0:
                tps.append(t)
            t *= 2
    else:
        tps = []
        for x in _list(tp, "tp"):
            v = _num(x, "count", "tp")
            if not v >= 1 or v != _math.floor(v):
                raise ValueError(f"tp must be whole numbers >= 1 (got {x})")
            if v > pc.gpus:
                raise ValueError(f"tp {v:g} exceeds gpus {pc.gpus:g}")
            if c.heads % v:
                raise ValueError(f"tp {v:g} does not divide the {c.heads:g} attention heads")
            tps.append(int(v))
    pps = [1] if pp is None else _degrees(pp, "pp")
    for v in pps:
        if v > pc.gpus:
            raise ValueError(f"pp {v} exceeds gpus {pc.gpus:g}")
        if v > c.layers:
            raise ValueError(f"pp {v} exceeds the {c.layers:g} layers (a stage needs one)")
    eps = [1] if ep is None else _degrees(ep, "ep")
    for v in eps:
        if v > 1 and not c.experts > 0:
            raise ValueError(f"ep applies to a mixture of experts; {c.id.decode()} has no experts")
        if v > pc.gpus:
            raise ValueError(f"ep {v} exceeds gpus {pc.gpus:g}")
        if v > 1 and c.experts % v:
            raise ValueError(f"ep {v} does not divide the {c.experts:g} experts")
    wds = [None if w is None else _dtype(str(w)) for w in _list(weight_dtype, "weight_dtype")]
    kds = [None if k is None else _dtype(str(k)) for k in _list(kv_dtype, "kv_dtype")]
    h = _device(hw, peak, bw, mem, hw_file, use_default=True)
    # set up at the largest degrees (the library checks the link flags against
    # them), tried at each combination (rl_infer_degrees), as the command does
    if ((max(tps) > 1 or max(pps) > 1 or max(eps) > 1) and link_bw is None
            and not h.interconnect_bw > 0):
        if tp is not None or pp is not None or ep is not None:
            what = "tp" if tp is not None else "pp" if pp is not None else "ep"
            raise ValueError(f"{what}: {h.id.decode()} has no interconnect figure; give link_bw")
        tps = [1]                           # no interconnect: one device per replica
    req = _infer_req(None, None, dtype, max(tps), embedding, link_bw, comm_latency, group_size,
                     quantize_all, compute_eff, bw_eff, max(pps), max(eps), None, peak, sparse,
                     overhead, bw)
    roof, base = _setup(m, h, req)
    combos = [(t, p, e) for t in tps for p in pps for e in eps
              if not (e > 1 and e % t) and p * (e if e > 1 else t) <= pc.gpus]
    if not combos:
        raise ValueError(f"no tp, pp and ep combination fits in gpus {pc.gpus:g} "
                         "(pp x max(tp, ep) devices, ep a multiple of tp)")
    rows = []
    for t, p, e in combos:
        for w in wds:
            for k in kds:
                cfg = _native.InferCfg.from_buffer_copy(base)
                _lib.rl_infer_degrees(_ct.byref(cfg), _ct.byref(h), _ct.byref(req), t, p, e)
                cfg.weight_dtype = -1 if w is None else w
                cfg.kv_dtype = -1 if k is None else k
                r = _native.PlanRow()
                _check(_lib.rl_plan(_ct.byref(m), _ct.byref(cfg), _ct.byref(roof), _ct.byref(pc),
                                    _ct.byref(r), _ct.byref(err)), err)
                rows.append(r)
    rows.sort(key=lambda r: (r.batch <= 0, -r.tokens_per_s, r.tp, r.pp, r.ep))
    arr = (_native.PlanRow * len(rows))(*rows)
    return _record(_lib.rl_plan_json, _ct.byref(m), _ct.byref(pc), h.id, _ct.byref(roof), arr,
                   len(rows))


# ---- MFU and HFU ----------------------------------------------------------------------

def _mfu_run(m, cfg):
    r = _native.MfuResult()
    err = _err()
    _check(_lib.rl_mfu(_ct.byref(m), _ct.byref(cfg), _ct.byref(r), _ct.byref(err)), err)
    return r


def utilization(n_params, n_layers, d_model, seq_len, tokens_per_s, n_gpus, peak,
                recompute="none", sparse_peak=False):
    """The (MFU, HFU) of a training run, as fractions:

        model FLOPs per token    6N + 12 L d T                (PaLM, App. B)
        recompute="selective"    + 4 L d T for the HFU        (Korthikanti et al.)
        recompute="full"         + 2N + 4 L d T for the HFU
        MFU = tokens_per_s x FLOPs per token / (n_gpus x peak)

    peak is one device's dense peak in the matmuls' format (FLOP/s);
    sparse_peak=True divides by the 2:4 sparse peak, twice it (which halves
    both figures; say so when you report it). With recompute="none" HFU = MFU.
    """
    m = _lib.rl_model_init()
    m.params = _num(n_params, "count", "n_params")
    m.layers = _num(n_layers, "count", "n_layers")
    m.d_model = _num(d_model, "count", "d_model")
    m.heads = 1                                   # 12 L d T: only H d_h = d matters
    m.id = b"custom"
    cfg = _lib.rl_mfu_cfg_init()
    cfg.seq = _num(seq_len, "count", "seq_len")
    cfg.tokens_per_s = _num(tokens_per_s, "count", "tokens_per_s")
    cfg.gpus = _num(n_gpus, "count", "n_gpus")
    cfg.peak = _num(peak, "FLOP/s", "peak")
    cfg.sparse_peak = 2 * cfg.peak
    cfg.use_sparse = 1 if sparse_peak else 0
    cfg.recompute = _choice(_lib.rl_recompute_parse, recompute, "recompute")
    r = _mfu_run(m, cfg)
    return (r.mfu, r.hfu)


def mfu(model=None, seq=None, tokens_per_s=None, gpus=None, tokens_per_step=None, step_time=None,
        padding=None, attention=None, recompute=None, sparse_peak=False, exclude_embedding=False,
        hw=None, dtype="bf16", peak=None, sparse=False, hw_file=None, **sizes):
    """MFU and HFU of a training run under its conventions, and the same run
    under every convention: the record `roofline mfu --json` prints (mfu, hfu,
    model_flops_per_token, hardware_flops_per_token, peak, conventions: a list
    of dicts, conventions_min/max). Throughput is tokens_per_s, or
    tokens_per_step and step_time; attention "full" | "causal" | "none";
    recompute "none" | "selective" | "full"; padding a fraction (0.05 or "5%").
    The peak is the dense tensor peak of dtype on hw (default the H100), or
    peak= per device. Without heads, the model's d_model stands for H d_h."""
    _unexpected("mfu", set(sizes) - set(_SIZES))
    if seq is None:
        raise ValueError("seq is required (tokens per sequence)")
    T = _num(seq, "count", "seq")
    if not T >= 0:
        raise ValueError(f"seq must be >= 0 (got {T:g})")
    by_step = tokens_per_step is not None or step_time is not None
    if tokens_per_s is not None and by_step:
        raise ValueError("tokens_per_s and tokens_per_step/step_time exclude each other")
    if by_step:
        if tokens_per_step is None or step_time is None:
            raise ValueError("tokens_per_step and step_time go together")
        tps = _positive(tokens_per_step, "count", "tokens_per_step") / \
            _positive(step_time, "s", "step_time")
    elif tokens_per_s is None:
        raise ValueError("tokens_per_s is required (or tokens_per_step and step_time)")
    else:
        tps = _positive(tokens_per_s, "count", "tokens_per_s")
    if gpus is None:
        raise ValueError("gpus is required")
    n = _whole(gpus, "count", "gpus", 1, "a whole number >= 1")
    cfg = _lib.rl_mfu_cfg_init()
    if attention is not None:
        cfg.attention = _choice(_lib.rl_attn_parse, attention, "attention")
    if recompute is not None:
        cfg.recompute = _choice(_lib.rl_recompute_parse, recompute, "recompute")
    if padding is not None:
        text = str(padding).strip()
        if isinstance(padding, str) and text.endswith("%"):
            v = parse_quantity(text[:-1], "count", "padding") / 100
        else:
            v = _num(padding, "count", "padding")
        if not 0 <= v < 1:
            raise ValueError(f"padding must be a fraction in [0, 1) (got {padding})")
        cfg.padding = v
    sparse_peak = bool(sparse_peak or sparse)
    m = _resolve_model(model, sizes, heads_optional=True)
    if peak is not None:
        if hw is not None:
            raise ValueError("peak and hw exclude each other (peak is the device)")
        if sparse_peak:
            raise ValueError("sparse_peak and peak exclude each other (give the figure you divide "
                             "by as peak)")
        cfg.peak = _positive(peak, "FLOP/s", "peak")
        hw_id = b"custom"
    else:
        h = _find_hw(hw if hw is not None else _DEFAULT_HW, hw_file)
        dt = _dtype(dtype)
        pk = _lib.rl_hw_peak_for(_ct.byref(h), dt, 1)
        if pk < 0:
            raise ValueError(f"{h.id.decode()} has no {_lib.rl_dtype_name(dt).decode()} tensor peak "
                             "in the database (give peak)")
        cfg.peak = h.peak[pk]
        cfg.sparse_peak = 2 * h.peak[pk] if h.sparsity else 0.0
        if sparse_peak and not h.sparsity:
            raise ValueError(f"sparse_peak: {h.id.decode()} has no 2:4 sparse peak")
        hw_id = h.id
    cfg.seq, cfg.tokens_per_s, cfg.gpus = T, tps, n
    cfg.use_sparse = 1 if sparse_peak else 0
    cfg.exclude_embedding = 1 if exclude_embedding else 0
    r = _mfu_run(m, cfg)
    return _record(_lib.rl_mfu_json, _ct.byref(m), _ct.byref(cfg), hw_id, _ct.byref(r))


# ---- collectives ------------------------------------------------------------------------

def collective(kind, bytes=None, ranks=None, busbw=None, link_bw=None, hw=None, params=None,
               dtype=None, latency=None, ranks_per_node=None, inter_busbw=None, step_time=None,
               backward_time=None, bucket=None, hw_file=None):
    """The time of a ring "allreduce", "allgather" or "reducescatter" of bytes
    over ranks: the record `roofline comm KIND --json` prints (time_s,
    bytes_per_rank, busbw, algbw; step_fraction, DDP and FSDP shares with
    step_time). The bandwidth is busbw as nccl-tests reports it, or link_bw, or
    half of hw's NVLink figure. params (and dtype, default bf16) instead of
    bytes: a model's gradients. ranks_per_node and inter_busbw: the two-level
    all-reduce."""
    kd = _ct.c_int32()
    err = _err()
    _check(_lib.rl_coll_parse(_cstr(kind, "kind"), _ct.byref(kd), _ct.byref(err)), err)
    cfg = _lib.rl_coll_cfg_init()
    cfg.kind = kd.value
    if bytes is not None and params is not None:
        raise ValueError("bytes and params exclude each other")
    if dtype is not None and params is None:
        raise ValueError("dtype applies with params only")
    if params is not None:
        size = _positive(params, "count", "params") * _lib.rl_dtype_bytes(_dtype(dtype or "bf16"))
    elif bytes is None:
        raise ValueError("bytes is required (or params for a model's gradients)")
    else:
        size = _num(bytes, "B", "bytes")
    if not size > 0:
        raise ValueError("bytes must be > 0")
    if ranks is None:
        raise ValueError("ranks is required")
    n = _num(ranks, "count", "ranks")
    if n < 2 and n == _math.floor(n):
        raise ValueError(f"ranks must be >= 2 (got {n:g}): one rank communicates nothing")
    nbw = (busbw is not None) + (link_bw is not None) + (hw is not None)
    if nbw > 1:
        raise ValueError("busbw, link_bw and hw exclude each other (give one bandwidth)")
    if nbw == 0:
        raise ValueError("give the bandwidth: busbw (measured by nccl-tests), link_bw or hw")
    if busbw is not None:
        cfg.busbw = _positive(busbw, "B/s", "busbw")
    elif link_bw is not None:
        cfg.busbw = _positive(link_bw, "B/s", "link_bw")
    else:
        h = _find_hw(hw, hw_file)
        if not h.interconnect_bw > 0:
            raise ValueError(f"hw: {h.id.decode()} has no interconnect figure; give busbw")
        cfg.busbw = h.interconnect_bw / 2
    if latency is not None:
        cfg.latency_s = _num(latency, "s", "latency")
    if inter_busbw is not None:
        cfg.inter_busbw = _positive(inter_busbw, "B/s", "inter_busbw")
    if ranks_per_node is not None:
        cfg.ranks_per_node = _num(ranks_per_node, "count", "ranks_per_node")
        if not cfg.ranks_per_node >= 1:
            raise ValueError("ranks_per_node must be >= 1")
    if step_time is not None:
        cfg.step_time_s = _positive(step_time, "s", "step_time")
    if backward_time is not None:
        cfg.backward_time_s = _positive(backward_time, "s", "backward_time")
    if bucket is not None:
        cfg.bucket_bytes = _positive(bucket, "B", "bucket")
    if (backward_time is not None or bucket is not None) and step_time is None:
        raise ValueError("backward_time and bucket need step_time")
    cfg.bytes, cfg.ranks = size, n
    r = _native.CollResult()
    _check(_lib.rl_collective(_ct.byref(cfg), _ct.byref(r), _ct.byref(err)), err)
    return _record(_lib.rl_collective_json, _ct.byref(cfg), _ct.byref(r))


__all__ = ["Model", "model", "model_list", "decode", "prefill", "utilization", "mfu", "collective"]
