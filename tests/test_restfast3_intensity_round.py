"""intensity._round's shortcut for plain floats (the usual value) rounds as its general path, written
out below as it was: the same value of the same type, or the same exception, for every float the
project's kernels report and for the edge cases."""

import math
from pathlib import Path

import pytest

from kernelscope.analyses import intensity
from kernelscope.analyze import analyze_source

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*ROOT.glob("examples/*.cu"), *ROOT.glob("tests/kernels/*/*.cu")])


def _general(value):
    if value is None:
        return None
    if value == float("inf"):
        return None
    value = float(value)
    return int(value) if value == int(value) else round(value, 4)


def _outcome(round_, value):
    try:
        answer = round_(value)
    except Exception as exc:        # (nan and -inf cannot become ints, either way)
        return type(exc)
    return type(answer), repr(answer)


def _reported_values():
    for path in FILES:
        for kernel in analyze_source(path.read_text(), str(path), registers="estimate").kernels:
            found = kernel.intensity
            yield from (found.flops_per_thread, found.special_ops_per_thread, found.global_bytes_per_thread,
                        found.shared_bytes_per_thread, found.arithmetic_intensity, found.ridge_point,
                        found.attainable_flops, found.total_flops, found.total_global_bytes,
                        *found.flops_by_precision.values())


EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-5, 0.00005, 0.12345, -2.71828, 2.0**53, 2.0**53 + 2, 1e300, -1e300,
         float("inf"), float("-inf"), float("nan"), 5e-324, 3, True, None]


@pytest.mark.parametrize("value", EDGES, ids=repr)
def test_the_shortcut_rounds_edge_cases_as_the_general_path(value):
    assert _outcome(intensity._round, value) == _outcome(_general, value)


def test_the_shortcut_rounds_every_reported_value_as_the_general_path():
    values = list(_reported_values())
    floats = [v for v in values if type(v) is float]
    assert len(floats) > 200 and any(v != int(v) for v in floats if math.isfinite(v))
    for value in values:
        assert _outcome(intensity._round, value) == _outcome(_general, value), value
