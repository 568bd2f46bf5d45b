"""Output checks on NumPy arrays: the same code runs on CuPy arrays in the worker (CPU only)."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.runner.verify import POISON_BYTES, check_output, poison_word


def poisoned(shape, dtype, byte):
    return np.frombuffer(bytes([byte]) * (int(np.prod(shape)) * np.dtype(dtype).itemsize),
                         dtype=dtype).reshape(shape).copy()


@pytest.fixture
def reference():
    return np.random.default_rng(7).uniform(-1, 1, size=(8, 16)).astype(np.float32)


def test_exact_output_passes(reference):
    check = check_output("c", reference.copy(), reference, rtol=1e-6, atol=1e-6, poison_byte=0xFF)
    assert check.correct and check.mismatched == 0 and check.flags == []


def test_untouched_output_is_unwritten_not_merely_wrong(reference):
    check = check_output("c", poisoned(reference.shape, np.float32, 0xFF), reference, rtol=1e-6, atol=1e-6,
                         poison_byte=0xFF)
    assert "unwritten_output" in check.flags and check.unwritten == reference.size
    assert "constant_output" not in check.flags


def test_half_written_output_reports_first_unwritten_index(reference):
    out = reference.copy()
    out[4:] = poisoned((4, 16), np.float32, 0xA7)
    check = check_output("c", out, reference, rtol=1e-6, atol=1e-6, poison_byte=0xA7)
    assert check.unwritten == 64 and check.first_mismatch == [4, 0]


def test_a_value_equal_to_the_poison_word_in_the_reference_counts_as_written():
    reference = np.array([poison_word(np.dtype(np.int32), 0xFF)], dtype=np.uint32).view(np.int32)  # -1
    check = check_output("c", reference.copy(), reference, rtol=0, atol=0, poison_byte=0xFF)
    assert check.correct and check.unwritten == 0


def test_small_magnitude_outputs_do_not_pass_as_zeros():
    reference = np.full(100, 1e-7, dtype=np.float32) * np.arange(1, 101, dtype=np.float32)
    check = check_output("c", np.zeros_like(reference), reference, rtol=1e-5, atol=1e-5, poison_byte=0xFF)
    assert not check.correct and "constant_output" in check.flags


def test_tolerance_scales_with_output_magnitude():
    reference = np.linspace(1e5, 2e5, 50).astype(np.float64)
    nudged = reference + 0.5        # 0.5 <= atol * 2e5 = 2.0: within tolerance for outputs this large
    assert check_output("c", nudged, reference, rtol=0, atol=1e-5, poison_byte=0xFF).correct


def test_echo_of_an_input_is_named(reference):
    a = np.random.default_rng(1).uniform(-1, 1, size=reference.shape).astype(np.float32)
    check = check_output("c", a.copy(), reference, rtol=1e-6, atol=1e-6, poison_byte=0xFF, inputs={"a": a})
    assert "input_echo" in check.flags and "mismatch" in check.flags


def test_echo_is_not_flagged_when_the_answer_is_the_input(reference):
    check = check_output("c", reference.copy(), reference, rtol=1e-6, atol=1e-6, poison_byte=0xFF,
                         inputs={"a": reference})
    assert check.correct


def test_integers_must_match_exactly():
    reference = np.arange(12, dtype=np.int64).reshape(3, 4)
    out = reference.copy()
    out[2, 1] += 1
    check = check_output("c", out, reference, rtol=1.0, atol=1.0, poison_byte=0xFF)
    assert check.mismatched == 1 and check.first_mismatch == [2, 1] and check.max_abs_error == 1.0


def test_nan_in_output_fails_but_matching_nans_pass():
    reference = np.array([1.0, np.nan, 3.0], dtype=np.float32)
    assert check_output("c", reference.copy(), reference, rtol=1e-6, atol=1e-6, poison_byte=0xFF).correct
    out = np.array([np.nan, np.nan, 3.0], dtype=np.float32)
    check = check_output("c", out, reference, rtol=1e-6, atol=1e-6, poison_byte=0xFF)
    assert check.first_mismatch == [0] and check.max_abs_error == float("inf")


def test_poison_bytes_differ_so_no_value_hides_in_every_trial():
    assert len(set(POISON_BYTES)) == len(POISON_BYTES) >= 3
    half = np.array([poison_word(np.dtype(np.float16), 0xA7)], dtype=np.uint16)
    assert half[0] == 0xA7A7
