"""read_source's binary check counts the control bytes in one pass (bytes.translate) instead of
one bytes.count per control byte: the same count, so the same verdict, on text, binary and mixed
samples, including the 5% threshold's edges."""

from __future__ import annotations

import random

import pytest

from kernelscope.frontend import source


def counted_one_by_one(data: bytes) -> bool:
    sample = data[:65536]
    if not sample:
        return False
    return sum(sample.count(bytes([c])) for c in source._CONTROL) / len(sample) > 0.05


def samples():
    text = b"__global__ void k(float* y) {\n\ty[threadIdx.x] = 1.0f;\r\n}\n" * 40
    yield b""
    yield text
    yield bytes(range(256)) * 300                      # longer than the sample
    generator = random.Random(22)
    for share in (0.0, 0.049, 0.05, 0.051, 0.2, 1.0):
        for length in (1, 19, 20, 21, 1000, 70000):
            controls = round(length * share)
            data = bytearray(generator.choice(b"abc \t\n\r\x0c") for _ in range(length - controls))
            for _ in range(controls):
                data.insert(generator.randrange(len(data) + 1), generator.choice(source._CONTROL))
            yield bytes(data)


@pytest.mark.parametrize("data", list(samples()), ids=lambda d: f"{len(d)}B")
def test_the_one_pass_count_decides_as_counting_each_byte(data):
    assert source._looks_binary(data) == counted_one_by_one(data)


def test_the_threshold_is_reachable_both_ways():
    assert source._looks_binary(b"\x01" * 6 + b"a" * 94)
    assert not source._looks_binary(b"\x01" * 5 + b"a" * 95)
