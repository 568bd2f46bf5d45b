"""Compare one output of a candidate with the reference's, and say how it went wrong.

Works on NumPy or CuPy arrays alike (the worker passes device arrays so that nothing large crosses
to the host; CPU tests pass NumPy arrays). Only scalars and short lists leave these functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# One poison byte per trial, cycled: outputs are filled with it before every launch. Using a
# different byte each trial means a value that happens to equal one poison word cannot hide.
POISON_BYTES = (0xFF, 0xA7, 0x5B, 0xC3)


@dataclass
class OutputCheck:
    output: str
    elements: int
    mismatched: int = 0
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0
    first_mismatch: list | None = None     # index (one entry per dimension) of the first bad element
    unwritten: int = 0                     # elements still holding the poison word
    flags: list = field(default_factory=list)

    @property
    def correct(self) -> bool:
        return self.mismatched == 0 and not self.flags


def array_module(array):
    try:
        import cupy

        return cupy.get_array_module(array)
    except ImportError:
        import numpy

        return numpy


def poison_word(dtype, poison_byte: int) -> int:
    """The unsigned integer whose bytes are all `poison_byte`, as wide as one element of `dtype`."""
    return int.from_bytes(bytes([poison_byte]) * dtype.itemsize, "little")


def check_output(name: str, out, ref, *, rtol: float, atol: float, poison_byte: int,
                 inputs: dict | None = None) -> OutputCheck:
    """Element-wise check of `out` against `ref` (same shape), with the reasons it failed."""
    xp = array_module(out)
    check = OutputCheck(output=name, elements=int(out.size))
    if out.size == 0:
        return check
    ref = xp.asarray(ref).reshape(out.shape)
    integer = out.dtype.kind in "iub"
    bits = _as_bits(out, xp)
    word = poison_word(out.dtype, poison_byte)
    ref_bits = _as_bits(ref.astype(out.dtype), xp)
    unwritten = (bits == word) & (ref_bits != word)
    check.unwritten = int(unwritten.sum())

    if integer:
        bad = out != ref
        diff = xp.abs(out.astype(xp.float64) - ref.astype(xp.float64))
    else:
        o, r = out.astype(xp.float64), ref.astype(xp.float64)
        diff = xp.abs(o - r)
        both_nan = xp.isnan(o) & xp.isnan(r)
        scale = float(xp.nanmax(xp.abs(r))) if not bool(xp.isnan(r).all()) else 0.0
        allowed = atol * (scale if scale > 0 else 1.0) + rtol * xp.abs(r)
        bad = ~((diff <= allowed) | both_nan)
        diff = xp.where(both_nan, 0.0, xp.where(xp.isnan(diff), xp.inf, diff))
    check.mismatched = int(bad.sum())
    check.max_abs_error = float(diff.max())
    magnitude = xp.abs(ref.astype(xp.float64))
    check.max_rel_error = float((diff / xp.maximum(magnitude, 1e-30)).max())
    if check.mismatched:
        flat = int(xp.argmax(bad.reshape(-1)))
        check.first_mismatch = [int(i) for i in _unravel(flat, out.shape)]
        check.flags.append("mismatch")
    if check.unwritten:
        check.flags.append("unwritten_output")
    if check.mismatched and not check.unwritten and out.size > 1 and _is_constant(out, xp) \
            and not _is_constant(ref, xp):
        check.flags.append("constant_output")
    if check.mismatched:
        for input_name, array in (inputs or {}).items():
            if _echoes(out, ref, array, rtol, atol, xp):
                check.flags.append("input_echo")
                break
    return check


def _as_bits(array, xp):
    width = {1: xp.uint8, 2: xp.uint16, 4: xp.uint32, 8: xp.uint64}[array.dtype.itemsize]
    return xp.ascontiguousarray(array).view(width)


def _is_constant(array, xp) -> bool:
    flat = array.reshape(-1)
    return bool((flat == flat[0]).all()) or bool(xp.isnan(flat.astype(xp.float64)).all())


def _echoes(out, ref, candidate_input, rtol, atol, xp) -> bool:
    """True when `out` reproduces an input of the same size that the reference does not."""
    if candidate_input.size != out.size:
        return False
    source = candidate_input.reshape(out.shape).astype(xp.float64)
    o = out.astype(xp.float64)
    close_to_input = bool(xp.allclose(o, source, rtol=rtol, atol=atol))
    reference_is_input = bool(xp.allclose(ref.astype(xp.float64), source, rtol=rtol, atol=atol))
    return close_to_input and not reference_is_input


def _unravel(flat: int, shape) -> tuple:
    index = []
    for dim in reversed(shape):
        index.append(flat % dim)
        flat //= dim
    return tuple(reversed(index))
