"""The golden corpus (tests/golden/*.golden), driven through the Python binding.

Each case's command line is mapped onto the binding's functions (flags become
keyword arguments, values keep their units: the binding parses them with the C
library), and the expected figures are checked on the returned records, which
carry the same keys as the command's --json output. Error cases must raise
ValueError with the library's message. Commands that have no Python
counterpart (plot, widget, trace --plot, measure --save-hw) and the command line's own errors
(unknown flags, a flag given twice, an unknown subcommand) are counted as not
applicable, except where the binding can make the same mistake (two choices
that exclude each other) and must refuse it; the test fails if that leaves
too few cases.
"""
import glob
import os
import shlex
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
import roofline as rl  # noqa: E402
from run_cli_tests import check_expect, parse_cases  # noqa: E402

# errors that only the command line can make
CLI_ONLY = ("unknown option", "given twice", "exclude each other", "unknown command",
            "needs a value", "takes no value", "unknown hw action", "which op?", "not both",
            "go together", "use `roofline kernel", "exactly three", "empty value")
BOOL_FLAGS = {"fused", "causal", "no_causal", "bias", "sparse", "vector", "sparse_peak",
              "exclude_embedding", "tied", "quantize_all", "require_fit", "ops"}

# adapters: command words -> a callable taking (positional args, keyword args)
ADAPTERS = {}


def adapter(*words):
    def wrap(f):
        ADAPTERS[words] = f
        return f
    return wrap


@adapter("op")
def _op(pos, kw):
    if not pos:
        raise NotApplicable
    return rl.op(pos[0], **kw)


@adapter("kernel")
def _kernel(pos, kw):
    if "flops" not in kw or "bytes" not in kw:
        raise NotApplicable
    return rl.kernel(kw.pop("flops"), kw.pop("bytes"), **kw)


@adapter("layer")
def _layer(pos, kw):
    if "batches" in kw:
        kw["batches"] = tuple(kw["batches"].split(","))
    return rl.layer(**kw)


@adapter("hw", "show")
def _hw_show(pos, kw):
    return rl.hardware(pos[0], **kw)


@adapter("model", "show")
def _model_show(pos, kw):
    return rl.model(*pos, **kw)


@adapter("model", "list")
def _model_list(pos, kw):
    if pos or kw:
        raise NotApplicable
    return rl.model_list()


@adapter("decode")
def _decode(pos, kw):
    return rl.decode(**kw)


@adapter("prefill")
def _prefill(pos, kw):
    return rl.prefill(**kw)


@adapter("plan")
def _plan(pos, kw):
    return rl.plan(**kw)


@adapter("mfu")
def _mfu(pos, kw):
    return rl.mfu(**kw)


@adapter("comm")
def _comm(pos, kw):
    if len(pos) != 1:
        raise NotApplicable
    return rl.collective(pos[0], **kw)


@adapter("trace")
def _trace(pos, kw):
    # a job of several traces (a folder, -j/--jobs, --hta) has no binding
    if len(pos) != 1 or "plot" in kw or "jobs" in kw or "hta" in kw or os.path.isdir(os.path.join(ROOT, pos[0])):
        raise NotApplicable
    return rl.trace(pos[0], **kw)


@adapter("measure")
def _measure(pos, kw):
    # writing a hardware file and charts are the command's, not the binding's
    if pos or {"save_hw", "id", "plot", "term"} & set(kw):
        raise NotApplicable
    return rl.measure(**kw)


class NotApplicable(Exception):
    pass


def to_call(args):
    """Split a command line into (adapter, positional args, keyword args)."""
    for n in (2, 1):
        words = tuple(args[:n])
        if words in ADAPTERS:
            rest = args[n:]
            break
    else:
        raise NotApplicable
    pos, kw = [], {}
    i = 0
    while i < len(rest):
        a = rest[i]
        if a.startswith("--"):
            key = a[2:].replace("-", "_")
            if key in BOOL_FLAGS:
                kw[key] = True
            else:
                if i + 1 >= len(rest) or key in kw:
                    raise NotApplicable
                kw[key] = rest[i + 1]
                i += 1
        else:
            pos.append(a)
        i += 1
    if "time" in kw and kw["time"].startswith("-"):
        pass
    return ADAPTERS[words], pos, kw


