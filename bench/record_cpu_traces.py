#!/usr/bin/env python3
"""Record real PyTorch CPU traces of a few models with torch.profiler (record_shapes=True).

    /usr/bin/python3 bench/record_cpu_traces.py [-o DIR] [--threads N] [--steps N] [--gz] [MODEL...]

MODEL: transformer (a pre-LN Transformer encoder block, d_model 256, 4 heads, FFN 1024,
batch 8 x 128 tokens: forward, backward and an AdamW step), cnn (three conv 3x3 /
batch norm / ReLU / max pool stages and a linear head on 16 RGB 32x32 images:
forward, backward, SGD with momentum), mlp (784-1024-1024-10 inference at batch 1
and at batch 256), matmul (torch.mm of several shapes in fp32, one in fp64 and one
in bf16, and a batched bmm); all four when none is named. Each model runs --warmup
steps (2) outside the profiler, then --steps steps (1) under it, so the trace is the
window of the steady state. The trace is written by roofline.profile.write_trace
(PyTorch's Kineto export where the build has Kineto; the profiler's own records in
Kineto's form otherwise: Debian's python3-torch 1.13 has no Kineto) to
DIR/pytorch_cpu_MODEL.json (.json.gz with --gz; pytorch_cpu_MODEL_Nthreads.json with
--threads N); DIR defaults to build/cpu-traces.

Debian's python3-torch installs for /usr/bin/python3, which need not be the first
python3 on PATH. The package is found from this file (../python), so run it from
the source tree after `make` (the writer's package loads build/libroofline.so).
Inputs are seeded (torch.manual_seed(0)); the times are this machine's, not fixed.
OpenBLAS's own thread count is set to torch's intra-op count (it defaults to every
CPU whatever torch's count), so each op ran on the threads the trace records.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    sys.stderr.write("record_cpu_traces.py: needs PyTorch (Debian: apt-get install python3-torch, "
                     "for /usr/bin/python3)\n")
    sys.exit(2)

from roofline import profile as rp  # noqa: E402


def transformer():
    torch.manual_seed(0)
    block = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, dropout=0.0,
                                       activation="gelu", batch_first=True, norm_first=True)
    opt = torch.optim.AdamW(block.parameters(), lr=1e-3)
    x = torch.randn(8, 128, 256)

    def step():
        opt.zero_grad()
        y = block(x)
        y.pow(2).mean().backward()
        opt.step()
    return step


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        chans = [3, 32, 64, 128]
        layers = []
        for cin, cout in zip(chans, chans[1:]):
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                       nn.ReLU(inplace=True), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(128, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.pool(self.features(x)), 1))


def cnn():
    torch.manual_seed(0)
    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(16, 3, 32, 32)
    target = torch.randint(0, 10, (16,))

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), target).backward()
        opt.step()
    return step


def mlp():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                          nn.Linear(1024, 10)).eval()
    xs = [torch.randn(1, 784), torch.randn(256, 784)]

    def step():
        with torch.no_grad():
            for x in xs:
                model(x).softmax(-1)
    return step


def matmul():
    torch.manual_seed(0)
    shapes = [(1, 2048, 2048), (32, 2048, 2048), (256, 256, 256), (512, 512, 512),
              (1024, 1024, 1024), (4096, 64, 256)]  # (M, N, K): A is M x K, B is K x N
    pairs = [(torch.randn(m, k), torch.randn(k, n)) for m, n, k in shapes]
    pairs.append((torch.randn(512, 512, dtype=torch.float64), torch.randn(512, 512, dtype=torch.float64)))
    pairs.append((torch.randn(256, 256).bfloat16(), torch.randn(256, 256).bfloat16()))
    ba, bb = torch.randn(32, 128, 64), torch.randn(32, 64, 128)

    def step():
        for a, b in pairs:
            torch.mm(a, b)
        torch.bmm(ba, bb)
    return step


MODELS = {"transformer": transformer, "cnn": cnn, "mlp": mlp, "matmul": matmul}


def record(name, out_dir, steps, warmup, gz, threads=None):
    step = MODELS[name]()
    for _ in range(warmup):
        step()
    prof = rp.profiler(torch)
    t0 = time.perf_counter()
    with prof:
        for _ in range(steps):
            step()
    wall = time.perf_counter() - t0
    tag = f"_{threads}threads" if threads is not None else ""
    path = os.path.join(out_dir, f"pytorch_cpu_{name}{tag}.json" + (".gz" if gz else ""))
    rp.write_trace(prof, path, torch)
    print(f"{name:12s} {steps} step(s) in {wall * 1e3:.1f} ms -> {path} ({os.path.getsize(path)} B)")
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", metavar="MODEL", help=", ".join(MODELS) + " (default: all)")
    ap.add_argument("-o", "--out-dir", default=os.path.join(os.path.dirname(HERE), "build", "cpu-traces"))
    ap.add_argument("--threads", type=int, help="torch.set_num_threads(N) first (default: PyTorch's own)")
    ap.add_argument("--steps", type=int, default=1, help="steps under the profiler (default 1)")
    ap.add_argument("--warmup", type=int, default=2, help="steps before it (default 2)")
    ap.add_argument("--gz", action="store_true", help="write .json.gz")
    a = ap.parse_args(argv)
    for m in a.models:
        if m not in MODELS:
            ap.error(f"unknown model '{m}' (known: {', '.join(MODELS)})")
    if a.threads is not None:
        if a.threads < 1:
            ap.error("--threads must be >= 1")
        torch.set_num_threads(a.threads)
    # OpenBLAS (Debian's libblas.so.3 where libopenblas0-pthread is installed) runs
    # its own threads, as many as CPUs, whatever torch's count: pin it to torch's so
    # that every op of the trace ran on the intra_op_threads it records
    rp.set_blas_threads(torch.get_num_threads())
    if a.steps < 1 or a.warmup < 0:
        ap.error("--steps must be >= 1 and --warmup >= 0")
    os.makedirs(a.out_dir, exist_ok=True)
    meta = rp.machine_metadata(torch)
    print(f"PyTorch {torch.__version__}, {meta['intra_op_threads']} intra-op thread(s), "
          f"BLAS {', '.join(os.path.basename(b) for b in meta['blas_libraries']) or 'none loaded yet'}"
          f"{' (%d threads)' % meta['blas_threads'] if 'blas_threads' in meta else ''}, {meta['cpu_model']}")
    for m in a.models or list(MODELS):
        record(m, a.out_dir, a.steps, a.warmup, a.gz, a.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
