"""Kernels per second for the whole static analysis of one large file, against `nvcc -Xptxas -v`.

Generates a .cu file of N kernels in eight shapes (element-wise, grid-stride with index macros,
tiled transpose, shared-memory reduction, templates with explicit instantiations, unrolled
stencil with vector loads, atomic histogram, matrix product with a runtime loop), some of them
launched from host code so that launch sites are resolved too. Then, in the same run and pinned
to one CPU core:

  * kernelscope: `analyze --format json --registers estimate FILE` in this process (click's
    CliRunner: reading, preprocessing, parsing, every analysis and the JSON report), several times;
  * nvcc: `nvcc -arch=sm_90 -Xptxas -v -c FILE -o /dev/null` as a subprocess on the same core.

Prints the median time of each, kernels per second, and how many times faster kernelscope is.
Wall-clock time is what a user waits; CPU time (this process's for kernelscope, the children's
for nvcc) is printed beside it because it stays meaningful on a machine shared with other work.
The issue's target is at least 500 kernels per second for kernelscope on one core.

    python benchmarks/bench_analyze.py [--kernels 1000] [--repeats 5] [--nvcc-repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_KERNELS_PER_SECOND = 500

PRELUDE = """\
#include <cuda_runtime.h>
#define IDX(r, c, ld) ((r) * (ld) + (c))
#define TILE 32
#define ROWS 8
#define BINS 64
"""

# Eight kernel shapes; {i} makes every name unique and varies constants a little.
SHAPES = [
    """
__global__ void elementwise_{i}(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + {i}.0f;
}}
""",
    """
__global__ void grid_stride_{i}(const float* in, float* out, int rows, int cols, int ld)
{{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < rows * cols; k += blockDim.x * gridDim.x) {{
        int r = k / cols, c = k % cols;
        out[IDX(r, c, ld)] = in[IDX(r, c, ld)] * {m}.0f;
    }}
}}
""",
    """
__global__ void transpose_{i}(const float* __restrict__ in, float* __restrict__ out, int w, int h)
{{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}}
""",
    """
__global__ void reduce_{i}(const float* __restrict__ in, float* out, int n)
{{
    __shared__ float partial[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {{
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }}
    if (t == 0) atomicAdd(out, partial[0]);
}}
""",
    """
template <typename T, int VEC>
__global__ void __launch_bounds__(256) vec_scale_{i}(const T* in, T* out, T s, int n)
{{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
    for (int k = 0; k < VEC; ++k)
        if (base + k < n) out[base + k] = s * in[base + k];
}}
template __global__ void vec_scale_{i}<float, {vec}>(const float*, float*, float, int);
""",
    """
__global__ void stencil_{i}(const float4* __restrict__ in, float4* __restrict__ out, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 2 || i >= n - 2) return;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int d = -2; d <= 2; ++d) {{
        float4 v = in[i + d];
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
    }}
    out[i] = acc;
}}
""",
    """
__global__ void histogram_{i}(const int* __restrict__ values, unsigned int* bins, int n)
{{
    __shared__ unsigned int local[BINS];
    if (threadIdx.x < BINS) local[threadIdx.x] = 0;
    __syncthreads();
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += blockDim.x * gridDim.x)
        atomicAdd(&local[values[k] & (BINS - 1)], 1u);
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}}
""",
    """
