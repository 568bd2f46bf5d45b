"""rulesfast11: intensity's result made with a GPU's peak and bandwidth kept per GPU object and
precision (`intensity.KEEP_ROOFS`), and its FLOPs by precision kept by a filter, against the general
paths: every project kernel on every listed GPU (so precisions and GPUs mix in the kept figures)
gives the result that asking the profile each time gives; a new GPU object is never answered with
another's figures; the filter keeps what the dict comprehension kept."""

import dataclasses

import pytest

from kernelscope import profiles_db
from kernelscope.analyses import intensity, memory
from kernelscope.analyses.threads import BlockShape, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from project_sources import project_kernels

GPUS = [profiles_db.gpu(name) for name in profiles_db.list_gpus()]


def _intensity(kernel, gpu, bindings=None) -> dict:
    block = BlockShape(128)
    bindings = dict(bindings or {})
    weights = ExecWeights(thread_env(block, None, bindings), block.slots, active_slots(block))
    result = memory.analyze(kernel, block, bindings, None, weights)
    return vars(intensity.analyze(kernel, result, weights, gpu, 4096))


def test_kept_roofs_give_the_general_results(monkeypatch):
    kernels = project_kernels()
    assert len(GPUS) > 3
    monkeypatch.setattr(intensity, "_ROOFS", {})
    bounds, precisions = set(), set()
    for bindings in ({}, {"n": 4096, "N": 4096, "steps": 8}):
        for kernel in kernels:
            for gpu in GPUS:
                monkeypatch.setattr(intensity, "KEEP_ROOFS", False)
                general = _intensity(kernel, gpu, bindings)
                monkeypatch.setattr(intensity, "KEEP_ROOFS", True)
                assert _intensity(kernel, gpu, bindings) == general, (kernel.name, gpu.name)
                bounds.add(general["bound"])
                precisions.add(general["dominant_precision"])
    assert {"memory", "compute", "unknown"} <= bounds
    assert len(precisions) > 1


def test_a_new_gpu_object_gets_its_own_figures(monkeypatch):
    monkeypatch.setattr(intensity, "_ROOFS", {})
    h200 = profiles_db.gpu("H200")
    assert intensity._roof(h200, "fp32") == intensity._peak_and_bandwidth(h200, "fp32")
    halved = dataclasses.replace(h200, memory_bandwidth_gbs=h200.memory_bandwidth_gbs / 2,
                                 peak_tflops={k: v and v / 3 for k, v in h200.peak_tflops.items()})
    assert intensity._roof(halved, "fp32") == intensity._peak_and_bandwidth(halved, "fp32") != \
        intensity._roof(h200, "fp32")
    # an unpublished peak falls back to fp32's, as asking the profile does
    missing = dataclasses.replace(h200, peak_tflops={"fp32": 10.0})
    assert intensity._roof(missing, "fp64") == (10.0e12, h200.memory_bandwidth_bytes)


@pytest.mark.parametrize("flops", [
    {"fp16": 0.0, "bf16": 0.0, "fp32": 0.0, "fp64": 0.0},
    {"fp16": 0.0, "bf16": 3.0, "fp32": 0.0, "fp64": 2.5},
    {"fp16": 1.0, "bf16": 0.0, "fp32": 7.0, "fp64": 0.0, "int": 4.0},
    {"fp16": -1.0, "bf16": 0.0, "fp32": float("nan"), "fp64": 0.0},
])
def test_flops_by_precision_keeps_what_the_comprehension_kept(flops):
    result = intensity._result(dict(flops), 1.0, [], 16.0, [], 0.0, None, 256)
    expected = {p: v for p, v in flops.items() if v}
    assert list(result.flops_by_precision.items()).__repr__() == list(expected.items()).__repr__()
