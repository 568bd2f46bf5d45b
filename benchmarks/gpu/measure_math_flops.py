"""What a call to a CUDA math function costs in ncu's FLOPs, measured on the GPU.

    python3 benchmarks/gpu/measure_math_flops.py measure --out DIR    # on the GPU machine (ncu, CuPy)
    python3 benchmarks/gpu/measure_math_flops.py source               # print the kernels (compile them anywhere)

ncu counts FLOPs as executed fadd + fmul + 2 x ffma (and the fp64 ones): a library call such as
`expf` or an IEEE division `a / b` is not one FLOP there but the FP instructions of its expansion
(range reduction, polynomial, Newton steps), while MUFU work is not counted at all. The static
intensity analysis charges each call what this table says, so that its FLOPs agree with ncu's.

One kernel per operation: `out[i] = f(a[i], b[i])` over 2^20 threads, inputs drawn from the domain
where programs typically call the function (the expansion's slow paths are not on it). Compiled
through NVRTC with the runner's default options (no fast math), launched once each under one ncu
process. Writes DIR/math_flops_h200.csv: per call, each counter and the FLOPs.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from pathlib import Path

N = 1 << 20
BLOCK = 256

# name used by the analyzer, C expression of a and b, precision, domain of a, domain of b
OPERATIONS = [
    ("copy", "a", "fp32", (-1, 1), (-1, 1)),          # the baseline: no FP work at all
    ("/", "a / b", "fp32", (-1, 1), (0.5, 2)),
    ("1/x", "1.0f / b", "fp32", (-1, 1), (0.5, 2)),
    ("sqrtf", "sqrtf(a)", "fp32", (0.01, 100), (0, 1)),
    ("rsqrtf", "rsqrtf(a)", "fp32", (0.01, 100), (0, 1)),
    ("cbrtf", "cbrtf(a)", "fp32", (0.01, 100), (0, 1)),
    ("expf", "expf(a)", "fp32", (-4, 4), (0, 1)),
    ("exp2f", "exp2f(a)", "fp32", (-4, 4), (0, 1)),
    ("exp10f", "exp10f(a)", "fp32", (-4, 4), (0, 1)),
    ("expm1f", "expm1f(a)", "fp32", (-4, 4), (0, 1)),
    ("logf", "logf(a)", "fp32", (0.01, 10), (0, 1)),
    ("log2f", "log2f(a)", "fp32", (0.01, 10), (0, 1)),
    ("log10f", "log10f(a)", "fp32", (0.01, 10), (0, 1)),
    ("log1pf", "log1pf(a)", "fp32", (0.01, 10), (0, 1)),
    ("sinf", "sinf(a)", "fp32", (-3.14, 3.14), (0, 1)),
    ("cosf", "cosf(a)", "fp32", (-3.14, 3.14), (0, 1)),
    ("tanf", "tanf(a)", "fp32", (-1.5, 1.5), (0, 1)),
    ("asinf", "asinf(a)", "fp32", (-1, 1), (0, 1)),
    ("acosf", "acosf(a)", "fp32", (-1, 1), (0, 1)),
    ("atanf", "atanf(a)", "fp32", (-10, 10), (0, 1)),
    ("atan2f", "atan2f(a, b)", "fp32", (-1, 1), (-1, 1)),
    ("sinhf", "sinhf(a)", "fp32", (-3, 3), (0, 1)),
    ("coshf", "coshf(a)", "fp32", (-3, 3), (0, 1)),
    ("tanhf", "tanhf(a)", "fp32", (-3, 3), (0, 1)),
    ("powf", "powf(a, b)", "fp32", (0.1, 10), (-2, 2)),
    ("powf(x, 1.5f)", "powf(a, 1.5f)", "fp32", (0.1, 10), (0, 1)),
    ("erff", "erff(a)", "fp32", (-3, 3), (0, 1)),
    ("erfcf", "erfcf(a)", "fp32", (-3, 3), (0, 1)),
    ("normcdff", "normcdff(a)", "fp32", (-3, 3), (0, 1)),
    ("__expf", "__expf(a)", "fp32", (-4, 4), (0, 1)),
    ("__logf", "__logf(a)", "fp32", (0.01, 10), (0, 1)),
    ("__sinf", "__sinf(a)", "fp32", (-3.14, 3.14), (0, 1)),
    ("__cosf", "__cosf(a)", "fp32", (-3.14, 3.14), (0, 1)),
    ("__powf", "__powf(a, b)", "fp32", (0.1, 10), (-2, 2)),
    ("__fdividef", "__fdividef(a, b)", "fp32", (-1, 1), (0.5, 2)),
    ("__frcp_rn", "__frcp_rn(b)", "fp32", (-1, 1), (0.5, 2)),
    ("__fsqrt_rn", "__fsqrt_rn(a)", "fp32", (0.01, 100), (0, 1)),
    ("/", "a / b", "fp64", (-1, 1), (0.5, 2)),
    ("1/x", "1.0 / b", "fp64", (-1, 1), (0.5, 2)),
    ("sqrt", "sqrt(a)", "fp64", (0.01, 100), (0, 1)),
    ("rsqrt", "rsqrt(a)", "fp64", (0.01, 100), (0, 1)),
    ("exp", "exp(a)", "fp64", (-4, 4), (0, 1)),
    ("log", "log(a)", "fp64", (0.01, 10), (0, 1)),
    ("sin", "sin(a)", "fp64", (-3.14, 3.14), (0, 1)),
    ("cos", "cos(a)", "fp64", (-3.14, 3.14), (0, 1)),
    ("tanh", "tanh(a)", "fp64", (-3, 3), (0, 1)),
    ("pow", "pow(a, b)", "fp64", (0.1, 10), (-2, 2)),
    ("erf", "erf(a)", "fp64", (-3, 3), (0, 1)),
]
COUNTERS = {f"smsp__sass_thread_inst_executed_op_{p}{k}_pred_on.sum": (p + k, 2 if k == "fma" else 1)
            for p in ("f", "d") for k in ("add", "mul", "fma")}


def kernel_name(index: int) -> str:
    return f"mf_{index:02d}"


def source() -> str:
    parts = []
    for index, (_, expression, precision, _, _) in enumerate(OPERATIONS):
        t = "float" if precision == "fp32" else "double"
        parts.append(f'extern "C" __global__ void {kernel_name(index)}(const {t} *x, const {t} *y, {t} *out, int n)\n'
                     f"{{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     f"    if (i < n) {{ {t} a = x[i], b = y[i]; (void)a; (void)b; out[i] = {expression}; }}\n}}\n")
    return "\n".join(parts)


def launch() -> None:
    """Compile every kernel and launch each once (the process ncu watches)."""
    import cupy

    from kernelscope.runner.compile import DEFAULT_OPTIONS

    module = cupy.RawModule(code=source(), options=tuple(DEFAULT_OPTIONS))
    rng = cupy.random.default_rng(7)
    for index, (_, _, precision, domain_a, domain_b) in enumerate(OPERATIONS):
        dtype = cupy.float32 if precision == "fp32" else cupy.float64
        a = rng.uniform(*domain_a, N).astype(dtype)
        b = rng.uniform(*domain_b, N).astype(dtype)
        out = cupy.empty(N, dtype=dtype)
        module.get_function(kernel_name(index))((N // BLOCK,), (BLOCK,), (a, b, out, cupy.int32(N)))
    cupy.cuda.Device().synchronize()


def measure(out_dir: Path) -> int:
    from kernelscope.runner.ncu import ncu_command, parse_ncu_csv

    out_dir.mkdir(parents=True, exist_ok=True)
    raw_path = out_dir / "math_flops_h200_ncu.csv"
    command = ncu_command([sys.executable, __file__, "launch"], metrics=tuple(COUNTERS), log_file=str(raw_path))
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        print((proc.stderr or proc.stdout)[-3000:])
        return 1
    frame = parse_ncu_csv(raw_path.read_text())
    by_name = {row["Kernel Name"]: row for _, row in frame.iterrows()}
    rows = []
    for index, (name, expression, precision, domain_a, domain_b) in enumerate(OPERATIONS):
        row = by_name[kernel_name(index)]
        record = {"operation": name, "precision": precision, "expression": expression,
                  "domain_a": f"{domain_a[0]}..{domain_a[1]}", "domain_b": f"{domain_b[0]}..{domain_b[1]}"}
        flops = 0.0
        for metric, (column, weight) in COUNTERS.items():
            per_call = float(row[metric]) / N
            record[column] = round(per_call, 4)
            flops += weight * per_call
        record["flops_per_call"] = round(flops, 4)
        rows.append(record)
        print(f"{name:12s} {precision}  {flops:7.3f} FLOPs per call", flush=True)
    with open(out_dir / "math_flops_h200.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("source")
    sub.add_parser("launch")
    measure_parser = sub.add_parser("measure")
    measure_parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "source":
        print(source())
        return 0
    if args.command == "launch":
        launch()
        return 0
    return measure(args.out)


if __name__ == "__main__":
    sys.exit(main())
