"""The sync executor counts flags with numpy's C count_nonzero, without np.count_nonzero's Python
layers: the same answer, of the same type, for every kind of array it asks about (masks, their
broadcast and strided views, integer differences, empty ones)."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import sync

RANDOM = np.random.default_rng(22)
CASES = [
    np.ones(256, dtype=bool),
    np.zeros(256, dtype=bool),
    RANDOM.random(256) < 0.3,
    (RANDOM.random(512) < 0.5)[::2],
    np.broadcast_to(RANDOM.random(64) < 0.5, (4, 64)),
    RANDOM.random((3, 256)) < 0.1,
    RANDOM.integers(-2, 3, 100),
    np.array([], dtype=bool),
    np.array([], dtype=np.int64),
    np.ndarray((256,), bool, np.array(True), 0, (0,)),
]


@pytest.mark.parametrize("values", CASES, ids=range(len(CASES)))
def test_count_nonzero_is_np_count_nonzero(values):
    counted, expected = sync._count_nonzero(values), np.count_nonzero(values)
    assert counted == expected and type(counted) is type(expected)