__global__ void matmul_{i}(const float* __restrict__ a, const float* __restrict__ b, float* c, int n)
{{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}}
""",
]

# Host launches for some kernels, so that launch-site resolution is part of the work measured.
LAUNCHES = {
    0: "    elementwise_{i}<<<(n + 255) / 256, 256, 0, stream>>>(x, y, 2.0f, n);\n",
    2: "    transpose_{i}<<<dim3(n / TILE, n / TILE), dim3(TILE, ROWS), 0, stream>>>(x, y, n, n);\n",
    7: "    matmul_{i}<<<grid2d, block2d, 0, stream>>>(x, x, y, n);\n",
}


def generate_source(kernels: int) -> str:
    parts = [PRELUDE]
    launches = []
    for i in range(kernels):
        shape = i % len(SHAPES)
        parts.append(SHAPES[shape].format(i=i, m=i % 7 + 1, vec=(1, 2, 4)[i % 3]))
        if shape in LAUNCHES and i % 5 == shape:
            launches.append(LAUNCHES[shape].format(i=i))
    parts.append("\nvoid launch_some(float* x, float* y, int n, cudaStream_t stream)\n{\n"
                 "    dim3 block2d(16, 16);\n    dim3 grid2d((n + 15) / 16, (n + 15) / 16);\n")
    parts.extend(launches)
    parts.append("}\n")
    return "".join(parts)


def pin_to_one_core() -> int:
    """Run on one CPU; child processes (nvcc) inherit the same single core."""
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def time_kernelscope(path: Path, repeats: int) -> tuple[list[float], list[float], int]:
    """Wall and CPU seconds of each in-process run, and the number of kernels reported."""
    from click.testing import CliRunner

    from kernelscope.cli import cli

    runner = CliRunner()
    walls, cpus, found = [], [], 0
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = runner.invoke(cli, ["analyze", "--format", "json", "--registers", "estimate", str(path)])
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - started_cpu)
        if result.exit_code not in (0, 1):
            sys.exit(f"kernelscope analyze failed (exit {result.exit_code}): {result.output[-2000:]}")
        found = len(json.loads(result.stdout)["files"][0]["kernels"])
    return walls, cpus, found


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_nvcc(path: Path, repeats: int) -> tuple[list[float], list[float], int]:
    """Wall and CPU seconds (nvcc and everything it spawns) of each run, and entry functions compiled."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        sys.exit("nvcc is not on PATH: it is the baseline of this benchmark")
    command = [nvcc, "-arch=sm_90", "-Xptxas", "-v", "-c", str(path), "-o", os.devnull]
    walls, cpus, compiled = [], [], 0
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), _children_cpu_seconds()
        completed = subprocess.run(command, capture_output=True, text=True)
        walls.append(time.perf_counter() - started)
        cpus.append(_children_cpu_seconds() - started_cpu)
        if completed.returncode != 0:
            sys.exit(f"nvcc failed: {completed.stderr[-2000:]}")
        compiled = len(re.findall(r"Compiling entry function", completed.stderr))
    return walls, cpus, compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=int, default=1000, help="kernels in the generated file")
    parser.add_argument("--repeats", type=int, default=5, help="timed kernelscope runs")
    parser.add_argument("--nvcc-repeats", type=int, default=3, help="timed nvcc runs")
    parser.add_argument("--keep", type=Path, help="also write the generated file here")
    args = parser.parse_args()

    source = generate_source(args.kernels)
    if args.keep:
        args.keep.write_text(source)
    core = pin_to_one_core()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "bench_kernels.cu"
        path.write_text(source)
        ks_walls, ks_cpus, ks_found = time_kernelscope(path, args.repeats)
        nvcc_walls, nvcc_cpus, nvcc_compiled = time_nvcc(path, args.nvcc_repeats)

    print(f"file: {args.kernels} kernels, {len(source) / 1024:.0f} KiB; pinned to CPU core {core}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    ks = _summary("kernelscope analyze --registers estimate (in process)", args.kernels, ks_walls, ks_cpus)
    print(f"    {ks_found} kernels reported")
    nvcc = _summary("nvcc -arch=sm_90 -Xptxas -v -c", args.kernels, nvcc_walls, nvcc_cpus)
    print(f"    {nvcc_compiled} entry functions compiled")
    print(f"ratio: kernelscope is {nvcc[0] / ks[0]:.1f}x faster than nvcc -Xptxas -v by wall time, "
          f"{nvcc[1] / ks[1]:.1f}x by CPU time")
    rate = args.kernels / ks[0]
    verdict = "meets" if rate >= TARGET_KERNELS_PER_SECOND else "MISSES"
    print(f"target: {verdict} {TARGET_KERNELS_PER_SECOND} kernels/s on one core "
          f"(wall {rate:,.0f}/s, CPU {args.kernels / ks[1]:,.0f}/s)")
    if ks_found != args.kernels:
        print(f"warning: kernelscope reported {ks_found} kernels, the file has {args.kernels}")


def _summary(label: str, kernels: int, walls: list[float], cpus: list[float]) -> tuple[float, float]:
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"{label}: median wall {wall:.3f} s (min {min(walls):.3f}, max {max(walls):.3f}), "
          f"median CPU {cpu:.3f} s over {len(walls)} runs; {kernels / wall:,.0f} kernels/s wall, "
          f"{kernels / cpu:,.0f} kernels/s CPU")
    return wall, cpu


if __name__ == "__main__":
    main()
