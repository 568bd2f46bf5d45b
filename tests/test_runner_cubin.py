"""The device globals a cubin defines, read from its ELF tables (CPU only; needs nvcc)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from kernelscope.runner.cubin import CubinError, mutable_globals

needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")

SOURCE = """
__device__ float cache[1024];
__device__ int ready = 3;
__managed__ unsigned int launches;
__constant__ float weights[4];
static __device__ int hidden;
extern "C" __global__ void k(float *out) {
    static __device__ int calls;
    __shared__ float tile[32];
    tile[threadIdx.x] = cache[threadIdx.x] + ready + launches + weights[0] + hidden + calls;
    __syncthreads();
    out[threadIdx.x] = tile[31 - threadIdx.x];
    hidden++;
    calls++;
}
"""


def _cubin(tmp_path, source):
    path = tmp_path / "k.cu"
    path.write_text(source)
    subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-o", str(tmp_path / "k.cubin"), str(path)], check=True)
    return (tmp_path / "k.cubin").read_bytes()


@needs_nvcc
def test_every_writable_global_is_found_with_its_size_and_kind(tmp_path):
    found = {g.name: g for g in mutable_globals(_cubin(tmp_path, SOURCE))}
    assert set(found) == {"cache", "ready", "launches", "hidden", "_ZZ1kE5calls"}   # not weights, not tile
    assert found["cache"].size == 4096 and found["ready"].section == ".nv.global.init"
    assert found["launches"].managed and not found["cache"].managed


@needs_nvcc
def test_a_kernel_without_globals_has_none(tmp_path):
    assert mutable_globals(_cubin(tmp_path, 'extern "C" __global__ void k(float *o) { o[0] = 1.0f; }')) == []


def test_bytes_that_are_not_a_cubin_are_refused():
    with pytest.raises(CubinError):
        mutable_globals(b"not an ELF file at all, just some bytes long enough to look at")