# The binding's own wording where it differs from the command's for the same error
# (the keyword, not the flag, is named): its ValueError must contain this text.
BINDING_SAYS = {
    "err.hw.empty": "empty hardware id",
    "err.flag.unknown": "unknown shape keyword 'frobnicate'",
    "err.prefill.noprompt": "prompt is required",
    "err.plan.noprompt": "prompt is required",
    "err.plan.nogen": "gen is required",
    "err.plan.dtype": "unknown dtype 'int3'",
    "err.decode.epdense": "ep applies to a mixture of experts; llama3-8b has no experts",
    "err.plan.epdense": "ep applies to a mixture of experts; llama3-8b has no experts",
    "err.plan.cb.static": "chunk applies with batching='continuous'",
    "err.plan.cb.gen1": "gen 1 has no decode phase to batch continuously: give batching='static'",
    "err.decode.comm-latency.word": "'ring' is not a number",
    # a value below or past what a double holds: the binding names it as given and says
    # outside (the command says below or above); never the 0 or inf it would be read as
    "err.op.time_neg_underflow": "time '-1e-400' is outside the plausible range of a time",
    "err.kernel.time_subnormal": "time '4e-323' is outside the plausible range of a time",
    "err.decode.comm_latency_underflow": "comm_latency '1e-400' is outside the plausible range of a latency",
    "err.op.peak_past_double": "peak '-1e400' is outside the plausible range of a peak",
}
# flags that only the command line has: a case using them has no binding counterpart
CLI_FLAGS = ("--json", "--csv")


def expected_in(name, cli_text, message):
    """Does the binding's message say what the command's does (or the binding's
    own wording for it, BINDING_SAYS)?"""
    want = BINDING_SAYS.get(name)
    return want in message if want else norm(cli_text) in norm(message)


def norm(text):
    """A message with flags spelled as the binding's keywords: "--kv-heads" -> "kv_heads"."""
    return text.replace("--", "").replace("-", "_")


class GoldenThroughPython(unittest.TestCase):
    def test_corpus(self):
        ran = na = 0
        failures = []
        for path in sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.golden"))):
            for name, args, expects, where in parse_cases(path):
                want_exit = any(e.startswith("exit=") for e in expects)
                text = next((e[7:] for e in expects if e.startswith("stderr~")), "")
                if want_exit and any(f in args for f in CLI_FLAGS):
                    na += 1
                    continue
                if want_exit and any(c in text for c in CLI_ONLY):
                    # a command-line error: not applicable where the adapter has no
                    # call for it (a flag given twice, no subcommand); otherwise the
                    # binding has the same mistake to make (two choices that exclude
                    # each other) and must refuse it, saying what the command says
                    try:
                        fn, pos, kw = to_call(args)
                        fn(pos, kw)
                    except NotApplicable:
                        na += 1
                        continue
                    except ValueError as e:
                        # flags named without "--" (and '_' for '-')
                        ran += 1
                        if not expected_in(name, text, str(e)):
                            failures.append(f"{where} {name}: ValueError {e!r} lacks {text!r}")
                        continue
                    ran += 1
                    failures.append(f"{where} {name}: the binding accepted what the command refuses")
                    continue
                try:
                    fn, pos, kw = to_call(args)
                except NotApplicable:
                    na += 1
                    continue
                ran += 1
                if want_exit:
                    try:
                        fn(pos, kw)
                    except NotApplicable:
                        ran -= 1
                        na += 1
                        continue
                    except ValueError as e:
                        # the library's part of the message (after "--flag: ") must match,
                        # unless the message is about the command line's flags
                        lib_text = text.split(": ", 1)[1] if text.startswith("--") and ": " in text else text
                        if not expected_in(name, lib_text, str(e)):
                            failures.append(f"{where} {name}: ValueError {e!r} lacks {lib_text!r}")
                        continue
                    failures.append(f"{where} {name}: no ValueError")
                    continue
                try:
                    doc = fn(pos, kw)
                except NotApplicable:  # the adapter's own refusal (no binding for it)
                    ran -= 1
                    na += 1
                    continue
                except ValueError as e:
                    failures.append(f"{where} {name}: raised {e!r}")
                    continue
                if isinstance(doc, list):  # the command's --json puts a list under "rows"
                    doc = {"rows": doc}
                for e in expects:
                    msg = check_expect(doc, e)
                    if msg:
                        failures.append(f"{where} {name}: {msg}")
        print(f"\npython golden: {ran} cases run, {na} not applicable", file=sys.stderr)
        self.assertEqual(failures, [], "\n".join(failures))
        self.assertGreater(ran, 2 * na, "most golden cases must run through the binding")


if __name__ == "__main__":
    unittest.main()
