"""intensity._result makes the IntensityResult in one constructor call; the reference below is how
analyze() filled it in before (a default construction, then field by field). For every kernel of the
project's files, with and without bound sizes (so with symbolic FLOPs and bytes), with and without a
GPU and a launch size (0 included), every field, with its type, is the reference's."""

import math

from kernelscope.analyses import intensity
from kernelscope.analyses.intensity import IntensityResult, _fmt, _roofline
from kernelscope.analyze import _exec_weights, _roofline_gpu
from kernelscope.analyses import memory
from kernelscope.analyses.threads import BlockShape
from kernelscope.frontend.parse import parse_file
from project_sources import PROJECT_CUDA_FILES

FILES = PROJECT_CUDA_FILES


def _reference(flops, special, unknown_flops, global_bytes, unknown_bytes, shared_bytes, gpu, threads_launched):
    result = IntensityResult(flops_per_thread=None)
    result.flops_by_precision = {p: v for p, v in flops.items() if v}
    result.special_ops_per_thread = special
    result.dominant_precision = max(flops, key=flops.get) if any(flops.values()) else "fp32"
    if unknown_flops:
        result.symbolic["flops_per_thread"] = " + ".join([_fmt(sum(flops.values()))] + unknown_flops)
    else:
        result.flops_per_thread = sum(flops.values())
    if unknown_bytes:
        result.symbolic["global_bytes_per_thread"] = " + ".join([_fmt(global_bytes)] + unknown_bytes)
    else:
        result.global_bytes_per_thread = global_bytes
    result.shared_bytes_per_thread = shared_bytes
    if result.flops_per_thread is not None and result.global_bytes_per_thread:
        result.arithmetic_intensity = result.flops_per_thread / result.global_bytes_per_thread
    elif result.flops_per_thread is not None and result.global_bytes_per_thread == 0 and result.flops_per_thread > 0:
        result.arithmetic_intensity = float("inf")
    if gpu is not None:
        _roofline(result, gpu)
    if threads_launched:
        result.threads_launched = threads_launched
        if result.flops_per_thread is not None:
            result.total_flops = result.flops_per_thread * threads_launched
        if result.global_bytes_per_thread is not None:
            result.total_global_bytes = result.global_bytes_per_thread * threads_launched
    return result


def _fields(result):
    return [(name, type(value), value) for name, value in vars(result).items()]


def _calls(monkeypatch):
    """The arguments analyze() hands _result, for every kernel, in a few set-ups."""
    seen = []
    real = intensity._result
    monkeypatch.setattr(intensity, "_result", lambda *args: seen.append(args) or real(*args))
    gpu = _roofline_gpu("sm_90")
    for path in FILES:
        for kernel in parse_file(path.read_text(), str(path)).kernels:
            for block, bindings, grid in ((BlockShape(256), {}, None), (BlockShape(100), {"n": 4096, "N": 4096}, (8, 1, 1))):
                weights = _exec_weights(block, grid, bindings)
                found = memory.analyze(kernel, block, bindings, grid, weights)
                for launched in (None, 0, 65536):
                    intensity.analyze(kernel, found, weights, gpu if launched != 0 else None, launched)
    monkeypatch.setattr(intensity, "_result", real)
    return seen


def test_the_result_is_the_reference(monkeypatch):
    calls = _calls(monkeypatch)
    kinds = set()
    for args in calls:
        made, reference = intensity._result(*args), _reference(*args)
        assert _fields(made) == _fields(reference) or _same_with_nan(made, reference), args
        assert made.to_json() == reference.to_json()
        kinds.add(("symbolic" if made.symbolic else "numeric", made.bound, made.threads_launched is None))
    # what the comparison covered: symbolic and numeric sums, memory- and compute-bound, no GPU
    assert {k[0] for k in kinds} == {"symbolic", "numeric"}
    assert {"memory", "compute", None} <= {k[1] for k in kinds}
    assert {True, False} == {k[2] for k in kinds}


def _same_with_nan(made, reference):
    def norm(value):
        return "nan" if isinstance(value, float) and math.isnan(value) else value
    return [(n, t, norm(v)) for n, t, v in _fields(made)] == [(n, t, norm(v)) for n, t, v in _fields(reference)]


def test_a_changed_field_is_caught():
    """The comparison can fail: a result that differs in one field is told apart."""
    args = ({"fp16": 0.0, "bf16": 0.0, "fp32": 3.0, "fp64": 0.0}, 0.0, [], 12.0, [], 0.0, None, 1024)
    made = intensity._result(*args)
    made.total_flops = 3.0 * 1023
    assert _fields(made) != _fields(_reference(*args))
