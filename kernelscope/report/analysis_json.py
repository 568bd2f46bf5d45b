"""`kernelscope analyze --format json`: the document of DESIGN.md."""

from __future__ import annotations

import json
import math


def render(document: dict) -> str:
    return json.dumps(_finite(document), indent=2, sort_keys=False) + "\n"


def _finite(value):
    """JSON has no NaN or Infinity; unknown quantities are null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
