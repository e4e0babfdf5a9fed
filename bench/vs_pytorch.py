#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times whole models on the x86-64 host, one thread, side by side in one run:
mips-compile's object (libmips calls, polynomial math) against PyTorch running the same
model (torch.jit.trace + torch.jit.freeze, torch.set_num_threads(1)).

  transformer  bench/models/transformer.mlir: one encoder block, S=64, D=256, 4 heads,
               FFN 1024 with erf-GELU; in PyTorch the same operations on the same shapes
  resnet18     bench/models/resnet18.mlir: torchvision's ResNet-18 on a 32x32 image;
               in PyTorch torchvision.models.resnet18, batch norm folded by freezing
  resnet18_frozen  the same network with its weights as constants, as freezing leaves
               them (torchvision_nets.py --weights constants), compiled with
               --mips-pack-constant-weights; beside the same PyTorch model

Each is called once to warm up, then --repeats times; the median call is reported.
PyTorch runs in a child process without OPENBLAS_CORETYPE (which holds its OpenBLAS to
AVX2 kernels). Needs python3-torch and python3-torchvision (Debian), and a host build
(scripts/test.sh, or build/host built by hand).

usage: /usr/bin/python3 bench/vs_pytorch.py [--build build] [--repeats 50]"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

# name, source (or frozen:<net>, written by torchvision_nets.py), function, argument
# shapes, mips-compile flags, the PyTorch model it runs beside
MODELS = [
    ("transformer", "transformer.mlir", "block", ["64x256", "256x1024", "256x1024", "1024x256"], [],
     "transformer"),
    ("resnet18", "resnet18.mlir", "resnet18", ["1x3x32x32", "11684712"], [], "resnet18"),
    ("resnet18_frozen", "frozen:resnet18", "resnet18", ["1x3x32x32"], ["--mips-pack-constant-weights"],
     "resnet18"),
]


def time_mips(build, repeats):
    compile_ = build / "host/compiler/bin/mips-compile"
    libmips = build / "host/libmips"
    for needed in (compile_, libmips / "libmips.so.1"):
        if not needed.exists():
            sys.exit(f"vs_pytorch.py: {needed} is missing: build the host first (scripts/test.sh)")
    results = {}
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        for name, source, function, shapes, flags, _ in MODELS:
            obj, exe = work / f"{name}.o", work / name
            if source.startswith("frozen:"):
                path = work / f"{name}.mlir"
                with open(path, "w") as out:
                    subprocess.run([sys.executable, str(ROOT / "bench/models/torchvision_nets.py"),
                                    source.split(":", 1)[1], "--weights", "constants"],
                                   check=True, stdout=out, stderr=subprocess.DEVNULL)
            else:
                path = ROOT / "bench/models" / source
            subprocess.run([str(compile_), str(path), "--static-embedding", *flags, "-o", str(obj)],
                           check=True)
            subprocess.run(["cc", "-O2", f"-DMODEL_FN={function}", str(ROOT / "bench/models/time_model.c"),
                            str(obj), f"-L{libmips}", "-lmips", f"-Wl,-rpath,{libmips}", "-lm", "-o", str(exe)],
                           check=True)
            env = dict(os.environ, MIPS_NUM_THREADS="1", REPEATS=str(repeats))
            out = subprocess.run([str(exe), *shapes], check=True, env=env, capture_output=True,
                                 text=True).stdout.split()
            results[name] = float(out[out.index("median_us") + 1])
    return results


def torch_models():
    import torch
    import torch.nn.functional as F
    import torchvision

    class Block(torch.nn.Module):
        """transformer.mlir's block: layernorms without learned scale, projections
        without bias, softmax(Q K^T / 8) V over 4 heads of 64, erf-GELU."""

        def __init__(self):
            super().__init__()
            self.wa = torch.nn.Parameter(torch.randn(256, 1024) / 16)
            self.w1 = torch.nn.Parameter(torch.randn(256, 1024) / 16)
            self.w2 = torch.nn.Parameter(torch.randn(1024, 256) / 32)

        def forward(self, x):
            wq, wk, wv, wo = self.wa.split(256, dim=1)
            n1 = F.layer_norm(x, (256,), eps=1e-5)
            q, k, v = (n1 @ w for w in (wq, wk, wv))
            qh, kh, vh = (t.view(64, 4, 64).transpose(0, 1) for t in (q, k, v))
            p = torch.softmax(qh @ kh.transpose(1, 2) / 8, dim=-1)
            context = (p @ vh).transpose(0, 1).reshape(64, 256)
            h1 = x + context @ wo
            n2 = F.layer_norm(h1, (256,), eps=1e-5)
            return h1 + F.gelu(n2 @ self.w1) @ self.w2

    resnet = torchvision.models.resnet18(weights=None, num_classes=1000)
    return [("transformer", Block(), torch.randn(64, 256)),
            ("resnet18", resnet, torch.randn(1, 3, 32, 32))]


def time_torch(repeats):
    import torch
    torch.set_num_threads(1)
    results = {}
    with torch.no_grad():
        for name, model, example in torch_models():
            model.eval()
            frozen = torch.jit.freeze(torch.jit.trace(model, example))
            for _ in range(3):  # warm-up: the profiling executor optimises on early calls
                frozen(example)
            times = []
            for _ in range(repeats):
                start = time.perf_counter_ns()
                frozen(example)
                times.append((time.perf_counter_ns() - start) / 1e3)
            results[name] = statistics.median(times)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--torch-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if args.torch_only:
        for name, us in time_torch(args.repeats).items():
            print(name, us)
        return
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    child = subprocess.run([sys.executable, __file__, "--torch-only", "--repeats", str(args.repeats)],
                           env=env, capture_output=True, text=True)
    if child.returncode != 0:
        sys.exit("vs_pytorch.py: PyTorch did not run (apt-get install python3-torch "
                 f"python3-torchvision):\n{child.stderr.strip().splitlines()[-1] if child.stderr else ''}")
    torch_us = {line.split()[0]: float(line.split()[1]) for line in child.stdout.splitlines()}
    mips_us = time_mips(pathlib.Path(args.build), args.repeats)
    print("host, one thread, median of %d calls (microseconds)" % args.repeats)
    print(f"{'model':<16} {'mips-compile':>13} {'PyTorch':>10} {'PyTorch/mips':>13}")
    for name, *_, torch_name in MODELS:
        print(f"{name:<16} {mips_us[name]:>13.1f} {torch_us[torch_name]:>10.1f} "
              f"{torch_us[torch_name] / mips_us[name]:>13.2f}")


if __name__ == "__main__":
    main()
