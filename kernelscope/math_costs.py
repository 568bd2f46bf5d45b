"""FLOPs that a math-library call or a floating-point division costs, counted the way ncu counts.

ncu's FLOPs are executed fadd + fmul + 2 x ffma (and the fp64 ones). A call such as `expf(x)` or an
IEEE division `a / b` is not one FLOP there: it expands into range reduction, a polynomial and Newton
steps (counted), around MUFU instructions (not counted). The cost of each operation was measured on
the H200 under ncu (benchmarks/gpu/measure_math_flops.py, profiles/measured/math_flops_h200.csv) with
the runner's default compile options (no fast math) on inputs from the domain where programs
typically call it. Operations the table does not list cost one FLOP, the old convention.
"""

from __future__ import annotations

import math
from functools import lru_cache

from kernelscope.paths import profile_file

TABLE = "measured/math_flops_h200.csv"
UNMEASURED_COST = 1.0


@lru_cache(maxsize=1)
def _table() -> dict:
    """{(operation, precision): FLOPs per call}; empty if the shipped table is missing."""
    import csv      # here: a kernel without math calls or divisions never reads the table

    try:
        with open(profile_file(TABLE), newline="") as handle:
            return {(row["operation"], row["precision"]): float(row["flops_per_call"])
                    for row in csv.DictReader(handle)}
    except (OSError, KeyError, ValueError):
        return {}


def call_flops(name: str, precision: str) -> float:
    """FLOPs of one call to the math function `name` computing in `precision`."""
    return _table().get((name, precision), UNMEASURED_COST)


def division_flops(precision: str, numerator=None, divisor=None) -> float:
    """FLOPs of `numerator / divisor` in fp32 or fp64; the operands are constants or None.

    Division by a power of two is an exact multiplication, which the compiler emits as one FMUL;
    `1 / x` takes the cheaper reciprocal sequence; anything else is the full IEEE division."""
    if isinstance(divisor, (int, float)) and divisor != 0 and math.frexp(abs(divisor))[0] == 0.5:
        return 1.0
    if isinstance(numerator, (int, float)) and abs(numerator) == 1:
        return _table().get(("1/x", precision), UNMEASURED_COST)
    return _table().get(("/", precision), UNMEASURED_COST)
