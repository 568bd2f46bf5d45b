"""syncfast12: symbolic `<<` and `>>` check a plain int shift count without numpy's reductions (a
tree reduction's `s >>= 1` steps its counter with one such shift per iteration). Compared here with
the check it replaced, which went through numpy for every count, on ints, arrays, bools and counts
out of range."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope import symbolic as sx


def _shift_before_syncfast12(a, b, left: bool):
    b_arr = np.asarray(b)
    if np.any(b_arr < 0) or np.any(b_arr > 62):
        raise sx.Unevaluable("shift out of range")
    a, b = sx._as_int_array(a), sx._as_int_array(b)
    return (a << b) if left else (a >> b)


def _outcome(function, *args):
    try:
        value = function(*args)
    except sx.Unevaluable as error:
        return ("unevaluable", str(error))
    except (ValueError, OverflowError) as error:     # (operands numpy cannot broadcast or hold)
        return (type(error).__name__,)
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tolist())
    return (type(value).__name__, value)


COUNTS = [-(1 << 70), -63, -1, 0, 1, 5, 31, 62, 63, 64, 1 << 70, True, False,
          np.int64(3), np.array([0, 1, 62]), np.array([1, 63]), np.array([-1, 2])]
OPERANDS = [0, 1, -7, 1 << 40, np.arange(-3, 3, dtype=np.int64), np.array([5], dtype=np.int32), np.int64(9)]


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("count", COUNTS, ids=repr)
def test_shift_matches_the_numpy_check(count, left):
    for operand in OPERANDS:
        assert _outcome(sx._shift, operand, count, left) == _outcome(_shift_before_syncfast12, operand, count, left)


def test_shift_through_apply_binary():
    assert sx.apply_binary(">>", 256, 1) == 128
    assert sx.apply_binary("<<", 3, 62) == 3 << 62
    with pytest.raises(sx.Unevaluable):
        sx.apply_binary(">>", 256, 63)
    with pytest.raises(sx.Unevaluable):
        sx.apply_binary("<<", 1, -1)
