"""The rounding of the JSON document's floats, remembered by value.

The memory and intensity results round their floats for the document (an int where the value is
whole, else 4 places), and the same few values come back again and again: over the 40 real
programs' document, 2,036 floats of the accesses are 20 values. `round(x, 4)` goes through a
decimal conversion in C and `int(x)` is a type call; a dict of the answers by value is one lookup.

Only floats are keys, so equal keys are equal values and get the same answer (0.0 and -0.0 are
both whole: int 0). A value whose rounding raises (NaN, infinity) is never stored, and raises as
before. Usage, where `value` is a float:

    try:
        return ROUNDED[value]
    except KeyError:
        return remember_rounded(value)
"""

from __future__ import annotations

ROUNDED: dict[float, int | float] = {}
MOST_REMEMBERED = 4096         # a long-running server's values stay bounded: past this, start again


def remember_rounded(value: float) -> int | float:
    """int(value) where it is whole, else round(value, 4); kept in ROUNDED."""
    rounded = int(value) if value == int(value) else round(value, 4)
    if len(ROUNDED) >= MOST_REMEMBERED:
        ROUNDED.clear()
    ROUNDED[value] = rounded
    return rounded
