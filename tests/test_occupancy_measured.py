"""The occupancy calculation against the CUDA driver on an H200.

profiles/measured/occupancy_h200.csv holds what cuOccupancyMaxActiveBlocksPerMultiprocessor returned
for every kernel of tests/kernels/occupancy/ x block sizes 32..1024 x several dynamic shared-memory
sizes, opt-in and carveout settings (benchmarks/gpu/occupancy_oracle.py). The CPU tests replay it;
the GPU test measures afresh.
"""

from __future__ import annotations

import csv
import importlib.util
import shutil
from pathlib import Path

import pytest

from kernelscope.analyses.occupancy import active_blocks
from kernelscope.paths import profile_file
from kernelscope.resources import normalise_instantiation

ROOT = Path(__file__).resolve().parents[1]
MEASURED = profile_file("measured")


def _read(name: str) -> list[dict]:
    with (MEASURED / name).open() as stream:
        return list(csv.DictReader(stream))


def _key(row: dict) -> tuple:
    return row["file"], row["options"], normalise_instantiation(row["instantiation"])


def _predicted(query: dict, kernel: dict) -> int:
    """What the occupancy API answers. It checks the block against the device's 1024 threads only, not
    against the kernel's __launch_bounds__ (a launch beyond those fails later), so no
    max_threads_per_block is passed here."""
    carveout = int(query["carveout"])
    return active_blocks(
        "sm_90", int(query["block_size"]), registers=int(kernel["num_regs"]),
        static_shared_bytes=int(kernel["shared_size_bytes"]),
        dynamic_shared_bytes=int(query["dynamic_shared_bytes"]), barriers=int(kernel["ptxas_barriers"]),
        carveout=None if carveout < 0 else carveout,
        shared_memory_opt_in=int(query["max_dynamic_shared_bytes"]) > 0)


def _mismatches(queries, kernels) -> list[str]:
    by_key = {_key(kernel): kernel for kernel in kernels}
    wrong = []
    for query in queries:
        # The driver answers a launch it would refuse either with 0 or with an error; both mean 0 blocks.
        measured = max(int(query["active_blocks"]), 0)
        predicted = _predicted(query, by_key[_key(query)])
        if predicted != measured:
            wrong.append(f"{_key(query)} block {query['block_size']} dyn {query['dynamic_shared_bytes']} "
                         f"max_dyn {query['max_dynamic_shared_bytes']} carveout {query['carveout']}: "
                         f"driver {measured}, calculated {predicted}")
    return wrong


def _stringify(rows: list[dict]) -> list[dict]:
    return [{key: str(value) for key, value in row.items()} for row in rows]


@pytest.fixture(scope="module")
def measured():
    if not (MEASURED / "occupancy_h200.csv").is_file():
        pytest.skip("no measured occupancy CSV yet")
    return _read("occupancy_h200.csv"), _read("registers_h200.csv")


def test_measurement_covers_every_kernel_block_size_and_three_dynamic_sizes(measured):
    queries, kernels = measured
    assert len(kernels) >= 30
    block_sizes = {int(q["block_size"]) for q in queries}
    assert block_sizes == set(range(32, 1025, 32))
    default_dynamic = {int(q["dynamic_shared_bytes"]) for q in queries if q["max_dynamic_shared_bytes"] == "0"}
    assert len(default_dynamic) >= 3
    assert {_key(q) for q in queries} == {_key(k) for k in kernels}


def test_calculation_equals_the_driver_for_every_measured_launch(measured):
    queries, kernels = measured
    wrong = _mismatches(queries, kernels)
    assert not wrong, f"{len(wrong)} of {len(queries)} differ, e.g.\n" + "\n".join(wrong[:20])


# NVRTC addresses shared memory with 64-bit pointers where nvcc uses 32-bit ones; in a kernel that
# indexes an extern __shared__ array that costs registers (NVRTC 13.0 PTX through ptxas: 16, nvcc: 10).
NVRTC_WIDER_SHARED_POINTERS = {"dynamic_and_static"}


def test_nvrtc_register_counts_equal_nvcc_ptxas_on_the_gpu_machine(measured):
    _, kernels = measured
    differing = {k["kernel"] for k in kernels if k["num_regs"] != k["ptxas_registers"]}
    assert differing == NVRTC_WIDER_SHARED_POINTERS
    assert sum(k["num_regs"] == k["ptxas_registers"] for k in kernels) == len(kernels) - 1
    assert all(k["shared_size_bytes"] == k["ptxas_static_shared_bytes"] for k in kernels)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_local_ptxas_reproduces_the_register_counts_measured_on_the_h200(measured, tmp_path, monkeypatch):
    from kernelscope.resources import ptxas_usage

    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    _, kernels = measured
    found = {}
    for kernel in kernels:
        source = (ROOT / "tests" / "kernels" / "occupancy" / kernel["file"]).read_text()
        options = tuple(kernel["options"].split())
        usage = ptxas_usage(source, "sm_90", extra_options=options)[kernel["kernel"]]
        members = dict(usage.instantiations) or {usage.instantiation: usage}
        found[_key(kernel)] = members[normalise_instantiation(kernel["instantiation"])].registers
    assert found == {_key(k): int(k["ptxas_registers"]) for k in kernels}


@pytest.mark.gpu
def test_calculation_equals_the_driver_on_this_gpu():
    cupy = pytest.importorskip("cupy")
    if cupy.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("no GPU")
    properties = cupy.cuda.runtime.getDeviceProperties(0)
    if (properties["major"], properties["minor"]) != (9, 0):
        pytest.skip("the oracle script targets sm_90")
    spec = importlib.util.spec_from_file_location("occupancy_oracle",
                                                  ROOT / "benchmarks" / "gpu" / "occupancy_oracle.py")
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    queries, kernels, _ = oracle.measure()
    queries, kernels = _stringify(queries), _stringify(kernels)
    assert not _mismatches(queries, kernels)
    differing = {k["kernel"] for k in kernels if k["num_regs"] != k["ptxas_registers"]}
    assert differing <= NVRTC_WIDER_SHARED_POINTERS
