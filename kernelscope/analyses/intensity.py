"""Arithmetic intensity and the roofline position of a kernel.

FLOPs are counted per thread from the arithmetic sites the front end records, each weighted by how
often it runs (loop trip counts). Counting rules, chosen to match what Nsight Compute counts
(`smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma,...}`, FLOPs = add + mul + 2 x fma):
an add, subtract or multiply is 1 FLOP; an explicit fma is 2; `a*b + c` is 2 (mul + add; the
compiler fuses them into one FFMA, which ncu counts as 2); a division, square root or
transcendental function is 1 FLOP here and reported separately in `special_ops_per_thread`,
because the hardware expands them into several instructions on the SFU (MUFU) plus corrections.
Global bytes are the bytes each thread requests (loads, stores and atomics, with vector widths),
from the access records; shared-memory bytes are reported separately.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache
from operator import itemgetter

from kernelscope import profiles_db
from kernelscope.analyses.rounding import ROUNDED, remember_rounded
from kernelscope.analyses.trips import ExecWeights
from kernelscope.records import record

PRECISIONS = ("fp16", "bf16", "fp32", "fp64")


@record
class IntensityResult:
    flops_per_thread: float | None
    flops_by_precision: dict = field(default_factory=dict)
    special_ops_per_thread: float | None = 0.0
    global_bytes_per_thread: float | None = None
    shared_bytes_per_thread: float | None = None
    arithmetic_intensity: float | None = None
    bound: str | None = None
    gpu: str | None = None
    ridge_point: float | None = None
    attainable_flops: float | None = None
    threads_launched: int | None = None
    total_flops: float | None = None
    total_global_bytes: float | None = None
    symbolic: dict = field(default_factory=dict)
    dominant_precision: str = "fp32"

    def to_json(self) -> dict:
        data = {
            "flops_per_thread": _round(self.flops_per_thread),
            "flops_by_precision": {k: _round(v) for k, v in self.flops_by_precision.items()},
            "special_ops_per_thread": _round(self.special_ops_per_thread),
            "global_bytes_per_thread": _round(self.global_bytes_per_thread),
            "shared_bytes_per_thread": _round(self.shared_bytes_per_thread),
            "arithmetic_intensity": _round(self.arithmetic_intensity),
            "bound": self.bound,
            "gpu": self.gpu,
            "ridge_point": _round(self.ridge_point),
            "attainable_flops": _round(self.attainable_flops),
            "threads_launched": self.threads_launched,
            "total_flops": _round(self.total_flops),
            "total_global_bytes": _round(self.total_global_bytes),
        }
        if self.symbolic:
            data["symbolic"] = self.symbolic
        return data


def analyze(kernel, memory_result, weights: ExecWeights, gpu=None, threads_launched: int | None = None) -> IntensityResult:
    flops = dict.fromkeys(PRECISIONS, 0.0)
    special = 0.0
    unknown_flops = []
    executions = weights.executions
    context, weight = _NO_CONTEXT, None
    for site in kernel.arith:
        # the sites of one statement or block share their Context object, usually one after another:
        # its count is asked once per run of them (executions() answers the same for one object)
        if site.context is not context or not REUSE_RUN_WEIGHTS:
            context = site.context
            weight = executions(context)
        if weight is None:
            unknown_flops.append(f"{site.flops}*{weights.weight(site.context)[1]}")
            continue
        if site.op in ("sqrt", "special", "div"):
            special += weight
        flops[site.precision] = flops.get(site.precision, 0.0) + site.flops * weight
    global_bytes = 0.0
    shared_bytes = 0.0
    unknown_bytes = []
    context = hoisted = _NO_CONTEXT
    for access, record in zip(memory_result.accesses, kernel.accesses):
        # (the weight context is the access' context less its hoisted loops: the same for a run of
        # accesses with one context and one count of hoisted loops)
        if record.context is not context or record.hoisted_loops != hoisted or not REUSE_RUN_WEIGHTS:
            context, hoisted = record.context, record.hoisted_loops
            weight = executions(record.weight_context)
        if weight is None:
            if access.space == "global":
                unknown_bytes.append(f"{access.elem_bytes}*{access.exec_weight}")
            continue
        moved = access.elem_bytes * weight * (2 if access.op == "atomic" else 1)
        if access.space == "global":
            global_bytes += moved
        elif access.space == "shared":
            shared_bytes += moved
    return _result(flops, special, unknown_flops, global_bytes, unknown_bytes, shared_bytes, gpu, threads_launched)


def _result(flops: dict, special: float, unknown_flops: list, global_bytes: float, unknown_bytes: list,
            shared_bytes: float, gpu, threads_launched: int | None) -> IntensityResult:
    """The IntensityResult of analyze()'s sums, made in one constructor call (its fields set one by one
    after a default construction were a tenth of the analysis of a small kernel)."""
    total = sum(flops.values())
    symbolic = {}
    if unknown_flops:
        symbolic["flops_per_thread"] = " + ".join([_fmt(total)] + unknown_flops)
        flops_per_thread = None
    else:
        flops_per_thread = total
    if unknown_bytes:
        symbolic["global_bytes_per_thread"] = " + ".join([_fmt(global_bytes)] + unknown_bytes)
        global_bytes_per_thread = None
    else:
        global_bytes_per_thread = global_bytes
    intensity = None
    if flops_per_thread is not None and global_bytes_per_thread:
        intensity = flops_per_thread / global_bytes_per_thread
    elif flops_per_thread is not None and global_bytes_per_thread == 0 and flops_per_thread > 0:
        intensity = _INF
    total_flops = total_global_bytes = None
    if threads_launched:
        if flops_per_thread is not None:
            total_flops = flops_per_thread * threads_launched
        if global_bytes_per_thread is not None:
            total_global_bytes = global_bytes_per_thread * threads_launched
    # the precisions with FLOPs, kept by a filter in C (a dict comprehension is a function call)
    result = IntensityResult(flops_per_thread, dict(filter(_count_of, flops.items())), special,
                             global_bytes_per_thread, shared_bytes, intensity, None, None, None, None,
                             threads_launched or None, total_flops, total_global_bytes, symbolic,
                             max(flops, key=flops.get) if any(flops.values()) else "fp32")
    if gpu is not None:
        _roofline(result, gpu)
    return result


# analyze() asks a run of sites or accesses with one context for its count once (the switch is for
# tests that compare with the general path)
REUSE_RUN_WEIGHTS = True
_NO_CONTEXT = object()     # what no site's context is: the first site asks
_count_of = itemgetter(1)  # of a (precision, count) pair


def _roofline(result: IntensityResult, gpu) -> None:
    if KEEP_ROOFS:
        peak, bandwidth = _roof(gpu, result.dominant_precision)
    else:
        peak, bandwidth = _peak_and_bandwidth(gpu, result.dominant_precision)
    result.gpu = gpu.name
    if not peak or not bandwidth:
        return
    result.ridge_point = peak / bandwidth
    intensity = result.arithmetic_intensity
    if intensity is None:
        result.bound = "unknown"  # FLOPs or bytes depend on a loop bound nobody gave (--arg)
        return
    if intensity == _INF:
        result.bound = "compute"
        result.attainable_flops = peak
        return
    result.attainable_flops = min(peak, intensity * bandwidth)
    result.bound = "memory" if intensity < result.ridge_point else "compute"


def _peak_and_bandwidth(gpu, precision: str) -> tuple:
    return gpu.peak_flops(precision) or gpu.peak_flops("fp32"), gpu.memory_bandwidth_bytes


def _roof(gpu, precision: str) -> tuple:
    """_peak_and_bandwidth, kept per GPU object and precision: a run asks the same few for every
    kernel. The GPU is kept with its figures, so that its id is not another object's later."""
    kept = _ROOFS.get((id(gpu), precision))
    if kept is None or kept[0] is not gpu:
        kept = _ROOFS[id(gpu), precision] = (gpu, _peak_and_bandwidth(gpu, precision))
    return kept[1]


# (id of a GpuProfile, precision) -> (the profile, its (peak FLOP/s, bytes/s)); the switch is for tests
# that compare with asking the profile each time
_ROOFS: dict = {}
KEEP_ROOFS = True


@lru_cache(maxsize=32)
def default_gpu(arch: str):
    """The named GPU the roofline uses for an architecture (H200 for sm_90; profiles/gpus.json);
    asked once per kernel, looked up once per architecture."""
    return profiles_db.reference_gpu(arch)


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.4g}"


def _round(value):
    """value rounded for the JSON document: None for None or infinity, an int where it is whole,
    else a float to 4 places. A NumPy float (most of the real programs' intensities are
    np.float64) is made a float first, so that infinity, int() and round() are asked of a plain
    float (tests/test_docfast11_document.py compares with comparing the NumPy value), whose
    answer is remembered (kernelscope.analyses.rounding)."""
    if type(value) is not float:
        if value is None:
            return None
        value = float(value)
    if value == _INF:
        return None
    try:
        return ROUNDED[value]
    except KeyError:
        return remember_rounded(value)


_INF = float("inf")
