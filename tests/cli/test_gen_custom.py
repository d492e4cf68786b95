#!/usr/bin/env python3
"""data/custom_ops.csv's checks in tools/gen_tables.py (the custom-op table,
docs/trace.md): a row the C side could not read is refused with one line
naming the row and what is wrong, before anything is written; the table as
committed compiles. Run from the repository root (make check runs it):

    python3 tests/cli/test_gen_custom.py [--roofline build/roofline]
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen_tables  # noqa: E402

HEAD = "id,name,kind,tensors,flops,elems,params,reason,source\n"
GOOD = 'ok,_C::rms_norm,elementwise,w0 r1 r2,4,1,,,"vllm csrc/torch_bindings.cpp"\n'
BAD = [
    ('x,_C::a,softmax,r0,,,,,"s"\n', "kind must be one of"),
    ('x,_C::a,elementwise,q0,,,,,"s"\n', "is not ROLE ARG[:REF][@BYTES]"),
    ('x,_C::a,elementwise,r32,,,,,"s"\n', "not an argument index below 32"),
    ('x,_C::a,elementwise,m0:1,,,,,"s"\n', "only r and w count another argument's elements"),
    ('x,_C::a,elementwise,r0@9,,,,,"s"\n', "is not an element size"),
    ('x,_C::a,elementwise,r0,4,,,,"s"\n', "flops per element needs `elems`"),
    ('x,_C::a,attention,r0 r1 r2,,,q=0 k=1 v=2,,"s"\n', "an attention row needs layout="),
    ('x,_C::a,attention,r0,,,q=0 k=1,,"s"\n', "needs the parameter v"),
    ('x,_C::a,attention,r0,0.5,,q=0 k=1 v=2 layout=thd,,"s"\n', "at least 1"),
    ('x,_C::a,collective,,,,in=0,,"s"\n', "a collective row needs coll="),
    ('x,_C::a,collective,,,,coll=gossip in=0,,"s"\n', "coll must be one of"),
    ('x,_C::a,uncovered,,,,,,"s"\n', "an uncovered row says why"),
    ('x,_C::a,elementwise,r0,,,,because,"s"\n', "only uncovered and moe rows have a reason"),
    ('x,_C::a,moe,,,,x=0 logits=1,,"s"\n', "an moe row says why (reason without the model)"),
    ('x,_C::a,moe,,,,x=0,why,"s"\n', "needs the parameter logits"),
    ('x,_C::a,moe,,,,x=0 logits=1 outputs=3,why,"s"\n', "outputs (of the hidden states' shape) must be 1 or 2"),
    ('x,_C::a,elementwise,,,,,,"s"\n', "needs the tensors it reads and writes"),
    ('x,_C::a,elementwise,r0,,,nope=1,,"s"\n', "unknown parameter 'nope'"),
    ('x,_C::a,elementwise,r0,,,args=0,,"s"\n', "is not an argument count up to 32"),
    ('x,_C::a,elementwise,r0,,,args=33,,"s"\n', "is not an argument count up to 32"),
    ('x,_C::a,elementwise,r0,,,none=x,,"s"\n', "none 'x' is not an argument index below 32"),
    ('x,_C::a,tbe,r11,,,weights=1 d_offsets=6 indices=11 offsets=12,,"s"\n', "a tbe row needs the parameter momentum"),
    ('x,_C::a,tbe,r11,,,weights=1 d_offsets=6 indices=11 offsets=12 momentum=32,,"s"\n',
     "momentum '32' is not an argument index below 32"),
    ('x,_C::a,elementwise,r0,,,,,""\n', "every row needs a source"),
    ('y,_C::rms_norm,elementwise,r0,,,,,"s"\n', "has two rows"),
]


def gen(text):
    """gen_custom over a data/custom_ops.csv of `text`: its output, or the exit message."""
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "data"))
        with open(os.path.join(d, "data", "custom_ops.csv"), "w", encoding="utf-8") as f:
            f.write(text)
        old, gen_tables.ROOT = gen_tables.ROOT, d
        try:
            return gen_tables.gen_custom()[0][1]
        except SystemExit as e:
            return "EXIT " + str(e.code)
        finally:
            gen_tables.ROOT = old


def main():
    failed = passed = 0
    out = gen(HEAD + GOOD)
    ok = out.startswith("/* Generated") and '.name = "_C::rms_norm"' in out
    passed += ok
    if not ok:
        failed += 1
        print(f"FAIL a good row: {out[:200]}")
    for row, want in BAD:
        out = gen(HEAD + GOOD + row)
        if out.startswith("EXIT ") and want in out and "\n" not in out.strip():
            passed += 1
        else:
            failed += 1
            print(f"FAIL {row.strip()}: want '{want}', got {out[:160]!r}")
    committed = gen_tables.gen_custom()[0][1]
    with open(os.path.join(ROOT, "src", "core", "custom_table.inc"), encoding="utf-8") as f:
        same = f.read() == committed
    passed += same
    if not same:
        failed += 1
        print("FAIL src/core/custom_table.inc is not data/custom_ops.csv's (make gen)")
    print(f"gen custom: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
